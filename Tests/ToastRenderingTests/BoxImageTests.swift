import Glibc
import Testing
import ToastModel
import ToastRendering

/// The shadow and box image that frames reuse: a frame from it has the pixels
/// of one drawn directly, and what changes the box makes a new one.
struct BoxImageTests {
  /// The pixels of `toast` drawn into a canvas of its size, `times` times
  /// over, laid out as `layout` (by default for a 1280x720 output).
  static func pixels(
    _ toast: Toast, layout: ToastLayout? = nil, scale: Double = 1,
    appearance: Appearance = .resting, times: Int = 1
  ) throws -> [UInt8] {
    let layout = layout ?? ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let width = Int32((Double(layout.surfaceWidth) * scale).rounded())
    let height = Int32((Double(layout.surfaceHeight) * scale).rounded())
    var bytes = [UInt8](repeating: 0x5a, count: Int(width * height * 4))
    try bytes.withUnsafeMutableBytes { buffer in
      let canvas = try #require(
        Canvas(pixels: buffer.baseAddress!, width: width, height: height, stride: width * 4))
      for _ in 0..<times {
        canvas.draw(toast, layout: layout, appearance: appearance, scale: scale)
      }
    }
    return bytes
  }

  /// The references (RenderTests) hold the directly drawn pixels of a first
  /// frame; these are the frames after it.
  @Test(arguments: [1.0, 2.0, 1.5])
  func framesFromTheImageAndThroughAGroupHaveTheSamePixels(scale: Double) throws {
    let toast = Toast("Volume 40%", progress: 0.4)
    let once = try Self.pixels(toast, scale: scale)
    #expect(try Self.pixels(toast, scale: scale, times: 3) == once)
    // An opacity Cairo counts as full, below 1: through the group.
    let grouped = try Self.pixels(
      toast, scale: scale, appearance: Appearance(opacity: 0.999_999, slide: 1))
    #expect(grouped == once)
  }

  @Test func aBoxOfTheSameSizeInAnotherColourGetsItsOwnImage() throws {
    var red = Toast("Same size")
    red.background = Toast.Color(red: 1, green: 0, blue: 0, alpha: 0.8)
    var blue = red
    blue.background = Toast.Color(red: 0, green: 0, blue: 1, alpha: 0.8)
    let first = try Self.pixels(red)
    let second = try Self.pixels(blue)
    let again = try Self.pixels(red)
    #expect(first != second)
    #expect(first == again)
    let layout = ToastLayout(toast: red, outputWidth: 1280, outputHeight: 720)
    let corner = (Int(layout.box.y) + 12) * layout.surfaceWidth + Int(layout.box.x) + 12
    // Premultiplied ARGB, little-endian: blue, green, red, alpha.
    #expect(second[corner * 4] > 150 && second[corner * 4 + 2] == 0)
  }

  @Test func aBannerSlidingInThenAtRestDrawsAsADirectDraw() throws {
    let toast = Toast("Saved", style: .banner)
    let resting = try Self.pixels(toast)
    let sliding = try Self.pixels(toast, appearance: Appearance(opacity: 1, slide: 0.5))
    #expect(resting != sliding)
    #expect(try Self.pixels(toast) == resting)
  }
}
