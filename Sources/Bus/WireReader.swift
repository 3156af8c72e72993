/// Reads values in D-Bus's wire format (the specification's "Marshaling")
/// from a whole message: each value aligned to its size from the message's
/// start, in the message's byte order. Every read checks its bounds and its
/// value (a string's UTF-8 and its closing nul, a boolean's 0 or 1, a
/// signature's types, an object path), and throws a ``WireReader/Failure``
/// rather than read past the end, so a message from anyone reads safely.
///
/// The notification server reads `Notify`'s body with it directly, without
/// GIO's `GVariant`s; ``BusMessage`` reads every header with it.
package struct WireReader {
  /// Why the bytes do not read as the values asked for.
  package struct Failure: Error, Equatable, CustomStringConvertible {
    /// What is wrong, in a few words.
    package var reason: String

    /// A failure saying `reason`.
    package init(_ reason: String) { self.reason = reason }

    package var description: String { reason }
  }

  /// The deepest nesting of arrays, structures and variants read (the
  /// specification allows 32 arrays and 32 structures).
  package static let maximumDepth = 64

  /// The whole message.
  private let bytes: [UInt8]
  /// Where the values end: no read goes past it.
  private let end: Int
  /// Whether numbers are big-endian (`B`) rather than little-endian (`l`).
  package let isBigEndian: Bool
  /// Where the next value starts, from the message's start.
  package private(set) var offset: Int

  /// A reader of `bytes` (a whole message, whose first byte is its byte
  /// order) from `offset` up to `end` (the end of `bytes` when nil).
  package init(_ bytes: [UInt8], from offset: Int, to end: Int? = nil, bigEndian: Bool) {
    self.bytes = bytes
    self.offset = offset
    self.end = min(end ?? bytes.count, bytes.count)
    self.isBigEndian = bigEndian
  }

  /// Whether every byte up to the end is read.
  package var isAtEnd: Bool { offset >= end }

  /// Skips the padding up to a multiple of `alignment`. Its bytes are not
  /// checked, as GIO does not check them (a bus refuses a message whose
  /// padding is not zeros before it reaches anyone).
  package mutating func align(_ alignment: Int) throws(Failure) {
    let next = (offset + alignment - 1) / alignment * alignment
    guard next <= end else { throw Failure("truncated padding") }
    offset = next
  }

  /// `count` bytes from the offset, which moves past them.
  private mutating func take(_ count: Int) throws(Failure) -> Int {
    guard count >= 0, count <= end - offset else { throw Failure("truncated") }
    defer { offset += count }
    return offset
  }

  /// An unsigned number of `size` bytes, aligned to its size.
  private mutating func unsigned(_ size: Int) throws(Failure) -> UInt64 {
    try align(size)
    let start = try take(size)
    var value: UInt64 = 0
    for index in 0..<size {
      let byte = UInt64(bytes[start + (isBigEndian ? index : size - 1 - index)])
      value = value << 8 | byte
    }
    return value
  }

  /// A `y`.
  package mutating func byte() throws(Failure) -> UInt8 { bytes[try take(1)] }
  /// A `b`: 0 or 1 in four bytes (a bus refuses any other value, as this
  /// reader does; GIO would read 256 as false).
  package mutating func boolean() throws(Failure) -> Bool {
    switch try unsigned(4) {
    case 0: return false
    case 1: return true
    default: throw Failure("a boolean neither 0 nor 1")
    }
  }
  /// An `n`.
  package mutating func int16() throws(Failure) -> Int16 {
    Int16(truncatingIfNeeded: try unsigned(2))
  }
  /// A `q`.
  package mutating func uint16() throws(Failure) -> UInt16 {
    UInt16(truncatingIfNeeded: try unsigned(2))
  }
  /// An `i`.
  package mutating func int32() throws(Failure) -> Int32 {
    Int32(truncatingIfNeeded: try unsigned(4))
  }
  /// A `u` (also an `h`, a descriptor's index).
  package mutating func uint32() throws(Failure) -> UInt32 {
    UInt32(truncatingIfNeeded: try unsigned(4))
  }
  /// An `x`.
  package mutating func int64() throws(Failure) -> Int64 {
    Int64(truncatingIfNeeded: try unsigned(8))
  }
  /// A `t`.
  package mutating func uint64() throws(Failure) -> UInt64 { try unsigned(8) }
  /// A `d`.
  package mutating func double() throws(Failure) -> Double {
    Double(bitPattern: try unsigned(8))
  }

  /// An `s` or `o`: a length, UTF-8 without a nul, and a closing nul.
  package mutating func string() throws(Failure) -> String {
    let count = Int(try uint32())
    return try text(count)
  }

  /// A `g`: a one-byte length, the types and a closing nul.
  package mutating func signature() throws(Failure) -> String {
    let count = Int(try byte())
    // One type's code, as every header field and most variants have it.
    if count == 1, end - offset >= 2, bytes[offset + 1] == 0,
      WireSignature.isSingleCode(bytes[offset])
    {
      defer { offset += 2 }
      return String(UnicodeScalar(bytes[offset]))
    }
    let signature = try text(count)
    guard WireSignature.isValid(signature[...].utf8) else {
      throw Failure("an invalid signature")
    }
    return signature
  }

  /// `count` bytes of UTF-8 and a nul.
  private mutating func text(_ count: Int) throws(Failure) -> String {
    let start = try take(count)
    guard bytes[try take(1)] == 0 else { throw Failure("a string without its closing nul") }
    let text = bytes.withUnsafeBufferPointer { whole -> String? in
      let part = UnsafeBufferPointer(rebasing: whole[start..<start + count])
      return part.contains(0) ? nil : String(validating: part, as: UTF8.self)
    }
    guard let text else { throw Failure("a string that is not UTF-8 without nul") }
    return text
  }

  /// The bytes of an `ay`, not copied: the range in the message, valid
  /// with the array the reader was made from.
  package mutating func byteArray() throws(Failure) -> Range<Int> {
    let count = Int(try uint32())
    return try skipBytes(count)
  }

  /// The next `count` bytes, passed over: their range in the message.
  package mutating func skipBytes(_ count: Int) throws(Failure) -> Range<Int> {
    let start = try take(count)
    return start..<start + count
  }

  /// The bytes in `range` of the message, sharing its storage.
  package func slice(_ range: Range<Int>) -> ArraySlice<UInt8> { bytes[range] }

  /// An array's length in bytes, at most the specification's 64 MiB.
  package mutating func arrayLength() throws(Failure) -> Int {
    let length = Int(try uint32())
    guard length <= 64 << 20 else { throw Failure("an array over 64 MiB") }
    return length
  }

  /// An array whose elements are aligned to `alignment` (a type's, even
  /// when empty), each read by `element` until the array's length is read;
  /// an element that reads past it fails.
  package mutating func array(
    alignment: Int, _ element: (inout WireReader) throws(Failure) -> Void
  ) throws(Failure) {
    let length = try arrayLength()
    try align(alignment)
    let arrayEnd = offset + length
    guard arrayEnd <= end else { throw Failure("truncated array") }
    var elements = WireReader(bytes, from: offset, to: arrayEnd, bigEndian: isBigEndian)
    while !elements.isAtEnd {
      let before = elements.offset
      try element(&elements)
      guard elements.offset > before else { throw Failure("an array element of no bytes") }
    }
    offset = arrayEnd
  }

  /// Skips one value of the single complete type `type`, checking no more
  /// than its framing: an array is passed over by its length.
  package mutating func skip(_ type: Substring.UTF8View, depth: Int = 0) throws(Failure) {
    guard depth < Self.maximumDepth, let code = type.first else {
      throw Failure("nested too deep")
    }
    switch code {
    case UInt8(ascii: "y"): _ = try take(1)
    case UInt8(ascii: "n"), UInt8(ascii: "q"): _ = try unsigned(2)
    case UInt8(ascii: "b"): _ = try boolean()
    case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): _ = try unsigned(4)
    case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): _ = try unsigned(8)
    case UInt8(ascii: "s"), UInt8(ascii: "o"): _ = try string()
    case UInt8(ascii: "g"): _ = try signature()
    case UInt8(ascii: "v"):
      let inner = try signature()
      guard WireSignature.isSingleType(inner[...].utf8) else {
        throw Failure("a variant of no single type")
      }
      try skip(inner[...].utf8, depth: depth + 1)
    case UInt8(ascii: "a"):
      let length = try arrayLength()
      let element = type.dropFirst()
      try align(WireSignature.alignment(of: element.first ?? 0))
      _ = try take(length)
    case UInt8(ascii: "("), UInt8(ascii: "{"):
      try align(8)
      var rest = type.dropFirst()
      while let next = rest.first, next != UInt8(ascii: ")"), next != UInt8(ascii: "}") {
        guard let length = WireSignature.completeTypeLength(rest) else {
          throw Failure("an invalid signature")
        }
        try skip(rest.prefix(length), depth: depth + 1)
        rest = rest.dropFirst(length)
      }
    default:
      throw Failure("an unknown type")
    }
  }
}

/// What a D-Bus signature says: its types' alignments and lengths, and
/// whether it is valid.
package enum WireSignature {
  /// The alignment of values of the type whose code is `code`.
  package static func alignment(of code: UInt8) -> Int {
    switch code {
    case UInt8(ascii: "n"), UInt8(ascii: "q"): 2
    case UInt8(ascii: "b"), UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"),
      UInt8(ascii: "s"), UInt8(ascii: "o"), UInt8(ascii: "a"):
      4
    case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"), UInt8(ascii: "("),
      UInt8(ascii: "{"):
      8
    default: 1
    }
  }

  /// The length of the single complete type that `types` starts with; nil
  /// when it starts with none (or nests deeper than the specification allows).
  package static func completeTypeLength(_ types: Substring.UTF8View) -> Int? {
    var arrays = 0
    var structures = 0
    return length(types, arrays: &arrays, structures: &structures)
  }

  private static func length(
    _ types: Substring.UTF8View, arrays: inout Int, structures: inout Int
  ) -> Int? {
    guard let code = types.first else { return nil }
    switch code {
    case UInt8(ascii: "y"), UInt8(ascii: "b"), UInt8(ascii: "n"), UInt8(ascii: "q"),
      UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "x"), UInt8(ascii: "t"),
      UInt8(ascii: "d"), UInt8(ascii: "h"), UInt8(ascii: "s"), UInt8(ascii: "o"),
      UInt8(ascii: "g"), UInt8(ascii: "v"):
      return 1
    case UInt8(ascii: "a"):
      arrays += 1
      defer { arrays -= 1 }
      guard arrays <= 32 else { return nil }
      let rest = types.dropFirst()
      if rest.first == UInt8(ascii: "{") {
        // A dictionary entry: a basic key, one value, and only inside an array.
        let inner = rest.dropFirst()
        guard let key = inner.first, isBasic(key) else { return nil }
        structures += 1
        defer { structures -= 1 }
        guard structures <= 32,
          let value = length(inner.dropFirst(), arrays: &arrays, structures: &structures),
          inner.dropFirst(1 + value).first == UInt8(ascii: "}")
        else { return nil }
        return 1 + 1 + 1 + value + 1
      }
      guard let element = length(rest, arrays: &arrays, structures: &structures) else {
        return nil
      }
      return 1 + element
    case UInt8(ascii: "("):
      structures += 1
      defer { structures -= 1 }
      guard structures <= 32 else { return nil }
      var rest = types.dropFirst()
      var total = 1
      var fields = 0
      while let next = rest.first, next != UInt8(ascii: ")") {
        guard let field = length(rest, arrays: &arrays, structures: &structures) else {
          return nil
        }
        total += field
        fields += 1
        rest = rest.dropFirst(field)
      }
      guard rest.first == UInt8(ascii: ")"), fields > 0 else { return nil }
      return total + 1
    default:
      return nil
    }
  }

  /// Whether `code` alone is a complete type: a basic type's or a variant's.
  package static func isSingleCode(_ code: UInt8) -> Bool {
    code == UInt8(ascii: "v") || isBasic(code)
  }

  /// Whether `code` is a basic type's (a dictionary's key must be one).
  private static func isBasic(_ code: UInt8) -> Bool {
    "ybnqiuxtdhsog".utf8.contains(code)
  }

  /// Whether `types` is a valid signature: complete types, at most 255 bytes.
  package static func isValid(_ types: Substring.UTF8View) -> Bool {
    guard types.count <= 255 else { return false }
    var rest = types
    while !rest.isEmpty {
      guard let length = completeTypeLength(rest) else { return false }
      rest = rest.dropFirst(length)
    }
    return true
  }

  /// Whether `types` is valid and one single complete type (a variant's).
  package static func isSingleType(_ types: Substring.UTF8View) -> Bool {
    types.count <= 255 && completeTypeLength(types) == types.count
  }
}
