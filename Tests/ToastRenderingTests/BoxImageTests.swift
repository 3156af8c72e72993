import Glibc
import Testing
import ToastModel
import ToastRendering

/// The shadow and box image that frames reuse: a frame from it has the pixels
/// of one drawn directly, and what changes the box makes a new one.
struct BoxImageTests {
  /// The references (RenderTests) hold the directly drawn pixels of a first
  /// frame; these are the frames after it.
  @Test(arguments: [1.0, 2.0, 1.5])
  func framesFromTheImageAndAtAnOpacityCairoCountsAsFullHaveTheSamePixels(scale: Double)
    throws
  {
    let toast = Toast("Volume 40%", progress: 0.4)
    let once = try drawnPixels(toast, scale: scale)
    #expect(try drawnPixels(toast, scale: scale, times: 3) == once)
    // Below 1, so multiplied by it after drawing, which changes nothing.
    let faded = try drawnPixels(
      toast, scale: scale, appearance: Appearance(opacity: 0.999_999, slide: 1))
    #expect(faded == once)
  }

  /// A fading toast is its resting pixels multiplied by its opacity, as a group
  /// painted at that opacity over cleared pixels would be (premultiplied
  /// channels, rounded either way).
  @Test(arguments: [0.4, 0.5, 0.75])
  func aFadingToastIsItsRestingPixelsTimesItsOpacity(opacity: Double) throws {
    let toast = Toast("Volume 40%", progress: 0.4)
    let resting = try drawnPixels(toast)
    let faded = try drawnPixels(toast, appearance: Appearance(opacity: opacity, slide: 1))
    #expect(resting.count == faded.count)
    let worst = zip(resting, faded).map { abs(Double($0) * opacity - Double($1)) }.max() ?? 0
    #expect(worst <= 1, "a channel differs by \(worst)")
    #expect(resting.contains { $0 > 200 }, "the resting toast has bright pixels to fade")
  }

  /// A dimmed toast at rest: around its box (the shadow's margin, where the
  /// box's image lies) the output is dimmed as everywhere else, never
  /// lighter than the dim.
  @Test func aDimmedToastAtRestKeepsTheDimAroundItsBox() throws {
    var toast = Toast("Delete 3 files?")
    toast.isModal = true
    toast.dimsBackground = true
    let layout = ToastLayout(toast: toast, outputWidth: 640, outputHeight: 480)
    #expect(layout.coversOutput)
    let pixels = try drawnPixels(toast, layout: layout)
    func alpha(_ x: Int, _ y: Int) -> UInt8 { pixels[(y * layout.surfaceWidth + x) * 4 + 3] }
    let dim = alpha(5, 5)
    #expect(dim > 50, "the far corner is dimmed")
    let box = layout.box
    // Just outside the box's corners and edges, inside the image's margin.
    for (x, y) in [
      (box.x - 3, box.y - 3), (box.x + box.width + 2, box.y - 3),
      (box.x + box.width / 2, box.y - 3), (box.x - 3, box.y + box.height / 2),
    ] {
      #expect(alpha(Int(x), Int(y)) >= dim, "(\(x), \(y)): \(alpha(Int(x), Int(y))) < \(dim)")
    }
  }

  @Test func aBoxOfTheSameSizeInAnotherColourGetsItsOwnImage() throws {
    var red = Toast("Same size")
    red.background = Toast.Color(red: 1, green: 0, blue: 0, alpha: 0.8)
    var blue = red
    blue.background = Toast.Color(red: 0, green: 0, blue: 1, alpha: 0.8)
    let first = try drawnPixels(red)
    let second = try drawnPixels(blue)
    let again = try drawnPixels(red)
    #expect(first != second)
    #expect(first == again)
    let layout = ToastLayout(toast: red, outputWidth: 1280, outputHeight: 720)
    let corner = (Int(layout.box.y) + 12) * layout.surfaceWidth + Int(layout.box.x) + 12
    // Premultiplied ARGB, little-endian: blue, green, red, alpha.
    #expect(second[corner * 4] > 150 && second[corner * 4 + 2] == 0)
  }

  @Test func aBannerSlidingInThenAtRestDrawsAsADirectDraw() throws {
    let toast = Toast("Saved", style: .banner)
    let resting = try drawnPixels(toast)
    let sliding = try drawnPixels(toast, appearance: Appearance(opacity: 1, slide: 0.5))
    #expect(resting != sliding)
    #expect(try drawnPixels(toast) == resting)
  }
}
