import ToastModel

/// A rectangle in logical pixels.
public struct Rect: Equatable, Sendable {
  /// Left edge.
  public var x: Double
  /// Top edge.
  public var y: Double
  /// Width.
  public var width: Double
  /// Height.
  public var height: Double

  /// Creates a rectangle.
  public init(x: Double, y: Double, width: Double, height: Double) {
    self.x = x
    self.y = y
    self.width = width
    self.height = height
  }

  /// The horizontal centre.
  public var midX: Double { x + width / 2 }
  /// The vertical centre.
  public var midY: Double { y + height / 2 }

  /// Whether a point lies inside.
  public func contains(x px: Double, y py: Double) -> Bool {
    px >= x && px < x + width && py >= y && py < y + height
  }
}

/// Text shaped to wrap at the room's width, and the factor it is drawn at: 1
/// when it fits. Text too large for the room (a huge font) is shaped again at
/// the width it will have once shrunk, so that it wraps and ellipsizes as if
/// the room were that large, then shrunk into the room.
func fittedText(
  into room: (width: Double, height: Double), _ make: (_ wrapWidth: Double) -> TextBlock
) -> (TextBlock, Double) {
  let text = make(room.width)
  let scale = scaleToFit(text, into: room)
  guard scale < 1 else { return (text, 1) }
  let larger = make(room.width / scale)
  return (larger, scaleToFit(larger, into: room))
}

/// The factor that shrinks `text` into `room` (1 when it fits): the same for
/// width and height, so that glyphs keep their shape.
func scaleToFit(_ text: TextBlock, into room: (width: Double, height: Double)) -> Double {
  var scale = 1.0
  if text.width > room.width { scale = min(scale, max(room.width, 1) / text.width) }
  if text.height > room.height { scale = min(scale, max(room.height, 1) / text.height) }
  return scale.isFinite && scale > 0 ? scale : 1
}

/// `value` rounded up to an even number of pixels.
///
/// Centred surfaces have even sizes, so that every compositor centres them on
/// the same pixel: half of an odd size rounds up on one and down on another.
func evenCeiling(_ value: Double) -> Double { (value / 2).rounded(.up) * 2 }

/// `value` rounded down to an even number of pixels.
func evenFloor(_ value: Double) -> Double { (value / 2).rounded(.down) * 2 }

/// Where everything of a toast goes, in logical pixels: the surface size, the
/// box, the icon, the text, the spinner and the progress bar.
///
/// Computed from the toast and the output alone, without Wayland.
public struct ToastLayout {
  /// Surface width.
  public let surfaceWidth: Int
  /// Surface height.
  public let surfaceHeight: Int
  /// The box (HUD, card) or pill (banner) at rest.
  public let box: Rect
  /// Corner radius of the box.
  public let cornerRadius: Double
  /// The shaped text.
  public let text: TextBlock
  /// Where the text's wrap box starts.
  public let textOrigin: (x: Double, y: Double)
  /// How much the text is shrunk to fit the output (1: not at all): a font too
  /// large for the screen is drawn smaller, never past the output's edges.
  public let textScale: Double
  /// The icon's square, when the toast has one: above the spinner and the
  /// text in a HUD, left of the text in a banner and a card.
  public let icon: Rect?
  /// The activity indicator, when shown.
  public let spinner: Rect?
  /// The progress bar's track, when shown.
  public let progressBar: Rect?
  /// The buttons, in the order of ``ToastModel/Toast/buttons``: a row under everything
  /// else in a HUD and a card, at the right of the text in a banner.
  public let buttons: [ButtonLayout]
  /// Whether the surface covers the output (modal).
  public let coversOutput: Bool
  /// How far the banner's pill starts from its place before it slides in:
  /// negative from above, positive from below, zero for no slide.
  public let slideDistance: Double
  /// A bar's details area, when it has details and they are open.
  public let details: DetailsLayout?
  /// The line along a bar's inner edge.
  public let barBorder: Rect?
  /// The logical pixels the surface reserves at its edge (a bar's row), 0 for none.
  public let exclusiveZone: Int

  /// Lays out `toast` for an output of the given logical size. A modal toast
  /// fills `surfaceSize` (the size the compositor configured) when given.
  ///
  /// A HUD or a card at the centre is moved by `shift` logical pixels down
  /// (negative: up) inside its surface, as its offset moves it: the place in a stack of
  /// toasts (see ``Stacking``). At the edges the layer-shell margins move the
  /// surface instead (see ``Placement``).
  ///
  /// A bar's details take room only when `detailsOpen`.
  ///
  /// A HUD's or a banner's text shaped as in `previous` (the layout this one
  /// replaces) is taken from it rather than shaped again.
  public init(
    toast: Toast, outputWidth: Int, outputHeight: Int,
    surfaceSize: (width: Int, height: Int)? = nil, shift: Double = 0, detailsOpen: Bool = false,
    reusing previous: ToastLayout? = nil
  ) {
    let output = (width: Double(max(outputWidth, 1)), height: Double(max(outputHeight, 1)))
    switch toast.style {
    case .hud:
      self.init(
        hud: toast, output: output, surfaceSize: surfaceSize, shift: shift,
        previousText: previous?.text)
    case .card:
      self.init(
        card: toast, output: output, surfaceSize: surfaceSize, shift: shift,
        previousText: previous?.text)
    case .banner:
      self.init(
        banner: toast, output: output, surfaceSize: surfaceSize, previousText: previous?.text)
    case .bar:
      self.init(bar: toast, output: output, detailsOpen: detailsOpen)
    }
  }

  private init(
    hud toast: Toast, output: (width: Double, height: Double),
    surfaceSize: (width: Int, height: Int)?, shift: Double, previousText: TextBlock?
  ) {
    let padding = Design.HUD.padding
    let maximumWidth = max(
      Design.HUD.minimumSize.width, evenFloor(output.width * Design.HUD.maximumWidthShare))
    let shadow = Design.HUD.shadowPadding
    // The box may fill the output's height at most; the text gets what the
    // spinner and the bar leave of it.
    let maximumHeight = max(Design.HUD.minimumSize.height, evenFloor(output.height - 2 * shadow))
    let iconSize = toast.hasIcon ? Design.HUD.iconSize : nil
    let row = ButtonRow(toast.buttons, room: maximumWidth - 2 * padding)
    var others: [Double] = []
    if let iconSize { others.append(iconSize) }
    if toast.showsSpinner { others.append(Design.HUD.spinnerSize) }
    if toast.progress != nil { others.append(Design.HUD.progressHeight) }
    if !toast.buttons.isEmpty { others.append(Design.Buttons.height) }
    let textRoom = (
      width: maximumWidth - 2 * padding,
      height: maximumHeight - 2 * padding - others.reduce(0, +) - padding * Double(others.count)
    )
    let (text, textScale) = fittedText(into: textRoom) { wrapWidth in
      TextBlock.shaped(
        text: toast.text, isMarkup: toast.isMarkup, font: toast.font ?? Design.HUD.font,
        wrapWidth: wrapWidth, maximumLines: Design.HUD.maximumLines, reusing: previousText)
    }
    let hasText = !text.isEmpty
    let textSize = (width: text.width * textScale, height: text.height * textScale)
    var contentWidth = hasText ? textSize.width : 0
    if let iconSize { contentWidth = max(contentWidth, iconSize) }
    if toast.showsSpinner { contentWidth = max(contentWidth, Design.HUD.spinnerSize) }
    if toast.progress != nil { contentWidth = max(contentWidth, Design.HUD.progressMinimumWidth) }
    contentWidth = max(contentWidth, row.width)
    let boxWidth = min(
      maximumWidth, max(Design.HUD.minimumSize.width, evenCeiling(contentWidth + 2 * padding)))

    var items: [Double] = []
    if let iconSize { items.append(iconSize) }
    if toast.showsSpinner { items.append(Design.HUD.spinnerSize) }
    if hasText { items.append(textSize.height) }
    if toast.progress != nil { items.append(Design.HUD.progressHeight) }
    if !toast.buttons.isEmpty { items.append(Design.Buttons.height) }
    let contentHeight =
      items.reduce(0, +) + Design.HUD.padding * Double(max(items.count - 1, 0))
    let boxHeight = min(
      maximumHeight, max(Design.HUD.minimumSize.height, evenCeiling(contentHeight + 2 * padding)))

    let covers = toast.isModal
    let surface: (width: Double, height: Double)
    // Keep the whole box on the output, however large the offset.
    let maxOffsetX = max(0, ((output.width - boxWidth) / 2 - shadow).rounded(.down))
    let maxOffsetY = max(0, ((output.height - boxHeight) / 2 - shadow).rounded(.down))
    // The offset moves the box inside a centred surface along the axes that
    // are not anchored; along anchored ones the margins move the surface.
    let edges = toast.effectivePosition.edges
    let freeX = edges.isDisjoint(with: [.left, .right])
    let freeY = edges.isDisjoint(with: [.top, .bottom])
    let wantedX = freeX ? Double(toast.offset.x) : 0
    let wantedY = (freeY ? Double(toast.offset.y) : 0) + (edges.isEmpty ? shift.rounded() : 0)
    let offsetX = min(max(wantedX, -maxOffsetX), maxOffsetX)
    let offsetY = min(max(wantedY, -maxOffsetY), maxOffsetY)
    if covers {
      surface = (
        Double(surfaceSize?.width ?? Int(output.width)),
        Double(surfaceSize?.height ?? Int(output.height))
      )
    } else {
      // A centred surface large enough for the box moved by the offset.
      surface = (
        boxWidth + 2 * shadow + 2 * abs(offsetX), boxHeight + 2 * shadow + 2 * abs(offsetY)
      )
    }
    let box = Rect(
      x: ((surface.width - boxWidth) / 2 + offsetX).rounded(.down),
      y: ((surface.height - boxHeight) / 2 + offsetY).rounded(.down),
      width: boxWidth, height: boxHeight)

    // Top to bottom: the icon, the spinner, the text, the bar.
    var y = box.y + ((boxHeight - contentHeight) / 2).rounded(.down)
    var icon: Rect?
    if let iconSize {
      icon = Rect(
        x: (box.midX - iconSize / 2).rounded(.down), y: y, width: iconSize, height: iconSize)
      y += iconSize + Design.HUD.padding
    }
    var spinner: Rect?
    if toast.showsSpinner {
      spinner = Rect(
        x: box.midX - Design.HUD.spinnerSize / 2, y: y, width: Design.HUD.spinnerSize,
        height: Design.HUD.spinnerSize)
      y += Design.HUD.spinnerSize + Design.HUD.padding
    }
    let textOrigin = (x: box.midX - text.wrapWidth * textScale / 2, y: y)
    if hasText { y += textSize.height + Design.HUD.padding }
    var progressBar: Rect?
    if toast.progress != nil {
      let width = min(
        box.width - 2 * padding, max(Design.HUD.progressMinimumWidth, textSize.width))
      progressBar = Rect(
        x: box.midX - width / 2, y: y, width: width, height: Design.HUD.progressHeight)
      y += Design.HUD.progressHeight + Design.HUD.padding
    }
    self.buttons = row.placed(x: box.midX - row.width / 2, y: y)
    self.surfaceWidth = Int(surface.width)
    self.surfaceHeight = Int(surface.height)
    self.box = box
    self.cornerRadius = Design.HUD.cornerRadius
    self.text = text
    self.textOrigin = textOrigin
    self.textScale = textScale
    self.icon = icon
    self.spinner = spinner
    self.progressBar = progressBar
    self.coversOutput = covers
    self.slideDistance = 0
    self.details = nil
    self.barBorder = nil
    self.exclusiveZone = 0
  }

  private init(
    banner toast: Toast, output: (width: Double, height: Double),
    surfaceSize: (width: Int, height: Int)?, previousText: TextBlock?
  ) {
    let padding = Design.Banner.padding
    let maximumWidth = max(
      Design.Banner.minimumTextWidth + 2 * padding,
      evenFloor(output.width - 2 * Design.Banner.sideMargin))
    // The icon and its gap take room from the text and widen the pill, and
    // so do the buttons at its right (at most 60 % of the pill).
    let iconRoom = toast.hasIcon ? Design.Banner.iconSize + Design.Banner.iconGap : 0
    let row = ButtonRow(toast.buttons, room: ((maximumWidth - 2 * padding) * 0.6).rounded(.down))
    let rowRoom = toast.buttons.isEmpty ? 0 : row.width + Design.Buttons.gap
    // One line inside the pill: a font too tall for it is drawn smaller.
    let (text, textScale) = fittedText(
      into: (
        max(maximumWidth - 2 * padding - iconRoom - rowRoom, 1), Design.Banner.height - padding
      )
    ) { wrapWidth in
      TextBlock.shaped(
        text: toast.text, isMarkup: toast.isMarkup, font: toast.font ?? Design.Banner.font,
        wrapWidth: wrapWidth, maximumLines: 1, reusing: previousText)
    }
    let textSize = (width: text.width * textScale, height: text.height * textScale)
    let pillWidth = min(
      maximumWidth,
      evenCeiling(
        max(Design.Banner.minimumTextWidth, textSize.width) + iconRoom + rowRoom + 2 * padding))
    let shadow = Design.Banner.shadowPadding
    let covers = toast.isModal
    let surface: (width: Double, height: Double)
    if covers {
      surface = (
        Double(surfaceSize?.width ?? Int(output.width)),
        Double(surfaceSize?.height ?? Int(output.height))
      )
    } else {
      surface = (pillWidth + 2 * shadow, Design.Banner.topGap + Design.Banner.height + shadow)
    }
    // At the bottom the pill rests above its gap and slides up into place;
    // elsewhere below its gap, sliding down (a centre or side banner only fades).
    let position = toast.effectivePosition
    let fromBelow = !covers && position.edges.contains(.bottom)
    let box = Rect(
      x: ((surface.width - pillWidth) / 2).rounded(.down),
      y: fromBelow ? shadow : Design.Banner.topGap, width: pillWidth, height: Design.Banner.height)
    let hasProgress = toast.progress != nil
    let textTop = box.midY - textSize.height / 2 - (hasProgress ? 3 : 0)
    let textMiddle = box.midY - (hasProgress ? 3 : 0)
    // The icon, the text and the buttons as one group, centred in the pill.
    var group = toast.hasIcon ? Design.Banner.iconSize : 0
    if !text.isEmpty || !toast.buttons.isEmpty { group = iconRoom + textSize.width }
    group += rowRoom
    let left = (box.midX - group / 2).rounded(.down)
    let textMiddleX =
      !toast.hasIcon && toast.buttons.isEmpty ? box.midX : left + iconRoom + textSize.width / 2
    var icon: Rect?
    if toast.hasIcon {
      let size = Design.Banner.iconSize
      icon = Rect(x: left, y: (textMiddle - size / 2).rounded(.down), width: size, height: size)
    }
    self.buttons = row.placed(
      x: left + iconRoom + textSize.width + Design.Buttons.gap,
      y: textMiddle - Design.Buttons.height / 2)
    self.surfaceWidth = Int(surface.width)
    self.surfaceHeight = Int(surface.height)
    self.box = box
    self.cornerRadius = Design.Banner.cornerRadius
    self.text = text
    self.textOrigin = (x: textMiddleX - text.wrapWidth * textScale / 2, y: textTop.rounded(.down))
    self.textScale = textScale
    self.icon = icon
    self.spinner = nil
    self.progressBar =
      hasProgress
      ? Rect(
        x: box.x + Design.Banner.cornerRadius, y: box.y + box.height - 9,
        width: box.width - 2 * Design.Banner.cornerRadius, height: 3) : nil
    self.coversOutput = covers
    self.details = nil
    self.barBorder = nil
    self.exclusiveZone = 0
    if fromBelow {
      slideDistance = Design.Banner.slideDistance
    } else if covers || position.edges.contains(.top) {
      slideDistance = -Design.Banner.slideDistance
    } else {
      slideDistance = 0
    }
  }

  /// Whether the two layouts draw the same picture: the same sizes and places,
  /// for the same toast.
  public func drawsLike(_ other: ToastLayout) -> Bool {
    surfaceWidth == other.surfaceWidth && surfaceHeight == other.surfaceHeight
      && box == other.box && textOrigin == other.textOrigin && textScale == other.textScale
      && text.wrapWidth == other.text.wrapWidth && icon == other.icon && spinner == other.spinner
      && progressBar == other.progressBar && coversOutput == other.coversOutput
      && buttons.map(\.frame) == other.buttons.map(\.frame)
      && details?.area == other.details?.area && barBorder == other.barBorder
      && slideDistance == other.slideDistance
  }

  /// The box at a moment of the banner's slide (the HUD does not move).
  public func box(at appearance: Appearance) -> Rect {
    var moved = box
    moved.y += slideDistance * (1 - appearance.slide)
    return moved
  }
}
