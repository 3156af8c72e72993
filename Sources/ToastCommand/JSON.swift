/// A JSON value.
///
/// ``parse(_:maximumDepth:)`` reads strict RFC 8259 JSON and ``serialized``
/// writes compact JSON with sorted object keys, so that equal values give
/// equal text.
public enum JSONValue: Equatable, Sendable {
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
  /// Arrays and objects nested deeper than `maximumDepth` are rejected; the
  /// parser does not recurse, so deep input cannot overflow the stack.
  ///
  /// - Parameters:
  ///   - text: The JSON text.
  ///   - maximumDepth: How many arrays and objects may be open at once.
  /// - Throws: A ``JSONError`` with the byte offset where the text went wrong.
  public static func parse(_ text: String, maximumDepth: Int = 32) throws(JSONError) -> JSONValue {
    var text = text
    let result = text.withUTF8 { bytes -> Result<JSONValue, JSONError> in
      var parser = JSONParser(bytes: bytes, maximumDepth: maximumDepth)
      do throws(JSONError) {
        return .success(try parser.parseDocument())
      } catch {
        return .failure(error)
      }
    }
    return try result.get()
  }

  /// Compact JSON text; object keys sorted for stable output; strings escaped
  /// (`"`, `\`, control characters as `\uXXXX`, `\n`, `\t` and the like);
  /// numbers that are whole and |x| < 2^53 printed without `.0`; non-finite
  /// numbers written as `null`.
  public var serialized: String {
    var output: [UInt8] = []
    write(to: &output)
    return String(decoding: output, as: UTF8.self)
  }

  /// The member of an object, or nil (also nil for non-objects).
  public subscript(key: String) -> JSONValue? {
    guard case .object(let members) = self else { return nil }
    return members[key]
  }

  /// The string, or nil if this is not a string.
  public var stringValue: String? {
    guard case .string(let string) = self else { return nil }
    return string
  }

  /// The number, or nil if this is not a number.
  public var doubleValue: Double? {
    guard case .number(let number) = self else { return nil }
    return number
  }

  /// The Boolean, or nil if this is not `true` or `false`.
  public var boolValue: Bool? {
    guard case .bool(let bool) = self else { return nil }
    return bool
  }

  /// Whether this is `null`.
  public var isNull: Bool { self == .null }

  /// Appends the compact UTF-8 text of the value.
  private func write(to output: inout [UInt8]) {
    switch self {
    case .null:
      output.append(contentsOf: "null".utf8)
    case .bool(let bool):
      output.append(contentsOf: (bool ? "true" : "false").utf8)
    case .number(let number):
      writeNumber(number, to: &output)
    case .string(let string):
      writeString(string, to: &output)
    case .array(let elements):
      output.append(UInt8(ascii: "["))
      for (position, element) in elements.enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        element.write(to: &output)
      }
      output.append(UInt8(ascii: "]"))
    case .object(let members):
      output.append(UInt8(ascii: "{"))
      for (position, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
        if position > 0 { output.append(UInt8(ascii: ",")) }
        writeString(member.key, to: &output)
        output.append(UInt8(ascii: ":"))
        member.value.write(to: &output)
      }
      output.append(UInt8(ascii: "}"))
    }
  }
}

/// Why a text is not valid JSON: a message and the byte offset where it was
/// noticed.
public struct JSONError: Error, Equatable, CustomStringConvertible {
  /// What is wrong, such as `expected ':' after an object key`.
  public var message: String
  /// The offset in the UTF-8 bytes of the text where the problem was noticed.
  public var offset: Int

  /// Creates an error with a message and the byte offset it refers to.
  public init(_ message: String, offset: Int) {
    self.message = message
    self.offset = offset
  }

  /// One line, such as `invalid JSON at byte 7: expected ':' after an object key`.
  public var description: String { "invalid JSON at byte \(offset): \(message)" }
}

// MARK: - Writing

/// 2^53: below it every whole double is an exact integer.
private let exactIntegerLimit = 9_007_199_254_740_992.0

/// Appends a number: whole ones below 2^53 as integers, other finite ones in
/// Swift's shortest round-tripping form (valid JSON), non-finite ones as `null`.
private func writeNumber(_ number: Double, to output: inout [UInt8]) {
  if !number.isFinite {
    output.append(contentsOf: "null".utf8)
  } else if number.magnitude < exactIntegerLimit, Double(Int64(number)) == number {
    // Not `rounded()`: that needs libm's `trunc`, which this file can do without.
    output.append(contentsOf: String(Int64(number)).utf8)
  } else {
    output.append(contentsOf: number.description.utf8)
  }
}

/// The hexadecimal digits, for `\uXXXX` escapes.
private let hexDigits = Array("0123456789abcdef".utf8)

/// Appends a quoted, escaped string.
private func writeString(_ string: String, to output: inout [UInt8]) {
  output.append(UInt8(ascii: "\""))
  for byte in string.utf8 {
    switch byte {
    case UInt8(ascii: "\""): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
    case UInt8(ascii: "\\"): output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
    case 0x0A: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
    case 0x0D: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
    case 0x09: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
    case 0x08: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "b")])
    case 0x0C: output.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "f")])
    case 0..<0x20:
      output.append(contentsOf: "\\u00".utf8)
      output.append(hexDigits[Int(byte >> 4)])
      output.append(hexDigits[Int(byte & 0xF)])
    default:
      output.append(byte)
    }
  }
  output.append(UInt8(ascii: "\""))
}

// MARK: - Parsing

/// A strict JSON parser over UTF-8 bytes. It keeps its own stack of open
/// arrays and objects instead of recursing, so the call stack never grows
/// with the input. The elements and members of all open containers share two
/// flat stacks, and each container is built once, at its exact size, when it
/// closes.
private struct JSONParser {
  /// The kind of a container that is open.
  private enum Open {
    /// An array whose elements start at this position in `elements`.
    case array(start: Int)
    /// An object whose members start at this position in `members`.
    case object(start: Int)
  }

  /// The UTF-8 text, valid only while the parser runs.
  private let bytes: UnsafeBufferPointer<UInt8>
  private let maximumDepth: Int
  private var index = 0

  /// The containers that are open, innermost last.
  private var open: [Open] = []
  /// The elements parsed so far of all open arrays, innermost last.
  private var elements: [JSONValue] = []
  /// The members parsed so far of all open objects, innermost last.
  private var members: [(key: String, value: JSONValue)] = []
  /// The key whose value is being parsed, one per open object, innermost last.
  private var keys: [String] = []

  init(bytes: UnsafeBufferPointer<UInt8>, maximumDepth: Int) {
    self.bytes = bytes
    self.maximumDepth = maximumDepth
  }

  /// Parses the whole text: one value between optional whitespace.
  mutating func parseDocument() throws(JSONError) -> JSONValue {
    let value = try parseValue()
    skipWhitespace()
    if index < bytes.count {
      throw JSONError("unexpected content after the value", offset: index)
    }
    return value
  }

  /// Parses one value, with everything nested in it.
  private mutating func parseValue() throws(JSONError) -> JSONValue {
    nextValue: while true {
      skipWhitespace()
      guard index < bytes.count else { throw JSONError("expected a value", offset: index) }
      var value: JSONValue
      switch bytes[index] {
      case UInt8(ascii: "["):
        try checkDepth()
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "]")) {
          value = .array([])
        } else {
          open.append(.array(start: elements.count))
          continue nextValue
        }
      case UInt8(ascii: "{"):
        try checkDepth()
        index += 1
        skipWhitespace()
        if consume(UInt8(ascii: "}")) {
          value = .object([:])
        } else {
          open.append(.object(start: members.count))
          keys.append(try parseKey())
          continue nextValue
        }
      case UInt8(ascii: "\""):
        value = .string(try parseString())
      case UInt8(ascii: "t"):
        try parseLiteral("true")
        value = .bool(true)
      case UInt8(ascii: "f"):
        try parseLiteral("false")
        value = .bool(false)
      case UInt8(ascii: "n"):
        try parseLiteral("null")
        value = .null
      case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
        value = .number(try parseNumber())
      default:
        throw JSONError("expected a value", offset: index)
      }

      // Add the value to the innermost open container and close every
      // container that ends after it.
      while let container = open.last {
        skipWhitespace()
        switch container {
        case .array(let start):
          elements.append(value)
          if consume(UInt8(ascii: ",")) { continue nextValue }
          guard consume(UInt8(ascii: "]")) else {
            throw JSONError("expected ',' or ']' after an array element", offset: index)
          }
          open.removeLast()
          if start == 0 {
            // No outer array has elements yet: hand over the whole stack.
            value = .array(elements)
            elements = []
          } else {
            value = .array(Array(elements[start...]))
            elements.removeSubrange(start...)
          }
        case .object(let start):
          members.append((keys.removeLast(), value))
          if consume(UInt8(ascii: ",")) {
            skipWhitespace()
            keys.append(try parseKey())
            continue nextValue
          }
          guard consume(UInt8(ascii: "}")) else {
            throw JSONError("expected ',' or '}' after an object member", offset: index)
          }
          open.removeLast()
          var object = [String: JSONValue](minimumCapacity: members.count - start)
          for (key, member) in members[start...] {
            object[key] = member  // Of duplicate keys, the last one wins.
          }
          members.removeSubrange(start...)
          value = .object(object)
        }
      }
      return value
    }
  }

  /// Throws if opening one more container would exceed the depth limit.
  private func checkDepth() throws(JSONError) {
    if open.count >= maximumDepth {
      throw JSONError("nesting deeper than \(maximumDepth) levels", offset: index)
    }
  }

  /// Parses an object key and the `:` after it.
  private mutating func parseKey() throws(JSONError) -> String {
    guard index < bytes.count, bytes[index] == UInt8(ascii: "\"") else {
      throw JSONError("expected a string as an object key", offset: index)
    }
    let key = try parseString()
    skipWhitespace()
    guard consume(UInt8(ascii: ":")) else {
      throw JSONError("expected ':' after an object key", offset: index)
    }
    return key
  }

  /// Parses `true`, `false` or `null`.
  private mutating func parseLiteral(_ literal: StaticString) throws(JSONError) {
    let start = index
    let length = literal.utf8CodeUnitCount
    guard bytes.count - start >= length else {
      throw JSONError("expected '\(literal)'", offset: start)
    }
    let expected = UnsafeBufferPointer(start: literal.utf8Start, count: length)
    for offset in 0..<length where bytes[start + offset] != expected[offset] {
      throw JSONError("expected '\(literal)'", offset: start)
    }
    index += length
  }

  /// Parses a number: `-`? (`0` | [1-9] digits) (`.` digits)? ([eE] [+-]? digits)?
  private mutating func parseNumber() throws(JSONError) -> Double {
    let start = index
    let negative = consume(UInt8(ascii: "-"))
    guard index < bytes.count, isDigit(bytes[index]) else {
      throw JSONError("expected a digit", offset: index)
    }
    // The number is significand × 10^exponent; the significand is exact
    // while it has at most 19 digits.
    var significand: UInt64 = 0
    var digitCount = 0
    var exponent = 0
    if consume(UInt8(ascii: "0")) {
      if index < bytes.count, isDigit(bytes[index]) {
        throw JSONError("leading zeros are not allowed", offset: index)
      }
    } else {
      while index < bytes.count, isDigit(bytes[index]) {
        addDigit(to: &significand, count: &digitCount)
      }
    }
    if consume(UInt8(ascii: ".")) {
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONError("expected a digit after '.'", offset: index)
      }
      while index < bytes.count, isDigit(bytes[index]) {
        addDigit(to: &significand, count: &digitCount)
        exponent -= 1
      }
    }
    if consume(UInt8(ascii: "e")) || consume(UInt8(ascii: "E")) {
      let negativeExponent = consume(UInt8(ascii: "-"))
      if !negativeExponent { _ = consume(UInt8(ascii: "+")) }
      guard index < bytes.count, isDigit(bytes[index]) else {
        throw JSONError("expected a digit in the exponent", offset: index)
      }
      var written = 0
      while index < bytes.count, isDigit(bytes[index]) {
        // Capped: beyond this, the text conversion below decides.
        if written < 100_000 { written = written * 10 + Int(bytes[index] - UInt8(ascii: "0")) }
        index += 1
      }
      exponent += negativeExponent ? -written : written
    }
    // Clinger's fast path: an exact significand below 2^53 times or divided
    // by an exact power of ten is one correctly rounded operation.
    if digitCount <= 19 && significand <= 1 << 53 && exponent.magnitude < powersOfTen.count {
      let magnitude =
        exponent < 0
        ? Double(significand) / powersOfTen[-exponent]
        : Double(significand) * powersOfTen[exponent]
      return negative ? -magnitude : magnitude
    }
    let text = String(decoding: bytes[start..<index], as: UTF8.self)
    guard let number = Double(text), number.isFinite else {
      throw JSONError("number out of range", offset: start)
    }
    return number
  }

  /// Adds the digit at the index to the significand and moves past it.
  private mutating func addDigit(to significand: inout UInt64, count: inout Int) {
    if count < 19 {
      significand = significand * 10 + UInt64(bytes[index] - UInt8(ascii: "0"))
    }
    count += 1
    index += 1
  }

  /// Parses a string from its opening quote.
  private mutating func parseString() throws(JSONError) -> String {
    index += 1  // The opening quote.
    let start = index
    // Fast path: no escapes, so the bytes are the string.
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        let string = String(decoding: bytes[start..<index], as: UTF8.self)
        index += 1
        return string
      }
      if byte == UInt8(ascii: "\\") { break }
      if byte < 0x20 {
        throw JSONError("unescaped control character in a string", offset: index)
      }
      index += 1
    }
    var buffer = Array(bytes[start..<index])
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "\"") {
        index += 1
        return String(decoding: buffer, as: UTF8.self)
      }
      if byte < 0x20 {
        throw JSONError("unescaped control character in a string", offset: index)
      }
      if byte == UInt8(ascii: "\\") {
        try parseEscape(into: &buffer)
      } else {
        buffer.append(byte)
        index += 1
      }
    }
    throw JSONError("unterminated string", offset: index)
  }

  /// Parses an escape sequence from its backslash and appends its UTF-8 bytes.
  private mutating func parseEscape(into buffer: inout [UInt8]) throws(JSONError) {
    let escapeStart = index
    index += 1
    guard index < bytes.count else { throw JSONError("unterminated string", offset: index) }
    let letter = bytes[index]
    index += 1
    switch letter {
    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): buffer.append(letter)
    case UInt8(ascii: "b"): buffer.append(0x08)
    case UInt8(ascii: "f"): buffer.append(0x0C)
    case UInt8(ascii: "n"): buffer.append(0x0A)
    case UInt8(ascii: "r"): buffer.append(0x0D)
    case UInt8(ascii: "t"): buffer.append(0x09)
    case UInt8(ascii: "u"):
      var scalar = try parseHex4(escapeStart: escapeStart)
      if (0xDC00...0xDFFF).contains(scalar) {
        throw JSONError("unpaired surrogate in a \\u escape", offset: escapeStart)
      }
      if (0xD800...0xDBFF).contains(scalar) {
        guard
          index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"),
          bytes[index + 1] == UInt8(ascii: "u")
        else {
          throw JSONError("unpaired surrogate in a \\u escape", offset: escapeStart)
        }
        let lowStart = index
        index += 2
        let low = try parseHex4(escapeStart: lowStart)
        guard (0xDC00...0xDFFF).contains(low) else {
          throw JSONError("unpaired surrogate in a \\u escape", offset: escapeStart)
        }
        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
      }
      appendUTF8(scalar, to: &buffer)
    default:
      throw JSONError("invalid escape sequence", offset: escapeStart)
    }
  }

  /// Parses the four hexadecimal digits of a `\u` escape.
  private mutating func parseHex4(escapeStart: Int) throws(JSONError) -> UInt32 {
    guard bytes.count - index >= 4 else {
      throw JSONError("expected four hexadecimal digits after \\u", offset: escapeStart)
    }
    var value: UInt32 = 0
    for _ in 0..<4 {
      let byte = bytes[index]
      let digit: UInt8
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
      case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
      case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
      default:
        throw JSONError("expected four hexadecimal digits after \\u", offset: escapeStart)
      }
      value = value << 4 | UInt32(digit)
      index += 1
    }
    return value
  }

  /// Skips JSON whitespace: space, tab, line feed, carriage return.
  private mutating func skipWhitespace() {
    while index < bytes.count {
      switch bytes[index] {
      case 0x20, 0x09, 0x0A, 0x0D: index += 1
      default: return
      }
    }
  }

  /// Skips the byte if it comes next; returns whether it did.
  private mutating func consume(_ byte: UInt8) -> Bool {
    guard index < bytes.count, bytes[index] == byte else { return false }
    index += 1
    return true
  }
}

/// 10^0 through 10^22, the powers of ten that a double holds exactly.
private let powersOfTen: [Double] = [
  1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16,
  1e17, 1e18, 1e19, 1e20, 1e21, 1e22,
]

/// Whether the byte is an ASCII digit.
private func isDigit(_ byte: UInt8) -> Bool {
  byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
}

/// Appends the UTF-8 encoding of a Unicode scalar value (not a surrogate).
private func appendUTF8(_ scalar: UInt32, to buffer: inout [UInt8]) {
  switch scalar {
  case 0..<0x80:
    buffer.append(UInt8(scalar))
  case 0x80..<0x800:
    buffer.append(UInt8(0xC0 | scalar >> 6))
    buffer.append(UInt8(0x80 | scalar & 0x3F))
  case 0x800..<0x10000:
    buffer.append(UInt8(0xE0 | scalar >> 12))
    buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
    buffer.append(UInt8(0x80 | scalar & 0x3F))
  default:
    buffer.append(UInt8(0xF0 | scalar >> 18))
    buffer.append(UInt8(0x80 | scalar >> 12 & 0x3F))
    buffer.append(UInt8(0x80 | scalar >> 6 & 0x3F))
    buffer.append(UInt8(0x80 | scalar & 0x3F))
  }
}
