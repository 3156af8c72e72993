import Testing
import ToastModel
import ToastRendering

/// Where everything of a card goes, and where cards rest and stack.
struct CardLayoutTests {
  /// A card with `text` as markup, as a notification server writes it.
  static func card(
    _ text: String = "<small>Mail</small>\n<b>New message</b>\nLunch tomorrow?",
    icon: String? = "dialog-information"
  ) -> Toast {
    var toast = Toast(text, style: .card)
    toast.isMarkup = true
    toast.icon = icon
    return toast
  }

  static func layout(_ toast: Toast, width: Int = 1280, height: Int = 720) -> ToastLayout {
    ToastLayout(toast: toast, outputWidth: width, outputHeight: height)
  }

  @Test func theBoxHasAFixedWidthWhateverTheText() {
    let short = Self.layout(Self.card("<b>Hi</b>"))
    let long = Self.layout(Self.card(String(repeating: "many words ", count: 40)))
    #expect(short.box.width == Design.Card.width && long.box.width == Design.Card.width)
    #expect(short.cornerRadius == Design.Card.cornerRadius)
    // The surface adds the shadow's room on every side.
    let shadow = Design.Card.shadowPadding
    #expect(Double(short.surfaceWidth) == Design.Card.width + 2 * shadow)
    #expect(short.box.x == shadow && short.box.y == shadow)
    #expect(Double(short.surfaceHeight) == short.box.height + 2 * shadow)
  }

  @Test func aNarrowOutputNarrowsTheBoxToItsMargins() {
    #expect(Self.layout(Self.card(), width: 300).box.width == 280)
    #expect(Self.layout(Self.card(), width: 100).box.width == Design.Card.minimumWidth)
  }

  @Test func theIconIsAtTheTopLeftAndTheTextBesideIt() throws {
    let layout = Self.layout(Self.card())
    let icon = try #require(layout.icon)
    let padding = Design.Card.padding
    #expect(
      icon == Rect(x: layout.box.x + padding, y: layout.box.y + padding, width: 48, height: 48))
    #expect(layout.textOrigin.x == icon.x + icon.width + Design.Card.gap)
    #expect(
      layout.text.wrapWidth == layout.box.x + layout.box.width - padding - layout.textOrigin.x)
    #expect(layout.text.lineCount == 3 && !layout.text.isEllipsized)
    // Three lines are about as tall as the icon: the text is centred on it.
    #expect(abs(layout.textOrigin.y + layout.text.height / 2 - icon.midY) <= 1)
    // Without an icon the text takes the whole width inside the padding.
    let plain = Self.layout(Self.card(icon: nil))
    #expect(plain.icon == nil && plain.textOrigin.x == plain.box.x + padding)
    #expect(plain.text.wrapWidth == plain.box.width - 2 * padding)
  }

  @Test func anImageTakesTheIconsPlaceInEveryStyle() throws {
    let red = try #require(Toast.Image(width: 1, height: 1, rgba: [255, 0, 0, 255]))
    for style in [Toast.Style.card, .hud, .banner] {
      var toast = Toast("Pixels", style: style)
      #expect(Self.layout(toast).icon == nil)
      toast.image = red
      #expect(Self.layout(toast).icon != nil, "\(style)")
    }
  }

  /// However costly its characters are to shape (a letter with hundreds of
  /// combining marks at the end of the last line shown), a card's text is
  /// cut in a few layouts, not one per character taken off.
  @Test func cuttingTheLastLineTakesFewLayouts() {
    let marks = String(repeating: "\u{301}", count: 400)
    var most = 0
    // One of these lengths ends the eighth line with the marks' letter.
    for count in 150...250 {
      let block = TextBlock(
        text: String(repeating: "l", count: count) + marks + String(repeating: "l", count: 100),
        isMarkup: false, font: Design.Card.font, wrapWidth: 100,
        maximumLines: Design.Card.maximumLines, alignment: .left, lineLimit: .wholeText)
      #expect(block.lineCount <= Design.Card.maximumLines && block.isEllipsized)
      most = max(most, block.cutLayouts)
    }
    // One layout per mark taken off would be some 400.
    #expect(most <= 12, "\(most) layouts to cut a line of 400 marks")
  }

  @Test func theTextWrapsAndEndsInAnEllipsisAfterEightLinesInAll() {
    let body = String(repeating: "The body of a long message goes on. ", count: 30)
    let layout = Self.layout(Self.card("<small>Mail</small>\n<b>Summary</b>\n" + body))
    #expect(layout.text.lineCount == Design.Card.maximumLines)
    #expect(layout.text.isEllipsized)
    #expect(layout.text.width <= layout.text.wrapWidth)
    // Many short paragraphs: eight lines, not joined into one.
    let lines = (1...12).map { "line \($0)" }.joined(separator: "\n")
    let paragraphs = Self.layout(Self.card(lines))
    #expect(paragraphs.text.lineCount == Design.Card.maximumLines)
    #expect(paragraphs.text.isEllipsized)
    // Eight lines exactly: all shown, no ellipsis.
    let eight = Self.layout(Self.card((1...8).map { "line \($0)" }.joined(separator: "\n")))
    #expect(eight.text.lineCount == 8 && !eight.text.isEllipsized)
  }

  @Test func aWordTooLongForTheLastLineMakesRoomForTheEllipsis() {
    // Every line full to its end: the ellipsis takes the last word's place.
    let text = String(repeating: "abcdefghij ", count: 200)
    let layout = Self.layout(Self.card(text))
    #expect(layout.text.lineCount == Design.Card.maximumLines && layout.text.isEllipsized)
    let unbroken = Self.layout(Self.card(String(repeating: "x", count: 2000)))
    #expect(unbroken.text.lineCount == Design.Card.maximumLines && unbroken.text.isEllipsized)
  }

  @Test func theProgressBarIsUnderTheTextAcrossItsColumn() throws {
    var toast = Self.card()
    toast.progress = 1.4
    let layout = Self.layout(toast)
    let bar = try #require(layout.progressBar)
    #expect(bar.x == layout.textOrigin.x && bar.width == layout.text.wrapWidth)
    #expect(bar.height == Design.Card.progressHeight)
    #expect(bar.y >= layout.textOrigin.y + layout.text.height)
    #expect(bar.y + bar.height <= layout.box.y + layout.box.height - Design.Card.padding)
  }

  @Test func theButtonsAreARowAtTheRightUnderEverything() throws {
    var toast = Self.card()
    toast.progress = 0.5
    toast.buttons = ["Reply", "Mark as read"]
    let layout = Self.layout(toast)
    let (first, last) = (layout.buttons[0].frame, layout.buttons[1].frame)
    let bar = try #require(layout.progressBar)
    let icon = try #require(layout.icon)
    #expect(first.y == last.y && first.x + first.width < last.x)
    #expect(first.y >= max(bar.y + bar.height, icon.y + icon.height) + Design.Card.gap)
    #expect(last.x + last.width == layout.box.x + layout.box.width - Design.Card.padding)
    // The box ends the padding below the row (rounded to even pixels).
    let bottom = layout.box.y + layout.box.height
    #expect(bottom - (first.y + first.height) - Design.Card.padding < 2)
    #expect(layout.button(atX: last.midX, y: last.midY) == 1)
  }

  @Test func theBoxIsAsTallAsItsContent() {
    let oneLine = Self.layout(Self.card("<b>Hi</b>", icon: nil))
    let withIcon = Self.layout(Self.card("<b>Hi</b>"))
    let padding = Design.Card.padding
    #expect(oneLine.box.height < 48)
    #expect(oneLine.box.height - oneLine.text.height - 2 * padding < 2)
    #expect(withIcon.box.height == 48 + 2 * padding)
  }

  @Test func aCardRestsAtTheTopRightAndStaysUntilItsTime() {
    let toast = Self.card()
    #expect(toast.effectivePosition == .topRight)
    #expect(toast.effectiveTimeout == Design.Card.timeout)
    #expect(toast.takesPointer, "its body is its default action")
    #expect(!Toast("Hi").takesPointer)
    let layout = Self.layout(toast)
    let placement = Placement(toast: toast, layout: layout)
    #expect(placement.anchors == [.top, .right])
    #expect(Double(placement.top) + layout.box.y == Double(Design.margin))
    let beside = Double(layout.surfaceWidth) - layout.box.x - layout.box.width
    #expect(Double(placement.right) + beside == Double(Design.margin))
  }

  @Test func cardsStackTheNewestFirst() {
    let gap = Design.stackGap
    // Appeared in this order: 40, 60, then 50 tall; the newest at the top.
    #expect(
      Stacking.shifts(extents: [40, 60, 50], position: .topRight, newestFirst: true) == [
        50 + gap + 60 + gap, 50 + gap, 0,
      ])
    #expect(
      Stacking.shifts(extents: [40, 60, 50], position: .topRight) == [0, 40 + gap, 100 + 2 * gap])
  }

  @Test func aModalCardRestsAtItsPlaceInTheCoveringSurface() {
    var toast = Self.card()
    toast.isModal = true
    let layout = Self.layout(toast)
    #expect(layout.coversOutput && layout.surfaceWidth == 1280 && layout.surfaceHeight == 720)
    let margin = Double(Design.margin)
    #expect(layout.box.x + layout.box.width == 1280 - margin && layout.box.y == margin)
  }
}
