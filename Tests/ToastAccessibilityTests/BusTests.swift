import CGio
import Glibc
import SystemSupport
import Testing

@testable import Bus
@testable import ToastAccessibility

/// The accessibility bus's address, the choice of event, and the accessible
/// tree's answers, without a bus.
struct BusTests {
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

  @Test func theTreeAnswersWhatAScreenReaderAsks() throws {
    let tree = AccessibleTree(applicationName: "wl-toast", version: "0.1.0")
    tree.busName = ":1.7"
    tree.desktop = (":1.0", AccessibleTree.rootPath)
    #expect(tree.add(id: 3, name: "Volume, 40 percent") == 0)
    let node = AccessibleTree.path(of: 3)

    let role = ask(tree, node, "org.a11y.atspi.Accessible", "GetRole")
    #expect(role.argument(0) { g_variant_get_uint32($0) } == AccessibleTree.notificationRole)
    let rootRole = ask(tree, AccessibleTree.rootPath, "org.a11y.atspi.Accessible", "GetRole")
    #expect(rootRole.argument(0) { g_variant_get_uint32($0) } == AccessibleTree.applicationRole)

    let name = ask(
      tree, node, "org.freedesktop.DBus.Properties", "Get",
      [Variant.string("org.a11y.atspi.Accessible"), Variant.string("Name")])
    #expect(name.argument(0) { Variant.unboxed($0, Variant.text) } == "Volume, 40 percent")

    let state = ask(tree, node, "org.a11y.atspi.Accessible", "GetState")
    let words = state.argument(0) { Variant.children($0) { g_variant_get_uint32($0) } } ?? []
    #expect(words.count == 2 && words[0] & (1 << 25) != 0, "showing")

    let children = ask(
      tree, AccessibleTree.rootPath, "org.a11y.atspi.Accessible", "GetChildren")
    let references =
      children.argument(0) { Variant.children($0) { Variant.children($0, Variant.text) } } ?? []
    #expect(references == [[":1.7", node]])

    let parent = ask(
      tree, AccessibleTree.rootPath, "org.freedesktop.DBus.Properties", "Get",
      [Variant.string("org.a11y.atspi.Accessible"), Variant.string("Parent")])
    #expect(
      parent.argument(0) { Variant.unboxed($0) { Variant.children($0, Variant.text) } } == [
        ":1.0", AccessibleTree.rootPath,
      ])

    let toolkit = ask(
      tree, AccessibleTree.rootPath, "org.freedesktop.DBus.Properties", "GetAll",
      [Variant.string("org.a11y.atspi.Application")])
    #expect(toolkit.type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN)

    #expect(tree.remove(id: 3) == 0)
    let gone = ask(tree, node, "org.a11y.atspi.Accessible", "GetRole")
    #expect(gone.errorName == "org.freedesktop.DBus.Error.UnknownObject")
    let unknown = ask(tree, AccessibleTree.rootPath, "org.a11y.atspi.Text", "GetText")
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
    call.sender = ":1.3"
    var bytes = try #require(call.encoded(serial: 9))
    let sender = try #require(bytes.firstRange(of: Array(":1.3".utf8)))
    bytes.replaceSubrange(sender, with: Array("a..3".utf8))
    let decoded = try #require(
      BusMessage.decode(bytes))
    #expect(decoded.sender == "a..3" && decoded.serial == 9)
    let tree = AccessibleTree(applicationName: "wl-toast", version: "0")
    #expect(tree.answer(decoded) == nil)
    #expect(decoded.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method") == nil)
    #expect(tree.answer(call)?.destination == ":1.3", "a bus name is answered")
  }

}

/// A directory with a listening socket: a bus whose side the test plays, and
/// an event loop with no compositor.
final class FakeBusRig {
  let directory: String
  private let bus: Int32
  let loop: EventLoop

  init() throws {
    var template = Array("/tmp/wl-toast-fake-bus-XXXXXX".utf8CString)
    try #require(mkdtemp(&template) != nil)
    directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    bus = try Self.listen(at: directory + "/bus")
    // No signals taken: the test process's other threads keep theirs.
    loop = try EventLoop(signals: [])
  }

  deinit {
    close(bus)
    unlink(directory + "/bus")
    rmdir(directory)
  }

  var busAddress: BusAddress { BusAddress("unix:path=\(directory)/bus") }

  private static func listen(at path: String) throws -> Int32 {
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    try #require(fd >= 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      for (index, byte) in path.utf8.enumerated() { buffer[index] = byte }
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0 && Glibc.listen(fd, 4) == 0)
    return fd
  }

  /// The bus side of the connection a client made.
  func acceptBusClient() throws -> Int32 {
    let fd = accept(bus, nil, nil)
    try #require(fd >= 0)
    return fd
  }

  /// What arrives on `fd`, the loop running, until `done` says it is enough
  /// (or the client hung up: then nil).
  func receive(on fd: Int32, after bytes: [UInt8] = [], until done: ([UInt8]) -> Bool) throws
    -> [UInt8]?
  {
    var bytes = bytes
    let deadline = MonotonicTime.now + .seconds(10)
    var buffer = [UInt8](repeating: 0, count: 4096)
    while !done(bytes) {
      try #require(MonotonicTime.now < deadline, "gave up waiting for the client")
      try loop.iterate(timeout: .milliseconds(10))
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count == 0 { return nil }
      if count > 0 { bytes += buffer[0..<count] }
    }
    return bytes
  }
}

/// Connections and the announcer going away with calls unanswered: their
/// handlers reach them unowned, and must not run once they are being
/// deinitialized (Swift stops the process: "attempted to read an unowned
/// reference but the object was already deallocated").
@Suite(.serialized)
struct BusLifetimeTests {
  @Test func aConnectionReleasedOpenCallsNoHandler() throws {
    let rig = try FakeBusRig()
    var heard: [String] = []
    var connection = BusConnection(address: rig.busAddress, loop: rig.loop)
    try #require(connection != nil)
    // Its Hello and this call wait: the bus never answers.
    connection?.onClose = { heard.append("closed") }
    connection?.call(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus.Peer", member: "Ping"
    ) { _ in heard.append("answered") }
    connection = nil
    #expect(heard.isEmpty)
  }

  @Test func anAnnouncerReleasedWhileItAsksTheSessionBusGoesQuietly() throws {
    let rig = try FakeBusRig()
    var announcer: ScreenReaderAnnouncer? = ScreenReaderAnnouncer(loop: rig.loop, version: "0")
    announcer?.sessionAddress = { [address = rig.busAddress] in address }
    announcer?.start()
    let client = try rig.acceptBusClient()
    defer { close(client) }
    // The handshake and Hello, answered; then the announcer asks whether the
    // accessibility bus runs, and gets no answer.
    let hello = try #require(
      try rig.receive(on: client) { bytes in
        guard let begin = bytes.firstRange(of: Array("BEGIN\r\n".utf8)),
          bytes.count >= begin.upperBound + 16
        else { return false }
        let message = Array(bytes[begin.upperBound...])
        guard
          let size = message.withUnsafeBufferPointer({ BusMessage.size(of: $0.baseAddress!) })
        else { return false }
        return message.count >= size
      })
    let message = Array(hello[hello.firstRange(of: Array("BEGIN\r\n".utf8))!.upperBound...])
    let call = try #require(BusMessage.decode(message))
    #expect(call.member == "Hello")
    let reply = try #require(call.reply(Variant.tuple([Variant.string(":1.7")])))
    let answer = Array("OK 0123456789abcdef0123456789abcdef\r\n".utf8) + reply.encoded(serial: 1)!
    #expect(answer.withUnsafeBytes { send(client, $0.baseAddress, $0.count, 0) } == answer.count)
    let asked = try rig.receive(on: client) { $0.firstRange(of: Array("NameHasOwner".utf8)) != nil }
    #expect(asked != nil)
    #expect(announcer?.state == "starting")
    // Released with NameHasOwner unanswered: its handler is dropped, not run.
    announcer = nil
    #expect(try rig.receive(on: client, after: asked ?? []) { _ in false } == nil, "hung up")
  }
}
