import CGio

/// One D-Bus message: its header's fields and its body. Read from the wire
/// by ``decode(_:)``, which reads the header itself (``WireReader``) and
/// keeps the bytes: the body becomes `GVariant`s only when ``body`` is first
/// asked for (``WireReader/tuple(of:)``), and ``bodyReader()`` reads it
/// without any. GIO's `GDBusMessage` is not used. Written by ``encoded(serial:)``
/// (``WireWriter``). The connection that carries it is ours (``BusConnection``).
package final class BusMessage {
  /// A method call, a reply, an error or a signal.
  package let type: GDBusMessageType
  /// The header's flags (`NO_REPLY_EXPECTED` 1, `NO_AUTO_START` 2).
  package private(set) var flags: UInt8
  /// The sender's number for the message (0: none yet).
  package var serial: UInt32
  /// The serial of the call a reply or error answers (0: none).
  package private(set) var replySerial: UInt32 = 0
  /// The object path called or signalling.
  package private(set) var path: String?
  /// The interface of the method or signal.
  package private(set) var interface: String?
  /// The method or signal name.
  package private(set) var member: String?
  /// An error's D-Bus name.
  package private(set) var errorName: String?
  /// The bus name the message goes to.
  package private(set) var destination: String?
  /// The unique name of the connection that sent the message, as the bus says it.
  package var sender: String?
  /// The type of the body without its parentheses (`susssasa{sv}i`); empty
  /// for a message without one.
  package private(set) var signature = ""

  /// The whole message as it was read; empty for a message made here.
  private let wire: [UInt8]
  /// Where the body starts in ``wire``.
  private var bodyStart = 0
  /// Whether ``wire``'s numbers are big-endian.
  private var isBigEndian = false
  /// The body as a tuple, one reference owned: given, or read on first use.
  private var variant: OpaquePointer?
  /// Whether ``variant`` was read from ``wire`` already (or tried).
  private var variantRead = false

  private init(type: GDBusMessageType, flags: UInt8, serial: UInt32, wire: [UInt8] = []) {
    self.type = type
    self.flags = flags
    self.serial = serial
    self.wire = wire
  }

  deinit { if let variant { g_variant_unref(variant) } }

  /// The header flag of a call that wants no answer.
  private static let noReplyExpected: UInt8 = 1
  /// The header flag of a call that must not start a service by activation.
  private static let noAutoStart: UInt8 = 2

  /// Takes `body` (a tuple, a floating reference taken) as the body.
  private func setBody(_ body: OpaquePointer?) {
    guard let body else { return }
    variant = g_variant_ref_sink(body)
    variantRead = true
    signature = String(String(cString: g_variant_get_type_string(body)).dropFirst().dropLast())
  }

  /// A method call to `destination` (nil: the peer itself), never starting a
  /// service by activation. `body` is a tuple (a floating reference is taken).
  package static func call(
    destination: String?, path: String, interface: String, member: String,
    body: OpaquePointer? = nil
  ) -> BusMessage {
    let message = BusMessage(type: G_DBUS_MESSAGE_TYPE_METHOD_CALL, flags: noAutoStart, serial: 0)
    message.destination = destination
    message.path = path
    message.interface = interface
    message.member = member
    message.setBody(body)
    return message
  }

  /// A signal sent from `path` to whoever listens; `body` is a tuple (a
  /// floating reference is taken), or nil for none.
  package static func signal(
    path: String, interface: String, member: String, body: OpaquePointer?
  ) -> BusMessage {
    let message = BusMessage(type: G_DBUS_MESSAGE_TYPE_SIGNAL, flags: 0, serial: 0)
    message.path = path
    message.interface = interface
    message.member = member
    message.setBody(body)
    return message
  }

  /// Whether an answer to this call can be sent: it has a serial, and its
  /// sender, if it names one, is a bus name (the answer goes to it).
  private var canBeAnswered: Bool {
    serial != 0 && (sender.map(BusNames.isBusName) ?? true)
  }

  /// An answer of `type` to this call, addressed to its sender.
  private func answer(_ type: GDBusMessageType) -> BusMessage? {
    guard canBeAnswered else { return nil }
    let answer = BusMessage(type: type, flags: Self.noReplyExpected, serial: 0)
    answer.replySerial = serial
    answer.destination = sender
    return answer
  }

  /// The answer to this method call, with `body` (a tuple) or none; nil
  /// when this is no call that can be answered (no serial, a sender that is
  /// no bus name).
  package func reply(_ body: OpaquePointer? = nil) -> BusMessage? {
    guard let reply = answer(G_DBUS_MESSAGE_TYPE_METHOD_RETURN) else {
      if let body { g_variant_unref(g_variant_ref_sink(body)) }
      return nil
    }
    reply.setBody(body)
    return reply
  }

  /// The error answer to this method call; nil when it cannot be answered.
  package func error(_ name: String, _ text: String) -> BusMessage? {
    guard BusNames.isInterfaceName(name), let error = answer(G_DBUS_MESSAGE_TYPE_ERROR)
    else { return nil }
    error.errorName = name
    error.setBody(Variant.tuple([Variant.string(text)]))
    return error
  }

  /// Reads one whole message (``size(of:)`` bytes): its header now, its body
  /// when asked for; nil when the header does not read (a wrong byte order,
  /// type or version, a field of the wrong type, a required field missing, a
  /// length that disagrees with the bytes).
  package static func decode(_ bytes: [UInt8]) -> BusMessage? {
    guard bytes.count >= 16, let size = size(of: bytes), size == bytes.count else { return nil }
    let isBigEndian = bytes[0] == UInt8(ascii: "B")
    var reader = WireReader(bytes, from: 4, bigEndian: isBigEndian)
    do throws(WireReader.Failure) {
      let bodyLength = Int(try reader.uint32())
      let serial = try reader.uint32()
      guard (1...4).contains(bytes[1]), bytes[3] == 1, serial != 0 else { return nil }
      let message = BusMessage(
        type: GDBusMessageType(rawValue: UInt32(bytes[1])), flags: bytes[2], serial: serial,
        wire: bytes)
      message.isBigEndian = isBigEndian
      try reader.array(alignment: 8) { (field) throws(WireReader.Failure) in
        try field.align(8)
        try message.readField(&field)
      }
      try reader.align(8)
      message.bodyStart = reader.offset
      guard message.bodyStart + bodyLength == bytes.count, message.hasItsFields,
        bodyLength == 0 || !message.signature.isEmpty
      else { return nil }
      return message
    } catch {
      return nil
    }
  }

  /// Reads one header field, a code and a variant, into the message.
  private func readField(_ reader: inout WireReader) throws(WireReader.Failure) {
    let code = try reader.byte()
    let type = try reader.signature()
    func expect(_ expected: String) throws(WireReader.Failure) {
      guard type == expected else {
        throw WireReader.Failure("header field \(code) of type \(type)")
      }
    }
    switch code {
    case 1:
      try expect("o")
      path = try reader.string()
    case 2:
      try expect("s")
      interface = try reader.string()
    case 3:
      try expect("s")
      member = try reader.string()
    case 4:
      try expect("s")
      errorName = try reader.string()
    case 5:
      try expect("u")
      replySerial = try reader.uint32()
    case 6:
      try expect("s")
      destination = try reader.string()
    case 7:
      try expect("s")
      sender = try reader.string()
    case 8:
      try expect("g")
      signature = try reader.signature()
    default:
      // Unknown fields (and UNIX_FDS, 9) are passed over.
      guard WireSignature.isSingleType(type[...].utf8) else {
        throw WireReader.Failure("header field \(code) of no single type")
      }
      try reader.skip(type[...].utf8)
    }
  }

  /// Whether the fields its type requires are there (a call's path and
  /// member, a signal's interface too, an answer's reply serial, an error's name).
  private var hasItsFields: Bool {
    switch type {
    case G_DBUS_MESSAGE_TYPE_METHOD_CALL: path != nil && member != nil
    case G_DBUS_MESSAGE_TYPE_SIGNAL: path != nil && interface != nil && member != nil
    case G_DBUS_MESSAGE_TYPE_METHOD_RETURN: replySerial != 0
    case G_DBUS_MESSAGE_TYPE_ERROR: replySerial != 0 && errorName != nil
    default: false
    }
  }

  /// How many bytes the message starting at `bytes` takes in all (its first
  /// 16 bytes tell: the byte order, the body's length and the header
  /// fields' length); nil when they are not the start of a message, or it
  /// would be longer than ``maximumSize``.
  package static func size(of bytes: UnsafePointer<UInt8>) -> Int? {
    let isBigEndian: Bool
    switch bytes[0] {
    case UInt8(ascii: "l"): isBigEndian = false
    case UInt8(ascii: "B"): isBigEndian = true
    default: return nil
    }
    func number(at offset: Int) -> Int {
      var value = 0
      for index in 0..<4 {
        value = value << 8 | Int(bytes[offset + (isBigEndian ? index : 3 - index)])
      }
      return value
    }
    let fields = 16 + number(at: 12)
    let size = (fields + 7) / 8 * 8 + number(at: 4)
    return size <= maximumSize ? size : nil
  }

  /// The longest message the specification allows, 128 MiB: a longer one
  /// frames nothing (as GIO's `g_dbus_message_bytes_needed` says).
  package static let maximumSize = 1 << 27

  /// ``size(of:)`` of an array's first 16 bytes.
  private static func size(of bytes: [UInt8]) -> Int? {
    bytes.withUnsafeBufferPointer { size(of: $0.baseAddress!) }
  }

  /// The message in the wire format, numbered `serial`; nil when a field or
  /// the body cannot be written (a name D-Bus does not take, a maybe type).
  package func encoded(serial: UInt32) -> [UInt8]? {
    self.serial = serial
    guard isWritable else { return nil }
    var writer = WireWriter()
    writeHeader(into: &writer, signature: signature)
    let bodyStart = writer.bytes.count
    guard writeBody(into: &writer) else { return nil }
    writer.patch(UInt32(writer.bytes.count - bodyStart), at: 4)
    return writer.bytes
  }

  /// This message's header numbered `serial`, with `body` as the bytes of
  /// its body, of type `signature` (little-endian), read back as a bus
  /// delivers it; nil when the header cannot be written or the whole does
  /// not read. For bodies that no `GVariant` could make (the fuzz targets').
  package func delivered(body: [UInt8], signature: String, serial: UInt32 = 1) -> BusMessage? {
    self.serial = serial
    guard isWritable, WireSignature.isValid(signature[...].utf8) else { return nil }
    var writer = WireWriter()
    writeHeader(into: &writer, signature: signature)
    writer.patch(UInt32(body.count), at: 4)
    return BusMessage.decode(writer.bytes + body)
  }

  /// The fixed part and the fields of the header, padded for the body,
  /// whose length stays 0 for the caller to fill in.
  private func writeHeader(into writer: inout WireWriter, signature: String) {
    for byte in [UInt8(ascii: "l"), UInt8(type.rawValue), flags, 1] { writer.byte(byte) }
    writer.uint32(0)  // the body's length
    writer.uint32(serial)
    let fields: [(UInt8, String, String?)] = [
      (1, "o", path), (2, "s", interface), (3, "s", member), (4, "s", errorName),
      (6, "s", destination), (7, "s", sender),
    ]
    _ = writer.array(alignment: 8) { writer in
      for (code, type, value) in fields {
        guard let value else { continue }
        writer.align(8)
        writer.byte(code)
        writer.signature(type)
        writer.string(value)
      }
      if replySerial != 0 {
        writer.align(8)
        writer.byte(5)
        writer.signature("u")
        writer.uint32(replySerial)
      }
      if !signature.isEmpty {
        writer.align(8)
        writer.byte(8)
        writer.signature("g")
        writer.signature(signature)
      }
      return true
    }
    writer.align(8)
  }

  /// Whether the header's fields are what D-Bus takes: an object path, bus,
  /// interface, member and error names, a signature of at most 255 bytes.
  private var isWritable: Bool {
    (path.map(BusNames.isObjectPath) ?? true)
      && (interface.map(BusNames.isInterfaceName) ?? true)
      && (member.map(BusNames.isMemberName) ?? true)
      && (errorName.map(BusNames.isInterfaceName) ?? true)
      && (destination.map(BusNames.isBusName) ?? true)
      && (sender.map(BusNames.isBusName) ?? true)
      && WireSignature.isValid(signature[...].utf8)
  }

  /// The bytes the message was read from; empty for a message made here.
  package var bytesRead: [UInt8] { wire }

  /// Whether a method call wants an answer (no `NO_REPLY_EXPECTED` flag).
  package var expectsReply: Bool { flags & Self.noReplyExpected == 0 }

  /// The body (a tuple), borrowed: valid while the message lives; nil for a
  /// message without one, or a body that does not read (``WireReader/tuple(of:)``).
  package var body: OpaquePointer? {
    guard !variantRead else { return variant }
    variantRead = true
    guard !signature.isEmpty else { return nil }
    var reader = bodyReader()
    variant = reader.tuple(of: signature)
    return variant
  }

  /// A reader of the body in the wire format, from its first value: the
  /// bytes read, or those of the body given, written.
  package func bodyReader() -> WireReader {
    if !wire.isEmpty {
      return WireReader(wire, from: bodyStart, bigEndian: isBigEndian)
    }
    var writer = WireWriter()
    _ = writeBody(into: &writer)
    return WireReader(writer.bytes, from: 0, bigEndian: false)
  }

  /// Writes the body's values (none for a message without one); false when
  /// one cannot be written.
  private func writeBody(into writer: inout WireWriter) -> Bool {
    guard let body else { return true }
    for index in 0..<g_variant_n_children(body) {
      let child = g_variant_get_child_value(body, index)!
      defer { g_variant_unref(child) }
      guard writer.value(child) else { return false }
    }
    return true
  }

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
