import Testing
import ToastModel
import ToastRendering

/// What an update of a showing toast keeps from the frame before: its text as
/// shaped when only the progress changed, and a text drawn at one scale draws
/// at another as if shaped for it.
struct UpdateReuseTests {
  static func layout(_ toast: Toast, reusing previous: ToastLayout? = nil) -> ToastLayout {
    ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, reusing: previous)
  }

  @Test(arguments: [Toast.Style.hud, .banner])
  func anUpdateOfTheProgressAloneKeepsTheShapedText(style: Toast.Style) throws {
    let first = Toast("Volume", style: style, progress: 0.4)
    var second = first
    second.progress = 0.7
    let before = Self.layout(first)
    let after = Self.layout(second, reusing: before)
    #expect(after.text === before.text)
    // The frame is the one a layout of its own draws.
    let fresh = Self.layout(second)
    #expect(fresh.text !== before.text)
    #expect(try drawnPixels(second, layout: after) == drawnPixels(second, layout: fresh))
    #expect(try drawnPixels(second, layout: after) != drawnPixels(first, layout: before))
  }

  @Test func newWordsOrANewFontAreShapedAgain() throws {
    let first = Toast("Volume", progress: 0.4)
    let before = Self.layout(first)
    var words = first
    words.text = "Volume up"
    let reshaped = Self.layout(words, reusing: before)
    #expect(reshaped.text !== before.text)
    #expect(reshaped.text.width > before.text.width)
    var font = first
    font.font = "Sans Bold 30"
    let refonted = Self.layout(font, reusing: before)
    #expect(refonted.text !== before.text)
    #expect(refonted.text.height > before.text.height)
    #expect(try drawnPixels(font, layout: refonted) == drawnPixels(font, layout: Self.layout(font)))
  }

  /// A toast on two outputs of different scales is drawn from one layout.
  @Test(arguments: [(2.0, 1.0), (1.0, 2.0), (1.5, 1.0), (1.0, 1.25)])
  func aTextDrawnAtOneScaleDrawsAtAnotherAsAFreshOne(scales: (Double, Double)) throws {
    let toast = Toast("Brightness 70%", progress: 0.7)
    let shared = Self.layout(toast)
    let first = try drawnPixels(toast, layout: shared, scale: scales.0)
    #expect(first == (try drawnPixels(toast, layout: Self.layout(toast), scale: scales.0)))
    let second = try drawnPixels(toast, layout: shared, scale: scales.1)
    #expect(second == (try drawnPixels(toast, layout: Self.layout(toast), scale: scales.1)))
    #expect(try drawnPixels(toast, layout: shared, scale: scales.0) == first)
  }
}
