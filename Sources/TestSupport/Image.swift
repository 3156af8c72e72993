import Glibc

/// A colour without alpha.
package struct RGB: Equatable, Hashable, Sendable, CustomStringConvertible {
  /// Red, 0-255.
  package var red: UInt8
  /// Green, 0-255.
  package var green: UInt8
  /// Blue, 0-255.
  package var blue: UInt8

  /// Creates a colour.
  package init(_ red: UInt8, _ green: UInt8, _ blue: UInt8) {
    self.red = red
    self.green = green
    self.blue = blue
  }

  /// Whether every channel differs by at most `tolerance`.
  package func isClose(to other: RGB, tolerance: Int = 6) -> Bool {
    abs(Int(red) - Int(other.red)) <= tolerance && abs(Int(green) - Int(other.green)) <= tolerance
      && abs(Int(blue) - Int(other.blue)) <= tolerance
  }

  /// The colour as `#rrggbb`.
  package var description: String {
    let hex = [red, green, blue].map { value -> String in
      let digits = String(value, radix: 16)
      return digits.count == 1 ? "0" + digits : digits
    }
    return "#" + hex.joined()
  }
}

/// A rectangle in pixels.
package struct Box: Equatable, Sendable, CustomStringConvertible {
  /// The left and top edges, the width and the height.
  package var x, y, width, height: Int

  /// Creates a rectangle.
  package init(x: Int, y: Int, width: Int, height: Int) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The box as `WIDTHxHEIGHT+X+Y` (X11 geometry), for messages.
  package var description: String { "\(width)x\(height)+\(x)+\(y)" }
}

/// An RGB screenshot.
package struct Image: Sendable {
  /// Width in pixels.
  package let width: Int
  /// Height in pixels.
  package let height: Int
  /// Row-major RGB bytes.
  package let bytes: [UInt8]

  /// The colour at a point.
  package func pixel(x: Int, y: Int) -> RGB {
    let index = (y * width + x) * 3
    return RGB(bytes[index], bytes[index + 1], bytes[index + 2])
  }

  /// The smallest rectangle holding every pixel close to `color`, or nil when none is.
  package func boundingBox(of color: RGB, tolerance: Int = 6) -> Box? {
    boundingBox { x, y in pixel(x: x, y: y).isClose(to: color, tolerance: tolerance) }
  }

  /// The smallest rectangle holding every pixel for which `matches` holds, or nil.
  package func boundingBox(where matches: (_ x: Int, _ y: Int) -> Bool) -> Box? {
    var minX = Int.max
    var minY = Int.max
    var maxX = -1
    var maxY = -1
    for y in 0..<height {
      for x in 0..<width where matches(x, y) {
        minX = min(minX, x)
        maxX = max(maxX, x)
        minY = min(minY, y)
        maxY = max(maxY, y)
      }
    }
    guard maxX >= 0 else { return nil }
    return Box(x: minX, y: minY, width: maxX - minX + 1, height: maxY - minY + 1)
  }

  /// Parses a binary PPM (P6, maxval 255), as `grim -t ppm` writes it.
  package init(ppm data: [UInt8]) throws {
    var index = 0
    func token() -> String {
      while index < data.count {
        if data[index] == UInt8(ascii: "#") {
          while index < data.count && data[index] != 0x0A { index += 1 }
        } else if data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x09
          || data[index] == 0x0D
        {
          index += 1
        } else {
          break
        }
      }
      let start = index
      while index < data.count
        && !(data[index] == 0x20 || data[index] == 0x0A || data[index] == 0x09
          || data[index] == 0x0D)
      {
        index += 1
      }
      return String(decoding: data[start..<index], as: UTF8.self)
    }
    guard token() == "P6", let width = Int(token()), let height = Int(token()), token() == "255"
    else { throw HarnessError("not a binary PPM screenshot") }
    index += 1
    guard data.count - index >= width * height * 3 else { throw HarnessError("short PPM data") }
    self.width = width
    self.height = height
    self.bytes = Array(data[index..<(index + width * height * 3)])
  }

  /// Captures a region of a compositor's screen with grim.
  package static func capture(socketPath: String, region: (Int, Int, Int, Int)) throws -> Image {
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = socketPath
    let file = "/tmp/wl-toast-shot-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).ppm"
    defer { unlink(file) }
    let geometry = "\(region.0),\(region.1) \(region.2)x\(region.3)"
    let result = try runCommand(
      ["grim", "-t", "ppm", "-g", geometry, file], environment: environment)
    guard result.status == 0, let data = readFile(file) else {
      throw HarnessError("grim failed with status \(result.status): \(result.output)")
    }
    return try Image(ppm: data)
  }

  /// Saves a PNG screenshot of a compositor's screen with grim.
  package static func savePNG(socketPath: String, to path: String) throws {
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = socketPath
    let result = try runCommand(["grim", path], environment: environment)
    guard result.status == 0 else { throw HarnessError("grim failed: \(result.output)") }
  }
}

extension Box {
  /// Whether `other` lies inside this box.
  package func contains(_ other: Box) -> Bool {
    other.x >= x && other.y >= y && other.x + other.width <= x + width
      && other.y + other.height <= y + height
  }

  /// The box shrunk by `amount` on every side.
  package func insetBy(_ amount: Int) -> Box {
    Box(x: x + amount, y: y + amount, width: width - 2 * amount, height: height - 2 * amount)
  }

  /// Whether this box and `other` share a pixel.
  package func intersects(_ other: Box) -> Bool {
    x < other.x + other.width && other.x < x + width && y < other.y + other.height
      && other.y < y + height
  }
}

extension Image {
  /// This image with the pixels of `box` taken from `other`, an image of the
  /// same size: the screen as it was there before, for instance.
  package func replacing(_ box: Box, from other: Image) -> Image {
    var bytes = self.bytes
    for y in max(0, box.y)..<min(height, box.y + box.height) {
      for x in max(0, box.x)..<min(width, box.x + box.width) {
        let index = (y * width + x) * 3
        bytes[index..<index + 3] = other.bytes[index..<index + 3]
      }
    }
    return Image(width: width, height: height, bytes: bytes)
  }

  /// The bounding box of pixels that differ from `other` by more than `tolerance`.
  package func difference(from other: Image, tolerance: Int = 8) -> Box? {
    boundingBox { x, y in
      !pixel(x: x, y: y).isClose(to: other.pixel(x: x, y: y), tolerance: tolerance)
    }
  }

  /// Pixels in a box that are much brighter than `than` (text drawn in white):
  /// their channels add up to more than `than`'s plus three times `margin`.
  package func brightPixels(in box: Box, than: RGB, by margin: Int = 80) -> Int {
    var total = 0
    for y in box.y..<(box.y + box.height) {
      for x in box.x..<(box.x + box.width) {
        let p = pixel(x: x, y: y)
        if Int(p.red) + Int(p.green) + Int(p.blue)
          > Int(than.red) + Int(than.green) + Int(than.blue) + 3 * margin
        {
          total += 1
        }
      }
    }
    return total
  }
}

/// A wlroots compositor the tests run (sway, river), whose screen grim captures.
package protocol CapturedCompositor: AnyObject {
  /// The absolute path of its Wayland socket.
  var socketPath: String { get }
  /// The width of one output, in pixels.
  var outputWidth: Int { get }
  /// The height of one output, in pixels.
  var outputHeight: Int { get }
}

extension CapturedCompositor {
  /// Takes a screenshot of the first output, or of a region of the layout.
  package func screenshot(x: Int = 0, y: Int = 0, width: Int? = nil, height: Int? = nil) throws
    -> Image
  {
    try Image.capture(
      socketPath: socketPath,
      region: (x, y, width ?? outputWidth - x, height ?? outputHeight - y))
  }

  /// The colour of one pixel of the layout.
  package func pixel(x: Int, y: Int) throws -> RGB {
    try screenshot(x: x, y: y, width: 1, height: 1).pixel(x: 0, y: 0)
  }
}
