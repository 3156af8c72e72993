import ToastModel

extension ToastLayout {
  /// A notification's card, as mako and dunst draw one: a box of
  /// ``Design/Card/width`` (less on a narrow output), the icon at its top
  /// left, the text beside it at the left (at most
  /// ``Design/Card/maximumLines`` lines in all, then an ellipsis) with the
  /// progress bar under it, both centred on the icon when shorter, and the
  /// buttons in a row at the right under everything. The box is as tall as
  /// its content.
  ///
  /// At an edge the layer-shell margins place the surface (see
  /// ``Placement``); at the centre the box moves `shift` logical pixels down
  /// inside its surface, as a HUD's does; a modal card rests at its place
  /// inside the surface that covers the output.
  init(
    card toast: Toast, output: (width: Double, height: Double),
    surfaceSize: (width: Int, height: Int)?, shift: Double, previousText: TextBlock?
  ) {
    let padding = Design.Card.padding
    let gap = Design.Card.gap
    let shadow = Design.Card.shadowPadding
    let margin = Double(toast.effectiveMargin)
    let boxWidth = max(
      Design.Card.minimumWidth, min(Design.Card.width, evenFloor(output.width - 2 * margin)))
    let maximumHeight = max(
      Design.Card.iconSize + 2 * padding, evenFloor(output.height - 2 * shadow))
    let iconSize: Double? = toast.hasIcon ? Design.Card.iconSize : nil
    // The text's column: right of the icon, to the padding.
    let columnLeft = padding + (iconSize.map { $0 + gap } ?? 0)
    let columnWidth = max(boxWidth - columnLeft - padding, 1)
    let row = ButtonRow(toast.buttons, room: boxWidth - 2 * padding)
    var others = 0.0
    if toast.progress != nil { others += gap + Design.Card.progressHeight }
    if !toast.buttons.isEmpty { others += gap + Design.Buttons.height }
    let (text, textScale) = fittedText(
      into: (columnWidth, max(maximumHeight - 2 * padding - others, 1))
    ) { wrapWidth in
      TextBlock.shaped(
        text: toast.text, isMarkup: toast.isMarkup, font: toast.font ?? Design.Card.font,
        wrapWidth: wrapWidth, maximumLines: Design.Card.maximumLines, alignment: .left,
        lineLimit: .wholeText, reusing: previousText)
    }
    let hasText = !text.isEmpty
    // Whole pixels, so that the bar and the buttons below are sharp.
    let textHeight = hasText ? (text.height * textScale).rounded(.up) : 0
    var column = textHeight
    if toast.progress != nil { column += (hasText ? gap : 0) + Design.Card.progressHeight }
    let upper = max(column, iconSize ?? 0)
    var contentHeight = upper
    if !toast.buttons.isEmpty { contentHeight += (upper > 0 ? gap : 0) + Design.Buttons.height }
    let boxHeight = min(maximumHeight, evenCeiling(contentHeight + 2 * padding))

    let covers = toast.isModal
    let edges = toast.effectivePosition.edges
    let surface: (width: Double, height: Double)
    let box: Rect
    if covers {
      surface = (
        Double(surfaceSize?.width ?? Int(output.width)),
        Double(surfaceSize?.height ?? Int(output.height))
      )
      // Where the card would rest on the output, inside the covering surface.
      func place(_ size: Double, in room: Double, start: Bool, end: Bool) -> Double {
        if start { return margin }
        if end { return room - margin - size }
        return ((room - size) / 2).rounded(.down)
      }
      box = Rect(
        x: place(
          boxWidth, in: surface.width, start: edges.contains(.left), end: edges.contains(.right)),
        y: place(
          boxHeight, in: surface.height, start: edges.contains(.top),
          end: edges.contains(.bottom)),
        width: boxWidth, height: boxHeight)
    } else {
      // At the centre the box moves inside a surface large enough for the
      // move, kept on the output; at an edge the margins move the surface.
      let maxOffset = max(0, ((output.height - boxHeight) / 2 - shadow).rounded(.down))
      let offset = edges.isEmpty ? min(max(shift.rounded(), -maxOffset), maxOffset) : 0
      surface = (boxWidth + 2 * shadow, boxHeight + 2 * shadow + 2 * abs(offset))
      box = Rect(
        x: shadow, y: shadow + abs(offset) + offset, width: boxWidth, height: boxHeight)
    }

    let top = box.y + padding
    let columnTop = top + max(((iconSize ?? 0) - column) / 2, 0).rounded(.down)
    var progressBar: Rect?
    if toast.progress != nil {
      progressBar = Rect(
        x: box.x + columnLeft, y: columnTop + textHeight + (hasText ? gap : 0),
        width: columnWidth, height: Design.Card.progressHeight)
    }
    self.buttons = row.placed(
      x: box.x + boxWidth - padding - row.width, y: top + upper + (upper > 0 ? gap : 0))
    self.surfaceWidth = Int(surface.width)
    self.surfaceHeight = Int(surface.height)
    self.box = box
    self.cornerRadius = Design.Card.cornerRadius
    self.text = text
    self.textOrigin = (box.x + columnLeft, columnTop)
    self.textScale = textScale
    self.icon = iconSize.map { Rect(x: box.x + padding, y: top, width: $0, height: $0) }
    self.spinner = nil
    self.progressBar = progressBar
    self.coversOutput = covers
    self.slideDistance = 0
    self.details = nil
    self.barBorder = nil
    self.exclusiveZone = 0
  }
}
