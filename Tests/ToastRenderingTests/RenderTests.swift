import CPangoCairo
import Glibc
import Testing
import ToastModel
import ToastRendering

/// Offscreen renders compared with reference PNGs in References/.
///
/// After an intended change to the drawing, rewrite the references with
/// `UPDATE_REFERENCES=1 swift test --filter RenderTests` and look at them.
struct RenderTests {
  static func spinnerAndProgress() -> Toast {
    var toast = Toast("Copying files…", showsSpinner: true)
    toast.progress = 0.35
    return toast
  }

  static func colored() -> Toast {
    var toast = Toast("<b>Custom</b> <i>colours</i>")
    toast.isMarkup = true
    toast.background = Toast.Color(hex: "#aa2233dd")
    toast.foreground = Toast.Color(hex: "#ffee88")
    toast.font = "Serif 14"
    return toast
  }

  static let cases: [(name: String, toast: Toast, scale: Int, appearance: Appearance)] = [
    ("hud", Toast("Volume 40%"), 1, .resting),
    (
      "hud-spinner-progress", spinnerAndProgress(), 1,
      Appearance(opacity: 1, slide: 1, spinnerPhase: 0.25)
    ),
    ("hud-scale2", Toast("Sharp at 2x"), 2, .resting),
    (
      "hud-long", Toast(String(repeating: "A long message wraps and ends. ", count: 12)), 1,
      .resting
    ),
    ("hud-fading", Toast("Half"), 1, Appearance(opacity: 0.5, slide: 1)),
    ("hud-colored", colored(), 1, .resting),
    ("banner", Toast("Saved to ~/Documents", style: .banner), 1, .resting),
    ("banner-sliding", Toast("Saved", style: .banner), 1, Appearance(opacity: 0.6, slide: 0.5)),
    ("banner-scale2", Toast("Sharp banner", style: .banner), 2, .resting),
  ]

  /// Renders depend on fonts: the suite runs with Tests/Fonts/fonts.conf (`make
  /// test` sets FONTCONFIG_FILE), which admits the fonts of the packages `make
  /// deps` installs and no other, so extra system fonts change nothing.
  @Test func rendersSeeOnlyTheFontsOfTheTestPackages() throws {
    let configuration = try #require(
      getenv("FONTCONFIG_FILE").map { String(cString: $0) },
      "FONTCONFIG_FILE is not set: run the tests with make test")
    #expect(configuration.hasSuffix("/Tests/Fonts/fonts.conf"))
    var families: UnsafeMutablePointer<UnsafeMutablePointer<PangoFontFamily>?>?
    var count: Int32 = 0
    pango_font_map_list_families(pango_cairo_font_map_get_default(), &families, &count)
    defer { g_free(families) }
    let names = (0..<Int(count)).compactMap { index in
      families?[index].map { String(cString: pango_font_family_get_name($0)) }
    }
    let cjk = ["HK", "JP", "KR", "SC", "TC"].flatMap {
      ["Noto Sans CJK \($0)", "Noto Sans Mono CJK \($0)"]
    }
    let allowed = Set(
      ["DejaVu Sans", "DejaVu Sans Mono", "DejaVu Serif", "Noto Color Emoji"] + cjk
        + ["Sans", "Serif", "Monospace", "System-ui"])
    #expect(names.contains("DejaVu Sans") && names.contains("Noto Sans CJK SC"))
    #expect(
      Set(names).subtracting(allowed).isEmpty, "other fonts: \(Set(names).subtracting(allowed))")
  }

  @Test(arguments: cases.map(\.name))
  func renderMatchesTheReference(_ name: String) throws {
    let spec = try #require(Self.cases.first { $0.name == name })
    let image = OffscreenImage.render(spec.toast, scale: spec.scale, appearance: spec.appearance)
    try expectMatchesReference(image, named: name)
  }

  @Test(arguments: [1.0, 2.0, 1.5])
  func redrawingOnlyTheSpinnerGivesTheSameFrameAsAWholeRedraw(scale: Double) throws {
    let toast = Toast("Working", showsSpinner: true, progress: 0.4)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let spinner = try #require(layout.spinner)
    let width = Int32((Double(layout.surfaceWidth) * scale).rounded())
    let height = Int32((Double(layout.surfaceHeight) * scale).rounded())
    let count = Int(width * height * 4)
    let partial = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
    let whole = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
    defer {
      partial.deallocate()
      whole.deallocate()
    }
    let first = try #require(
      Canvas(pixels: partial, width: width, height: height, stride: width * 4))
    let second = try #require(
      Canvas(pixels: whole, width: width, height: height, stride: width * 4))
    let before = Appearance(opacity: 1, slide: 1, spinnerPhase: 0)
    let after = Appearance(opacity: 1, slide: 1, spinnerPhase: 0.3)
    first.draw(toast, layout: layout, appearance: before, scale: scale)
    let clip = Rect(
      x: spinner.x - 1, y: spinner.y - 1, width: spinner.width + 2, height: spinner.height + 2)
    first.draw(toast, layout: layout, appearance: after, scale: scale, clip: clip)
    second.draw(toast, layout: layout, appearance: after, scale: scale)
    #expect(memcmp(partial, whole, count) == 0, "the same pixels either way")
    // And the spinner did turn: the clipped draw changed something.
    let untouched = UnsafeMutableRawPointer.allocate(byteCount: count, alignment: 16)
    defer { untouched.deallocate() }
    let third = try #require(
      Canvas(pixels: untouched, width: width, height: height, stride: width * 4))
    third.draw(toast, layout: layout, appearance: before, scale: scale)
    #expect(memcmp(untouched, whole, count) != 0)
  }

  @Test func progressBeyondFullIsDrawnOverTheBarInASecondColour() throws {
    let toast = Toast("Volume 150%", progress: 1.5)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let bar = try #require(layout.progressBar)
    let image = OffscreenImage.render(toast)
    let y = Int(bar.midY)
    // The first half: the excess (50 % of the bar) in the second colour; the rest white.
    let excess = image.pixel(x: Int(bar.x + bar.width * 0.25), y: y)
    let full = image.pixel(x: Int(bar.x + bar.width * 0.75), y: y)
    let expected = Design.progressBeyondFull
    #expect(excess.alpha == 255 && excess.red == UInt8(expected.red * 255))
    #expect(excess.green == UInt8((expected.green * 255).rounded()))
    #expect(full == (255, 255, 255, 255), "the part up to 100 % is white")
  }

  @Test func aRenderIsNotEmptyAndNotJustTheBox() {
    let image = OffscreenImage.render(Toast("Text"))
    let layout = ToastLayout(toast: Toast("Text"), outputWidth: 1280, outputHeight: 720)
    // Outside the box's shadow: transparent. In a corner of the box: the box colour.
    #expect(image.pixel(x: 0, y: 0).alpha == 0)
    let corner = image.pixel(x: Int(layout.box.x) + 12, y: Int(layout.box.y) + 12)
    #expect(corner.alpha == 128)
    // Somewhere in the middle: white text.
    var white = 0
    for y in Int(layout.box.y)..<Int(layout.box.y + layout.box.height) {
      for x in Int(layout.box.x)..<Int(layout.box.x + layout.box.width)
      where image.pixel(x: x, y: y).red > 200 {
        white += 1
      }
    }
    #expect(white > 30)
  }
}
