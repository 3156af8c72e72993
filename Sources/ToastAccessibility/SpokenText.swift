import CPangoCairo
import ToastModel

extension Toast {
  /// What a screen reader says for the toast: ``accessibleText``, or the text
  /// as drawn (markup stripped, the way Pango reads it), then the progress as
  /// "Volume, 40 percent" unless the text already shows that percentage
  /// ("Volume 40%"). Empty when there is nothing to say.
  package var spokenText: String {
    let words = accessibleText ?? (isMarkup ? Self.plainText(ofMarkup: text) : text)
    let trimmed = Self.collapsingWhitespace(words)
    guard let progress else { return trimmed }
    let percent = Int((progress * 100).rounded())
    if Self.shows(percent: percent, in: trimmed) { return trimmed }
    return trimmed.isEmpty ? "\(percent) percent" : "\(trimmed), \(percent) percent"
  }

  /// The text of Pango markup without its tags and with its entities read;
  /// the markup itself when it is not valid (a presenter refuses such a toast;
  /// `wl-toast-owner render` and a sway mode's name show it as it is).
  package static func plainText(ofMarkup markup: String) -> String {
    var text: UnsafeMutablePointer<CChar>?
    guard pango_parse_markup(markup, -1, 0, nil, &text, nil, nil) != 0, let text else {
      return markup
    }
    defer { g_free(text) }
    return String(cString: text)
  }

  /// Whether `text` shows `percent` as a percentage ("40%" or "40 %"), not as
  /// the end of another number ("140%").
  static func shows(percent: Int, in text: String) -> Bool {
    let characters = Array(text.filter { !$0.isWhitespace })
    let wanted = Array("\(percent)%")
    guard characters.count >= wanted.count else { return false }
    for start in 0...(characters.count - wanted.count)
    where Array(characters[start..<start + wanted.count]) == wanted {
      if start == 0 || !(characters[start - 1].isNumber || characters[start - 1] == ".") {
        return true
      }
    }
    return false
  }

  /// Lines and runs of spaces as single spaces, none at either end: a screen
  /// reader reads a line break in a name as a pause at best.
  static func collapsingWhitespace(_ text: String) -> String {
    text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  }
}
