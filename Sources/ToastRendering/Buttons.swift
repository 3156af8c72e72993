import CPangoCairo
import ToastModel

/// One button of a toast: where it is and its shaped label, in logical
/// pixels of the surface (at rest).
public struct ButtonLayout {
  /// The button's rectangle.
  public let frame: Rect
  /// The shaped label: one line, ellipsized when the button was shrunk.
  public let label: TextBlock
  /// Where the label's wrap box starts.
  public let labelOrigin: (x: Double, y: Double)
}

/// A row of buttons measured for `room` logical pixels: each as wide as its
/// label plus padding (at least ``Design/Buttons/minimumWidth``); a row wider
/// than the room is shrunk evenly (labels ellipsized), no button narrower
/// than ``Design/Buttons/shrunkWidth``.
struct ButtonRow {
  /// The buttons' widths, in order.
  let widths: [Double]
  /// The shaped labels, in order.
  let labels: [TextBlock]

  /// The row's width, gaps included; 0 without buttons.
  var width: Double {
    widths.reduce(0, +) + Design.Buttons.gap * Double(max(widths.count - 1, 0))
  }

  init(_ titles: [String], room: Double) {
    let padding = Design.Buttons.padding
    func shaped(_ title: String, width: Double) -> TextBlock {
      TextBlock(
        text: title, isMarkup: false, font: Design.Buttons.font, wrapWidth: width,
        maximumLines: 1)
    }
    var labels = titles.map { shaped($0, width: 4096) }
    var widths = labels.map {
      max(Design.Buttons.minimumWidth, ($0.width + 2 * padding).rounded(.up))
    }
    let gaps = Design.Buttons.gap * Double(max(titles.count - 1, 0))
    let natural = widths.reduce(0, +)
    if natural + gaps > room && natural > 0 {
      let share = max(room - gaps, 0) / natural
      widths = widths.map { max(Design.Buttons.shrunkWidth, ($0 * share).rounded(.down)) }
      labels = zip(titles, widths).map { shaped($0, width: max($1 - 2 * padding, 1)) }
    }
    self.widths = widths
    self.labels = labels
  }

  /// The buttons placed left to right from `x`, their tops at `y`.
  func placed(x: Double, y: Double) -> [ButtonLayout] {
    var left = x.rounded(.down)
    var buttons: [ButtonLayout] = []
    for (width, label) in zip(widths, labels) {
      let frame = Rect(x: left, y: y.rounded(.down), width: width, height: Design.Buttons.height)
      buttons.append(
        ButtonLayout(
          frame: frame, label: label,
          labelOrigin: (frame.midX - label.wrapWidth / 2, frame.midY - label.height / 2)))
      left += width + Design.Buttons.gap
    }
    return buttons
  }
}

extension ToastLayout {
  /// The index of the button at a point of the surface (at rest), if any.
  public func button(atX x: Double, y: Double) -> Int? {
    buttons.firstIndex { $0.frame.contains(x: x, y: y) }
  }
}

extension Renderer {
  /// Draws the buttons moved down by `dy` (the banner's slide): each filled
  /// with the text colour, more strongly when pressed, its label in the text
  /// colour, and a ring around the focused one.
  static func drawButtons(
    _ buttons: [ButtonLayout], states: Interaction, dy: Double, color: Toast.Color,
    in cairo: OpaquePointer
  ) {
    for (index, button) in buttons.enumerated() {
      var frame = button.frame
      frame.y += dy
      roundedRectangle(frame, radius: Design.Buttons.cornerRadius, in: cairo)
      let fill =
        states.pressed == index ? Design.Buttons.pressedOpacity : Design.Buttons.fillOpacity
      setColor(color, in: cairo, alpha: fill)
      cairo_fill(cairo)
      if states.focused == index {
        let ring = Design.Buttons.focusRingWidth
        var outline = frame
        outline.x += ring / 2
        outline.y += ring / 2
        outline.width -= ring
        outline.height -= ring
        roundedRectangle(outline, radius: Design.Buttons.cornerRadius - ring / 2, in: cairo)
        setColor(color, in: cairo)
        cairo_set_line_width(cairo, ring)
        cairo_stroke(cairo)
      }
      setColor(color, in: cairo)
      button.label.draw(in: cairo, x: button.labelOrigin.x, y: button.labelOrigin.y + dy, scale: 1)
    }
  }
}
