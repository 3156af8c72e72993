import ToastModel
import ToastProtocol

/// What a `wl-toast status` line says of a showing toast.
package struct ToastStatus {
  /// The toast's text.
  package var text: String
  /// The toast's progress in percent, as the line gives it; nil without a bar.
  package var progress: Double?
  /// The owner's pid.
  package var owner: Int32
  /// How many surfaces the owner has created.
  package var surfaces: Int
  /// How the toast's surfaces are drawn.
  package var drawn: [DrawnSurface]
  /// Where the owner stands with screen readers; nil when the line does not say.
  package var screenReaders: String?
  /// Do-not-disturb's state: `on` or `off`.
  package var doNotDisturb: String?
  /// Where the toast's sound stands (`waiting`, `playing`, `played`,
  /// `failed`); nil without one.
  package var sound: String?
  /// Why its sound failed.
  package var soundProblem: String?
  /// The whole line, parsed, for what the fields above leave out.
  package var json: JSONValue

  /// Reads a status line (with or without its newline).
  package init(line: String) throws {
    let value = try JSONValue.parse(line.hasSuffix("\n") ? String(line.dropLast()) : line)
    json = value
    text = value["toast"]?["text"]?.stringValue ?? ""
    progress = value["toast"]?["progress"]?.doubleValue
    owner = Int32(value["owner"]?.doubleValue ?? 0)
    surfaces = Int(value["surfaces"]?.doubleValue ?? 0)
    drawn = []
    if case .array(let items)? = value["drawn"] { drawn = items.compactMap(DrawnSurface.init) }
    screenReaders = value["screen-readers"]?.stringValue
    doNotDisturb = value["do-not-disturb"]?.stringValue
    sound = value["sound"]?.stringValue
    soundProblem = value["sound-problem"]?.stringValue
  }
}
