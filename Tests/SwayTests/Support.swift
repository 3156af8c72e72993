import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import ToastCommand
import ToastKit
import ToastRendering

/// A headless sway plus the pointer and keyboard a user would have.
typealias Desk = TestDesk<HeadlessSway, VirtualInput>

extension TestDesk where Compositor == HeadlessSway, Input == VirtualInput {
  var center: (x: Int, y: Int) { (sway.outputWidth / 2, sway.outputHeight / 2) }

  /// What `wl-toast status` says of a tag: the toast's fields, the owner's pid and
  /// how many surfaces it created; nil when none is showing.
  func status(tag: String = "default") throws -> (
    text: String, progress: Double?, owner: Int32, surfaces: Int, drawn: [DrawnSurface]
  )? {
    try statusLine(tag: tag).map(parseStatus)
  }

  /// Waits until the owner has committed a frame of the toast with `tag`, by
  /// `wl-toast status`'s `drawn` list (no screenshot: for tests that need the
  /// toast on screen, not its pixels); returns how its surfaces are drawn.
  @discardableResult
  func waitUntilDrawn(tag: String = "default", timeout: Double = 5) throws -> [DrawnSurface] {
    var drawn: [DrawnSurface] = []
    try waitUntil("a frame of the toast '\(tag)' (status: \(drawn))", timeout: timeout) {
      drawn = try status(tag: tag)?.drawn ?? []
      return drawn.contains { $0.frames >= 1 }
    }
    return drawn
  }

  /// Where the owner stands with screen readers (`wl-toast status`'s
  /// `screen-readers`), asked through the toast with `tag`; nil when none shows.
  func screenReaderState(tag: String = "default") throws -> String? {
    try statusLine(tag: tag).flatMap { try JSONValue.parse($0)["screen-readers"]?.stringValue }
  }
}

/// What a `wl-toast status` line says: the toast's text and progress, the
/// owner's pid, how many surfaces it created and how the toast's are drawn.
func parseStatus(_ line: String) throws -> (
  text: String, progress: Double?, owner: Int32, surfaces: Int, drawn: [DrawnSurface]
) {
  let value = try JSONValue.parse(line.trimmingNewline)
  var drawn: [DrawnSurface] = []
  if case .array(let items)? = value["drawn"] { drawn = items.compactMap(DrawnSurface.init) }
  return (
    value["toast"]?["text"]?.stringValue ?? "", value["toast"]?["progress"]?.doubleValue,
    Int32(value["owner"]?.doubleValue ?? 0), Int(value["surfaces"]?.doubleValue ?? 0), drawn
  )
}

/// A connection to the running owner, its descriptor the caller's to close;
/// throws when no owner runs.
func connectToOwner(_ rendezvous: Rendezvous) throws -> Int32 {
  guard let connection = try rendezvous.connect() else {
    throw HarnessError("no owner runs at \(rendezvous.socketPath)")
  }
  return connection.take()
}

/// Sends raw bytes to the owner on a connected socket and returns its answer
/// (waiting up to 5 s for it).
func exchangeRaw(_ bytes: [UInt8], on fd: Int32) throws -> String {
  guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
    throw HarnessError("cannot send to the owner: \(Errno.current)")
  }
  var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
  guard poll(&ready, 1, 5000) > 0 else { throw HarnessError("the owner did not answer") }
  var reply = [UInt8](repeating: 0, count: 4096)
  let count = recv(fd, &reply, reply.count, 0)
  return String(decoding: reply[0..<max(count, 0)], as: UTF8.self)
}

extension String {
  /// The string without one trailing newline.
  var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

/// An offscreen rendering of a toast composited over an opaque colour, as the
/// compositor would show it at rest, in screen-pixel form.
func composited(
  _ toast: Toast, over background: RGB, outputWidth: Int = 1280, outputHeight: Int = 720,
  scale: Int = 1
) -> (image: OffscreenImage, blend: (Int, Int) -> RGB) {
  let image = OffscreenImage.render(
    toast, outputWidth: outputWidth, outputHeight: outputHeight, scale: scale)
  return (
    image,
    { x, y in
      let p = image.pixel(x: x, y: y)
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
  func colorfulPixels(in box: Box) -> Int {
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
  func textLines(in box: Box, than: RGB) -> Int {
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
  func mismatches(
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
func meanEdgeWidth(in box: Box, ground: RGB, pixel: (Int, Int) -> RGB) -> Double {
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
  func meanEdgeWidth(in box: Box, ground: RGB) -> Double {
    LiveTests.meanEdgeWidth(in: box, ground: ground, pixel: pixel(x:y:))
  }
}
