extension Generator {
  /// Writes an enum as a struct over its wire value: an `OptionSet` for a bitfield,
  /// so that values the bindings do not know still round-trip.
  func emit(_ spec: EnumSpec, into out: inout Output) {
    let name = Naming.typeName(spec.name)
    out.doc(spec.description, fallback: "Values of \(spec.name).")
    let conformance = spec.isBitfield ? "OptionSet" : "RawRepresentable"
    out.line("public struct \(name): \(conformance), Hashable, Sendable {")
    out.indent {
      $0.line("/// The value on the wire.")
      $0.line("public let rawValue: UInt32")
      $0.line("/// Wraps a wire value, known or not.")
      $0.line("public init(rawValue: UInt32) { self.rawValue = rawValue }")
      for entry in spec.entries {
        var doc = entry.summary.map(sentence) ?? ""
        if entry.since > 1 {
          doc += (doc.isEmpty ? "" : " ") + "Since version \(entry.since)."
        }
        if !doc.isEmpty { $0.line("/// \(doc)") }
        let member = Naming.memberName(entry.name)
        if spec.isBitfield && entry.value == 0 {
          $0.line("public static let \(member): \(name) = []")
        } else {
          $0.line("public static let \(member) = \(name)(rawValue: \(entry.value))")
        }
      }
    }
    out.line("}")
  }
}
