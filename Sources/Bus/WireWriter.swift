import CGio

/// Writes values in D-Bus's wire format, little-endian, each aligned to its
/// size from the message's start: a message's header and a body given as a
/// GVariant tuple (``BusMessage/encoded(serial:)``). GIO's `GDBusMessage`
/// is not involved: its conversion of the header's fields to `GVariant`s cost
/// more than the rest of an answer.
package struct WireWriter {
  /// The bytes written, from the message's start.
  package private(set) var bytes: [UInt8] = []

  /// An empty writer, with room for `capacity` bytes.
  package init(capacity: Int = 256) { bytes.reserveCapacity(capacity) }

  /// Zeros up to a multiple of `alignment`.
  package mutating func align(_ alignment: Int) {
    let padding = (alignment - bytes.count % alignment) % alignment
    bytes.append(contentsOf: repeatElement(0, count: padding))
  }

  /// A `y`.
  package mutating func byte(_ value: UInt8) { bytes.append(value) }

  /// An unsigned number of `size` bytes, aligned to its size.
  private mutating func unsigned(_ value: UInt64, size: Int) {
    align(size)
    for index in 0..<size { bytes.append(UInt8(truncatingIfNeeded: value >> (8 * index))) }
  }

  /// A `u` (also an `h`, a `b` as 0 or 1).
  package mutating func uint32(_ value: UInt32) { unsigned(UInt64(value), size: 4) }

  /// An `s` or `o`: its length, its bytes and a nul.
  package mutating func string(_ value: String) {
    let utf8 = value.utf8
    uint32(UInt32(utf8.count))
    bytes.append(contentsOf: utf8)
    bytes.append(0)
  }

  /// A `g`: its length in one byte, its bytes and a nul.
  package mutating func signature(_ value: String) {
    let utf8 = value.utf8
    bytes.append(UInt8(truncatingIfNeeded: utf8.count))
    bytes.append(contentsOf: utf8)
    bytes.append(0)
  }

  /// Writes `value` at `offset`, where four bytes were written before (an
  /// array's length once its elements are written).
  package mutating func patch(_ value: UInt32, at offset: Int) {
    for index in 0..<4 { bytes[offset + index] = UInt8(truncatingIfNeeded: value >> (8 * index)) }
  }

  /// An array aligned for elements of `alignment`, written by `elements`;
  /// its length is filled in afterwards.
  package mutating func array(alignment: Int, _ elements: (inout WireWriter) -> Bool) -> Bool {
    uint32(0)
    let lengthOffset = bytes.count - 4
    align(alignment)
    let start = bytes.count
    guard elements(&self) else { return false }
    patch(UInt32(bytes.count - start), at: lengthOffset)
    return true
  }

  /// A GVariant value of any type D-Bus has; false for a type it has not
  /// (a maybe), or a signature over 255 bytes.
  package mutating func value(_ value: OpaquePointer) -> Bool {
    switch g_variant_classify(value) {
    case G_VARIANT_CLASS_BYTE: byte(g_variant_get_byte(value))
    case G_VARIANT_CLASS_BOOLEAN: uint32(g_variant_get_boolean(value) != 0 ? 1 : 0)
    case G_VARIANT_CLASS_INT16:
      unsigned(UInt64(UInt16(bitPattern: g_variant_get_int16(value))), size: 2)
    case G_VARIANT_CLASS_UINT16: unsigned(UInt64(g_variant_get_uint16(value)), size: 2)
    case G_VARIANT_CLASS_INT32: uint32(UInt32(bitPattern: g_variant_get_int32(value)))
    case G_VARIANT_CLASS_UINT32: uint32(g_variant_get_uint32(value))
    case G_VARIANT_CLASS_HANDLE: uint32(UInt32(bitPattern: g_variant_get_handle(value)))
    case G_VARIANT_CLASS_INT64:
      unsigned(UInt64(bitPattern: Int64(g_variant_get_int64(value))), size: 8)
    case G_VARIANT_CLASS_UINT64: unsigned(UInt64(g_variant_get_uint64(value)), size: 8)
    case G_VARIANT_CLASS_DOUBLE: unsigned(g_variant_get_double(value).bitPattern, size: 8)
    case G_VARIANT_CLASS_STRING, G_VARIANT_CLASS_OBJECT_PATH:
      var length: gsize = 0
      let text = g_variant_get_string(value, &length)!
      uint32(UInt32(length))
      bytes.append(contentsOf: UnsafeRawBufferPointer(start: text, count: Int(length)))
      bytes.append(0)
    case G_VARIANT_CLASS_SIGNATURE:
      var length: gsize = 0
      let text = g_variant_get_string(value, &length)!
      guard length <= 255 else { return false }
      bytes.append(UInt8(length))
      bytes.append(contentsOf: UnsafeRawBufferPointer(start: text, count: Int(length)))
      bytes.append(0)
    case G_VARIANT_CLASS_VARIANT:
      let inner = g_variant_get_variant(value)!
      defer { g_variant_unref(inner) }
      let type = String(cString: g_variant_get_type_string(inner))
      guard type.utf8.count <= 255 else { return false }
      signature(type)
      return self.value(inner)
    case G_VARIANT_CLASS_ARRAY:
      // The element's type is the array's after its `a`.
      let element = g_variant_get_type_string(value)![1]
      if element == CChar(UInt8(ascii: "y")) {
        var count: gsize = 0
        let start = g_variant_get_fixed_array(value, &count, 1)
        uint32(UInt32(count))
        if let start {
          bytes.append(contentsOf: UnsafeRawBufferPointer(start: start, count: Int(count)))
        }
        return true
      }
      return array(alignment: WireSignature.alignment(of: UInt8(bitPattern: element))) { writer in
        Self.children(of: value, into: &writer)
      }
    case G_VARIANT_CLASS_TUPLE, G_VARIANT_CLASS_DICT_ENTRY:
      align(8)
      return Self.children(of: value, into: &self)
    default:
      return false
    }
    return true
  }

  /// Every child of a container, in order.
  private static func children(of value: OpaquePointer, into writer: inout WireWriter) -> Bool {
    for index in 0..<g_variant_n_children(value) {
      let child = g_variant_get_child_value(value, index)!
      defer { g_variant_unref(child) }
      guard writer.value(child) else { return false }
    }
    return true
  }
}
