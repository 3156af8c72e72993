// Comparisons of screenshots with the design: toasts rendered offscreen over a
// colour, text lines and edges, colourful pixels.

import TestSupport
import ToastKit
import ToastRendering

/// An offscreen rendering of a toast composited over an opaque colour, as the
/// compositor would show it at rest, in screen-pixel form.
package func composited(
  _ toast: Toast, over background: RGB, outputWidth: Int = 1280, outputHeight: Int = 720,
  scale: Int = 1
) -> (image: OffscreenImage, blend: (Int, Int) -> RGB) {
  composited(
    toast, under: { _, _ in background }, outputWidth: outputWidth, outputHeight: outputHeight,
    scale: scale)
}

/// An offscreen rendering of a toast composited over what `under` gives at
/// each of the rendering's pixels (what the screen shows below the toast:
/// a screenshot taken without it), as the compositor would show it at rest.
package func composited(
  _ toast: Toast, under: @escaping (Int, Int) -> RGB, outputWidth: Int = 1280,
  outputHeight: Int = 720, scale: Int = 1
) -> (image: OffscreenImage, blend: (Int, Int) -> RGB) {
  let image = OffscreenImage.render(
    toast, outputWidth: outputWidth, outputHeight: outputHeight, scale: scale)
  return (
    image,
    { x, y in
      let p = image.pixel(x: x, y: y)
      let background = under(x, y)
      let keep = 255 - Int(p.alpha)
      func channel(_ value: UInt8, _ under: UInt8) -> UInt8 {
        UInt8(min(255, Int(value) + (Int(under) * keep + 127) / 255))
      }
      return RGB(
        channel(p.red, background.red), channel(p.green, background.green),
        channel(p.blue, background.blue))
    }
  )
}

extension Image {
  /// Pixels in a box with clearly different channels (colour, not grey).
  package func colorfulPixels(in box: Box) -> Int {
    var total = 0
    for y in box.y..<(box.y + box.height) {
      for x in box.x..<(box.x + box.width) {
        let p = pixel(x: x, y: y)
        let channels = [Int(p.red), Int(p.green), Int(p.blue)]
        if channels.max()! - channels.min()! > 100 && p.red > 150 { total += 1 }
      }
    }
    return total
  }

  /// The rows, top to bottom, that hold at least one bright pixel inside `box`,
  /// grouped into runs: one run per line of text.
  package func textLines(in box: Box, than: RGB) -> Int {
    var lines = 0
    var inLine = false
    for y in box.y..<(box.y + box.height) {
      let row = Box(x: box.x, y: y, width: box.width, height: 1)
      let bright = brightPixels(in: row, than: than) > 0
      if bright && !inLine { lines += 1 }
      inLine = bright
    }
    return lines
  }

  /// How many pixels of `box` differ from a reference drawn with its own origin at `origin`.
  package func mismatches(
    in box: Box, from reference: (Int, Int) -> RGB, origin: (x: Int, y: Int), tolerance: Int = 6
  ) -> Int {
    var count = 0
    for y in box.y..<(box.y + box.height) {
      for x in box.x..<(box.x + box.width)
      where !pixel(x: x, y: y).isClose(
        to: reference(x - origin.x, y - origin.y), tolerance: tolerance)
      {
        count += 1
      }
    }
    return count
  }
}

/// How wide, on average, the edges of white text over `ground` are in `box`,
/// in pixels: the pixels between 20% and 80% of the way from the ground to
/// white, per crossing of the halfway level, along every row. Text drawn at the
/// output's scale has edges about a pixel wide at any scale; a buffer resampled
/// by the compositor has wider ones.
package func meanEdgeWidth(in box: Box, ground: RGB, pixel: (Int, Int) -> RGB) -> Double {
  func level(_ color: RGB) -> Double {
    (Double(color.red) + Double(color.green) + Double(color.blue)) / 3
  }
  let low = level(ground)
  let span = max(255 - low, 1)
  var transitions = 0
  var crossings = 0
  for y in box.y..<(box.y + box.height) {
    var previous: Double?
    for x in box.x..<(box.x + box.width) {
      let t = (level(pixel(x, y)) - low) / span
      if t > 0.2 && t < 0.8 { transitions += 1 }
      if let previous, (previous < 0.5) != (t < 0.5) { crossings += 1 }
      previous = t
    }
  }
  return crossings == 0 ? .infinity : Double(transitions) / Double(crossings)
}

extension Image {
  /// ``meanEdgeWidth(in:ground:pixel:)`` of this image.
  package func meanEdgeWidth(in box: Box, ground: RGB) -> Double {
    CompositorCases.meanEdgeWidth(in: box, ground: ground, pixel: pixel(x:y:))
  }
}
