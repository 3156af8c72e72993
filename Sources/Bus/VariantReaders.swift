import CGio
import Synchronization

// Readers of GVariant values that a peer chooses (a player's properties):
// each one checks the type before it reads, because GLib aborts when a
// `g_variant_get_*` meets a value of another type.

extension Variant {
  /// Why ``parsed(_:)`` read no value: GLib's message.
  package struct ParseError: Error, CustomStringConvertible {
    package var description: String
  }

  /// Serializes ``parsed(_:)``.
  private static let parsing = Mutex(())

  /// A value written in GLib's text format (`{'Metadata': <['a']>}`), a
  /// reference owned by the caller: for tests and fixtures. One parse runs at
  /// a time: the test suites call it from many threads, and one parse among
  /// them once failed on a valid text, unexplained.
  package static func parsed(_ text: String) throws(ParseError) -> OpaquePointer {
    // The value leaves the lock as its address: a pointer is not Sendable.
    let (address, message) = parsing.withLock { _ -> (UInt, String) in
      var error: UnsafeMutablePointer<GError>?
      let value = g_variant_parse(nil, text, nil, nil, &error)
      let message = error.map { String(cString: $0.pointee.message) } ?? "no value"
      if let error { g_error_free(error) }
      return (value.map { UInt(bitPattern: UnsafeRawPointer($0)) } ?? 0, message)
    }
    guard let value = OpaquePointer(bitPattern: address) else {
      throw ParseError(description: "\(text): \(message)")
    }
    return value
  }

  /// Whether `value` has exactly the type `type`, a definite type string such
  /// as `s`, `a{sv}` or `(iiibiiay)`.
  package static func has(_ value: OpaquePointer, type: StaticString) -> Bool {
    g_variant_is_of_type(value, Self.type(type)) != 0
  }

  /// The number of a `u` value; nil for another type.
  package static func uint32(of value: OpaquePointer) -> UInt32? {
    g_variant_classify(value) == G_VARIANT_CLASS_UINT32 ? g_variant_get_uint32(value) : nil
  }

  /// The child at `index` of a tuple or array, through `read` (which may
  /// throw); nil when `value` is no container or has no such child.
  package static func child<Value, Failure: Error>(
    _ value: OpaquePointer, _ index: Int, _ read: (OpaquePointer) throws(Failure) -> Value?
  ) throws(Failure) -> Value? {
    guard g_variant_is_container(value) != 0, index >= 0, g_variant_n_children(value) > index
    else { return nil }
    let child = g_variant_get_child_value(value, gsize(index))!
    defer { g_variant_unref(child) }
    return try read(child)
  }

  /// How many children a tuple, array or dictionary has (0 for a value that
  /// is no container). Counting reads no child: an array's length is known
  /// from its framing.
  package static func count(of value: OpaquePointer) -> Int {
    g_variant_is_container(value) != 0 ? Int(g_variant_n_children(value)) : 0
  }
}

/// The entries of an `a{sv}` dictionary, read in one pass and kept by key
/// (the first entry of a key, as `g_variant_lookup_value` finds it), their
/// values unboxed: many keys looked up cost one scan, not one each.
package final class VariantDictionary {
  /// The unboxed values, each one reference owned.
  private var values: [String: OpaquePointer] = [:]

  /// The entries of `dictionary`; none when it is no `a{sv}`.
  package init(_ dictionary: OpaquePointer) {
    guard Variant.has(dictionary, type: "a{sv}") else { return }
    for index in 0..<g_variant_n_children(dictionary) {
      let entry = g_variant_get_child_value(dictionary, index)!
      let key = g_variant_get_child_value(entry, 0)!
      let boxed = g_variant_get_child_value(entry, 1)!
      defer {
        g_variant_unref(boxed)
        g_variant_unref(key)
        g_variant_unref(entry)
      }
      let name = String(cString: g_variant_get_string(key, nil))
      guard values[name] == nil, let value = g_variant_get_variant(boxed) else { continue }
      values[name] = value
    }
  }

  deinit { for value in values.values { g_variant_unref(value) } }

  /// The value of `key`, through `read` (which may throw); nil when no
  /// entry has the key.
  package func value<Value, Failure: Error>(
    _ key: String, _ read: (OpaquePointer) throws(Failure) -> Value?
  ) throws(Failure) -> Value? {
    guard let value = values[key] else { return nil }
    return try read(value)
  }
}
