/// Reads the `value` of an enum entry.
///
/// The reference scanner copies the text into a C enum unchanged, so protocols
/// may write any C integer constant expression there, such as `1 << 3`
/// (plasma-window-management does). This evaluates the part of C that such
/// values use: decimal, hexadecimal and octal literals with optional `u`/`l`
/// suffixes, parentheses, unary `+ - ~` and the binary `* / % + - << >> & ^ |`
/// operators with C's precedence. The result must fit in 32 bits, signed or
/// unsigned; a negative value is kept as its bit pattern, as on the wire.
func entryValue(_ text: String) -> UInt32? {
  var parser = ConstantParser(text)
  guard let value = parser.parseExpression(), parser.atEnd,
    value >= Int64(Int32.min), value <= Int64(UInt32.max)
  else { return nil }
  return UInt32(truncatingIfNeeded: value)
}

private struct ConstantParser {
  let bytes: [UInt8]
  var index = 0
  /// How many parentheses and unary operators are open: the parser recurses
  /// once for each, so ``maximumDepth`` bounds its stack.
  var depth = 0
  /// Far more nesting than any protocol writes.
  static let maximumDepth = 64

  init(_ text: String) { bytes = Array(text.utf8) }

  var atEnd: Bool {
    mutating get {
      skipSpace()
      return index == bytes.count
    }
  }

  mutating func skipSpace() {
    while index < bytes.count, bytes[index] == 0x20 || bytes[index] == 0x09 { index += 1 }
  }

  /// Consumes `token` when it comes next (and is not the start of a longer operator).
  mutating func take(_ token: String) -> Bool {
    skipSpace()
    let token = Array(token.utf8)
    guard bytes[index...].starts(with: token) else { return false }
    // `<` is not `<<`, `|` alone is not `||`, and so on.
    if token.count == 1, index + 1 < bytes.count, bytes[index + 1] == token[0],
      token[0] == UInt8(ascii: "|") || token[0] == UInt8(ascii: "&")
    {
      return false
    }
    index += token.count
    return true
  }

  /// One level of left-associative binary operators over `operand`.
  mutating func binary(
    _ operators: [(String, (Int64, Int64) -> Int64?)],
    operand: (inout ConstantParser) -> Int64?
  ) -> Int64? {
    guard var value = operand(&self) else { return nil }
    loop: while true {
      for (token, apply) in operators where take(token) {
        guard let right = operand(&self), let result = apply(value, right) else { return nil }
        value = result
        continue loop
      }
      return value
    }
  }

  mutating func parseExpression() -> Int64? {
    binary([("|", { $0 | $1 })]) { $0.parseXor() }
  }

  mutating func parseXor() -> Int64? {
    binary([("^", { $0 ^ $1 })]) { $0.parseAnd() }
  }

  mutating func parseAnd() -> Int64? {
    binary([("&", { $0 & $1 })]) { $0.parseShift() }
  }

  mutating func parseShift() -> Int64? {
    binary([("<<", shiftLeft), (">>", shiftRight)]) { $0.parseSum() }
  }

  mutating func parseSum() -> Int64? {
    binary([
      ("+", checked(Int64.addingReportingOverflow)),
      ("-", checked(Int64.subtractingReportingOverflow)),
    ]) { $0.parseProduct() }
  }

  mutating func parseProduct() -> Int64? {
    binary([
      ("*", checked(Int64.multipliedReportingOverflow)),
      // Division by zero and Int64.min / -1 report an overflow instead of trapping.
      ("/", checked(Int64.dividedReportingOverflow)),
      ("%", checked(Int64.remainderReportingOverflow)),
    ]) { $0.parseUnary() }
  }

  mutating func parseUnary() -> Int64? {
    guard depth < Self.maximumDepth else { return nil }
    depth += 1
    defer { depth -= 1 }
    if take("-") { return parseUnary().flatMap { $0 == .min ? nil : -$0 } }
    if take("+") { return parseUnary() }
    if take("~") { return parseUnary().map { ~$0 } }
    if take("(") {
      guard let value = parseExpression(), take(")") else { return nil }
      return value
    }
    return parseLiteral()
  }

  mutating func parseLiteral() -> Int64? {
    skipSpace()
    let start = index
    while index < bytes.count, isAlphanumeric(bytes[index]) { index += 1 }
    var digits = Substring(String(decoding: bytes[start..<index], as: UTF8.self))
    while let last = digits.last, "uUlL".contains(last) { digits = digits.dropLast() }
    guard let first = digits.first, first.isASCII, first.isNumber else { return nil }
    if digits.hasPrefix("0x") || digits.hasPrefix("0X") {
      return Int64(digits.dropFirst(2), radix: 16)
    }
    if digits.count > 1, first == "0" { return Int64(digits.dropFirst(), radix: 8) }
    return Int64(digits, radix: 10)
  }
}

private func isAlphanumeric(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"),
    UInt8(ascii: "A")...UInt8(ascii: "Z"):
    return true
  default:
    return false
  }
}

private func shiftLeft(_ value: Int64, _ count: Int64) -> Int64? {
  guard (0..<63).contains(count) else { return nil }
  let result = value << count
  return result >> count == value ? result : nil
}

private func shiftRight(_ value: Int64, _ count: Int64) -> Int64? {
  (0..<64).contains(count) ? value >> count : nil
}

/// An operation that gives nil instead of overflowing.
private func checked(
  _ operation: @escaping (Int64) -> (Int64) -> (partialValue: Int64, overflow: Bool)
) -> (Int64, Int64) -> Int64? {
  { left, right in
    let (result, overflow) = operation(left)(right)
    return overflow ? nil : result
  }
}
