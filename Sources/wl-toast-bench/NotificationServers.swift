import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// The notification server (`wl-toast daemon --notifications`) beside mako, on
// the same private bus, one after the other: each round starts each server in
// turn, waits until it owns org.freedesktop.Notifications, shows and takes away
// one notification (so that it is warm, as a resident server is), then times a
// new card and its update by replaces_id, reads its peak RSS with 1 and with 10
// notifications, counts its wake-ups, stops it and waits until the name is free.
// A bus monitor (`dbus-monitor --profile`) tells when each Notify call went
// through the bus, so that the server's own part of a frame shows apart from
// notify-send's start.

/// The servers, in the table's order: wl-toast's; mako at its defaults (5
/// visible, as wl-toast's); mako with `max-visible=10` in its configuration.
let serverNames = ["wl-toast", "mako", "mako, 10 visible"]
/// Those wl-toast's server is divided by.
let serverPeers = Array(serverNames.dropFirst())

/// The bus name both serve.
private let notificationsName = "org.freedesktop.Notifications"

/// A server being measured: its process and its WAYLAND_DEBUG log (standard error).
private struct RunningServer {
  let name: String
  var process: Launched
  let log: DebugLog
}

/// The bus monitor's log, read as it grows.
@MainActor private var monitor: BusMonitorLog!

/// Every round of every server; D-Bus activation of mako is off meanwhile.
@MainActor func measureNotificationServers() {
  print("the notification server beside mako (one at a time on the bus)...")
  must("turning D-Bus activation off") { try bench.allowActivation(false) }
  let monitorPath = bench.log("bus-monitor.log")
  var monitorProcess = must("starting dbus-monitor") {
    try Launched(
      ["dbus-monitor", "--session", "--profile"], environment: environment,
      stdoutPath: monitorPath, stderrPath: commandsLog)
  }
  monitor = BusMonitorLog(path: monitorPath)
  must("waiting for dbus-monitor") {
    try waitUntil("dbus-monitor to watch the bus", timeout: 10) {
      monitor.refresh()
      return monitor.isWatching
    }
  }
  let tenVisible = bench.scratch + "/config/mako-10"
  mkdir(tenVisible, 0o700)
  must("writing mako's configuration") {
    try writeFile(tenVisible + "/config", "max-visible=10\n")
  }
  inRounds { round, keep in
    for name in rotated(serverNames, round) {
      var server = startServer(name, makoConfig: tenVisible + "/config")
      measureServer(&server, round, keep)
      stopServer(&server)
    }
  }
  monitorProcess.stop()
  must("turning D-Bus activation on") { try bench.allowActivation(true) }
}

/// Starts one server and waits until it, and nobody else, owns the name.
@MainActor private func startServer(_ name: String, makoConfig: String) -> RunningServer {
  if let owner = bench.nameOwnerPID(notificationsName) {
    fail("\(notificationsName) is still owned (pid \(owner)) before \(name) starts")
  }
  let arguments =
    switch name {
    case "wl-toast": [wlToast, "daemon", "--notifications"]
    case "mako": ["mako"]
    default: ["mako", "-c", makoConfig]
    }
  let path = bench.log("server-\(nextSerial()).log")
  let process = must("starting \(name)") {
    try Launched(arguments, environment: environment, stderrPath: path)
  }
  must("waiting for \(name) on the bus") {
    try waitUntil("\(name) (pid \(process.pid)) to own \(notificationsName)", timeout: 10) {
      if isGone(process.pid) { throw HarnessError("\(name) exited (\(path))") }
      return bench.nameOwnerPID(notificationsName) == process.pid
    }
  }
  return RunningServer(name: name, process: process, log: DebugLog(path: path))
}

/// Stops a server and waits until the bus has let its name go.
@MainActor private func stopServer(_ server: inout RunningServer) {
  server.process.stop()
  must("waiting for \(server.name) to leave the bus") {
    try waitUntil("\(server.name)'s name to be released", timeout: 10) {
      !bench.nameHasOwner(notificationsName)
    }
  }
}

/// One round of one server (already on the bus).
@MainActor private func measureServer(_ server: inout RunningServer, _ round: Int, _ keep: Bool) {
  let name = server.name
  let log = server.log
  let pid = server.process.pid
  @MainActor func note(_ key: String, _ value: Double?) {
    guard keep, let value else { return }
    figures[key, default: Figure(key, key, unit: "")].samples[name, default: []].append(value)
  }
  @MainActor func peakMiB() -> Double? { peakResidentKiB(pid).map { Double($0) / 1024 } }

  note("notify-rss-start", peakMiB())
  // Warm: one card shown and taken away, so that fonts and buffers are set up.
  _ = notify(["Welcome", "Round \(round)"], log, name)
  dismissAll(server)
  sleep(seconds: 0.1)

  let shown = notify(["Saved", "Round \(round)"], log, name)
  note("notify-new", shown.frame)
  note("notify-new-client", shown.call)
  note("notify-new-server", shown.server)
  note("notify-new-exit", shown.exit)
  sleep(seconds: 0.4)  // past wl-toast's 0.2 s fade-in: the card is static
  let percent = 10 + (round * 7) % 80
  let updated = notify(
    ["--replace-id=\(shown.id)", "Volume \(percent)%", "Round \(round)"], log, name)
  guard updated.id == shown.id else {
    fail("\(name) answered the update of \(shown.id) with id \(updated.id)")
  }
  note("notify-update", updated.frame)
  note("notify-update-server", updated.server)
  note("notify-update-reached", updated.reached)
  note("notify-update-exit", updated.exit)
  sleep(seconds: 0.2)
  let one = peakMiB()
  note("notify-rss-1", one)

  // Nine more, each waited for only until the server has answered (the
  // ones past a server's visible limit draw nothing), then time to draw.
  for index in 2...10 { send(["Message \(index)", "Round \(round)"], name) }
  sleep(seconds: 0.6)
  log.refresh()
  let ten = peakMiB()
  note("notify-rss-10", ten)
  if let one, let ten { note("notify-rss-growth", ten - one) }
  note("notify-surfaces-10", Double(liveSurfaces(log.activity)))

  // Wake-ups, in the first rounds: with the ten static, then with none.
  let counted = keep && round < windows
  if counted { note("notify-wakeups-static", wakeUps(pid, name)) }
  dismissAll(server)
  if counted {
    sleep(seconds: 0.5)
    note("notify-wakeups-idle", wakeUps(pid, name))
  }
}

/// Context switches of `pid` (all threads) in 2 s.
@MainActor private func wakeUps(_ pid: pid_t, _ name: String) -> Double {
  guard let before = contextSwitches(pid) else { fail("\(name) is gone") }
  sleep(seconds: 2)
  guard let after = contextSwitches(pid) else { fail("\(name) is gone") }
  return Double(max(0, after - before))
}

/// What one `notify-send` gave: exec → the server's frame with content, →
/// its first commit of any kind, → notify-send's exit; exec → its Notify
/// call on the bus (notify-send's own part), and that call → the frame (the
/// server's part); the id it printed.
private struct Sent {
  var frame: Double
  var reached: Double?
  var exit: Double
  var call: Double
  var server: Double
  var id: String
}

/// Runs `notify-send --print-id --expire-time=0 ARGUMENTS` (a card that stays
/// until dismissed, on both servers) to its end.
@MainActor private func run(_ arguments: [String], _ name: String) -> (Launched, UInt64, String) {
  let idPath = bench.log("notification-id")
  _ = unlink(idPath)
  var send = must("starting notify-send") {
    try Launched(
      ["notify-send", "--print-id", "--expire-time=0"] + arguments, environment: environment,
      stdoutPath: idPath, stderrPath: commandsLog)
  }
  guard let (status, exited) = send.wait(), status == 0 else {
    fail("notify-send to \(name) failed or hung (\(commandsLog))")
  }
  let id = readFile(idPath).map { String(decoding: $0, as: UTF8.self).filter(\.isNumber) } ?? ""
  guard !id.isEmpty else { fail("notify-send printed no id from \(name)") }
  return (send, exited, id)
}

/// A notification that draws nothing new (past the visible limit) or whose
/// frame is not timed.
@MainActor private func send(_ arguments: [String], _ name: String) {
  _ = run(arguments, name)
}

/// A notification and its frame.
@MainActor private func notify(_ arguments: [String], _ log: DebugLog, _ name: String) -> Sent {
  let (send, exited, id) = run(arguments, name)
  let commit = log.contentCommit(after: send.stamp, "\(name)'s frame")
  let call = must("reading the bus monitor") {
    var call: UInt32?
    try waitUntil("the Notify call in \(monitor.path)", timeout: 10) {
      monitor.refresh()
      call = monitor.firstCall("Notify", atOrAfter: send.stamp)
      return call != nil
    }
    return call!
  }
  let reached = log.activity.first(atOrAfter: send.stamp) {
    if case .commit = $0.kind { return true }
    return false
  }
  return Sent(
    frame: milliseconds(send.stamp, commit.stamp),
    reached: reached.map { milliseconds(send.stamp, $0.stamp) },
    exit: Double(exited - send.monotonic) / 1e6, call: milliseconds(send.stamp, call),
    server: milliseconds(call, commit.stamp), id: id)
}

/// Dismisses every notification (`wl-toast notifications dismiss --all`,
/// `makoctl dismiss --all`) and waits until every surface is gone.
@MainActor private func dismissAll(_ server: RunningServer) {
  let command =
    server.name == "wl-toast"
    ? [wlToast, "notifications", "dismiss", "--all"] : ["makoctl", "dismiss", "--all"]
  must("dismissing \(server.name)'s notifications") {
    let result = try bench.run(command)
    guard result.status == 0 else {
      throw HarnessError("\(command.joined(separator: " ")) exited with \(result.status)")
    }
    try waitUntil("\(server.name)'s cards to go", timeout: 10) {
      server.log.refresh()
      return liveSurfaces(server.log.activity) == 0
    }
  }
}

/// The surfaces that have shown a buffer and are not destroyed.
private func liveSurfaces(_ activity: SurfaceActivity) -> Int {
  var live = Set<UInt32>()
  for event in activity.events {
    switch event.kind {
    case .commit(withBuffer: true): live.insert(event.surface)
    case .destroyed: live.remove(event.surface)
    default: break
    }
  }
  return live.count
}

/// A `dbus-monitor --profile` log, read as it grows: when each method call
/// went through the bus, on libwayland's debug clock (the monitor stamps
/// each message with the realtime clock when it reads it).
private final class BusMonitorLog {
  let path: String
  private var file: GrowingFile
  private var pending: [UInt8] = []
  /// Method calls seen: their member and stamp, in order.
  private var calls: [(member: Substring, stamp: UInt32)] = []
  /// Whether the monitor has joined the bus (the bus's NameAcquired for it).
  private(set) var isWatching = false

  init(path: String) {
    self.path = path
    file = GrowingFile(path: path)
  }

  /// Reads what was added since the last call.
  func refresh() {
    file.readAdded { pending += $0 }
    guard let last = pending.lastIndex(of: UInt8(ascii: "\n")) else { return }
    let text = String(decoding: pending[...last], as: UTF8.self)
    pending.removeSubrange(...last)
    // "TYPE\tSECONDS.MICROSECONDS\tSERIAL\tSENDER\tDESTINATION\tPATH\tINTERFACE\tMEMBER"
    for line in text.split(separator: "\n") {
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count >= 8 else { continue }
      if fields[0] == "sig" && fields[7] == "NameAcquired" { isWatching = true }
      guard fields[0] == "mc" else { continue }
      let time = fields[1].split(separator: ".")
      guard time.count == 2, let seconds = Int64(time[0]), let micros = Int64(time[1]) else {
        continue
      }
      calls.append(
        (fields[7], WaylandDebugClock.stamp(seconds: seconds, nanoseconds: micros * 1000)))
    }
  }

  /// The stamp of the first call of `member` at or after `start`.
  func firstCall(_ member: String, atOrAfter start: UInt32) -> UInt32? {
    calls.first {
      $0.member == member && WaylandDebugClock.microseconds(from: start, to: $0.stamp) >= 0
    }?.stamp
  }
}
