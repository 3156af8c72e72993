import CGio
import Testing

@testable import ToastAccessibility

/// Bus addresses, the choice of event, and the accessible tree's answers,
/// without a bus.
struct BusTests {
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

  @Test func atSpiBusAddressNamesTheAccessibilityBus() {
    #expect(
      BusAddress.accessibilityOverride("unix:path=/tmp/at-spi/bus_0,guid=1")?.sockets == [
        .path("/tmp/at-spi/bus_0")
      ])
    #expect(BusAddress.accessibilityOverride(nil) == nil, "unset: ask org.a11y.Bus")
    #expect(BusAddress.accessibilityOverride("") == nil)
    #expect(BusAddress.accessibilityOverride("tcp:host=x,port=1") == nil, "no Unix socket")
  }

  @Test func announcementsOnlyWhenEveryScreenReaderHearsThem() {
    // Orca 45.2 and later register for both.
    #expect(
      ScreenReaderAnnouncer.announcementsReachEveryone([
        (":1.5", "Object:StateChanged:Showing"), (":1.5", "Object:Announcement:"),
      ]))
    // Orca 43 hears showing only: whoever else listens, showing it is.
    #expect(
      !ScreenReaderAnnouncer.announcementsReachEveryone([
        (":1.5", "Object:StateChanged:Showing"), (":1.9", "Object:Announcement:"),
      ]))
    #expect(!ScreenReaderAnnouncer.announcementsReachEveryone([(":1.5", "Object:StateChanged:")]))
    // A listener of every object event hears announcements too, but asks for none by name.
    #expect(!ScreenReaderAnnouncer.announcementsReachEveryone([(":1.7", "Object:")]))
    #expect(
      ScreenReaderAnnouncer.announcementsReachEveryone([
        (":1.7", "Object:"), (":1.8", "object:announcement"),
      ]))
    #expect(!ScreenReaderAnnouncer.announcementsReachEveryone([]))
  }

  /// Asks the tree `member` of `interface` on `path` and returns the answer.
  static func ask(
    _ tree: AccessibleTree, _ path: String, _ interface: String, _ member: String,
    _ arguments: [OpaquePointer] = []
  ) -> BusMessage {
    let call = BusMessage.call(
      destination: ":1.1", path: path, interface: interface, member: member,
      body: arguments.isEmpty ? nil : Variant.tuple(arguments))
    // As it would arrive from a bus: numbered.
    _ = call.encoded(serial: 5)
    return tree.answer(call)!
  }

  @Test func theTreeAnswersWhatAScreenReaderAsks() throws {
    let tree = AccessibleTree(applicationName: "wl-toast", version: "0.1.0")
    tree.busName = ":1.7"
    tree.desktop = (":1.0", AccessibleTree.rootPath)
    #expect(tree.add(id: 3, name: "Volume, 40 percent") == 0)
    let node = AccessibleTree.path(of: 3)

    let role = Self.ask(tree, node, "org.a11y.atspi.Accessible", "GetRole")
    #expect(role.argument(0) { g_variant_get_uint32($0) } == AccessibleTree.notificationRole)
    let rootRole = Self.ask(tree, AccessibleTree.rootPath, "org.a11y.atspi.Accessible", "GetRole")
    #expect(rootRole.argument(0) { g_variant_get_uint32($0) } == AccessibleTree.applicationRole)

    let name = Self.ask(
      tree, node, "org.freedesktop.DBus.Properties", "Get",
      [Variant.string("org.a11y.atspi.Accessible"), Variant.string("Name")])
    #expect(name.argument(0) { Variant.unboxed($0, Variant.text) } == "Volume, 40 percent")

    let state = Self.ask(tree, node, "org.a11y.atspi.Accessible", "GetState")
    let words = state.argument(0) { Variant.children($0) { g_variant_get_uint32($0) } } ?? []
    #expect(words.count == 2 && words[0] & (1 << 25) != 0, "showing")

    let children = Self.ask(
      tree, AccessibleTree.rootPath, "org.a11y.atspi.Accessible", "GetChildren")
    let references =
      children.argument(0) { Variant.children($0) { Variant.children($0, Variant.text) } } ?? []
    #expect(references == [[":1.7", node]])

    let parent = Self.ask(
      tree, AccessibleTree.rootPath, "org.freedesktop.DBus.Properties", "Get",
      [Variant.string("org.a11y.atspi.Accessible"), Variant.string("Parent")])
    #expect(
      parent.argument(0) { Variant.unboxed($0) { Variant.children($0, Variant.text) } } == [
        ":1.0", AccessibleTree.rootPath,
      ])

    let toolkit = Self.ask(
      tree, AccessibleTree.rootPath, "org.freedesktop.DBus.Properties", "GetAll",
      [Variant.string("org.a11y.atspi.Application")])
    #expect(toolkit.type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN)

    #expect(tree.remove(id: 3) == 0)
    let gone = Self.ask(tree, node, "org.a11y.atspi.Accessible", "GetRole")
    #expect(gone.errorName == "org.freedesktop.DBus.Error.UnknownObject")
    let unknown = Self.ask(tree, AccessibleTree.rootPath, "org.a11y.atspi.Text", "GetText")
    #expect(unknown.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
  }

  @Test func aCallWithoutASerialIsNotAnswered() {
    let call = BusMessage.call(
      destination: nil, path: AccessibleTree.rootPath, interface: "org.a11y.atspi.Accessible",
      member: "GetRole")
    #expect(AccessibleTree(applicationName: "wl-toast", version: "0").answer(call) == nil)
  }

  /// GIO addresses an answer to the call's sender and asserts that it is a bus
  /// name: a call from something else is not answered (found by the bus fuzz target).
  @Test func aCallFromNoBusNameIsNotAnswered() throws {
    let call = BusMessage.call(
      destination: nil, path: AccessibleTree.rootPath, interface: "org.a11y.atspi.Accessible",
      member: "GetRole")
    g_dbus_message_set_sender(call.pointer, ":1.3")
    var bytes = try #require(call.encoded(serial: 9))
    let sender = try #require(bytes.firstRange(of: Array(":1.3".utf8)))
    bytes.replaceSubrange(sender, with: Array("a..3".utf8))
    let decoded = try #require(
      bytes.withUnsafeMutableBufferPointer { BusMessage.decode($0.baseAddress!, count: $0.count) })
    #expect(decoded.sender == "a..3" && decoded.serial == 9)
    let tree = AccessibleTree(applicationName: "wl-toast", version: "0")
    #expect(tree.answer(decoded) == nil)
    #expect(decoded.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method") == nil)
    #expect(tree.answer(call)?.destination == ":1.3", "a bus name is answered")
  }

  @Test func messagesSurviveTheWireFormat() throws {
    let message = BusMessage.signal(
      path: "/org/a11y/atspi/accessible/1", interface: "org.a11y.atspi.Event.Object",
      member: "Announcement",
      body: Variant.tuple([
        Variant.string(""), Variant.int32(1), Variant.int32(0),
        Variant.boxed(Variant.string("Saved")), Variant.noProperties(),
      ]))
    var bytes = try #require(message.encoded(serial: 7))
    let size = bytes.withUnsafeMutableBufferPointer { BusMessage.size(of: $0.baseAddress!) }
    #expect(size == bytes.count)
    let decoded = try #require(
      bytes.withUnsafeMutableBufferPointer { BusMessage.decode($0.baseAddress!, count: $0.count) })
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
}
