import Glibc
import SystemSupport
import TestSupport
import Testing

@testable import Bus

/// What a service needs of the bus, on a private bus with GLib's `gdbus` as
/// the client: a well-known name, the dispatch of calls with its errors,
/// introspection, and signals.
@Suite(.serialized)
struct BusServiceTests {
  static let interface = BusInterface(
    "org.example.Echo",
    methods: [
      .init("Echo", inputs: [.init("text", "s")], outputs: [.init("same", "s")]),
      .init("Fail"),
    ],
    signals: [.init("Echoed", [.init("text", "s")])])

  /// Runs `program` (`gdbus`) with `arguments` while `loop` answers; its
  /// status and output.
  static func client(
    _ arguments: [String], program: String = "gdbus", on bus: NotificationBus, loop: EventLoop
  ) throws -> (status: Int32, output: String) {
    let runner = try CommandRunner()
    runner.environment.merge(bus.clientEnvironment) { $1 }
    let child = try runner.start(Run(arguments, program: program))
    try waitUntil("\(program) \(arguments) to finish") {
      try loop.iterate(timeout: .milliseconds(20))
      return !child.isRunning
    }
    let status = child.wait(timeout: 1) ?? -1
    let output = child.captured(1) + child.captured(2)
    return (status, String(decoding: output, as: UTF8.self))
  }

  static func call(_ method: String, _ arguments: [String] = [], path: String = "/org/example")
    -> [String]
  {
    [
      "call", "--session", "--dest", "org.example.Service", "--object-path", path, "--method",
      method, "--",
    ] + arguments
  }

  @Test func aServedObjectAnswersItsMethodsAndRefusesEverythingElseByName() throws {
    let bus = try NotificationBus()
    let loop = try EventLoop(signals: [])
    let connection = try greetedConnection(to: bus.address, loop: loop)
    let objects = BusObjects()
    objects.serve(Self.interface, at: "/org/example") { method, call in
      switch method {
      case "Echo": call.reply(Variant.tuple([Variant.string(call.argument(0, Variant.text)!)]))
      default: call.error("org.example.Error.Failed", "failed as asked")
      }
    }
    connection.onMethodCall = { objects.answer($0) }
    var reply: Result<NameRequestReply, BusConnection.CallError>?
    connection.requestName("org.example.Service", flags: [.doNotQueue]) { reply = $0 }
    try waitUntil("RequestName's answer") {
      try loop.iterate(timeout: .milliseconds(20))
      return reply != nil
    }
    #expect(try reply?.get() == .primaryOwner)

    func expect(
      _ arguments: [String], program: String = "gdbus", status: Int32, _ text: String
    ) throws {
      let result = try Self.client(arguments, program: program, on: bus, loop: loop)
      #expect(result.status == status && result.output.contains(text), "\(result.output)")
    }
    try expect(Self.call("org.example.Echo.Echo", ["'hi there'"]), status: 0, "('hi there',)")
    try expect(Self.call("org.example.Echo.Fail"), status: 1, "failed as asked")
    // gdbus converts arguments to the introspected types; dbus-send does not.
    try expect(
      [
        "--session", "--print-reply", "--dest=org.example.Service", "/org/example",
        "org.example.Echo.Echo", "int32:7",
      ], program: "dbus-send", status: 1,
      "org.freedesktop.DBus.Error.InvalidArgs: Echo takes arguments of type 's', not 'i'")
    try expect(
      Self.call("org.example.Echo.Shout"), status: 1,
      "org.freedesktop.DBus.Error.UnknownMethod: no method Shout in org.example.Echo")
    try expect(
      Self.call("org.example.Other.Echo", ["'x'"]), status: 1,
      "org.freedesktop.DBus.Error.UnknownInterface")
    try expect(
      Self.call("org.example.Echo.Echo", ["'x'"], path: "/elsewhere"), status: 1,
      "org.freedesktop.DBus.Error.UnknownObject: no object at /elsewhere")
    try expect(Self.call("org.freedesktop.DBus.Peer.Ping"), status: 0, "()")
    try expect(
      Self.call("org.freedesktop.DBus.Peer.Ping", path: "/anywhere"), status: 0, "()")
    try expect(
      Self.call("org.freedesktop.DBus.Properties.GetAll", ["org.example.Echo"]), status: 0,
      "(@a{sv} {},)")
    // gdbus reads the introspection itself: the methods and signal, and the
    // path down to the object from the root.
    try expect(
      [
        "introspect", "--session", "--dest", "org.example.Service", "--object-path", "/org/example",
      ],
      status: 0, "Echo(in  s text,")
    try expect(
      ["introspect", "--session", "--dest", "org.example.Service", "--object-path", "/"],
      status: 0, "node org {")
  }

  @Test func aNameIsRefusedWhileAnotherOwnsItAndTakenWhenItAllowsReplacement() throws {
    let bus = try NotificationBus()
    let loop = try EventLoop(signals: [])
    let first = try greetedConnection(to: bus.address, loop: loop)
    let second = try greetedConnection(to: bus.address, loop: loop)
    var ownership: [NameOwnership] = []
    first.onSignal = { signal in signal.nameOwnership.map { ownership.append($0) } }
    func request(_ connection: BusConnection, _ flags: NameRequestFlags) throws -> NameRequestReply?
    {
      var reply: Result<NameRequestReply, BusConnection.CallError>?
      connection.requestName("org.example.Service", flags: flags) { reply = $0 }
      try waitUntil("RequestName's answer") {
        try loop.iterate(timeout: .milliseconds(20))
        return reply != nil
      }
      return try reply?.get()
    }
    #expect(try request(first, [.allowReplacement, .doNotQueue]) == .primaryOwner)
    #expect(try request(first, [.allowReplacement, .doNotQueue]) == .alreadyOwner)
    #expect(try request(second, [.doNotQueue]) == .exists)
    var owner: String??
    second.describeOwner(of: "org.example.Service") { owner = $0 }
    try waitUntil("the owner described") {
      try loop.iterate(timeout: .milliseconds(20))
      return owner != nil
    }
    #expect(owner == "\(first.uniqueName!) (pid \(getpid()))")
    #expect(try request(second, [.replaceExisting, .doNotQueue]) == .primaryOwner)
    try waitUntil("the first owner to hear it lost the name (\(ownership))") {
      try loop.iterate(timeout: .milliseconds(20))
      return ownership.contains(.lost("org.example.Service"))
    }
    #expect(ownership.first == .acquired("org.example.Service"))
    var nobody: String??
    second.describeOwner(of: "org.example.Nobody") { nobody = $0 }
    try waitUntil("no owner described") {
      try loop.iterate(timeout: .milliseconds(20))
      return nobody != nil
    }
    #expect(nobody == .some(nil))
  }

  @Test func signalsReachListeners() throws {
    let bus = try NotificationBus()
    let loop = try EventLoop(signals: [])
    let connection = try greetedConnection(to: bus.address, loop: loop)
    #expect(
      connection.emit(
        path: "/org/freedesktop/Notifications", interface: NotificationBus.serverName,
        member: "ActionInvoked", body: Variant.tuple([Variant.uint32(5), Variant.string("a b")])))
    try bus.waitForSignal("ActionInvoked", ["5", "a b"])
    #expect(bus.signals().first?.sender == connection.uniqueName)
  }
}
