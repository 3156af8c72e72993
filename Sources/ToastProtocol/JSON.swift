/// A JSON value.
///
/// ``parse(_:maximumDepth:)`` reads strict RFC 8259 JSON and ``serialized``
/// writes compact JSON with sorted object keys, so that equal values give
/// equal text.
package enum JSONValue: Equatable, Sendable {
  /// `null`.
  case null
  /// `true` or `false`.
  case bool(Bool)
  /// A number. JSON does not tell integers from fractions, so all are doubles.
  case number(Double)
  /// A string.
  case string(String)
  /// An array.
  case array([JSONValue])
  /// An object. Member order is not kept; of duplicate keys the last one wins.
  case object([String: JSONValue])

  /// Parses one JSON text (RFC 8259): surrounding whitespace allowed, nothing
  /// else after the value.
  ///
  /// The grammar is strict: no comments, trailing commas, single quotes,
  /// leading zeros, leading `+`, `NaN` or `Infinity`, and no raw control
  /// characters in strings. Numbers too large for a `Double` are rejected.
  /// Arrays and objects nested deeper than `maximumDepth` are rejected. The
  /// parser recurses once per level, so the limit also bounds its stack use:
  /// keep it modest.
  ///
  /// - Parameters:
  ///   - text: The JSON text.
  ///   - maximumDepth: How many arrays and objects may be open at once.
  /// - Throws: A ``JSONError`` with the byte offset where the text went wrong.
  package static func parse(_ text: String, maximumDepth: Int = 32) throws(JSONError) -> JSONValue {
    var parser = Parser(bytes: Array(text.utf8), maximumDepth: maximumDepth)
    let value = try parser.parseValue()
    parser.skipWhitespace()
    guard parser.index == parser.bytes.count else {
      throw JSONError("unexpected content after the value", offset: parser.index)
    }
    return value
  }

  /// Compact JSON text; object keys sorted for stable output; strings escaped
  /// (`"`, `\`, control characters as `\uXXXX`, `\n`, `\t` and the like);
  /// numbers that are whole and |x| < 2^53 printed without `.0`; non-finite
  /// numbers written as `null`.
  package var serialized: String {
    var text = ""
    write(into: &text)
    return text
  }

  /// Appends ``serialized``'s text to `text`. (Loops of its own: the
  /// standard library's `joined(separator:)` is generic code whose types the
  /// runtime looks up when a command first runs it.)
  package func write(into text: inout String) {
    switch self {
    case .null: text += "null"
    case .bool(let bool): text += bool ? "true" : "false"
    case .number(let number): writeNumber(number, into: &text)
    case .string(let string): writeQuoted(string, into: &text)
    case .array(let elements):
      text += "["
      for (index, element) in elements.enumerated() {
        if index > 0 { text += "," }
        element.write(into: &text)
      }
      text += "]"
    case .object(let members):
      var writer = JSONObjectWriter()
      for (key, value) in members.sorted(by: { $0.key < $1.key }) { writer.member(key, value) }
      text += writer.closed
    }
  }

  /// The member of an object, or nil (also nil for non-objects).
  package subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// The string, or nil if this is not a string.
  package var stringValue: String? {
    guard case .string(let string) = self else { return nil }
    return string
  }

  /// The number, or nil if this is not a number.
  package var doubleValue: Double? {
    guard case .number(let number) = self else { return nil }
    return number
  }

  /// The Boolean, or nil if this is not `true` or `false`.
  package var boolValue: Bool? {
    guard case .bool(let bool) = self else { return nil }
    return bool
  }

  /// Whether this is `null`.
  package var isNull: Bool { self == .null }
}

/// Why a text is not valid JSON: a message and the byte offset where it was
/// noticed.
package struct JSONError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, such as `expected ':' after an object key`.
  package var message: String
  /// The offset in the UTF-8 bytes of the text where the problem was noticed.
  package var offset: Int

  /// Creates an error with a message and the byte offset it refers to.
  package init(_ message: String, offset: Int) {
    self.message = message
    self.offset = offset
  }

  /// One line, such as `invalid JSON at byte 7: expected ':' after an object key`.
  package var description: String { "invalid JSON at byte \(offset): \(message)" }
}

/// A JSON object written member by member, in the order given: a message's
/// text without building a ``JSONValue`` tree first. Give the keys in sorted
/// order for the text ``JSONValue/serialized`` writes.
package struct JSONObjectWriter {
  private var text = "{"
  private var isEmpty = true

  /// An object with no member yet.
  package init() {}

  /// Adds a member.
  package mutating func member(_ key: String, _ value: JSONValue) {
    startMember(key)
    value.write(into: &text)
  }

  /// Adds a member whose value is an object already written.
  package mutating func member(_ key: String, object: JSONObjectWriter) {
    startMember(key)
    text += object.closed
  }

  /// The comma and the key of a new member.
  private mutating func startMember(_ key: String) {
    if !isEmpty { text += "," }
    isEmpty = false
    writeQuoted(key, into: &text)
    text += ":"
  }

  /// The object's text, closed.
  package var closed: String { text + "}" }
}

/// Appends a number: whole numbers with |x| < 2^53 without `.0`, others in
/// their shortest round-tripping form, non-finite ones as `null`.
private func writeNumber(_ number: Double, into text: inout String) {
  if !number.isFinite {
    text += "null"
  } else if number.magnitude < 9_007_199_254_740_992 && number.rounded() == number {
    // Below 2^53 every whole double is an exact integer.
    text += String(Int64(number))
  } else {
    text += number.description
  }
}

/// Appends the string quoted and escaped.
private func writeQuoted(_ string: String, into output: inout String) {
  output += "\""
  // Most strings need no escape: appended whole.
  if !string.utf8.contains(where: {
    $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\")
  }) {
    output += string
    output += "\""
    return
  }
  for scalar in string.unicodeScalars {
    switch scalar {
    case "\"": output += "\\\""
    case "\\": output += "\\\\"
    case "\n": output += "\\n"
    case "\r": output += "\\r"
    case "\t": output += "\\t"
    case "\u{8}": output += "\\b"
    case "\u{C}": output += "\\f"
    case "\u{0}"..."\u{1F}":
      output += scalar.value < 0x10 ? "\\u000" : "\\u00"
      output += String(scalar.value, radix: 16)
    default:
      output.unicodeScalars.append(scalar)
    }
  }
  output += "\""
}

/// A strict recursive-descent JSON parser over the UTF-8 bytes of a text.
private struct Parser {
  let bytes: [UInt8]
  let maximumDepth: Int
  /// The offset of the next byte to read.
  var index = 0
  /// How many arrays and objects are open.
  var depth = 0

  /// The next byte as a scalar (bytes of non-ASCII text become Latin-1
  /// scalars, which match nothing the grammar asks for), or nil at the end.
  var next: Unicode.Scalar? { index < bytes.count ? Unicode.Scalar(bytes[index]) : nil }

  /// Whether the next byte is an ASCII digit.
  var nextIsDigit: Bool { next.map { ("0"..."9").contains($0) } ?? false }

  /// Skips JSON whitespace: space, tab, line feed, carriage return.
  mutating func skipWhitespace() {
    while let next, next == " " || next == "\t" || next == "\n" || next == "\r" { index += 1 }
  }

  /// Skips the ASCII character if it comes next; returns whether it did.
  mutating func consume(_ character: Unicode.Scalar) -> Bool {
    guard next == character else { return false }
    index += 1
    return true
  }

  /// Parses one value, after optional whitespace, with everything nested in it.
  mutating func parseValue() throws(JSONError) -> JSONValue {
    skipWhitespace()
    switch next {
    case "["?, "{"?:
      guard depth < maximumDepth else {
        throw JSONError("nesting deeper than \(maximumDepth) levels", offset: index)
      }
      depth += 1
      defer { depth -= 1 }
      return next == "[" ? try parseArray() : try parseObject()
    case "\""?: return .string(try parseString())
    case "t"?: return try parseLiteral("true", .bool(true))
    case "f"?: return try parseLiteral("false", .bool(false))
    case "n"?: return try parseLiteral("null", .null)
    case "-"?, ("0"..."9")?: return .number(try parseNumber())
    default: throw JSONError("expected a value", offset: index)
    }
  }

  /// Parses the elements and closing bracket of an array.
  mutating func parseArray() throws(JSONError) -> JSONValue {
    index += 1  // The opening bracket.
    var elements: [JSONValue] = []
    skipWhitespace()
    if consume("]") { return .array(elements) }
    repeat {
      elements.append(try parseValue())
      skipWhitespace()
    } while consume(",")
    guard consume("]") else {
      throw JSONError("expected ',' or ']' after an array element", offset: index)
    }
    return .array(elements)
  }

  /// Parses the members and closing brace of an object.
  mutating func parseObject() throws(JSONError) -> JSONValue {
    index += 1  // The opening brace.
    var members: [String: JSONValue] = [:]
    skipWhitespace()
    if consume("}") { return .object(members) }
    repeat {
      skipWhitespace()
      guard next == "\"" else {
        throw JSONError("expected a string as an object key", offset: index)
      }
      let key = try parseString()
      skipWhitespace()
      guard consume(":") else { throw JSONError("expected ':' after an object key", offset: index) }
      members[key] = try parseValue()  // Of duplicate keys, the last one wins.
      skipWhitespace()
    } while consume(",")
    guard consume("}") else {
      throw JSONError("expected ',' or '}' after an object member", offset: index)
    }
    return .object(members)
  }

  /// Parses `true`, `false` or `null`.
  mutating func parseLiteral(_ word: String, _ value: JSONValue) throws(JSONError) -> JSONValue {
    guard bytes[index...].starts(with: word.utf8) else {
      throw JSONError("expected '\(word)'", offset: index)
    }
    index += word.utf8.count
    return value
  }

  /// Parses a number: `-`? (`0` | [1-9] digits) (`.` digits)? ([eE] [+-]? digits)?
  mutating func parseNumber() throws(JSONError) -> Double {
    let start = index
    _ = consume("-")
    if consume("0") {
      if nextIsDigit { throw JSONError("leading zeros are not allowed", offset: index) }
    } else {
      try skipDigits(orThrow: "expected a digit")
    }
    if consume(".") { try skipDigits(orThrow: "expected a digit after '.'") }
    if consume("e") || consume("E") {
      if !consume("-") { _ = consume("+") }
      try skipDigits(orThrow: "expected a digit in the exponent")
    }
    // The standard library reads every number the grammar above accepts.
    guard let number = Double(String(decoding: bytes[start..<index], as: UTF8.self)),
      number.isFinite
    else { throw JSONError("number out of range", offset: start) }
    return number
  }

  /// Skips one or more digits, or throws the message if no digit comes next.
  mutating func skipDigits(orThrow message: String) throws(JSONError) {
    guard nextIsDigit else { throw JSONError(message, offset: index) }
    while nextIsDigit { index += 1 }
  }

  /// Parses a string from its opening quote.
  mutating func parseString() throws(JSONError) -> String {
    index += 1  // The opening quote.
    var buffer: [UInt8] = []
    while let next {
      switch next {
      case "\"":
        index += 1
        // Escapes only add whole scalars, so the bytes stay valid UTF-8.
        return String(decoding: buffer, as: UTF8.self)
      case "\\":
        try parseEscape(into: &buffer)
      case "\u{0}"..."\u{1F}":
        throw JSONError("unescaped control character in a string", offset: index)
      default:
        buffer.append(bytes[index])
        index += 1
      }
    }
    throw JSONError("unterminated string", offset: index)
  }

  /// Parses an escape sequence from its backslash and appends its UTF-8 bytes.
  mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONError) {
    let start = index
    index += 1
    guard let letter = next else { throw JSONError("unterminated string", offset: index) }
    index += 1
    switch letter {
    case "\"", "\\", "/": buffer.append(UInt8(ascii: letter))
    case "b": buffer.append(0x08)
    case "f": buffer.append(0x0C)
    case "n": buffer.append(0x0A)
    case "r": buffer.append(0x0D)
    case "t": buffer.append(0x09)
    case "u":
      let unpaired = JSONError("unpaired surrogate in a \\u escape", offset: start)
      var code = try parseHex4(escapeStart: start)
      if (0xD800..<0xDC00).contains(code) {
        let lowStart = index
        guard consume("\\"), consume("u") else { throw unpaired }
        let low = try parseHex4(escapeStart: lowStart)
        guard (0xDC00..<0xE000).contains(low) else { throw unpaired }
        code = 0x10000 + (code - 0xD800) << 10 + (low - 0xDC00)
      }
      // Nil only for a low surrogate without a high one before it.
      guard let scalar = Unicode.Scalar(code) else { throw unpaired }
      UTF8.encode(scalar) { buffer.append($0) }
    default:
      throw JSONError("invalid escape sequence", offset: start)
    }
  }

  /// Parses the four hexadecimal digits of a `\u` escape.
  mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt32 {
    var code: UInt32 = 0
    for _ in 0..<4 {
      // `hexDigitValue` also takes fullwidth digits, but those are never one byte.
      guard let digit = next.flatMap({ Character($0).hexDigitValue }) else {
        throw JSONError("expected four hexadecimal digits after \\u", offset: escapeStart)
      }
      code = code << 4 | UInt32(digit)
      index += 1
    }
    return code
  }
}
