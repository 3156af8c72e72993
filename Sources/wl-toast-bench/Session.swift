import Glibc
import SystemSupport
import TestSupport
import ToastCommand

/// Ends the benchmark with one line (the compositor and the bus are stopped first).
func fail(_ message: String) -> Never {
  stopEverything()
  print("wl-toast-bench: \(message)")
  exit(1)
}

/// What `fail` has to stop.
nonisolated(unsafe) var cleanups: [() -> Void] = []

func stopEverything() {
  for cleanup in cleanups.reversed() { cleanup() }
  cleanups = []
}

/// Runs `body`; an error ends the benchmark.
@discardableResult
func must<T>(_ what: @autoclosure () -> String, _ body: () throws -> T) -> T {
  do {
    return try body()
  } catch {
    fail("\(what()): \(error)")
  }
}

/// Sleeps for `seconds`.
func sleep(seconds: Double) { pause(for: .seconds(clamping: seconds)) }

/// The full path of a program in PATH, or nil.
func which(_ name: String) -> String? {
  if name.hasPrefix("/") { return access(name, X_OK) == 0 ? name : nil }
  let path = getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin"
  for directory in path.split(separator: ":") {
    let candidate = "\(directory)/\(name)"
    if access(candidate, X_OK) == 0 { return candidate }
  }
  return nil
}

/// A file read as it grows: each read hands over the bytes added since the last.
struct GrowingFile {
  let path: String
  private var offset: off_t = 0

  /// Follows `path`; with `fromEnd`, what the file holds already is skipped.
  init(path: String, fromEnd: Bool = false) {
    self.path = path
    if fromEnd {
      var info = stat()
      if stat(path, &info) == 0 { offset = info.st_size }
    }
  }

  /// Hands `take` what was added since the last read, in pieces.
  mutating func readAdded(_ take: (ArraySlice<UInt8>) -> Void) {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return }
    defer { close(fd) }
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = pread(fd, &buffer, buffer.count, offset)
      if count <= 0 { break }
      offset += off_t(count)
      take(buffer[0..<count])
    }
  }
}

/// A client's WAYLAND_DEBUG log file, read as it grows.
final class DebugLog {
  let path: String
  private var file: GrowingFile
  private(set) var activity = SurfaceActivity()

  /// Follows `path`; with `fromEnd`, what the file holds already is skipped.
  init(path: String, fromEnd: Bool = false) {
    self.path = path
    file = GrowingFile(path: path, fromEnd: fromEnd)
  }

  /// Reads what was added since the last call.
  func refresh() { file.readAdded { activity.read($0) } }

  /// Waits for `find` to find something in the log; a timeout ends the benchmark.
  func wait<T>(for awaited: String, timeout: Double = 10, _ find: (SurfaceActivity) -> T?) -> T {
    var found: T?
    do {
      try waitUntil("\(awaited) in \(path)", timeout: timeout) {
        refresh()
        found = find(activity)
        return found != nil
      }
    } catch {
      fail("\(error)")
    }
    return found!
  }

  /// The first frame with content at or after `stamp`.
  func contentCommit(after stamp: UInt32, _ what: String) -> SurfaceActivity.Event {
    wait(for: "\(what): a commit after a buffer attach") { $0.firstContentCommit(atOrAfter: stamp) }
  }
}

/// Milliseconds from one debug stamp to another.
func milliseconds(_ from: UInt32, _ to: UInt32) -> Double {
  Double(WaylandDebugClock.microseconds(from: from, to: to)) / 1000
}

/// The stages of a first frame from `start` (the exec): to the client's
/// `get_registry`, from there to the first layer-surface configure, and from that
/// to the commit with content.
func stages(_ activity: SurfaceActivity, from start: UInt32, commit: UInt32) -> [Double]? {
  guard let connected = activity.first(atOrAfter: start, where: { $0.kind == .connected }),
    let configure = activity.first(atOrAfter: connected.stamp, where: { $0.kind == .configure })
  else { return nil }
  return [
    milliseconds(start, connected.stamp), milliseconds(connected.stamp, configure.stamp),
    milliseconds(configure.stamp, commit),
  ]
}

/// The compositor, the private session bus, the environment of every client, the
/// programs and where logs go.
final class Bench {
  let sway: HeadlessSway
  let scratch: String
  let logs: String
  /// Every client's environment: the headless sway, private runtime, home, config
  /// and bus, one locale, WAYLAND_DEBUG=1.
  let environment: [String: String]
  let wlToast: String
  let owner: String
  /// The log of the bus, which is also the standard error of the mako it starts.
  let busLog: String
  private var bus: Launched?

  init(binDirectory: String) throws {
    wlToast = binDirectory + "/wl-toast"
    owner = binDirectory + "/wl-toast-owner"
    for program in [wlToast, owner] where access(program, X_OK) != 0 {
      throw HarnessError("no \(program); build it first (make bench does)")
    }
    for program in [
      "sway", "swaynag", "wob", "mako", "makoctl", "notify-send", "dbus-daemon", "dbus-send",
      "busctl", "/usr/bin/time", "ldd", "strip",
    ] where which(program) == nil {
      throw HarnessError("no \(program) in PATH; `make bench-deps` installs the peers")
    }
    sway = try HeadlessSway()
    scratch = try makeTemporaryDirectory(prefix: "wl-toast-bench")
    logs = scratch + "/logs"
    busLog = logs + "/bus-and-activated-mako.log"
    for directory in ["logs", "runtime", "home", "config", "config/wob", "bus", "bus/services"] {
      mkdir(scratch + "/" + directory, 0o700)
    }
    // wob hides after at most 10 s (its limit); the default is 1 s.
    try writeFile(scratch + "/config/wob/wob.ini", "timeout = 10000\n")
    var environment = sway.clientEnvironment
    for key in environment.keys
    where key.hasPrefix("WL_TOAST_") || key.hasPrefix("LC_") || key == "DISPLAY" {
      environment.removeValue(forKey: key)
    }
    environment["XDG_RUNTIME_DIR"] = scratch + "/runtime"
    environment["HOME"] = scratch + "/home"
    environment["XDG_CONFIG_HOME"] = scratch + "/config"
    environment["LC_ALL"] = "C.UTF-8"
    environment["WAYLAND_DEBUG"] = "1"
    environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(scratch)/bus/socket"
    self.environment = environment
  }

  /// Starts the private session bus; it starts mako on the first notification
  /// (D-Bus activation), with the bus's environment and standard error.
  func startBus() throws {
    try writeFile(
      scratch + "/bus/bus.conf",
      try privateBusConfiguration(
        listeningAt: scratch + "/bus/socket", services: scratch + "/bus/services"))
    try writeFile(makoService, makoServiceText)
    bus = try Launched(
      ["dbus-daemon", "--nofork", "--config-file=\(scratch)/bus/bus.conf"],
      environment: environment, stderrPath: busLog)
    try waitUntil("the session bus to answer", timeout: 10) {
      access(scratch + "/bus/socket", F_OK) == 0
        && (try? run(
          [
            "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.GetId",
          ]).status) == 0
    }
  }

  /// The bus's service file for mako, and what it says.
  private var makoService: String {
    scratch + "/bus/services/org.freedesktop.Notifications.service"
  }
  private var makoServiceText: String {
    "[D-BUS Service]\nName=org.freedesktop.Notifications\nExec=\(which("mako")!)\n"
  }

  /// Takes mako's service file away (`allowed` false) or puts it back, and
  /// waits until the bus has read its directory again: without it, a call to
  /// org.freedesktop.Notifications while nobody owns the name fails instead
  /// of starting mako.
  func allowActivation(_ allowed: Bool) throws {
    if allowed {
      try writeFile(makoService, makoServiceText)
    } else {
      unlink(makoService)
    }
    let name = "org.freedesktop.Notifications"
    try waitUntil("the bus to \(allowed ? "list" : "drop") \(name)'s service", timeout: 10) {
      _ = try run([
        "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus", "org.freedesktop.DBus.ReloadConfig",
      ])
      let listed = try run([
        "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus", "org.freedesktop.DBus.ListActivatableNames",
      ])
      return listed.output.contains("\"\(name)\"") == allowed
    }
  }

  /// The process id of the client owning `name` on the private bus, or nil.
  func nameOwnerPID(_ name: String) -> pid_t? {
    guard
      let result = try? run([
        "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
        "/org/freedesktop/DBus", "org.freedesktop.DBus.GetConnectionUnixProcessID",
        "string:\(name)",
      ]), result.status == 0,
      let word = result.output.split(whereSeparator: { $0 == " " || $0 == "\n" }).last
    else { return nil }
    return pid_t(word)
  }

  /// Stops the bus, sway and removes the scratch directory (the logs with it).
  func stop(keepLogs: Bool) {
    bus?.stop()
    bus = nil
    sway.stop()
    if !keepLogs { removeTree(scratch) }
  }

  /// Runs a command to its end in the clients' environment (plus `extra`).
  @discardableResult
  func run(_ arguments: [String], extra: [String: String] = [:]) throws -> (
    status: Int32, output: String
  ) {
    try runCommand(arguments, environment: environment.merging(extra) { $1 })
  }

  /// Whether some client owns `name` on the private bus.
  func nameHasOwner(_ name: String) -> Bool {
    let result = try? run([
      "dbus-send", "--session", "--print-reply", "--dest=org.freedesktop.DBus",
      "/org/freedesktop/DBus", "org.freedesktop.DBus.NameHasOwner", "string:\(name)",
    ])
    return result?.output.contains("boolean true") ?? false
  }

  /// The pid of the owner showing `tag`, from `wl-toast status` (its JSON's "owner").
  func ownerPID(tag: String) -> pid_t? {
    guard let result = try? run([wlToast, "status", "--tag", tag]), result.status == 0,
      let owner = (try? JSONValue.parse(result.output))?["owner"]?.doubleValue
    else { return nil }
    return pid_t(exactly: owner)
  }

  /// Waits until the toast with `tag` is gone.
  func waitHidden(tag: String, timeout: Double = 10) {
    must("waiting for tag \(tag) to end") {
      try waitUntil("the toast \(tag) to end", timeout: timeout) {
        (try run([wlToast, "status", "--tag", tag])).status == 1
      }
    }
  }

  /// Waits until a process is gone.
  func waitGone(_ pid: pid_t, _ what: String, timeout: Double = 10) {
    must("waiting for \(what) to exit") {
      try waitUntil("\(what) (pid \(pid)) to exit", timeout: timeout) { isGone(pid) }
    }
  }

  /// A log file's path.
  func log(_ name: String) -> String { logs + "/" + name }
}
