import CGio

/// One D-Bus message, held as GIO's `GDBusMessage`: GIO writes and reads the
/// wire format (`g_dbus_message_to_blob`, `g_dbus_message_new_from_blob`);
/// the connection that carries it is ours (``BusConnection``).
package final class BusMessage {
  /// The `GDBusMessage`, owned (one reference).
  package let pointer: OpaquePointer

  private init(owning pointer: OpaquePointer) {
    self.pointer = pointer
  }

  deinit { g_object_unref(UnsafeMutableRawPointer(pointer)) }

  /// A method call to `destination` (nil: the peer itself), never starting a
  /// service by activation. `body` is a tuple (a floating reference is taken).
  package static func call(
    destination: String?, path: String, interface: String, member: String,
    body: OpaquePointer? = nil
  ) -> BusMessage {
    let message = BusMessage(
      owning: g_dbus_message_new_method_call(destination, path, interface, member))
    if let body { g_dbus_message_set_body(message.pointer, body) }
    g_dbus_message_set_flags(message.pointer, G_DBUS_MESSAGE_FLAGS_NO_AUTO_START)
    return message
  }

  /// A signal sent from `path` to whoever listens; `body` is a tuple (a
  /// floating reference is taken), or nil for none.
  package static func signal(
    path: String, interface: String, member: String, body: OpaquePointer?
  ) -> BusMessage {
    let message = BusMessage(owning: g_dbus_message_new_signal(path, interface, member))
    if let body { g_dbus_message_set_body(message.pointer, body) }
    return message
  }

  /// The type of the body (`susssasa{sv}i`); empty for a message without one.
  package var signature: String {
    g_dbus_message_get_signature(pointer).map { String(cString: $0) } ?? ""
  }

  /// Whether an answer to this call can be sent: it has a serial, and its
  /// sender, if it names one, is a bus name. (GIO addresses the answer to the
  /// sender, and a destination that is no bus name fails GIO's assertion:
  /// the answer would go out unaddressed.)
  private var canBeAnswered: Bool {
    serial != 0 && (g_dbus_message_get_sender(pointer).map { g_dbus_is_name($0) != 0 } ?? true)
  }

  /// The answer to this method call, with `body` (a tuple) or none; nil
  /// when this is no call that can be answered (no serial, a sender that is
  /// no bus name).
  package func reply(_ body: OpaquePointer? = nil) -> BusMessage? {
    guard canBeAnswered, let reply = g_dbus_message_new_method_reply(pointer) else {
      if let body { g_variant_unref(g_variant_ref_sink(body)) }
      return nil
    }
    let message = BusMessage(owning: reply)
    if let body { g_dbus_message_set_body(message.pointer, body) }
    return message
  }

  /// The error answer to this method call; nil when it cannot be answered.
  package func error(_ name: String, _ text: String) -> BusMessage? {
    guard canBeAnswered,
      let reply = g_dbus_message_new_method_error_literal(pointer, name, text)
    else { return nil }
    return BusMessage(owning: reply)
  }

  /// Reads one message from the start of `bytes`, which holds it whole.
  package static func decode(_ bytes: UnsafeMutablePointer<UInt8>, count: Int) -> BusMessage? {
    var error: UnsafeMutablePointer<GError>?
    guard
      let message = g_dbus_message_new_from_blob(
        bytes, gsize(count), G_DBUS_CAPABILITY_FLAGS_NONE, &error)
    else {
      if let error { g_error_free(error) }
      return nil
    }
    return BusMessage(owning: message)
  }

  /// How many bytes the message starting at `bytes` takes in all (its first
  /// 16 bytes tell); nil when they are not the start of a message.
  package static func size(of bytes: UnsafeMutablePointer<UInt8>) -> Int? {
    var error: UnsafeMutablePointer<GError>?
    let needed = g_dbus_message_bytes_needed(bytes, 16, &error)
    if let error { g_error_free(error) }
    return needed >= 16 ? Int(needed) : nil
  }

  /// The message in the wire format, numbered `serial`.
  package func encoded(serial: UInt32) -> [UInt8]? {
    g_dbus_message_set_serial(pointer, serial)
    var size: gsize = 0
    var error: UnsafeMutablePointer<GError>?
    guard let blob = g_dbus_message_to_blob(pointer, &size, G_DBUS_CAPABILITY_FLAGS_NONE, &error)
    else {
      if let error { g_error_free(error) }
      return nil
    }
    defer { g_free(blob) }
    return Array(UnsafeBufferPointer(start: blob, count: Int(size)))
  }

  /// A method call, a reply, an error or a signal.
  package var type: GDBusMessageType { g_dbus_message_get_message_type(pointer) }
  /// The sender's number for the message (0: none).
  package var serial: UInt32 { g_dbus_message_get_serial(pointer) }
  /// The serial of the call a reply or error answers (0: none).
  package var replySerial: UInt32 { g_dbus_message_get_reply_serial(pointer) }
  /// Whether a method call wants an answer (no `NO_REPLY_EXPECTED` flag).
  package var expectsReply: Bool {
    g_dbus_message_get_flags(pointer).rawValue & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED.rawValue
      == 0
  }
  /// The object path called or signalling.
  package var path: String? { g_dbus_message_get_path(pointer).map { String(cString: $0) } }
  /// The interface of the method or signal.
  package var interface: String? {
    g_dbus_message_get_interface(pointer).map { String(cString: $0) }
  }
  /// The method or signal name.
  package var member: String? { g_dbus_message_get_member(pointer).map { String(cString: $0) } }
  /// The unique name of the connection that sent the message, as the bus says it.
  package var sender: String? { g_dbus_message_get_sender(pointer).map { String(cString: $0) } }
  /// The bus name the message goes to.
  package var destination: String? {
    g_dbus_message_get_destination(pointer).map { String(cString: $0) }
  }
  /// An error's D-Bus name.
  package var errorName: String? {
    g_dbus_message_get_error_name(pointer).map { String(cString: $0) }
  }
  /// The body (a tuple), borrowed: valid while the message lives.
  package var body: OpaquePointer? { g_dbus_message_get_body(pointer) }

  /// The body's child at `index` as a Swift value, through `read`.
  package func argument<Value>(_ index: Int, _ read: (OpaquePointer) -> Value?) -> Value? {
    guard let body, g_variant_n_children(body) > index else { return nil }
    let child = g_variant_get_child_value(body, gsize(index))!
    defer { g_variant_unref(child) }
    return read(child)
  }
}

/// Building and reading GVariant values without variadic C functions (which
/// Swift cannot call): every constructor returns a floating reference that
/// the container or message it goes into takes.
package enum Variant {
  package static func string(_ value: String) -> OpaquePointer { g_variant_new_string(value) }
  package static func objectPath(_ value: String) -> OpaquePointer {
    g_variant_new_object_path(value)
  }
  package static func boolean(_ value: Bool) -> OpaquePointer {
    g_variant_new_boolean(value ? 1 : 0)
  }
  package static func int32(_ value: Int32) -> OpaquePointer { g_variant_new_int32(value) }
  package static func uint32(_ value: UInt32) -> OpaquePointer { g_variant_new_uint32(value) }
  package static func boxed(_ value: OpaquePointer) -> OpaquePointer {
    g_variant_new_variant(value)
  }

  package static func tuple(_ items: [OpaquePointer]) -> OpaquePointer {
    var children: [OpaquePointer?] = items
    return g_variant_new_tuple(&children, gsize(children.count))
  }

  /// An array of `element` (a type string such as `(so)`); the type makes an
  /// empty array possible.
  package static func array(_ element: StaticString, _ items: [OpaquePointer]) -> OpaquePointer {
    var children: [OpaquePointer?] = items
    return g_variant_new_array(type(element), &children, gsize(children.count))
  }

  package static func dictionaryEntry(_ key: OpaquePointer, _ value: OpaquePointer) -> OpaquePointer
  {
    g_variant_new_dict_entry(key, value)
  }

  /// An empty `a{sv}`.
  package static func noProperties() -> OpaquePointer { array("{sv}", []) }

  /// An accessible object's reference: its bus name and path, `(so)`.
  package static func reference(_ bus: String, _ path: String) -> OpaquePointer {
    tuple([string(bus), objectPath(path)])
  }

  /// A GVariant type from its string; GLib's type is the string itself.
  package static func type(_ text: StaticString) -> OpaquePointer {
    OpaquePointer(UnsafeRawPointer(text.utf8Start))
  }

  /// The text of a string, object path or signature value; nil for another type.
  package static func text(_ value: OpaquePointer) -> String? {
    let kind = g_variant_classify(value)
    guard
      kind == G_VARIANT_CLASS_STRING || kind == G_VARIANT_CLASS_OBJECT_PATH
        || kind == G_VARIANT_CLASS_SIGNATURE,
      let text = g_variant_get_string(value, nil)
    else { return nil }
    return String(cString: text)
  }

  /// The truth of a boolean value; nil for another type.
  package static func bool(_ value: OpaquePointer) -> Bool? {
    g_variant_classify(value) == G_VARIANT_CLASS_BOOLEAN ? g_variant_get_boolean(value) != 0 : nil
  }

  /// The number of an `i` value; nil for another type.
  package static func int32(of value: OpaquePointer) -> Int32? {
    g_variant_classify(value) == G_VARIANT_CLASS_INT32 ? g_variant_get_int32(value) : nil
  }

  /// The value inside a variant (`v`), through `read`.
  package static func unboxed<Value>(_ value: OpaquePointer, _ read: (OpaquePointer) -> Value?)
    -> Value?
  {
    guard g_variant_classify(value) == G_VARIANT_CLASS_VARIANT,
      let inner = g_variant_get_variant(value)
    else { return nil }
    defer { g_variant_unref(inner) }
    return read(inner)
  }

  /// The children of an array or tuple, each through `read` (nil ones dropped).
  package static func children<Value>(_ value: OpaquePointer, _ read: (OpaquePointer) -> Value?)
    -> [Value]
  {
    guard g_variant_is_container(value) != 0 else { return [] }
    return (0..<Int(g_variant_n_children(value))).compactMap { index in
      let child = g_variant_get_child_value(value, gsize(index))!
      defer { g_variant_unref(child) }
      return read(child)
    }
  }

  /// The booleans of an `a{sv}` dictionary, by key (other values skipped;
  /// another type gives none).
  package static func booleans(_ dictionary: OpaquePointer) -> [String: Bool] {
    var result: [String: Bool] = [:]
    for (key, value) in children(
      dictionary,
      { entry -> (String, Bool)? in
        // GLib aborts when asked for the children of a value that has none (a string).
        guard g_variant_is_container(entry) != 0, g_variant_n_children(entry) == 2 else {
          return nil
        }
        let key = g_variant_get_child_value(entry, 0)!
        let value = g_variant_get_child_value(entry, 1)!
        defer {
          g_variant_unref(key)
          g_variant_unref(value)
        }
        guard let name = text(key), let flag = unboxed(value, bool) else { return nil }
        return (name, flag)
      })
    {
      result[key] = value
    }
    return result
  }
}
