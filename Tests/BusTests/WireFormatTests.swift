import CGio
import Testing

@testable import Bus

/// The wire format read and written without GIO's `GDBusMessage`: each
/// message agrees with what GIO writes and reads, field by field and value
/// by value, and bytes that break the format are refused.
struct WireFormatTests {
  /// Bodies of every type D-Bus has, nested as AT-SPI, MPRIS and
  /// notifications nest them (an empty array of structures too: its padding
  /// is written though it holds nothing).
  static let bodies: [String] = [
    "('a', 'b', 'c', '1.2')", "(uint32 7,)", "(uint32 7, 'snooze')",
    "(uint32 4294967295, uint32 2)",
    "(':1.7', objectpath '/org/a11y/atspi/accessible/1')",
    "([(':1.7', objectpath '/a'), (':1.8', objectpath '/b')],)",
    "(@a(so) [],)", "(@a(so) [], 'after')", "(byte 1, @a(so) [], int64 -5)",
    "({'x': <byte 200>, 'y': <true>, 'z': <int16 -3>, 'q': <uint16 9>, 'd': <2.5>,"
      + " 't': <uint64 18446744073709551615>, 'g': <signature 'a{sv}'>, 'v': <<'in'>>},)",
    "('Über', uint32 0, '', 'Summary', '<b>Body</b>', ['default', 'Open'],"
      + " {'image-data': <(2, 1, 8, true, 8, 4, [byte 1, 2, 3, 4, 5, 6, 7, 8])>,"
      + " 'urgency': <byte 2>}, -1)",
    "([[1, 2], [], [3]], [byte 0x00, 0xff], @ay [])",
  ]

  /// A GVariant from its text, a reference owned by the caller.
  static func variant(_ text: String) throws -> OpaquePointer {
    try Variant.parsed(text)
  }

  @Test(arguments: bodies) func gioReadsWhatIsWritten(_ text: String) throws {
    let body = try Self.variant(text)
    let call = BusMessage.call(
      destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
      interface: "org.freedesktop.Notifications", member: "Notify", body: body)
    call.sender = ":1.42"
    let bytes = try #require(call.encoded(serial: 9))
    var error: UnsafeMutablePointer<GError>?
    let read = try #require(
      bytes.withUnsafeBufferPointer {
        g_dbus_message_new_from_blob(
          UnsafeMutablePointer(mutating: $0.baseAddress), gsize($0.count),
          G_DBUS_CAPABILITY_FLAGS_NONE, &error)
      }, "GIO: \(error.map { String(cString: $0.pointee.message) } ?? "")")
    defer { g_object_unref(UnsafeMutableRawPointer(read)) }
    #expect(g_dbus_message_get_serial(read) == 9)
    #expect(String(cString: g_dbus_message_get_member(read)) == "Notify")
    #expect(String(cString: g_dbus_message_get_sender(read)) == ":1.42")
    #expect(
      g_dbus_message_get_flags(read).rawValue == G_DBUS_MESSAGE_FLAGS_NO_AUTO_START.rawValue)
    #expect(
      g_variant_equal(UnsafeRawPointer(g_dbus_message_get_body(read)), UnsafeRawPointer(body)) != 0)
    g_variant_unref(body)
  }

  @Test(arguments: bodies, [false, true]) func whatGIOWritesReadsTheSame(
    _ text: String, bigEndian: Bool
  ) throws {
    let body = try Self.variant(text)
    defer { g_variant_unref(body) }
    let message = g_dbus_message_new_signal("/org/a11y/atspi/accessible/2", "org.a.B", "Changed")!
    defer { g_object_unref(UnsafeMutableRawPointer(message)) }
    g_dbus_message_set_body(message, body)
    g_dbus_message_set_sender(message, ":1.3")
    g_dbus_message_set_destination(message, "org.a.Listener")
    g_dbus_message_set_serial(message, 77)
    if bigEndian { g_dbus_message_set_byte_order(message, G_DBUS_MESSAGE_BYTE_ORDER_BIG_ENDIAN) }
    var size: gsize = 0
    let blob = try #require(
      g_dbus_message_to_blob(message, &size, G_DBUS_CAPABILITY_FLAGS_NONE, nil))
    let bytes = Array(UnsafeBufferPointer(start: blob, count: Int(size)))
    g_free(blob)
    #expect(bytes.withUnsafeBufferPointer { BusMessage.size(of: $0.baseAddress!) } == bytes.count)
    let read = try #require(BusMessage.decode(bytes))
    #expect(read.type == G_DBUS_MESSAGE_TYPE_SIGNAL && read.serial == 77)
    #expect(read.path == "/org/a11y/atspi/accessible/2")
    #expect(read.interface == "org.a.B" && read.member == "Changed")
    #expect(read.sender == ":1.3" && read.destination == "org.a.Listener")
    let type = String(cString: g_variant_get_type_string(body))
    #expect(read.signature == String(type.dropFirst().dropLast()))
    #expect(
      read.body.map { g_variant_equal(UnsafeRawPointer($0), UnsafeRawPointer(body)) != 0 } == true)
    // The body's values pass over by their types, to its last byte.
    var reader = read.bodyReader()
    var rest = Substring(read.signature).utf8
    while let length = WireSignature.completeTypeLength(rest) {
      try reader.skip(rest.prefix(length))
      rest = rest.dropFirst(length)
    }
    #expect(rest.isEmpty && reader.isAtEnd)
  }

  @Test func answersGoToTheCallersSerialAndName() throws {
    let sent = BusMessage.call(
      destination: "org.freedesktop.Notifications", path: "/", interface: "a.b",
      member: "GetServerInformation")
    sent.sender = ":1.9"
    let sentBytes = try #require(sent.encoded(serial: 41))
    let call = try #require(BusMessage.decode(sentBytes))
    let information = try Self.variant("('wl-toast', 'v', '1', '1.2')")
    defer { g_variant_unref(information) }
    let reply = try #require(call.reply(information))
    #expect(reply.type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN)
    #expect(reply.replySerial == 41 && reply.destination == ":1.9" && !reply.expectsReply)
    let error = try #require(call.error("org.freedesktop.DBus.Error.InvalidArgs", "no"))
    let errorBytes = try #require(error.encoded(serial: 2))
    let read = try #require(BusMessage.decode(errorBytes))
    #expect(read.errorName == "org.freedesktop.DBus.Error.InvalidArgs" && read.replySerial == 41)
    #expect(read.argument(0, Variant.text) == "no")
    #expect(call.error("not an error name", "no") == nil)
  }

  /// The reader of `bytes` as a body, little-endian.
  static func reader(_ bytes: [UInt8]) -> WireReader {
    WireReader(bytes, from: 0, bigEndian: false)
  }

  @Test func brokenValuesAreRefused() {
    var truncated = Self.reader([5, 0, 0, 0, 0x61, 0x62])
    #expect(throws: WireReader.Failure.self) { try truncated.string() }
    var noNul = Self.reader([1, 0, 0, 0, 0x61, 0x62])
    #expect(throws: WireReader.Failure.self) { try noNul.string() }
    var innerNul = Self.reader([2, 0, 0, 0, 0x61, 0, 0])
    #expect(throws: WireReader.Failure.self) { try innerNul.string() }
    var notUTF8 = Self.reader([2, 0, 0, 0, 0xc3, 0x28, 0])
    #expect(throws: WireReader.Failure.self) { try notUTF8.string() }
    var two = Self.reader([2, 0, 0, 0])
    #expect(throws: WireReader.Failure.self) { try two.boolean() }
    // Padding is passed over, as GIO passes it (a bus refuses any but zeros).
    var padding = Self.reader([1, 9, 0, 0, 5, 0, 0, 0])
    _ = try? padding.byte()
    #expect((try? padding.uint32()) == 5)
    var truncatedPadding = Self.reader([1, 0])
    _ = try? truncatedPadding.byte()
    #expect(throws: WireReader.Failure.self) { try truncatedPadding.uint32() }
    var badSignature = Self.reader([2, 0x61, 0x28, 0])
    #expect(throws: WireReader.Failure.self) { try badSignature.signature() }
    var longArray = Self.reader([0xff, 0, 0, 0, 1, 2])
    #expect(throws: WireReader.Failure.self) { try longArray.array(alignment: 1) { _ in } }
    var good = Self.reader([3, 0, 0, 0, 0x61, 0x62, 0x63, 0, 1, 0, 0, 0])
    #expect((try? good.string()) == "abc" && (try? good.boolean()) == true && good.isAtEnd)
  }

  @Test func variantsNestedPastTheLimitAreRefused() {
    // A variant holding a variant, 100 deep, then a byte.
    var bytes: [UInt8] = []
    for _ in 0..<100 { bytes += [1, UInt8(ascii: "v"), 0] }
    bytes += [1, UInt8(ascii: "y"), 0, 7]
    var reader = Self.reader(bytes)
    #expect(throws: WireReader.Failure.self) { try reader.skip(Substring("v").utf8) }
    var shallow = Self.reader([1, UInt8(ascii: "v"), 0, 1, UInt8(ascii: "y"), 0, 7])
    #expect((try? shallow.skip(Substring("v").utf8)) != nil && shallow.isAtEnd)
  }

  @Test func signaturesAreCheckedAsTheSpecificationSays() {
    for valid in ["", "s", "a{sv}", "(iiibiiay)", "aa{s(ii)}", "susssasa{sv}i", "v"] {
      #expect(WireSignature.isValid(Substring(valid).utf8), "\(valid)")
    }
    for invalid in ["(", "()", "a", "{sv}", "a{vs}", "a{s}", "a{sss}", "m", "(i", "ai)"] {
      #expect(!WireSignature.isValid(Substring(invalid).utf8), "\(invalid)")
    }
    #expect(!WireSignature.isValid(Substring(String(repeating: "a", count: 33) + "i").utf8))
    #expect(WireSignature.isValid(Substring(String(repeating: "a", count: 32) + "i").utf8))
    #expect(!WireSignature.isSingleType(Substring("ss").utf8))
  }

  @Test func headersThatBreakTheFormatAreRefused() throws {
    let good = try #require(
      BusMessage.signal(path: "/a", interface: "a.b", member: "C", body: nil).encoded(serial: 1))
    #expect(BusMessage.decode(good) != nil)
    var badOrder = good
    badOrder[0] = UInt8(ascii: "x")
    #expect(BusMessage.decode(badOrder) == nil)
    var badVersion = good
    badVersion[3] = 2
    #expect(BusMessage.decode(badVersion) == nil)
    var noSerial = good
    noSerial[8] = 0
    #expect(BusMessage.decode(noSerial) == nil)
    var badType = good
    badType[1] = 9
    #expect(BusMessage.decode(badType) == nil)
    #expect(BusMessage.decode(Array(good.dropLast(8))) == nil, "shorter than it says")
    var overLimit = good
    overLimit.replaceSubrange(4..<8, with: [0, 0, 0, 0x0c])  // a body of 192 MiB
    #expect(overLimit.withUnsafeBufferPointer { BusMessage.size(of: $0.baseAddress!) } == nil)
    // A call's fields make no reply: a reply needs the serial it answers.
    let call = try #require(
      BusMessage.call(destination: nil, path: "/a", interface: "a.b", member: "C")
        .encoded(serial: 1))
    var relabelled = call
    relabelled[1] = UInt8(G_DBUS_MESSAGE_TYPE_METHOD_RETURN.rawValue)
    #expect(BusMessage.decode(relabelled) == nil)
  }

  @Test func namesFollowTheSpecification() {
    let names = [
      "", "/", "//", "/a", "/a/", "/a//b", "/a/b_1", "/a-b", "a", "a.b", "a..b", ".a.b", "a.b.",
      "a.1b", "a.b1", "a-b.c", ":1.7", ":1", ":1.", "::1.2", ":a-b.c-d", "org.freedesktop.DBus",
      "Notify", "1Notify", "No-tify", "_x", "a.b.c.d.e", String(repeating: "a.", count: 128) + "a",
      "é.b", "a b.c",
    ]
    for name in names {
      #expect(BusNames.isObjectPath(name) == (g_variant_is_object_path(name) != 0), "path \(name)")
      #expect(
        BusNames.isInterfaceName(name) == (g_dbus_is_interface_name(name) != 0), "interface \(name)"
      )
      #expect(BusNames.isMemberName(name) == (g_dbus_is_member_name(name) != 0), "member \(name)")
      #expect(BusNames.isBusName(name) == (g_dbus_is_name(name) != 0), "bus name \(name)")
    }
    // An empty element is no element, though GIO takes one after a unique name's colon.
    #expect(!BusNames.isBusName(":.13") && g_dbus_is_name(":.13") != 0)
  }

  @Test func aBodyOfTooManyValuesReadsAsNone() throws {
    let count = WireReader.maximumValues + 1
    /// A signal whose body, of type `signature`, is written by `body`.
    func signal(_ signature: String, _ body: (inout WireWriter) -> Void) throws -> BusMessage {
      var writer = WireWriter()
      body(&writer)
      let signal = BusMessage.signal(path: "/a", interface: "a.b", member: "Many", body: nil)
      return try #require(signal.delivered(body: writer.bytes, signature: signature))
    }
    let strings = try signal("as") { writer in
      _ = writer.array(alignment: 4) { writer in
        for _ in 0..<count { writer.string("") }
        return true
      }
    }
    #expect(strings.body == nil)
    let numbers = try signal("au") { writer in
      _ = writer.array(alignment: 4) { writer in
        for index in 0..<count { writer.uint32(UInt32(index)) }
        return true
      }
    }
    #expect(numbers.argument(0, Variant.count(of:)) == count, "numbers are one value")
  }

}
