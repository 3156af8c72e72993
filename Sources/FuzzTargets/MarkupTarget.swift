import ToastModel
import ToastRendering

/// A message as Pango markup: checked as the presenter checks it, then laid out, as
/// markup and as literal text, as a HUD and a card on a wide output and as a
/// banner on a narrow one. Whatever the message, the layout keeps the design's
/// promises: at most three lines in a HUD, eight in a card and one in a banner,
/// the box on its surface, and text, shrunk if need be, no wider than its box.
func fuzzMarkup(_ input: [UInt8]) throws(InvariantViolation) {
  let markup = text(of: input)
  _ = TextBlock.markupError(markup)
  let outputs: [(style: Toast.Style, width: Int, height: Int, lines: Int)] = [
    (.hud, 1920, 1080, Design.HUD.maximumLines), (.banner, 360, 640, 1),
    (.card, 1920, 1080, Design.Card.maximumLines),
  ]
  var toast = Toast(markup)
  for isMarkup in [true, false] {
    toast.isMarkup = isMarkup
    for output in outputs {
      toast.style = output.style
      let layout = ToastLayout(
        toast: toast, outputWidth: output.width, outputHeight: output.height)
      let name = "\(output.style.rawValue)\(isMarkup ? " markup" : "")"
      try require(
        layout.text.lineCount <= output.lines, "\(name): \(layout.text.lineCount) lines of text")
      let box = layout.box
      try require(
        box.x >= 0 && box.y >= 0 && box.x + box.width <= Double(layout.surfaceWidth)
          && box.y + box.height <= Double(layout.surfaceHeight),
        "\(name): box \(box) outside a \(layout.surfaceWidth)x\(layout.surfaceHeight) surface")
      // Centred on the box, the text may take its padding (Pango lets a space at
      // the end of a line hang past the wrap width), never more.
      let width = layout.text.width * layout.textScale
      try require(width <= box.width, "\(name): text \(width) wide in a box \(box.width) wide")
    }
  }
}
