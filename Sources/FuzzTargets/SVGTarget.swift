import ToastRendering

/// An SVG document's elements counted as ``SVGWeight`` counts them before
/// librsvg draws an icon: a count (saturating one past the limit) or nil for
/// references in a circle, whatever the bytes, in time linear in them.
func fuzzSVG(_ input: [UInt8]) throws(InvariantViolation) {
  for limit in [1, SVGWeight.limit] {
    guard let drawn = SVGWeight.drawnElements(in: input, limit: limit) else { continue }
    try require(drawn >= 0 && drawn <= limit + 1, "\(drawn) elements with a limit of \(limit)")
  }
}
