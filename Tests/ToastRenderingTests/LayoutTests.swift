import Testing
import ToastModel
import ToastRendering

struct LayoutTests {
  @Test func aShortHUDKeepsTheDesignSize() {
    let layout = ToastLayout(toast: Toast("OK"), outputWidth: 1280, outputHeight: 720)
    #expect(layout.box.width == 160)
    #expect(layout.box.height == 120)
    #expect(layout.cornerRadius == 10)
    #expect(layout.text.lineCount == 1)
    #expect(!layout.text.isEllipsized)
    // The surface adds room for the shadow on every side, and the box sits in its middle.
    #expect(layout.surfaceWidth == 160 + 24)
    #expect(layout.surfaceHeight == 120 + 24)
    #expect(layout.box.x == 12 && layout.box.y == 12)
    #expect(layout.spinner == nil && layout.progressBar == nil)
  }

  @Test func theHUDGrowsWithTheTextUpToFortyPercentOfTheOutput() {
    let medium = ToastLayout(
      toast: Toast("A message of moderate length"), outputWidth: 1280, outputHeight: 720)
    #expect(medium.box.width > 160)
    #expect(medium.box.width < 512)
    #expect(medium.text.lineCount == 1)
    let long = ToastLayout(
      toast: Toast(String(repeating: "word ", count: 200)), outputWidth: 1280, outputHeight: 720)
    #expect(long.box.width == 512)
    #expect(long.text.lineCount == 3)
    #expect(long.text.isEllipsized)
    // On a narrow output the box still has the design's minimum width.
    let narrow = ToastLayout(toast: Toast("Hello there"), outputWidth: 300, outputHeight: 600)
    #expect(narrow.box.width == 160)
  }

  @Test func wrappingBreaksAtWordsAndInsideCJK() {
    let words = ToastLayout(
      toast: Toast("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda"),
      outputWidth: 400, outputHeight: 400)
    #expect(words.text.lineCount > 1)
    #expect(words.text.width <= words.text.wrapWidth)
    // No spaces at all: CJK still wraps, between characters.
    let cjk = ToastLayout(
      toast: Toast(String(repeating: "漢字", count: 30)), outputWidth: 400, outputHeight: 400)
    #expect(cjk.text.lineCount == 3)
    #expect(cjk.text.width <= cjk.text.wrapWidth)
  }

  @Test func manyShortLinesStillEndAtThree() {
    let layout = ToastLayout(
      toast: Toast("one\ntwo\nthree\nfour\nfive"), outputWidth: 1280, outputHeight: 720)
    #expect(layout.text.lineCount <= 3)
  }

  @Test func spinnerSitsAboveTheTextAndProgressBelow() throws {
    var toast = Toast("Copying", showsSpinner: true)
    toast.progress = 0.5
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let spinner = try #require(layout.spinner)
    let bar = try #require(layout.progressBar)
    #expect(spinner.width == 37 && spinner.height == 37)
    #expect(spinner.midX == layout.box.midX)
    #expect(spinner.y + spinner.height <= layout.textOrigin.y)
    #expect(layout.textOrigin.y + layout.text.height <= bar.y)
    #expect(bar.y + bar.height <= layout.box.y + layout.box.height - 10)
    #expect(layout.box.contains(x: spinner.x, y: spinner.y))
  }

  @Test func offsetMovesTheBoxInsideALargerSurfaceAndStaysOnTheOutput() {
    var toast = Toast("Here")
    toast.offset = .init(x: 100, y: -40)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    #expect(layout.surfaceWidth == 184 + 200)
    #expect(layout.surfaceHeight == 144 + 80)
    // Centre of the surface plus the offset.
    #expect(layout.box.midX == Double(layout.surfaceWidth) / 2 + 100)
    #expect(layout.box.midY == Double(layout.surfaceHeight) / 2 - 40)
    toast.offset = .init(x: 9000, y: 0)
    let clamped = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    #expect(clamped.surfaceWidth <= 1280)
  }

  @Test func aModalHUDFillsTheConfiguredSurface() {
    var toast = Toast("Wait")
    toast.isModal = true
    let layout = ToastLayout(
      toast: toast, outputWidth: 1280, outputHeight: 720, surfaceSize: (1280, 720))
    #expect(layout.coversOutput)
    #expect(layout.surfaceWidth == 1280 && layout.surfaceHeight == 720)
    #expect(layout.box.midX == 640 && layout.box.midY == 360)
  }

  @Test func hugeFontsAreShrunkIntoTheOutput() {
    var markup = Toast("<span size=\"1000000000\">x</span> huge")
    markup.isMarkup = true
    var font = Toast("Huge", style: .banner)
    font.font = "Sans 400000"
    var spinner = Toast("Big", showsSpinner: true)
    spinner.font = "Sans 100000"
    spinner.progress = 0.5
    for toast in [markup, font, spinner] {
      let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
      #expect(layout.textScale < 1, "\(toast.text)")
      #expect(layout.surfaceWidth <= 1280 && layout.surfaceHeight <= 720, "\(toast.text)")
      // The shrunk text stays inside its box.
      #expect(layout.text.width * layout.textScale <= layout.box.width, "\(toast.text)")
      #expect(layout.text.height * layout.textScale <= layout.box.height, "\(toast.text)")
      // It is drawn, not lost to an ellipsis: the image has text-coloured pixels.
      let image = OffscreenImage.render(toast)
      var white = 0
      rows: for y in stride(from: 0, to: image.height, by: 2) {
        for x in stride(from: 0, to: image.width, by: 2) where image.pixel(x: x, y: y).red > 200 {
          white += 1
          if white > 20 { break rows }
        }
      }
      #expect(white > 20, "\(toast.text): \(white) white pixels, every other one counted")
    }
    // Nested scales that multiply past any screen are capped as well.
    var nested = Toast(
      String(repeating: "<big>", count: 60) + "x" + String(repeating: "</big>", count: 60))
    nested.isMarkup = true
    let nestedLayout = ToastLayout(toast: nested, outputWidth: 1280, outputHeight: 720)
    #expect(nestedLayout.text.height < 2000, "\(nestedLayout.text.height)")
    // Text drawn after them in the same faces is still drawn: no font face was
    // left in an error state.
    let after = OffscreenImage.render(Toast("After"))
    let corner = after.pixel(
      x: Int(Design.HUD.shadowPadding) + 12, y: Int(Design.HUD.shadowPadding) + 12)
    #expect(corner.alpha > 100, "the box is drawn")
    var white = 0
    for y in stride(from: 0, to: after.height, by: 2) {
      for x in stride(from: 0, to: after.width, by: 2) where after.pixel(x: x, y: y).red > 200 {
        white += 1
      }
    }
    #expect(white > 10, "the text is drawn: \(white)")
    // Ordinary text is never scaled.
    #expect(ToastLayout(toast: Toast("Saved"), outputWidth: 1280, outputHeight: 720).textScale == 1)
    #expect(
      ToastLayout(toast: Toast("Saved", style: .banner), outputWidth: 1280, outputHeight: 720)
        .textScale == 1)
  }

  @Test func theTextLanguageIsTheLocalesLanguage() {
    #expect(TextBlock.language(fromLocale: "ja_JP.UTF-8") == "ja-JP")
    #expect(TextBlock.language(fromLocale: "zh_TW") == "zh-TW")
    #expect(TextBlock.language(fromLocale: "sr_RS@latin") == "sr-RS")
    #expect(TextBlock.language(fromLocale: "C.UTF-8") == nil)
    #expect(TextBlock.language(fromLocale: "POSIX") == nil)
    #expect(TextBlock.language(fromLocale: nil) == nil)
  }

  @Test func centredBoxesHaveEvenSizes() {
    // Half of an odd size rounds differently from one compositor to the next.
    for text in ["i", "ii", "iii", "Saved", "漢字テスト 🎉 مرحبا", String(repeating: "x", count: 40)] {
      for style in [Toast.Style.hud, .banner] {  // a bar spans its edge: BarLayoutTests
        let layout = ToastLayout(
          toast: Toast(text, style: style), outputWidth: 1279, outputHeight: 719)
        #expect(layout.surfaceWidth % 2 == 0, "\(style) \(text)")
        #expect(style == .banner || layout.surfaceHeight % 2 == 0, "\(style) \(text)")
      }
    }
  }

  @Test func theBannerPillFitsItsText() {
    let short = ToastLayout(
      toast: Toast("Hi", style: .banner), outputWidth: 1280, outputHeight: 720)
    #expect(short.box.width == 120, "at least 100 + 20")
    #expect(short.box.height == 40)
    #expect(short.cornerRadius == 20)
    #expect(short.box.y == 10)
    let long = ToastLayout(
      toast: Toast("Your files were copied to the backup disk", style: .banner),
      outputWidth: 1280, outputHeight: 720)
    // The text plus padding, rounded up to even pixels so compositors centre it alike.
    #expect(long.box.width >= long.text.width + 20 && long.box.width < long.text.width + 22)
    #expect(long.box.width.truncatingRemainder(dividingBy: 2) == 0)
    let huge = ToastLayout(
      toast: Toast(String(repeating: "wide ", count: 400), style: .banner), outputWidth: 800,
      outputHeight: 600)
    #expect(huge.box.width == 800 - 32, "the output width minus margins")
    #expect(huge.text.lineCount == 1)
    #expect(huge.text.isEllipsized)
  }

  @Test func theBannerBoxSlidesFiftyPixels() {
    let layout = ToastLayout(
      toast: Toast("Hi", style: .banner), outputWidth: 1280, outputHeight: 720)
    #expect(layout.box(at: Appearance(opacity: 1, slide: 0)).y == -40)
    #expect(layout.box(at: Appearance(opacity: 1, slide: 1)).y == 10)
    let hud = ToastLayout(toast: Toast("Hi"), outputWidth: 1280, outputHeight: 720)
    #expect(hud.box(at: Appearance(opacity: 1, slide: 0)) == hud.box, "a HUD does not slide")
  }

  @Test func aBannerAtTheBottomSlidesUpIntoItsPlace() {
    var toast = Toast("Hi", style: .banner)
    toast.position = .bottom
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let resting = layout.box
    #expect(
      Double(layout.surfaceHeight) - resting.y - resting.height == Design.Banner.topGap,
      "its gap is below it")
    #expect(layout.box(at: Appearance(opacity: 1, slide: 0)).y == resting.y + 50)
    toast.position = .left
    let side = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    #expect(side.box(at: Appearance(opacity: 1, slide: 0)) == side.box, "a side banner fades only")
  }
}

struct TextTests {
  @Test func hugeMessagesAreCut() {
    let text = String(repeating: "x", count: 100_000)
    let layout = ToastLayout(toast: Toast(text), outputWidth: 1280, outputHeight: 720)
    #expect(layout.text.lineCount == 3)
  }

  @Test func markupIsCheckedAndBadMarkupShowsAsText() {
    #expect(TextBlock.markupError("<b>bold</b> and <i>italic</i>") == nil)
    #expect(TextBlock.markupError("<b>unclosed") != nil)
    var toast = Toast("<b>unclosed")
    toast.isMarkup = true
    let literal = ToastLayout(toast: Toast("<b>unclosed"), outputWidth: 1280, outputHeight: 720)
    let fallback = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    #expect(fallback.text.width == literal.text.width)
    toast.text = "<b>bold</b>"
    let bold = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    #expect(bold.text.width < literal.text.width, "tags are not shown")
  }

  @Test func replacementCharactersFromBadUTF8AreDrawn() {
    let bytes: [UInt8] = [0x48, 0x69, 0xff, 0xfe, 0x21]
    let text = String(decoding: bytes, as: UTF8.self)
    #expect(text.unicodeScalars.contains("\u{FFFD}"))
    let layout = ToastLayout(toast: Toast(text), outputWidth: 1280, outputHeight: 720)
    #expect(layout.text.lineCount == 1)
    #expect(layout.text.width > 0)
  }

  @Test(arguments: [Toast.Style.hud, .banner])
  func aRunOfTabsStaysInTheBox(_ style: Toast.Style) {
    // Pango does not wrap a run of tabs wider than the line; a tab shows as a space.
    for text in [
      "A" + String(repeating: "\t", count: 40),
      "word \t\t\t" + String(repeating: "\t", count: 40) + "B",
    ] {
      let layout = ToastLayout(
        toast: Toast(text, style: style), outputWidth: 1280, outputHeight: 720)
      #expect(layout.text.width <= layout.box.width, "\(text.debugDescription)")
    }
  }

  @Test(arguments: [Toast.Style.hud, .banner])
  func carriageReturnsAreJoinedLikeLineFeeds(_ style: Toast.Style) {
    // Pango starts a paragraph at a carriage return too.
    let layout = ToastLayout(
      toast: Toast("a\rb\rc\rd\re", style: style), outputWidth: 1280, outputHeight: 720)
    #expect(layout.text.lineCount == 1, "five short paragraphs, joined on one line")
  }
}

struct ColorTests {
  @Test func hexColours() {
    #expect(Toast.Color(hex: "#ff0000") == Toast.Color(red: 1, green: 0, blue: 0, alpha: 1))
    #expect(Toast.Color(hex: "00ff0080")?.alpha == Double(0x80) / 255)
    #expect(Toast.Color(hex: "#12345") == nil)
    #expect(Toast.Color(hex: "#gg0000") == nil)
    #expect(Toast.Color(hex: "") == nil)
  }
}

/// A toast's buttons: where they go, how they fit, what a point hits, and
/// how they look pressed and focused.
struct ButtonLayoutTests {
  static func asking(_ labels: [String], style: Toast.Style = .hud) -> Toast {
    var toast = Toast("Deleted 3 files", style: style)
    toast.buttons = labels
    return toast
  }

  @Test func theHUDsButtonsAreARowUnderTheTextInsideTheBox() {
    let layout = ToastLayout(
      toast: Self.asking(["Undo", "Keep"]), outputWidth: 1280, outputHeight: 720)
    let plain = ToastLayout(toast: Toast("Deleted 3 files"), outputWidth: 1280, outputHeight: 720)
    #expect(layout.buttons.count == 2)
    let (undo, keep) = (layout.buttons[0].frame, layout.buttons[1].frame)
    #expect(undo.height == Design.Buttons.height && keep.height == Design.Buttons.height)
    #expect(undo.y == keep.y && undo.x + undo.width + Design.Buttons.gap == keep.x)
    #expect(undo.y >= layout.textOrigin.y + layout.text.height, "under the text")
    #expect(abs((undo.x + keep.x + keep.width) / 2 - layout.box.midX) <= 1, "centred")
    #expect(keep.y + keep.height <= layout.box.y + layout.box.height - Design.HUD.padding)
    #expect(undo.width >= Design.Buttons.minimumWidth)
    #expect(plain.buttons.isEmpty)
    // With a spinner and a bar as well, the box grows to hold the row.
    var busy = Self.asking(["Undo"])
    busy.showsSpinner = true
    busy.progress = 0.5
    var quiet = busy
    quiet.buttons = []
    let grown = ToastLayout(toast: busy, outputWidth: 1280, outputHeight: 720)
    let without = ToastLayout(toast: quiet, outputWidth: 1280, outputHeight: 720)
    #expect(grown.box.height > without.box.height)
    let row = grown.buttons[0].frame
    #expect(row.y >= grown.progressBar!.y + grown.progressBar!.height + Design.HUD.padding - 1)
    #expect(row.y + row.height <= grown.box.y + grown.box.height - Design.HUD.padding)
  }

  @Test func aRowTooWideForTheHUDShrinksItsButtonsInsideTheBox() {
    let labels = (1...8).map { "A rather long label \($0)" }
    let layout = ToastLayout(toast: Self.asking(labels), outputWidth: 1280, outputHeight: 720)
    #expect(layout.box.width <= 512 && layout.box.width >= 500, "about the widest box: 40 %")
    let row = layout.buttons.map(\.frame)
    #expect(row.count == 8)
    #expect(row.first!.x >= layout.box.x + Design.HUD.padding - 1)
    #expect(
      row.last!.x + row.last!.width <= layout.box.x + layout.box.width - Design.HUD.padding + 1)
    #expect(layout.buttons.allSatisfy { $0.label.isEllipsized })
    #expect(row.allSatisfy { $0.width >= Design.Buttons.shrunkWidth })
  }

  @Test func theBannersButtonsAreAtTheRightOfItsTextInsideThePill() {
    let layout = ToastLayout(
      toast: Self.asking(["Undo", "Keep"], style: .banner), outputWidth: 1280, outputHeight: 720)
    let plain = ToastLayout(
      toast: Toast("Deleted 3 files", style: .banner), outputWidth: 1280, outputHeight: 720)
    let (undo, keep) = (layout.buttons[0].frame, layout.buttons[1].frame)
    let textRight = layout.textOrigin.x + (layout.text.wrapWidth + layout.text.width) / 2
    #expect(undo.x >= textRight, "right of the text")
    #expect(keep.x + keep.width <= layout.box.x + layout.box.width - Design.Banner.padding + 1)
    #expect(abs(undo.midY - layout.box.midY) <= 1, "centred in the pill's height")
    #expect(layout.box.height == Design.Banner.height)
    #expect(layout.box.width > plain.box.width)
  }

  @Test func aPointHitsTheButtonUnderIt() {
    let layout = ToastLayout(
      toast: Self.asking(["Undo", "Keep"]), outputWidth: 1280, outputHeight: 720)
    let keep = layout.buttons[1].frame
    #expect(layout.button(atX: keep.midX, y: keep.midY) == 1)
    #expect(layout.button(atX: layout.buttons[0].frame.midX, y: keep.midY) == 0)
    #expect(layout.button(atX: keep.midX, y: keep.y - 1) == nil)
    #expect(layout.button(atX: layout.box.x + 2, y: layout.box.y + 2) == nil)
  }

  @Test func aPressedButtonIsFilledMoreAndTheFocusedOneHasARing() {
    let toast = Self.asking(["Undo", "Keep"])
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let keep = layout.buttons[1].frame
    func pixel(_ states: Interaction, x: Double, y: Double) -> UInt8 {
      OffscreenImage.render(toast, scale: 1, buttons: states).pixel(x: Int(x), y: Int(y)).red
    }
    // Inside the button, away from its label: the fill.
    let fill = (x: keep.x + 3, y: keep.midY)
    #expect(pixel(.init(pressed: 1), x: fill.x, y: fill.y) > pixel(.idle, x: fill.x, y: fill.y))
    #expect(pixel(.init(pressed: 0), x: fill.x, y: fill.y) == pixel(.idle, x: fill.x, y: fill.y))
    // On its edge: the ring, in the text colour.
    let edge = (x: keep.x + 1, y: keep.midY)
    #expect(pixel(.init(focused: 1), x: edge.x, y: edge.y) > 200)
    #expect(pixel(.init(focused: 0), x: edge.x, y: edge.y) < 200)
  }
}

/// The bar: swaynag's geometry, its details, its place at an edge.
struct BarLayoutTests {
  static func bar(_ buttons: [String], details: String? = nil) -> Toast {
    var toast = Toast("There are errors in your config file", style: .bar)
    toast.buttons = buttons
    toast.details = details
    return toast
  }

  /// A bar with a dismiss button and `details`, laid out open on 1280x720.
  static func opened(details: String) -> ToastLayout {
    ToastLayout(
      toast: bar(["X"], details: details), outputWidth: 1280, outputHeight: 720, detailsOpen: true)
  }

  @Test func theButtonsGoRightToLeftFromTheEndInTheirOrder() {
    var toast = Self.bar(["X", "Exit sway", "Reload sway"])
    toast.bar.buttonDismissGap = 15
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let look = toast.bar
    #expect(layout.surfaceWidth == 1280)
    let frames = layout.buttons.map(\.frame)
    let border = Double(look.buttonBorderSize)
    #expect(frames[0].x + frames[0].width + border <= 1280 - Double(look.buttonMarginRight))
    #expect(frames[0].x + frames[0].width + border >= 1280 - Double(look.buttonMarginRight) - 1)
    // The dismiss gap after the first, the plain gap after the second.
    #expect(frames[0].x - (frames[1].x + frames[1].width) == 2 * border + 20 + 15)
    #expect(frames[1].x - (frames[2].x + frames[2].width) == 2 * border + 20)
    #expect(layout.textOrigin.x == Double(look.messagePadding))
    // The row holds the message and the buttons with their borders; the line below it.
    let row = Double(layout.exclusiveZone) - Double(look.borderBottomSize)
    #expect(row >= layout.text.height + 2 * Double(look.messagePadding))
    #expect(frames.allSatisfy { $0.y - border >= 0 && $0.y + $0.height + border <= row })
    #expect(layout.surfaceHeight == layout.exclusiveZone)
    #expect(layout.barBorder?.y == Double(layout.surfaceHeight - look.borderBottomSize))
  }

  @Test func theDetailsButtonComesLastAndTheOpenDetailsGrowTheSurface() {
    let toast = Self.bar(["X"], details: "Error on line 3")
    let closed = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let open = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, detailsOpen: true)
    #expect(closed.buttons.count == 2 && closed.details == nil)
    #expect(closed.buttons[1].frame.x < closed.buttons[0].frame.x, "left of the dismiss button")
    let details = open.details!
    #expect(details.text.lineCount == 1 && details.visibleLines == 1 && details.lastFirstLine == 0)
    #expect(details.area.y >= Double(closed.exclusiveZone) - 2)
    #expect(open.surfaceHeight > closed.surfaceHeight)
    #expect(open.exclusiveZone == closed.exclusiveZone, "only the row is reserved")
  }

  @Test func longDetailsShowHalfTheOutputAtMostAndScroll() {
    let text = (1...200).map { "Error on line \($0)" }.joined(separator: "\n")
    let open = Self.opened(details: text)
    let details = open.details!
    #expect(details.text.lineCount == 200)
    #expect(details.visibleLines < 200 && details.visibleLines > 5)
    #expect(Double(open.surfaceHeight) <= 360 + 1, "half the output")
    #expect(details.lastFirstLine == 200 - details.visibleLines)
  }

  @Test func longLabelsShrinkSoThatTheMessageKeepsAQuarterOfTheBar() {
    let labels = (1...4).map { "A rather long label for button number \($0) of the bar" }
    let layout = ToastLayout(toast: Self.bar(labels), outputWidth: 1280, outputHeight: 720)
    let leftmost = layout.buttons.map(\.frame.x).min()!
    #expect(leftmost >= 1280 * 0.25 - 1, "the message keeps a quarter: \(leftmost)")
    #expect(layout.buttons.allSatisfy { $0.frame.x >= 0 && $0.label.isEllipsized })
    #expect(layout.text.wrapWidth <= leftmost - layout.textOrigin.x)
    // Short labels keep their size (swaynag's bars are unchanged).
    let short = ToastLayout(toast: Self.bar(["X", "Reload"]), outputWidth: 1280, outputHeight: 720)
    #expect(short.buttons.allSatisfy { !$0.label.isEllipsized })
  }

  @Test func theLongestDetailsAreCutAtTheLineLimit() {
    let text = (1...50_000).map { "Error on line \($0)" }.joined(separator: "\n")
    let open = Self.opened(details: text)
    let details = open.details!
    #expect(details.text.lineCount == ToastLayout.detailsLineLimit + 1)
    #expect(
      details.lineHeight > 0
        && details.lastFirstLine == details.text.lineCount - details.visibleLines)
    #expect(ToastLayout.shownDetails(text).hasSuffix("… (48000 more lines)"))
  }

  @Test func aBarAtTheBottomSlidesUpAndSpansItsEdge() {
    var toast = Self.bar(["OK"])
    toast.position = .bottom
    let layout = ToastLayout(toast: toast, outputWidth: 1000, outputHeight: 600)
    #expect(layout.slideDistance > 0)
    #expect(Placement(toast: toast, layout: layout).anchors == [.bottom, .left, .right])
    toast.position = nil
    let top = ToastLayout(toast: toast, outputWidth: 1000, outputHeight: 600)
    #expect(top.slideDistance < 0)
    #expect(Placement(toast: toast, layout: top).anchors == [.top, .left, .right])
  }
}
