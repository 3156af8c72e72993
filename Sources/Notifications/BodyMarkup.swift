/// A notification's body, written in the specification's markup, as Pango
/// markup that is always valid, and as plain text.
///
/// One pass from left to right, in time linear in the body whatever it
/// holds (no backtracking: a tag's end is looked for only up to the next
/// `<`):
/// - `b`, `i` and `u` are kept; `a href` becomes its text, underlined;
///   `img alt` its alt text; `br` a line break; any other tag is dropped,
///   the text inside kept; a tag opened again inside itself (`<b><b>`) adds
///   nothing, so at most four are ever open; a close that does not match the
///   innermost tag closes the ones inside it too, then opens them again; the
///   ones still open at the end are closed.
/// - `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric references
///   (`&#60;`, `&#x3C;`) of a character other than U+0000 are read; any
///   other `&` is drawn as it is, as is a `<` that starts no tag.
/// - Control characters are dropped, but for tabs and line breaks (a
///   carriage return is a line break).
package enum BodyMarkup {
  /// The body as Pango markup, at most `maximumLength` Unicode scalars long
  /// (at least 17: the room for a "…" and the closing tags); a longer one
  /// is cut, ending in "…" with its tags closed.
  package static func pango(_ body: String, maximumLength: Int = .max) -> String {
    var sink = PangoSink(limit: maximumLength)
    var scanner = MarkupScanner(body)
    scanner.run(into: &sink)
    return sink.output
  }

  /// What the body says, without markup: the text screen readers hear.
  package static func plainText(_ body: String) -> String {
    var sink = PlainSink()
    var scanner = MarkupScanner(body)
    scanner.run(into: &sink)
    return sink.output
  }

  /// Plain text (a summary, an app's name) as Pango markup: `&`, `<` and `>`
  /// escaped, control characters dropped as in a body; cut like
  /// ``pango(_:maximumLength:)``.
  package static func escaped(_ text: String, maximumLength: Int = .max) -> String {
    var sink = PangoSink(limit: maximumLength)
    var scanner = MarkupScanner(text)
    scanner.runAsText(into: &sink)
    return sink.output
  }
}

/// The styles a body keeps; a link is drawn underlined, apart from `u` so
/// that each closes its own.
enum MarkupStyle: Int, CaseIterable {
  case bold, italic, underline, link

  /// The style of a tag's name (lowercase).
  init?(tag: String) {
    switch tag {
    case "b": self = .bold
    case "i": self = .italic
    case "u": self = .underline
    case "a": self = .link
    default: return nil
    }
  }

  /// The Pango tag drawing it.
  var pangoTag: String {
    switch self {
    case .bold: "b"
    case .italic: "i"
    case .underline, .link: "u"
    }
  }
}

/// Where the scanner's text and balanced styles go; `false` from ``text(_:)``
/// or ``open(_:)`` stops the scan (the sink is full).
protocol MarkupSink {
  mutating func text(_ scalar: Unicode.Scalar) -> Bool
  mutating func open(_ style: MarkupStyle) -> Bool
  mutating func close(_ style: MarkupStyle)
}

/// The body's one pass: text, entities and tags to a sink, the styles balanced.
struct MarkupScanner {
  private let scalars: [Unicode.Scalar]
  /// The styles open in the sink, innermost last (each at most once).
  private var open: [MarkupStyle] = []
  /// Per style, how many opening tags of a style already open were dropped:
  /// their closing tags are dropped too.
  private var repeated = [Int](repeating: 0, count: MarkupStyle.allCases.count)

  init(_ text: String) {
    scalars = Array(text.unicodeScalars)
  }

  /// Scans markup.
  mutating func run(into sink: inout some MarkupSink) {
    var index = 0
    scan: while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<", let tag = tag(at: index) {
        index = tag.end
        guard handle(tag, into: &sink) else { break scan }
      } else if scalar == "&", let entity = entity(at: index) {
        index = entity.end
        guard emit(entity.scalar, into: &sink) else { break scan }
      } else {
        index += 1
        guard emit(scalar, next: index, into: &sink) else { break scan }
      }
    }
    while let style = open.popLast() { sink.close(style) }
  }

  /// Scans plain text: no tag, no entity.
  mutating func runAsText(into sink: inout some MarkupSink) {
    for index in scalars.indices {
      guard emit(scalars[index], next: index + 1, into: &sink) else { return }
    }
  }

  /// Hands a scalar of text to the sink: a control character dropped, but a
  /// tab or a line feed; a carriage return a line feed (once for `\r\n`).
  private func emit(_ scalar: Unicode.Scalar, next: Int? = nil, into sink: inout some MarkupSink)
    -> Bool
  {
    if scalar == "\r" {
      if let next, next < scalars.count, scalars[next] == "\n" { return true }
      return sink.text("\n")
    }
    if scalar.value < 0x20 && scalar != "\t" && scalar != "\n" { return true }
    if (0x7F...0x9F).contains(scalar.value) { return true }
    return sink.text(scalar)
  }

  // MARK: Tags

  /// A tag: its lowercase name, whether it closes, where its attributes are
  /// and where it ends.
  private struct Tag {
    var name: String
    var isClosing: Bool
    var isEmpty: Bool
    var attributes: Range<Int>
    var end: Int
  }

  /// The tag starting at the `<` at `start`, or nil when none does: a name
  /// of ASCII letters and digits, starting with a letter, then a space, `/`
  /// or `>`; it ends at the first `>` outside quotes, and is none when a `<`
  /// or the end comes first.
  private func tag(at start: Int) -> Tag? {
    var index = start + 1
    let isClosing = index < scalars.count && scalars[index] == "/"
    if isClosing { index += 1 }
    guard index < scalars.count, isLetter(scalars[index]) else { return nil }
    var name = ""
    while index < scalars.count, isLetter(scalars[index]) || isDigit(scalars[index]) {
      name.unicodeScalars.append(lowercase(scalars[index]))
      index += 1
    }
    guard index < scalars.count,
      scalars[index] == ">" || scalars[index] == "/" || isSpace(scalars[index])
    else { return nil }
    let attributesStart = index
    var quote: Unicode.Scalar?
    while index < scalars.count {
      let scalar = scalars[index]
      if scalar == "<" { return nil }
      if let open = quote {
        if scalar == open { quote = nil }
      } else if scalar == "\"" || scalar == "'" {
        quote = scalar
      } else if scalar == ">" {
        let isEmpty = index > attributesStart && scalars[index - 1] == "/"
        return Tag(
          name: name, isClosing: isClosing, isEmpty: isEmpty,
          attributes: attributesStart..<index, end: index + 1)
      }
      index += 1
    }
    return nil
  }

  /// What a tag does: a style opened or closed, a line break, an image's
  /// alt text, or nothing.
  private mutating func handle(_ tag: Tag, into sink: inout some MarkupSink) -> Bool {
    if let style = MarkupStyle(tag: tag.name) {
      if tag.isClosing {
        close(style, into: &sink)
      } else if !tag.isEmpty {
        if open.contains(style) {
          repeated[style.rawValue] += 1
        } else {
          guard sink.open(style) else { return false }
          open.append(style)
        }
      }
      return true
    }
    guard !tag.isClosing else { return true }
    switch tag.name {
    case "br": return emit("\n", into: &sink)
    case "img":
      guard let alt = attribute("alt", in: tag.attributes) else { return true }
      let scanner = MarkupScanner(alt)
      var index = 0
      while index < scanner.scalars.count {
        if scanner.scalars[index] == "&", let entity = scanner.entity(at: index) {
          index = entity.end
          guard emit(entity.scalar, into: &sink) else { return false }
        } else {
          index += 1
          guard scanner.emit(scanner.scalars[index - 1], next: index, into: &sink) else {
            return false
          }
        }
      }
      return true
    default: return true
    }
  }

  /// Closes `style`: a repeated opening's close is dropped; the styles
  /// inside it are closed with it and opened again after (there are at most
  /// three); a style that is not open is nothing to close.
  private mutating func close(_ style: MarkupStyle, into sink: inout some MarkupSink) {
    if repeated[style.rawValue] > 0 {
      repeated[style.rawValue] -= 1
      return
    }
    guard let place = open.lastIndex(of: style) else { return }
    let inside = open[(place + 1)...]
    for inner in inside.reversed() { sink.close(inner) }
    sink.close(style)
    open.removeSubrange(place...)
    for inner in inside {
      // Opening again what was open fits: the closes made room for it.
      guard sink.open(inner) else { return }
      open.append(inner)
    }
  }

  /// The value of the attribute `name` among a tag's attributes: quoted
  /// with `"` or `'`, or bare up to a space.
  private func attribute(_ name: String, in range: Range<Int>) -> String? {
    var index = range.lowerBound
    while index < range.upperBound {
      while index < range.upperBound, isSpace(scalars[index]) || scalars[index] == "/" {
        index += 1
      }
      var key = ""
      while index < range.upperBound, !isSpace(scalars[index]), scalars[index] != "=",
        scalars[index] != "/"
      {
        key.unicodeScalars.append(lowercase(scalars[index]))
        index += 1
      }
      while index < range.upperBound, isSpace(scalars[index]) { index += 1 }
      guard index < range.upperBound, scalars[index] == "=" else { continue }
      index += 1
      while index < range.upperBound, isSpace(scalars[index]) { index += 1 }
      var value = ""
      if index < range.upperBound, scalars[index] == "\"" || scalars[index] == "'" {
        let quote = scalars[index]
        index += 1
        while index < range.upperBound, scalars[index] != quote {
          value.unicodeScalars.append(scalars[index])
          index += 1
        }
        index += 1
      } else {
        while index < range.upperBound, !isSpace(scalars[index]) {
          value.unicodeScalars.append(scalars[index])
          index += 1
        }
      }
      if key == name { return value }
    }
    return nil
  }

  // MARK: Entities

  /// The character of the entity starting at the `&` at `start` and where
  /// it ends; nil for none the specification's markup knows.
  private func entity(at start: Int) -> (scalar: Unicode.Scalar, end: Int)? {
    var index = start + 1
    let longest = 8
    if index < scalars.count, scalars[index] == "#" {
      index += 1
      let isHex = index < scalars.count && (scalars[index] == "x" || scalars[index] == "X")
      if isHex { index += 1 }
      var value: UInt32 = 0
      let digitsStart = index
      while index < scalars.count, index - digitsStart < longest,
        let digit = digitValue(scalars[index], hex: isHex)
      {
        value = value * (isHex ? 16 : 10) + digit
        index += 1
      }
      guard index > digitsStart, index < scalars.count, scalars[index] == ";", value != 0,
        let scalar = Unicode.Scalar(value)
      else { return nil }
      return (scalar, index + 1)
    }
    var name = ""
    while index < scalars.count, index - start <= longest, isLetter(scalars[index]) {
      name.unicodeScalars.append(scalars[index])
      index += 1
    }
    guard index < scalars.count, scalars[index] == ";" else { return nil }
    let scalar: Unicode.Scalar
    switch name {
    case "amp": scalar = "&"
    case "lt": scalar = "<"
    case "gt": scalar = ">"
    case "quot": scalar = "\""
    case "apos": scalar = "'"
    default: return nil
    }
    return (scalar, index + 1)
  }
}

/// Whether a scalar is an ASCII letter.
private func isLetter(_ scalar: Unicode.Scalar) -> Bool {
  ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
}

/// Whether a scalar is an ASCII digit.
private func isDigit(_ scalar: Unicode.Scalar) -> Bool { ("0"..."9").contains(scalar) }

/// Whether a scalar is XML's white space.
private func isSpace(_ scalar: Unicode.Scalar) -> Bool {
  scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r"
}

/// An ASCII letter in lowercase; any other scalar as it is.
private func lowercase(_ scalar: Unicode.Scalar) -> Unicode.Scalar {
  ("A"..."Z").contains(scalar) ? Unicode.Scalar(scalar.value + 32)! : scalar
}

/// The value of a decimal or hexadecimal digit.
private func digitValue(_ scalar: Unicode.Scalar, hex: Bool) -> UInt32? {
  if isDigit(scalar) { return scalar.value - 0x30 }
  guard hex else { return nil }
  if ("a"..."f").contains(scalar) { return scalar.value - 0x61 + 10 }
  if ("A"..."F").contains(scalar) { return scalar.value - 0x41 + 10 }
  return nil
}

/// Pango markup within a length: text escaped, styles as Pango's tags.
private struct PangoSink: MarkupSink {
  var output = ""
  /// Scalars in ``output``.
  private var length = 0
  private let limit: Int
  /// Styles open in ``output``: the room their closing tags need is kept.
  private var openCount = 0
  /// Whether the text was cut.
  private var isCut = false

  init(limit: Int) {
    self.limit = max(limit, 17)
  }

  /// Appends `piece` of `size` scalars when it fits with the closing tags
  /// then open; else ends the text with "…".
  private mutating func append(_ piece: String, size: Int, opening: Bool) -> Bool {
    guard !isCut else { return false }
    let room = 4 * (openCount + (opening ? 1 : 0)) + 1
    guard length + size + room <= limit else {
      output += "…"
      length += 1
      isCut = true
      return false
    }
    output += piece
    length += size
    return true
  }

  mutating func text(_ scalar: Unicode.Scalar) -> Bool {
    switch scalar {
    case "&": return append("&amp;", size: 5, opening: false)
    case "<": return append("&lt;", size: 4, opening: false)
    case ">": return append("&gt;", size: 4, opening: false)
    default: return append(String(scalar), size: 1, opening: false)
    }
  }

  mutating func open(_ style: MarkupStyle) -> Bool {
    guard append("<\(style.pangoTag)>", size: 3, opening: true) else { return false }
    openCount += 1
    return true
  }

  mutating func close(_ style: MarkupStyle) {
    output += "</\(style.pangoTag)>"
    length += 4
    openCount -= 1
  }
}

/// The text alone.
private struct PlainSink: MarkupSink {
  var output = ""

  mutating func text(_ scalar: Unicode.Scalar) -> Bool {
    output.unicodeScalars.append(scalar)
    return true
  }

  mutating func open(_ style: MarkupStyle) -> Bool { true }
  mutating func close(_ style: MarkupStyle) {}
}
