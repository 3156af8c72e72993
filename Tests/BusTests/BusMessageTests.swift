import CGio
import Testing

@testable import Bus

/// Bus addresses, GIO's wire format and the framing of what a bus sends,
/// without a bus.
struct BusMessageTests {
  @Test func busAddressesNameTheirUnixSockets() {
    #expect(
      BusAddress("unix:path=/run/user/1000/bus,guid=0123").sockets == [.path("/run/user/1000/bus")])
    #expect(BusAddress("unix:abstract=/tmp/dbus-x,guid=1").sockets == [.abstract("/tmp/dbus-x")])
    #expect(
      BusAddress("tcp:host=localhost,port=1;unix:path=/a%20b;unix:path=/c").sockets == [
        .path("/a b"), .path("/c"),
      ])
    #expect(BusAddress("unix:path=/bad%2").sockets.isEmpty, "a broken escape")
    #expect(BusAddress("unix:tmpdir=/tmp").sockets.isEmpty, "a server's address only")
    #expect(BusAddress("").sockets.isEmpty)
  }

  @Test func messagesSurviveTheWireFormat() throws {
    let message = BusMessage.signal(
      path: "/org/a11y/atspi/accessible/1", interface: "org.a11y.atspi.Event.Object",
      member: "Announcement",
      body: Variant.tuple([
        Variant.string(""), Variant.int32(1), Variant.int32(0),
        Variant.boxed(Variant.string("Saved")), Variant.noProperties(),
      ]))
    let bytes = try #require(message.encoded(serial: 7))
    let size = bytes.withUnsafeBufferPointer { BusMessage.size(of: $0.baseAddress!) }
    #expect(size == bytes.count)
    let decoded = try #require(
      BusMessage.decode(bytes))
    #expect(decoded.serial == 7 && decoded.member == "Announcement")
    #expect(decoded.argument(3) { Variant.unboxed($0, Variant.text) } == "Saved")
  }

  /// The bytes of `message` after the bus's `OK`, as a connection receives them.
  static func received(_ messages: BusMessage...) -> [UInt8] {
    Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8)
      + messages.enumerated().flatMap { $0.element.encoded(serial: UInt32($0.offset + 1)) ?? [] }
  }

  @Test func busInputReadsTheSameMessagesInAnyPieces() throws {
    let bytes = Self.received(
      BusMessage.signal(
        path: "/a", interface: "org.example.A", member: "One",
        body: Variant.tuple([Variant.string("x")])),
      BusMessage.call(destination: nil, path: "/b", interface: "org.example.B", member: "Two"))
    for size in [1, 7, 16, bytes.count] {
      var input = BusInput()
      var members: [String] = []
      for start in stride(from: 0, to: bytes.count, by: size) {
        input.append(bytes[start..<min(start + size, bytes.count)])
        while let message = try input.next() { members.append(message.member ?? "") }
      }
      #expect(members == ["One", "Two"], "\(size) bytes at a time")
      #expect(input.isAuthenticated && input.pending == 0 && input.consumed == bytes.count)
    }
  }

  /// A signal of `size` bytes of text, then a small call, as a bus sends them.
  static func largeThenSmall(size: Int) -> [UInt8] {
    received(
      BusMessage.signal(
        path: "/a", interface: "org.example.A", member: "Large",
        body: Variant.tuple([Variant.string(String(repeating: "x", count: size))])),
      BusMessage.call(destination: nil, path: "/b", interface: "org.example.B", member: "Small"))
  }

  /// Feeds `bytes` to `input` `size` bytes at a time, as the connection reads
  /// them; returns the members of the messages read and the most storage held.
  static func read(
    _ bytes: [UInt8], into input: inout BusInput, piecesOf size: Int
  ) throws -> (members: [String], storage: Int) {
    var members: [String] = []
    var most = 0
    for start in stride(from: 0, to: bytes.count, by: size) {
      input.append(bytes[start..<min(start + size, bytes.count)])
      most = max(most, input.storage)
      while let message = try input.next() { members.append(message.member ?? "") }
      most = max(most, input.storage)
    }
    return (members, most)
  }

  @Test func busInputLetsGoOfALargeMessagesStorageOnceTaken() throws {
    let size = 3 << 20
    let bytes = Self.largeThenSmall(size: size)
    for pieces in [16_384, 1_000_000] {
      var input = BusInput()
      let (members, most) = try Self.read(bytes, into: &input, piecesOf: pieces)
      #expect(members == ["Large", "Small"])
      #expect(
        most <= size + BusInput.retainedStorage + 2 * pieces,
        "\(most) bytes held: about one message's size while it comes, not twice")
      #expect(input.pending == 0 && input.storage <= BusInput.retainedStorage)
    }
  }

  @Test func busInputSkipsAMessageOverItsLimitAsItComes() throws {
    let limit = 1 << 20
    let bytes = Self.largeThenSmall(size: 3 << 20)
    for pieces in [16_384, 100_000, bytes.count] {
      var input = BusInput(maximumMessageSize: limit)
      let (members, most) = try Self.read(bytes, into: &input, piecesOf: pieces)
      #expect(members == ["Small"], "\(pieces) bytes at a time")
      #expect(input.skipped == 1 && input.pending == 0 && input.consumed == bytes.count)
      if pieces < limit { #expect(most <= 2 * pieces, "\(most) bytes held") }
    }
  }

  @Test func busInputSkipsAMessageOverTheDefaultLimitWithoutHoldingIt() throws {
    var huge = try #require(
      BusMessage.signal(
        path: "/a", interface: "org.example.A", member: "Huge",
        body: Variant.tuple([Variant.string("x")])
      ).encoded(serial: 1))
    // Its body said to be 100 MiB long (little-endian: its first byte is `l`).
    #expect(huge[0] == UInt8(ascii: "l"))
    withUnsafeBytes(of: UInt32(100 << 20).littleEndian) { huge.replaceSubrange(4..<8, with: $0) }
    let size = try #require(
      huge.withUnsafeBufferPointer { BusMessage.size(of: $0.baseAddress!) })
    #expect(size > BusInput.defaultMaximumMessageSize)
    let small = try #require(
      BusMessage.call(destination: nil, path: "/b", interface: "org.example.B", member: "Small")
        .encoded(serial: 2))
    var input = BusInput()
    input.append(Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8) + huge)
    #expect(try input.next() == nil)
    var most = input.storage
    var given = huge.count
    let piece = [UInt8](repeating: 0, count: 65_536)
    while given < size {
      input.append(piece.prefix(size - given))
      given += min(piece.count, size - given)
      #expect(try input.next() == nil)
      most = max(most, input.storage)
    }
    input.append(small)
    #expect(try input.next()?.member == "Small")
    #expect(input.skipped == 1 && input.pending == 0 && most <= 2 * piece.count)
  }

  @Test func busInputFailsOnARefusalALongLineAndBytesThatFrameNothing() {
    func failure(_ bytes: [UInt8]) -> BusInput.Failure? {
      var input = BusInput()
      input.append(bytes)
      do {
        while try input.next() != nil {}
        return nil
      } catch {
        return error
      }
    }
    #expect(failure(Array("REJECTED EXTERNAL\r\n".utf8)) == .refused)
    #expect(failure(Array("OK 1234".utf8)) == nil, "waits for the rest of the line")
    let long = Array("OK ".utf8) + [UInt8](repeating: 0x30, count: BusInput.maximumLineLength)
    #expect(failure(long) == .lineTooLong)
    #expect(failure(long + Array("\r\n".utf8)) == .lineTooLong, "whether or not it ends")
    #expect(failure(Array("OK 1\r\n".utf8) + [UInt8](repeating: 0x78, count: 16)) == .unframed)
  }

  /// GLib aborts when asked for the children of a string: a status that is
  /// no dictionary reads as no booleans (a crash the bus fuzz target found).
  @Test func booleansOfSomethingElseThanADictionaryAreNone() {
    func booleans(_ value: OpaquePointer) -> [String: Bool]? {
      BusMessage.signal(
        path: "/a", interface: "org.example.A", member: "B", body: Variant.tuple([value])
      )
      .argument(0) { Variant.booleans($0) }
    }
    #expect(booleans(Variant.array("s", [Variant.string("IsEnabled")])) == [:])
    #expect(booleans(Variant.reference(":1.0", "/org/a11y/atspi/accessible/root")) == [:])
    #expect(booleans(Variant.string("IsEnabled")) == [:])
    let status = Variant.array(
      "{sv}",
      [
        Variant.dictionaryEntry(Variant.string("IsEnabled"), Variant.boxed(Variant.boolean(true))),
        Variant.dictionaryEntry(Variant.string("Version"), Variant.boxed(Variant.string("2"))),
      ])
    #expect(booleans(status) == ["IsEnabled": true])
  }

  /// One pass over an `a{sv}`: each key's first entry, unboxed; anything
  /// else than an `a{sv}` has no entries (GLib aborts on a wrong reader).
  @Test func aDictionaryKeepsEachKeysFirstEntryUnboxed() {
    func entries(_ value: OpaquePointer, _ read: (VariantDictionary) -> Void) {
      let owned = g_variant_ref_sink(value)!
      defer { g_variant_unref(owned) }
      read(VariantDictionary(owned))
    }
    entries(
      Variant.array(
        "{sv}",
        [
          Variant.dictionaryEntry(Variant.string("urgency"), Variant.boxed(Variant.int32(2))),
          Variant.dictionaryEntry(Variant.string("urgency"), Variant.boxed(Variant.int32(0))),
          Variant.dictionaryEntry(Variant.string("category"), Variant.boxed(Variant.string("x"))),
          Variant.dictionaryEntry(
            Variant.string("nested"), Variant.boxed(Variant.boxed(Variant.boolean(true)))),
          Variant.dictionaryEntry(Variant.string(""), Variant.boxed(Variant.uint32(7))),
        ])
    ) { dictionary in
      #expect(dictionary.value("urgency", Variant.int32(of:)) == 2, "the first entry")
      #expect(dictionary.value("category", Variant.text) == "x")
      #expect(dictionary.value("category", Variant.int32(of:)) == nil, "a reader of another type")
      #expect(dictionary.value("nested", Variant.bool) == nil, "unboxed once only")
      #expect(dictionary.value("nested") { Variant.unboxed($0, Variant.bool) } == true)
      #expect(dictionary.value("", Variant.uint32(of:)) == 7)
      #expect(dictionary.value("missing", Variant.text) == nil)
    }
    let others = [
      Variant.array("s", [Variant.string("urgency")]), Variant.string("urgency"),
      Variant.array("{sv}", []),
      Variant.array(
        "{ss}", [Variant.dictionaryEntry(Variant.string("urgency"), Variant.string("2"))]),
      Variant.tuple([Variant.string("urgency"), Variant.boxed(Variant.int32(2))]),
    ]
    for other in others {
      entries(other) { #expect($0.value("urgency", Variant.text) == nil) }
    }
  }
}
