import CPangoCairo
import ToastModel

/// A bar's details: the area below its row and the text in it, shaped at the
/// area's width, every line.
public struct DetailsLayout {
  /// The area, in logical pixels of the surface (at rest).
  public let area: Rect
  /// The whole text, wrapped at the area's width less its padding.
  public let text: TextBlock
  /// The height of one line.
  public let lineHeight: Double
  /// How many lines the area shows at once.
  public let visibleLines: Int

  /// The first line that can be shown at the top: the last page's.
  public var lastFirstLine: Int { max(text.lineCount - visibleLines, 0) }
}

extension ToastLayout {
  /// A full-width bar, as swaynag draws it: the message at the left of a row,
  /// the buttons at its right from right to left in their order (the first at
  /// the right end), the line along its edge, and below the row (when open)
  /// the details, no taller than half the output.
  init(bar toast: Toast, output: (width: Double, height: Double), detailsOpen: Bool) {
    let look = toast.bar
    let font = toast.font ?? Design.Bar.font
    let width = output.width
    let padding = Double(look.messagePadding)
    var labels = toast.buttons
    if toast.details != nil { labels.append(toast.detailsButton ?? Design.Bar.detailsButton) }
    func shape(_ label: String, width: Double) -> TextBlock {
      TextBlock(
        text: label, isMarkup: false, font: font, wrapWidth: max(width, 1), maximumLines: 1,
        alignment: .left)
    }
    var shaped = labels.map { shape($0, width: 4096) }
    let border = Double(look.buttonBorderSize)
    let buttonPadding = Double(look.buttonPadding)
    // The buttons take at most what leaves the message a quarter of the bar:
    // beyond that their labels shrink alike and end in an ellipsis.
    let around = 2 * buttonPadding + 2 * border
    let spacing =
      Double(look.buttonMarginRight) + Double(look.buttonGap) * Double(max(labels.count - 1, 0))
      + (labels.count > 1 ? Double(look.buttonDismissGap) : 0)
    let natural = shaped.map { $0.width.rounded(.up) }.reduce(0, +)
    let room = max(width * 0.75 - padding - spacing - around * Double(labels.count), 0)
    if natural > room, natural > 0 {
      let share = room / natural
      shaped = zip(labels, shaped).map { label, text in
        shape(label, width: max((text.width * share).rounded(.down), 12))
      }
    }
    let buttonsWidth =
      shaped.map { min($0.width, $0.wrapWidth).rounded(.up) + around }.reduce(0, +) + spacing
    // One line, cut with an ellipsis where the buttons begin.
    let text = TextBlock(
      text: toast.text, isMarkup: toast.isMarkup, font: font,
      wrapWidth: max(width - buttonsWidth - 2 * padding, 1), maximumLines: 1, alignment: .left)
    let labelHeight = shaped.map(\.height).max() ?? 0
    let rowHeight = max(
      text.height + 2 * padding, labelHeight + 2 * buttonPadding + 2 * border
    ).rounded(.up)
    // Right to left from the bar's end, as swaynag places them.
    var right = width - Double(look.buttonMarginRight)
    var buttons: [ButtonLayout] = []
    for (index, label) in shaped.enumerated() {
      let size = (
        width: min(label.width, label.wrapWidth).rounded(.up) + 2 * buttonPadding,
        height: labelHeight + 2 * buttonPadding
      )
      let frame = Rect(
        x: (right - border - size.width).rounded(.down),
        y: ((rowHeight - size.height) / 2).rounded(.down),
        width: size.width, height: size.height)
      buttons.append(
        ButtonLayout(
          frame: frame, label: label,
          labelOrigin: (frame.x + buttonPadding, frame.midY - label.height / 2)))
      right = frame.x - border - Double(look.buttonGap)
      if index == 0 { right -= Double(look.buttonDismissGap) }
    }
    let barBorder = Double(look.borderBottomSize)
    var height = rowHeight + barBorder
    var details: DetailsLayout?
    if detailsOpen, let message = toast.details {
      let decor = padding + Double(look.detailsBorderSize)
      let areaWidth = max(width - 2 * decor, 1)
      let shapedDetails = TextBlock(
        text: Self.shownDetails(message), isMarkup: false, font: font,
        wrapWidth: max(areaWidth - 2 * padding, 1), maximumLines: Int.max, alignment: .left)
      let lineHeight = shapedDetails.height / Double(max(shapedDetails.lineCount, 1))
      let room = max(
        (output.height / 2 - rowHeight - 2 * decor - 2 * padding).rounded(.down), lineHeight)
      let visible = max(min(shapedDetails.lineCount, Int(room / lineHeight)), 1)
      let area = Rect(
        x: decor, y: rowHeight + decor, width: areaWidth,
        height: (Double(visible) * lineHeight + 2 * padding).rounded(.up))
      details = DetailsLayout(
        area: area, text: shapedDetails, lineHeight: lineHeight, visibleLines: visible)
      height = area.y + area.height + decor + barBorder
    }
    let atBottom = toast.effectivePosition == .bottom
    self.surfaceWidth = Int(width)
    self.surfaceHeight = Int(height.rounded(.up))
    self.box = Rect(x: 0, y: 0, width: width, height: height.rounded(.up))
    self.cornerRadius = 0
    self.text = text
    self.textOrigin = (padding, ((rowHeight - text.height) / 2).rounded(.down))
    self.textScale = 1
    self.icon = nil
    self.spinner = nil
    self.progressBar = nil
    self.buttons = buttons
    self.coversOutput = false
    self.slideDistance = atBottom ? rowHeight + barBorder : -(rowHeight + barBorder)
    self.details = details
    self.barBorder = Rect(
      x: 0, y: height.rounded(.up) - barBorder, width: width, height: barBorder)
    self.exclusiveZone = Int(rowHeight + barBorder)
  }
}

extension ToastLayout {
  /// The most lines of details a bar shapes: far more than any config's
  /// errors, few enough that every frame draws them in well under a frame's
  /// time and that Pango's 32-bit units hold their height.
  public static let detailsLineLimit = 2_000

  /// `details` cut after ``detailsLineLimit`` lines, the cut said in a last line.
  public static func shownDetails(_ details: String) -> String {
    var lines = 0
    var end = details.startIndex
    while end < details.endIndex {
      if details[end] == "\n" {
        lines += 1
        if lines == detailsLineLimit {
          let rest =
            details[details.index(after: end)...].reduce(0) { $1 == "\n" ? $0 + 1 : $0 } + 1
          return String(details[..<end]) + "\n… (\(rest) more lines)"
        }
      }
      end = details.index(after: end)
    }
    return details
  }
}

extension Renderer {
  /// Draws a bar laid out as `layout`, moved by `dy` (its slide): swaynag's
  /// flat colours, each button a border around its fill, the focused one
  /// ringed in the text colour, the pressed one lighter, and the details as
  /// far open as `interaction` says, from its `detailsLine` on.
  static func drawBar(
    _ toast: Toast, layout: ToastLayout, interaction: Interaction, dy: Double,
    in cairo: OpaquePointer
  ) {
    let look = toast.bar
    var box = layout.box
    box.y += dy
    // The row, and the details below it only as far as they are open.
    let closed = Double(layout.exclusiveZone)
    let rowHeight = closed - (layout.barBorder?.height ?? 0)
    let shown = closed + (box.height - closed) * min(max(interaction.detailsOpening, 0), 1)
    cairo_rectangle(cairo, 0, box.y, box.width, min(shown, box.height))
    setColor(toast.background ?? look.background, in: cairo)
    cairo_fill(cairo)
    setColor(toast.foreground ?? look.text, in: cairo)
    layout.text.draw(in: cairo, x: layout.textOrigin.x, y: layout.textOrigin.y + dy, scale: 1)
    let border = Double(look.buttonBorderSize)
    for (index, button) in layout.buttons.enumerated() {
      var frame = button.frame
      frame.y += dy
      cairo_rectangle(
        cairo, frame.x - border, frame.y - border, frame.width + 2 * border,
        frame.height + 2 * border)
      setColor(
        interaction.focused == index ? (toast.foreground ?? look.text) : look.border, in: cairo)
      cairo_fill(cairo)
      cairo_rectangle(cairo, frame.x, frame.y, frame.width, frame.height)
      setColor(look.buttonBackground, in: cairo)
      cairo_fill(cairo)
      if interaction.pressed == index {
        cairo_rectangle(cairo, frame.x, frame.y, frame.width, frame.height)
        setColor(look.buttonText, in: cairo, alpha: Design.Buttons.pressedOpacity / 2)
        cairo_fill(cairo)
      }
      setColor(look.buttonText, in: cairo)
      button.label.draw(in: cairo, x: button.labelOrigin.x, y: button.labelOrigin.y + dy, scale: 1)
    }
    if let details = layout.details, interaction.detailsOpening > 0 {
      cairo_save(cairo)
      cairo_rectangle(cairo, 0, box.y + rowHeight, box.width, max(shown - rowHeight, 0))
      cairo_clip(cairo)
      var area = details.area
      area.y += dy
      cairo_rectangle(cairo, area.x, area.y, area.width, area.height)
      setColor(look.detailsBackground, in: cairo)
      cairo_fill(cairo)
      cairo_rectangle(cairo, area.x, area.y, area.width, area.height)
      cairo_clip(cairo)
      let padding = Double(look.messagePadding)
      let first = min(max(interaction.detailsLine, 0), details.lastFirstLine)
      setColor(toast.foreground ?? look.text, in: cairo)
      details.text.draw(
        in: cairo, x: area.x + padding,
        y: area.y + padding - Double(first) * details.lineHeight, scale: 1)
      if details.lastFirstLine > 0 {
        // Where the shown lines are in the whole: a thin bar at the right.
        let track = area.height - 2 * padding
        let thumb = max(track * Double(details.visibleLines) / Double(details.text.lineCount), 8)
        let top = area.y + padding + (track - thumb) * Double(first) / Double(details.lastFirstLine)
        cairo_rectangle(cairo, area.x + area.width - 4, top, 3, thumb)
        setColor(toast.foreground ?? look.text, in: cairo, alpha: 0.5)
        cairo_fill(cairo)
      }
      cairo_restore(cairo)
    }
    if var line = layout.barBorder, line.height > 0 {
      line.y = box.y + min(shown, box.height) - line.height
      cairo_rectangle(cairo, line.x, line.y, line.width, line.height)
      setColor(look.borderBottom, in: cairo)
      cairo_fill(cairo)
    }
  }
}
