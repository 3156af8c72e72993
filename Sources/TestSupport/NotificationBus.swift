import Glibc
import SystemSupport

/// A private session bus for one test of notifications: `dbus-daemon` with
/// a configuration of its own without service directories (mako and dunst,
/// installed for the bench and for `dunstify`, would otherwise be started by
/// D-Bus activation for `org.freedesktop.Notifications`), and
/// `dbus-monitor`'s record of every notification signal on it.
///
/// Or the notifications of a private session bus another fixture already
/// runs, configured the same way (an ``AccessibilityBus``'s, for a screen
/// reader's desktop; a compositor's, KWin's): one bus
/// for the notification server, its clients, the accessibility plumbing and
/// the compositor.
package final class NotificationBus {
  /// The bus name of a notification server.
  package static let serverName = "org.freedesktop.Notifications"

  /// The private directory: the socket, the logs, the monitor's record.
  package let directory: String
  /// The bus address, for clients' `DBUS_SESSION_BUS_ADDRESS`.
  package let address: String
  /// The bus's daemon, when the bus is this one's own.
  private let daemon: ChildProcess?
  private let monitor: ChildProcess
  private var serverRecorder: ChildProcess?
  private var session: SessionBus?
  private var stopped = false

  /// Starts the bus and the monitor, and waits until the monitor listens.
  package convenience init() throws {
    try self.init(sharing: nil, inside: "/tmp")
  }

  /// Watches the notifications on `bus`'s session bus (the monitor and its
  /// record in a directory inside `bus`'s, stopped with it at the latest).
  package convenience init(on bus: AccessibilityBus) throws {
    try self.init(sharing: bus.sessionAddress, inside: bus.directory)
  }

  /// Watches the notifications on the private session bus `compositor`
  /// runs on (KWin's), in a directory inside the compositor's.
  package convenience init(on compositor: some TestCompositor) throws {
    guard let address = compositor.sessionBusAddress else {
      throw HarnessError("the compositor runs on no session bus of its own")
    }
    try self.init(sharing: address, inside: compositor.runtimeDirectory)
  }

  /// Starts the bus (or, with `address`, connects to the one there), then
  /// the monitor, in a new directory inside `parent`, and waits until the
  /// monitor listens.
  private init(sharing shared: String?, inside parent: String) throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-notify", in: parent)
    chmod(directory, 0o700)
    self.directory = directory
    let address = shared ?? "unix:path=\(directory)/bus"
    self.address = address
    var started: [ChildProcess] = []
    do {
      var environment = currentEnvironment(without: ["DISPLAY", "WAYLAND_DISPLAY"])
      environment["DBUS_SESSION_BUS_ADDRESS"] = address
      environment[rigMarker] = directory
      let daemon: ChildProcess?
      let session: SessionBus
      if shared == nil {
        let (ownDaemon, ownSession) = try startPrivateSessionBus(
          in: directory, environment: environment)
        started.append(ownDaemon)
        (daemon, session) = (ownDaemon, ownSession)
      } else {
        (daemon, session) = (nil, try SessionBus(address: address))
      }
      let monitor = try ChildProcess(
        [
          "dbus-monitor", "--address", address,
          "type='signal',interface='\(Self.serverName)'",
        ], environment: environment, logPath: directory + "/monitor.log")
      started.append(monitor)
      // A monitor's first lines: the bus gives it a name and takes it back.
      try waitUntil("dbus-monitor to become a monitor (package dbus-bin)", timeout: 15) {
        guard monitor.isRunning else { throw HarnessError("dbus-monitor exited") }
        return Self.text(of: directory + "/monitor.log").contains("member=NameLost")
      }
      self.daemon = daemon
      self.monitor = monitor
      self.session = session
    } catch {
      endRig(directory, startedWith: started)
      let log = Self.text(of: directory + "/dbus.log")
      removeTree(directory)
      throw HarnessError("the notification bus did not start: \(error)\n\(log.suffix(1500))")
    }
  }

  deinit { stop() }

  /// What a client of this bus needs in its environment: the bus, and
  /// GSettings in memory (no dconf started or written).
  package var clientEnvironment: [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": address, "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1"]
  }

  /// Whether some client owns `org.freedesktop.Notifications`.
  package func hasServer() throws -> Bool {
    guard let session else { throw HarnessError("the notification bus was stopped") }
    return try session.nameHasOwner(Self.serverName)
  }

  /// The process that owns `org.freedesktop.Notifications`; nil when none does.
  package func serverProcess() -> Int32? { session?.processID(of: Self.serverName) }

  /// The unique name (`:1.5`) of the connection that owns
  /// `org.freedesktop.Notifications`; nil when none does.
  package func serverConnection() -> String? { session?.owner(of: Self.serverName) }

  /// Waits until a notification server owns the name.
  package func waitForServer(timeout: Double = 20) throws {
    try waitUntil("a notification server on the bus", timeout: timeout) { try hasServer() }
  }

  /// The notification signals seen so far, in order.
  package func signals() -> [BusSignal] {
    BusSignal.parse(monitorLog: Self.text(of: directory + "/monitor.log"))
      .filter { $0.interface == Self.serverName }
  }

  /// Starts recording every message the notification server's connection
  /// sends, its signals and its methods' returns, in the order it sent them
  /// (``serverMessages()``), and waits until the recorder listens.
  package func recordServer() throws {
    guard let unique = serverConnection() else { throw HarnessError("no notification server") }
    var environment = currentEnvironment(without: ["DISPLAY", "WAYLAND_DISPLAY"])
    environment[rigMarker] = directory
    let log = directory + "/server.log"
    let recorder = try ChildProcess(
      ["dbus-monitor", "--address", address, "sender='\(unique)'"], environment: environment,
      logPath: log)
    serverRecorder = recorder
    try waitUntil("dbus-monitor to become a monitor (package dbus-bin)", timeout: 15) {
      guard recorder.isRunning else { throw HarnessError("dbus-monitor exited") }
      return Self.text(of: log).contains("member=NameLost")
    }
  }

  /// What the server sent since ``recordServer()``, in order.
  package func serverMessages() -> [BusSignal] {
    BusSignal.parse(monitorLog: Self.text(of: directory + "/server.log"))
      .filter { $0.kind == .methodReturn || $0.interface == Self.serverName }
  }

  /// Waits until a signal `member` with `arguments` (as ``BusSignal``
  /// writes them) has been seen; returns every signal seen until then.
  @discardableResult
  package func waitForSignal(_ member: String, _ arguments: [String], timeout: Double = 20) throws
    -> [BusSignal]
  {
    var seen: [BusSignal] = []
    try waitUntil("\(member)\(arguments) on the bus (seen: \(seen))", timeout: timeout) {
      seen = signals()
      return seen.contains { $0.member == member && $0.arguments == arguments }
    }
    return seen
  }

  /// Waits until notification `id` has ended (`NotificationClosed`), and
  /// returns every signal about it until then as ``BusSignal`` describes
  /// them, an activation token written `TOKEN` (`ActivationToken(1, TOKEN)`;
  /// an empty one as it is).
  package func signalsUntilClosed(_ id: UInt32, timeout: Double = 20) throws -> [String] {
    let number = String(id)
    var about: [BusSignal] = []
    try waitUntil("NotificationClosed(\(number), …) on the bus (seen: \(about))", timeout: timeout)
    {
      about = signals().filter { $0.arguments.first == number }
      return about.contains { $0.member == "NotificationClosed" }
    }
    return about.map { signal in
      var signal = signal
      if signal.member == "ActivationToken", signal.arguments.count == 2,
        !signal.arguments[1].isEmpty
      {
        signal.arguments[1] = "TOKEN"
      }
      return signal.description
    }
  }

  /// Runs `gdbus call` on the server's object: `method` of its interface
  /// with arguments in GVariant text (after `--`, so numbers may be negative).
  package func gdbusCall(_ method: String, _ arguments: [String], destination: String = serverName)
    -> Run
  {
    Run(
      [
        "call", "--session", "--dest", destination, "--object-path",
        "/org/freedesktop/Notifications", "--method", "\(Self.serverName).\(method)", "--",
      ] + arguments, program: "gdbus", environment: nil)
  }

  /// Stops the monitor and the bus and everything started on it, and
  /// removes the directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    session = nil
    endRig(directory, startedWith: [daemon, monitor, serverRecorder].compactMap { $0 })
    removeTree(directory)
  }

  private static func text(of path: String) -> String {
    readFile(path).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }
}

/// One message as `dbus-monitor` prints it, a signal or a method's return:
/// its sender, interface and member (a return's empty), and its arguments,
/// each as `uint32 5` prints it (`5`; a string without its quotes).
package struct BusSignal: Equatable, Sendable, CustomStringConvertible {
  /// A signal, or the return of a method call.
  package enum Kind: String, Sendable {
    case signal = "signal"
    case methodReturn = "method return"
  }

  /// Whether it is a signal or a return.
  package var kind: Kind = .signal
  /// The unique name of the sender.
  package var sender: String
  /// The interface.
  package var interface: String
  /// The signal's name.
  package var member: String
  /// The arguments' values, as text.
  package var arguments: [String]

  /// `ActionInvoked(5, snooze)`; a return `return(5)`.
  package var description: String {
    "\(kind == .signal ? member : "return")(\(arguments.joined(separator: ", ")))"
  }

  /// The signals and returns in `dbus-monitor`'s default output: a header
  /// line (`signal time=… sender=:1.3 -> … interface=X; member=Y`, `method
  /// return time=… sender=:1.3 -> …`), then one indented line per argument.
  /// A last block cut short is left out.
  package static func parse(monitorLog: String) -> [BusSignal] {
    var signals: [BusSignal] = []
    var current: BusSignal?
    // Only lines ended by a newline: the last may still be being written.
    var lines = monitorLog.split(separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()
    func field(_ name: String, in line: Substring) -> String? {
      let prefix = name + "="
      guard let word = line.split(separator: " ").first(where: { $0.hasPrefix(prefix) }) else {
        return nil
      }
      return String(word.dropFirst(prefix.count).prefix { $0 != ";" })
    }
    for line in lines {
      if let kind = [Kind.signal, .methodReturn].first(where: { line.hasPrefix($0.rawValue + " ") })
      {
        if let current { signals.append(current) }
        current = BusSignal(
          kind: kind, sender: field("sender", in: line) ?? "",
          interface: field("interface", in: line) ?? "", member: field("member", in: line) ?? "",
          arguments: [])
      } else if line.hasPrefix("   "), current != nil {
        let text = line.drop { $0 == " " }
        guard let space = text.firstIndex(of: " ") else { continue }
        var value = text[text.index(after: space)...]
        if value.hasPrefix("\"") && value.hasSuffix("\"") && value.count >= 2 {
          value = value.dropFirst().dropLast()
        }
        current?.arguments.append(String(value))
      } else if !line.hasPrefix(" ") {
        if let current { signals.append(current) }
        current = nil
      }
    }
    if let current { signals.append(current) }
    return signals
  }
}
