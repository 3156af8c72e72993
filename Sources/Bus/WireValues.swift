import CGio

/// A body read from the wire into GLib's `GVariant` values, as the readers
/// of AT-SPI, MPRIS and the bus itself take them: the part of GIO's
/// `g_dbus_message_new_from_blob` that the Bus target needs, without GIO's
/// message object.
///
/// Memory stays within a small multiple of the message: an array of numbers
/// becomes one value over its bytes, and a body that would make more than
/// ``maximumValues`` values reads as no body.
extension WireReader {
  /// The most values one body becomes.
  package static let maximumValues = 1 << 16

  /// The values of `signature` (a body's, without parentheses) as one tuple,
  /// a reference owned by the caller; nil when they do not read.
  package mutating func tuple(of signature: String) -> OpaquePointer? {
    var budget = Self.maximumValues
    var children: [OpaquePointer?] = []
    var rest = signature[...].utf8
    do throws(Failure) {
      while !rest.isEmpty {
        guard let length = WireSignature.completeTypeLength(rest) else {
          throw Failure("an invalid signature")
        }
        children.append(try value(of: rest.prefix(length), depth: 0, budget: &budget))
        rest = rest.dropFirst(length)
      }
    } catch {
      for child in children { g_variant_unref(g_variant_ref_sink(child)) }
      return nil
    }
    return g_variant_ref_sink(g_variant_new_tuple(&children, gsize(children.count)))
  }

  /// One value of the single complete type `type`, a floating reference.
  private mutating func value(
    of type: Substring.UTF8View, depth: Int, budget: inout Int
  ) throws(Failure) -> OpaquePointer {
    guard depth < Self.maximumDepth, budget > 0, let code = type.first else {
      throw Failure("nested too deep or too many values")
    }
    budget -= 1
    switch code {
    case UInt8(ascii: "y"): return g_variant_new_byte(try byte())
    case UInt8(ascii: "b"): return g_variant_new_boolean(try boolean() ? 1 : 0)
    case UInt8(ascii: "n"): return g_variant_new_int16(try int16())
    case UInt8(ascii: "q"): return g_variant_new_uint16(try uint16())
    case UInt8(ascii: "i"): return g_variant_new_int32(try int32())
    case UInt8(ascii: "u"): return g_variant_new_uint32(try uint32())
    case UInt8(ascii: "h"): return g_variant_new_handle(Int32(bitPattern: try uint32()))
    case UInt8(ascii: "x"): return g_variant_new_int64(gint64(try int64()))
    case UInt8(ascii: "t"): return g_variant_new_uint64(guint64(try uint64()))
    case UInt8(ascii: "d"): return g_variant_new_double(try double())
    case UInt8(ascii: "s"): return g_variant_new_string(try string())
    case UInt8(ascii: "o"):
      let path = try string()
      guard BusNames.isObjectPath(path) else { throw Failure("an invalid object path") }
      return g_variant_new_object_path(path)
    case UInt8(ascii: "g"): return g_variant_new_signature(try signature())
    case UInt8(ascii: "v"):
      let inner = try signature()
      guard WireSignature.isSingleType(inner[...].utf8) else {
        throw Failure("a variant of no single type")
      }
      return g_variant_new_variant(
        try value(of: inner[...].utf8, depth: depth + 1, budget: &budget))
    case UInt8(ascii: "a"):
      let element = type.dropFirst()
      if let size = Self.fixedSize(of: element) { return try numbers(element, size: size) }
      var children: [OpaquePointer?] = []
      do throws(Failure) {
        try array(alignment: WireSignature.alignment(of: element.first ?? 0)) {
          (reader) throws(Failure) in
          children.append(try reader.value(of: element, depth: depth + 1, budget: &budget))
        }
      } catch {
        for child in children { g_variant_unref(g_variant_ref_sink(child)) }
        throw error
      }
      let elementType = g_variant_type_new(String(Substring(element)))
      defer { g_variant_type_free(elementType) }
      return g_variant_new_array(elementType, &children, gsize(children.count))
    case UInt8(ascii: "("), UInt8(ascii: "{"):
      try align(8)
      var children: [OpaquePointer?] = []
      var rest = type.dropFirst()
      do throws(Failure) {
        while let next = rest.first, next != UInt8(ascii: ")"), next != UInt8(ascii: "}") {
          guard let length = WireSignature.completeTypeLength(rest) else {
            throw Failure("an invalid signature")
          }
          children.append(
            try value(of: rest.prefix(length), depth: depth + 1, budget: &budget))
          rest = rest.dropFirst(length)
        }
      } catch {
        for child in children { g_variant_unref(g_variant_ref_sink(child)) }
        throw error
      }
      if code == UInt8(ascii: "{") {
        guard children.count == 2 else {
          for child in children { g_variant_unref(g_variant_ref_sink(child)) }
          throw Failure("a dictionary entry of \(children.count) values")
        }
        return g_variant_new_dict_entry(children[0], children[1])
      }
      return g_variant_new_tuple(&children, gsize(children.count))
    default:
      throw Failure("an unknown type")
    }
  }

  /// The size of an array element that is a fixed-size number (not a
  /// boolean: GVariant's is one byte, the wire's four); nil for another type.
  private static func fixedSize(of element: Substring.UTF8View) -> Int? {
    guard element.count == 1 else { return nil }
    switch element.first {
    case UInt8(ascii: "y"): return 1
    case UInt8(ascii: "n"), UInt8(ascii: "q"): return 2
    case UInt8(ascii: "i"), UInt8(ascii: "u"), UInt8(ascii: "h"): return 4
    case UInt8(ascii: "x"), UInt8(ascii: "t"), UInt8(ascii: "d"): return 8
    default: return nil
    }
  }

  /// An array of fixed-size numbers as one value over a copy of its bytes
  /// (GLib's), in the machine's (little-endian) byte order.
  private mutating func numbers(_ element: Substring.UTF8View, size: Int) throws(Failure)
    -> OpaquePointer
  {
    let count = try arrayLength()
    try align(size)
    guard count % size == 0 else { throw Failure("an array of part of a number") }
    var bytes = slice(try skipBytes(count))
    if isBigEndian && size > 1 {
      // GLib copies the bytes as they are: a big-endian message's are swapped first.
      for start in stride(from: bytes.startIndex, to: bytes.endIndex, by: size) {
        bytes[start..<start + size].reverse()
      }
    }
    let elementType = g_variant_type_new(String(Substring(element)))
    defer { g_variant_type_free(elementType) }
    return bytes.withUnsafeBytes {
      g_variant_new_fixed_array(elementType, $0.baseAddress, gsize(count / size), gsize(size))
    }
  }
}
