import Glibc
import SystemSupport

/// A desktop's accessibility plumbing of its own for one test: a private
/// session bus (no service activation), at-spi2-core's bus launcher on it
/// (which owns `org.a11y.Bus`, answers `org.a11y.Status` and runs the
/// accessibility bus) and the registry on that bus. A screen reader is "on"
/// when a test says so (``setScreenReader(_:)``), as Orca does at start.
package final class AccessibilityBus {
  /// The private directory: sockets, logs, what listeners heard.
  package let directory: String
  /// The session bus address, for clients' `DBUS_SESSION_BUS_ADDRESS`.
  package let sessionAddress: String
  /// The accessibility bus address (`org.a11y.Bus.GetAddress`), once the
  /// launcher runs.
  package private(set) var accessibilityAddress = ""

  private let sessionDaemon: ChildProcess
  private var launcher: ChildProcess?
  private var registry: ChildProcess?
  private var session: SessionBus?
  private var accessibility: SessionBus?
  private var stopped = false

  /// Starts the bus, and unless `launcher` is false the launcher and the
  /// registry (``startLauncher()``).
  package init(screenReader: Bool = false, launcher: Bool = true) throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-a11y")
    chmod(directory, 0o700)
    self.directory = directory
    let sessionAddress = "unix:path=\(directory)/bus"
    self.sessionAddress = sessionAddress
    do {
      let environment = Self.environment(directory: directory, sessionAddress: sessionAddress)
      (sessionDaemon, session) = try startPrivateSessionBus(
        in: directory, environment: environment)
    } catch {
      removeTree(directory)
      throw HarnessError("the session bus did not start: \(error)")
    }
    do {
      if launcher { try startLauncher() }
    } catch {
      stop()
      throw error
    }
    if screenReader { try setScreenReader(true) }
  }

  /// Starts at-spi2-core's launcher on the session bus and the registry on
  /// the accessibility bus, and waits until the registry owns its name there.
  package func startLauncher() throws {
    guard let session else { throw HarnessError("the accessibility buses were stopped") }
    let directory = directory
    func tails() -> String {
      ["dbus.log", "launcher.log", "registry.log"].compactMap { name in
        guard let data = readFile(directory + "/" + name), !data.isEmpty else { return nil }
        return "\(name) ends with:\n" + String(decoding: data.suffix(1500), as: UTF8.self)
      }.joined(separator: "\n")
    }
    do {
      let launcher = try ChildProcess(
        ["/usr/libexec/at-spi-bus-launcher"], environment: daemonEnvironment,
        logPath: directory + "/launcher.log")
      self.launcher = launcher
      try waitUntil("at-spi-bus-launcher to own org.a11y.Bus", timeout: 15) {
        guard launcher.isRunning else {
          throw HarnessError("at-spi-bus-launcher exited (package at-spi2-core)")
        }
        return try session.nameHasOwner("org.a11y.Bus")
      }
      let address = try session.string(
        from: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus",
        method: "GetAddress")
      var accessibility: SessionBus?
      try waitUntil("the accessibility bus at \(address) to accept a connection", timeout: 15) {
        accessibility = try? SessionBus(address: address)
        return accessibility != nil
      }
      let registry = try ChildProcess(
        ["/usr/libexec/at-spi2-registryd", "--use-gnome-session=false"],
        environment: daemonEnvironment, logPath: directory + "/registry.log")
      self.registry = registry
      try waitUntil("at-spi2-registryd to own org.a11y.atspi.Registry", timeout: 15) {
        guard registry.isRunning else { throw HarnessError("at-spi2-registryd exited") }
        return try accessibility!.nameHasOwner("org.a11y.atspi.Registry")
      }
      accessibilityAddress = address
      self.accessibility = accessibility
    } catch {
      throw HarnessError("the accessibility buses did not start: \(error)\n\(tails())")
    }
  }

  /// Starts a launcher that never gives the accessibility bus's address
  /// (``MuteLauncher``), and unless `answersStatus` never answers for its
  /// status either, and waits until it owns `org.a11y.Bus`.
  package func startMuteLauncher(answersStatus: Bool = true) throws -> MuteLauncher {
    guard let session else { throw HarnessError("the accessibility buses were stopped") }
    let mute = try MuteLauncher(
      answersStatus: answersStatus, environment: daemonEnvironment, directory: directory)
    try waitUntil("the mute launcher to own org.a11y.Bus (package python3-dbus)", timeout: 20) {
      guard mute.process.isRunning else { throw HarnessError("the mute launcher exited") }
      return try session.nameHasOwner("org.a11y.Bus")
    }
    return mute
  }

  deinit { stop() }

  /// What a client of this desktop needs in its environment: the session bus
  /// (and GSettings in memory, so no dconf is started or written).
  package var clientEnvironment: [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": sessionAddress, "GSETTINGS_BACKEND": "memory"]
  }

  /// Says a screen reader is on (`org.a11y.Status.ScreenReaderEnabled`, as
  /// Orca does when it starts; the launcher then sets `IsEnabled` too), or
  /// that accessibility is off altogether (both flags false).
  package func setScreenReader(_ on: Bool) throws {
    guard let session else { throw HarnessError("the accessibility buses were stopped") }
    for name in on ? ["ScreenReaderEnabled"] : ["ScreenReaderEnabled", "IsEnabled"] {
      try session.setProperty(
        destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Status",
        name: name, to: on)
    }
  }

  /// The connections process `pid` has on the accessibility bus.
  package func accessibilityConnections(of pid: Int32) throws -> [String] {
    guard let accessibility else { throw HarnessError("the accessibility buses were stopped") }
    return try accessibility.connections(of: pid)
  }

  /// The connections process `pid` has on the session bus.
  package func sessionConnections(of pid: Int32) throws -> [String] {
    guard let session else { throw HarnessError("the accessibility buses were stopped") }
    return try session.connections(of: pid)
  }

  /// Kills the accessibility bus's own daemon (the one the launcher started)
  /// with SIGKILL, as a crash would end it: its clients lose their connection
  /// while the session bus still says a screen reader is on.
  package func crashAccessibilityBus() throws {
    let daemons = rigProcesses(directory).filter { pid in
      pid != sessionDaemon.pid
        && readFile("/proc/\(pid)/comm").map { String(decoding: $0, as: UTF8.self) }
          == "dbus-daemon\n"
    }
    guard !daemons.isEmpty else { throw HarnessError("no accessibility bus daemon runs") }
    for pid in daemons { kill(pid, SIGKILL) }
  }

  /// Starts a screen reader's listener (libatspi through python3-gi)
  /// registered for `events` only, and waits until it is registered.
  package func listen(to events: [String]) throws -> AtspiListener {
    try AtspiListener(on: self, events: events)
  }

  /// Stops the registry, the launcher (and its bus), the session bus and every
  /// process any of them started, and removes the directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    accessibility = nil
    session = nil
    // Then what they started themselves: the accessibility bus's daemon, a
    // screen reader's speech server, listeners, owners on this bus.
    endRig(directory, startedWith: [sessionDaemon] + [launcher, registry].compactMap { $0 })
    removeTree(directory)
  }

  /// The environment of the daemons and the listener: the private session bus,
  /// the directory as runtime directory (the launcher puts the accessibility
  /// bus's socket there), GSettings in memory, and the rig's mark.
  static func environment(directory: String, sessionAddress: String) -> [String: String] {
    var environment = currentEnvironment(
      without: ["DISPLAY", "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS"])
    environment["DBUS_SESSION_BUS_ADDRESS"] = sessionAddress
    environment["XDG_RUNTIME_DIR"] = directory
    environment["GSETTINGS_BACKEND"] = "memory"
    environment["NO_AT_BRIDGE"] = "1"
    environment[rigMarker] = directory
    return environment
  }

  var daemonEnvironment: [String: String] {
    Self.environment(directory: directory, sessionAddress: sessionAddress)
  }

}

/// A screen reader's ears without its voice: Debian's python3-gi with
/// libatspi (gir1.2-atspi-2.0) registered for some events, writing one JSON
/// line per event it hears (`type`, `detail1`, `data`, the source's `name`,
/// `role` and `app` as libatspi reads them from the sender, and `t`, the
/// monotonic clock in nanoseconds when it heard it). The listener is the
/// repository's `scripts/atspi-listener.py`, which `make leaks` runs too.
package final class AtspiListener {
  private let process: ChildProcess
  private let output: String

  init(on bus: AccessibilityBus, events: [String]) throws {
    output = bus.directory + "/events-\(UInt32.random(in: 0...UInt32.max)).jsonl"
    process = try ChildProcess(
      ["/usr/bin/python3", Self.script, output] + events, environment: bus.daemonEnvironment,
      logPath: bus.directory + "/listener.log")
    let log = bus.directory + "/listener.log"
    do {
      try waitUntil("the AT-SPI listener to register", timeout: 20) {
        guard process.isRunning else {
          let text = readFile(log).map { String(decoding: $0.suffix(1500), as: UTF8.self) } ?? ""
          throw HarnessError(
            "the listener exited (packages python3-gi, gir1.2-atspi-2.0):\n\(text)")
        }
        return lines().first == "{\"type\": \"ready\"}"
      }
    } catch {
      process.terminate()
      throw error
    }
  }

  deinit { process.terminate() }

  /// The file it writes a JSON line to for each event it hears.
  package var path: String { output }

  /// Every line written so far (the first is `{"type": "ready"}`).
  package func lines() -> [String] {
    guard let data = readFile(output) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  /// Stops listening.
  package func stop() { process.terminate() }

  /// The listener's script: `scripts/atspi-listener.py` in the repository.
  static let script = repositoryDirectory + "/scripts/atspi-listener.py"
}
