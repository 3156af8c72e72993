// wl-toast-bench: wl-toast beside wob, swaynag and mako on one embedded headless
// sway, in one run (`make bench`; `make bench-quick` for CI).
//
//   wl-toast-bench [--rounds N] [--json FILE] [--keep-logs] [BIN-DIR]
//
// BIN-DIR holds wl-toast and wl-toast-owner (default: beside this program). Each
// figure is measured in N rounds (default 20) after one warm-up round, the tools
// taking turns within a round (the first one changing from round to round).
//
// One method for every tool: exec -> the client's first `wl_surface.commit` after a
// `wl_surface.attach` (a frame with content), both on the realtime clock, the exec
// read right before posix_spawn and the commit from the client's WAYLAND_DEBUG=1
// log (libwayland 1.21 stamps each message with realtime microseconds modulo 2^32).
// For wl-toast that is the owner's log (WL_TOAST_OWNER_LOG gives it a file), and
// the owner's own frame trace (WL_TOAST_TRACE, monotonic clock) is compared with it.
import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// MARK: - Options

var rounds = 20
var jsonPath: String?
var keepLogs = false
var binDirectory: String?
var argumentList = CommandLine.arguments.dropFirst()
while let argument = argumentList.popFirst() {
  switch argument {
  case "--rounds":
    guard let value = argumentList.popFirst().flatMap({ Int($0) }), value >= 1 else {
      fail("--rounds wants a number of rounds (1 or more)")
    }
    rounds = value
  case "--json":
    guard let value = argumentList.popFirst() else { fail("--json wants a file") }
    jsonPath = value
  case "--keep-logs":
    keepLogs = true
  case "-h", "--help":
    print("usage: wl-toast-bench [--rounds N] [--json FILE] [--keep-logs] [BIN-DIR]")
    exit(0)
  default:
    guard !argument.hasPrefix("-"), binDirectory == nil else {
      fail("unknown argument \(argument)")
    }
    binDirectory = argument
  }
}
let directory =
  binDirectory
  ?? {
    let path = builtProduct("wl-toast")
    return path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
  }()

// MARK: - Set-up

let bench = must("setting up") { try Bench(binDirectory: directory) }
cleanups.append { bench.stop(keepLogs: keepLogs) }
if keepLogs { print("logs: \(bench.logs)") }
must("starting the session bus") { try bench.startBus() }
let wlToast = bench.wlToast
/// The load average, for the report: other work on the machine shows in the figures.
func loadAverage() -> String {
  readFile("/proc/loadavg").map {
    String(decoding: $0, as: UTF8.self).split(separator: " ").prefix(3).joined(separator: " ")
  } ?? "?"
}
let loadBefore = loadAverage()
let environment = bench.environment
let commandsLog = bench.log("commands.log")
print("wl-toast-bench: \(rounds) rounds on headless sway \(bench.sway.socketPath)")

/// The order of the tools in round `round`: each round starts with the next one.
@MainActor func rotated<T>(_ items: [T], _ round: Int) -> [T] {
  let shift = round % items.count
  return Array(items[shift...] + items[..<shift])
}

/// Runs `rounds` rounds after one warm-up (not recorded); `round` counts from 0.
@MainActor func inRounds(_ body: (_ round: Int, _ record: Bool) -> Void) {
  for round in -1..<rounds { body(max(round, 0), round >= 0) }
}

/// A number for file names, new at each call.
var serial = 0
@MainActor func nextSerial() -> Int {
  serial += 1
  return serial
}

var figures: [String: Figure] = [:]
@MainActor func record(_ key: String, _ tool: String, _ value: Double?) {
  guard let value else { return }
  figures[key, default: Figure(key, key, unit: "")].samples[tool, default: []].append(value)
}

// MARK: - First toast, nothing running

/// wl-toast with no owner: exec -> the new owner's first frame; exec -> the command's
/// exit; the owner's frame trace; the owner's peak RSS; then the toast is hidden and
/// the owner (--linger 0) leaves.
@MainActor func wlToastFirst(_ round: Int, _ keep: Bool) {
  let run = nextSerial()
  let ownerLog = bench.log("owner-first-\(run).log")
  let trace = bench.log("trace-first-\(run)")
  var command = must("starting wl-toast") {
    try Launched(
      [wlToast, "--tag", "first", "--no-animation", "--timeout", "0", "--linger", "0", "Saved"],
      environment: environment.merging(["WL_TOAST_OWNER_LOG": ownerLog, "WL_TOAST_TRACE": trace]) {
        $1
      }, stderrPath: commandsLog)
  }
  guard let (status, exited) = command.wait(), status == 0 else {
    fail("the first wl-toast failed or hung (\(commandsLog))")
  }
  let log = DebugLog(path: ownerLog)
  let commit = log.contentCommit(after: command.stamp, "the owner's first frame")
  let frame = firstTrace(trace)
  sleep(seconds: 0.2)
  guard let owner = bench.ownerPID(tag: "first") else { fail("no owner shows tag first") }
  if keep {
    record("first", "wl-toast", milliseconds(command.stamp, commit.stamp))
    record("first-exit", "wl-toast", Double(exited - command.monotonic) / 1e6)
    record("first-trace", "wl-toast", frame.map { since(command, $0) })
    recordStages(log.activity, command.stamp, commit.stamp, "wl-toast")
    record("rss-showing", "wl-toast", peakResidentKiB(owner).map { Double($0) / 1024 })
  }
  must("hiding the first toast") { try bench.run([wlToast, "hide", "--tag", "first"]) }
  bench.waitGone(owner, "the owner")
}

/// The same without WAYLAND_DEBUG, timed by the owner's frame trace alone: what
/// libwayland's logging (one write per message) adds to wl-toast's figure. With
/// `desktop`, on that desktop's session bus and accessibility bus (a screen
/// reader on or off there); with `listener`, also first frame -> the
/// announcement heard.
@MainActor func wlToastFirstQuiet(
  _ key: String, _ keep: Bool, on desktop: AccessibilityBus? = nil,
  listener: AtspiListener? = nil
) {
  let trace = bench.log("trace-\(key)-\(nextSerial())")
  var quiet = environment.merging(["WL_TOAST_TRACE": trace]) { $1 }
  if let desktop { quiet.merge(desktop.clientEnvironment) { $1 } }
  quiet.removeValue(forKey: "WAYLAND_DEBUG")
  let heardBefore = listener.map { heardTimes($0).count } ?? 0
  var command = must("starting wl-toast") {
    try Launched(
      [wlToast, "--tag", "first", "--no-animation", "--timeout", "0", "--linger", "0", "Saved"],
      environment: quiet, stderrPath: commandsLog)
  }
  guard let (status, _) = command.wait(), status == 0 else {
    fail("the first wl-toast failed or hung (\(commandsLog))")
  }
  guard let frame = firstTrace(trace) else { fail("no frame in \(trace)") }
  guard let owner = bench.ownerPID(tag: "first") else { fail("no owner shows tag first") }
  if keep { record(key, "wl-toast", since(command, frame)) }
  if let listener {
    let heard = must("listening") {
      try waitUntil("the announcement of a first toast", timeout: 10) {
        heardTimes(listener).count > heardBefore
      }
      return heardTimes(listener)[heardBefore]
    }
    if keep { record("announced", "wl-toast", Double(Int64(heard) - Int64(frame)) / 1e6) }
  }
  must("hiding the first toast") { try bench.run([wlToast, "hide", "--tag", "first"]) }
  bench.waitGone(owner, "the owner")
}

/// When a listener heard each event (its `t`: monotonic nanoseconds).
@MainActor func heardTimes(_ listener: AtspiListener) -> [UInt64] {
  listener.lines().compactMap { line in
    (try? JSONValue.parse(line))?["t"]?.doubleValue.map { UInt64($0) }
  }
}

/// The frame times (monotonic nanoseconds) in a WL_TOAST_TRACE file.
func traceFrames(_ path: String) -> [UInt64] {
  guard let data = readFile(path) else { return [] }
  return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
    $0.split(separator: " ").first.flatMap { UInt64($0) }
  }
}

func firstTrace(_ path: String) -> UInt64? { traceFrames(path).first }

/// Milliseconds from a launch to a monotonic time in nanoseconds.
func since(_ launched: Launched, _ nanoseconds: UInt64) -> Double {
  Double(Int64(nanoseconds) - Int64(launched.monotonic)) / 1e6
}

@MainActor func recordStages(
  _ activity: SurfaceActivity, _ start: UInt32, _ commit: UInt32, _ tool: String
) {
  guard let stages = stages(activity, from: start, commit: commit) else { return }
  record("first-start", tool, stages[0])
  record("first-roundtrips", tool, stages[1])
  record("first-draw", tool, stages[2])
}

/// A peer that is its own showing process (wob, swaynag): exec -> first frame and
/// its peak RSS; then it is stopped.
@MainActor func peerFirst(
  _ tool: String, _ arguments: [String], input: String?, _ round: Int, _ keep: Bool
) {
  let path = bench.log("\(tool)-first-\(nextSerial()).log")
  var pipe: (read: Int32, write: Int32)?
  if let input {
    pipe = must("a pipe") { try makePipe() }
    writeAll(pipe!.write, input)
  }
  var process = must("starting \(tool)") {
    try Launched(arguments, environment: environment, stdinFD: pipe?.read, stderrPath: path)
  }
  if let pipe { close(pipe.read) }
  let log = DebugLog(path: path)
  let commit = log.contentCommit(after: process.stamp, "\(tool)'s first frame")
  sleep(seconds: 0.2)
  if keep {
    record("first", tool, milliseconds(process.stamp, commit.stamp))
    recordStages(log.activity, process.stamp, commit.stamp, tool)
    record("rss-showing", tool, peakResidentKiB(process.pid).map { Double($0) / 1024 })
  }
  process.stop()
  if let pipe { close(pipe.write) }
}

/// mako with no daemon running: notify-send, and the bus starts mako (D-Bus
/// activation): exec of notify-send -> mako's first frame; -> notify-send's exit;
/// mako's peak RSS; then mako is stopped.
@MainActor func makoFirst(_ round: Int, _ keep: Bool) {
  let log = DebugLog(path: bench.busLog, fromEnd: true)
  var send = must("starting notify-send") {
    try Launched(
      ["notify-send", "Saved", "Round \(round)"], environment: environment,
      stderrPath: commandsLog)
  }
  guard let (status, exited) = send.wait(), status == 0 else {
    fail("notify-send failed or hung (\(commandsLog), \(bench.busLog))")
  }
  let commit = log.contentCommit(after: send.stamp, "mako's first frame")
  sleep(seconds: 0.2)
  let makos = processes(
    named: "mako", withEnvironment: "WAYLAND_DISPLAY=\(bench.sway.socketPath)")
  guard makos.count == 1, let mako = makos.first else {
    fail("expected one mako started by the bus, found \(makos)")
  }
  if keep {
    record("first", "mako", milliseconds(send.stamp, commit.stamp))
    record("first-exit", "mako", Double(exited - send.monotonic) / 1e6)
    recordStages(log.activity, send.stamp, commit.stamp, "mako")
    record("rss-showing", "mako", peakResidentKiB(mako).map { Double($0) / 1024 })
  }
  kill(mako, SIGTERM)
  bench.waitGone(mako, "mako")
  must("waiting for mako to leave the bus") {
    try waitUntil("mako's name to be released", timeout: 10) {
      !bench.nameHasOwner("org.freedesktop.Notifications")
    }
  }
}

// Two desktops with their accessibility plumbing (at-spi2-core's bus launcher
// and registry on a session bus of their own): on one no screen reader runs, on
// the other one is on and listens for announcements (libatspi, as Orca 45 does).
let withoutReader = must("starting an accessibility bus") { try AccessibilityBus() }
cleanups.append { withoutReader.stop() }
let withReader = must("starting an accessibility bus") {
  try AccessibilityBus(screenReader: true)
}
cleanups.append { withReader.stop() }
let screenReader = must("starting a screen reader's listener") {
  try withReader.listen(to: ["object:announcement"])
}

print("first toast, nothing running (exec -> first frame with content)...")
let firstToasts = toolNames + ["wl-toast, quiet", "wl-toast, a11y", "wl-toast, reader"]
inRounds { round, keep in
  for tool in rotated(firstToasts, round) {
    switch tool {
    case "wl-toast": wlToastFirst(round, keep)
    case "wl-toast, quiet": wlToastFirstQuiet("first-quiet", keep)
    case "wl-toast, a11y": wlToastFirstQuiet("first-a11y", keep, on: withoutReader)
    case "wl-toast, reader":
      wlToastFirstQuiet("first-reader", keep, on: withReader, listener: screenReader)
    case "wob": peerFirst("wob", ["wob"], input: "40\n", round, keep)
    case "swaynag": peerFirst("swaynag", ["swaynag", "-m", "Saved"], input: nil, round, keep)
    default: makoFirst(round, keep)
    }
  }
}

// MARK: - Updates of a showing toast; mako's first toast with the daemon running

print("updates of a showing toast...")
let ownerLogPath = bench.log("owner-update.log")
let ownerEnvironment = environment.merging(["WL_TOAST_OWNER_LOG": ownerLogPath]) { $1 }
/// An update command of wl-toast: the same size of toast each time (text and bar).
@MainActor func wlToastUpdate(_ percent: Int) -> [String] {
  [
    wlToast, "--tag", "bench", "--no-animation", "--timeout", "0", "--progress", "\(percent)",
    "Volume \(percent + 10)%",
  ]
}
let shownAt = WaylandDebugClock.now()
must("showing the toast to update") { try bench.run(wlToastUpdate(0), extra: ownerEnvironment) }
let ownerLog = DebugLog(path: ownerLogPath)
_ = ownerLog.contentCommit(after: shownAt, "the toast to update")
guard let updateOwner = bench.ownerPID(tag: "bench") else { fail("no owner shows tag bench") }

let wobPipe = must("a pipe") { try makePipe() }
let wobLogPath = bench.log("wob-resident.log")
var wob = must("starting wob") {
  try Launched(["wob"], environment: environment, stdinFD: wobPipe.read, stderrPath: wobLogPath)
}
close(wobPipe.read)
let wobLog = DebugLog(path: wobLogPath)
@MainActor func wobShow(_ value: Int) -> (start: UInt32, commit: UInt32) {
  let start = WaylandDebugClock.now()
  writeAll(wobPipe.write, "\(value)\n")
  return (start, wobLog.contentCommit(after: start, "wob's new frame").stamp)
}
_ = wobShow(30)

let makoLogPath = bench.log("mako-resident.log")
var mako = must("starting mako") {
  try Launched(["mako"], environment: environment, stderrPath: makoLogPath)
}
must("waiting for mako on the bus") {
  try waitUntil("mako to own org.freedesktop.Notifications", timeout: 10) {
    bench.nameHasOwner("org.freedesktop.Notifications")
  }
}
let makoLog = DebugLog(path: makoLogPath)
var notification = "0"
var makoShows = false

/// notify-send: exec -> mako's frame with content, and -> notify-send's exit.
@MainActor func notify(_ arguments: [String]) -> (frame: Double, exit: Double, wakes: Double?) {
  let idPath = bench.log("notification-id")
  _ = unlink(idPath)
  var send = must("starting notify-send") {
    try Launched(
      ["notify-send"] + arguments, environment: environment, stdoutPath: idPath,
      stderrPath: commandsLog)
  }
  guard let (status, exited) = send.wait(), status == 0 else {
    fail("notify-send failed or hung (\(commandsLog))")
  }
  let commit = makoLog.contentCommit(after: send.stamp, "mako's frame")
  if let data = readFile(idPath),
    let id = Int(String(decoding: data, as: UTF8.self).filter(\.isNumber))
  {
    notification = String(id)
  }
  return (
    milliseconds(send.stamp, commit.stamp), Double(exited - send.monotonic) / 1e6,
    firstCommit(makoLog.activity, send.stamp)
  )
}

/// Milliseconds from `start` to the client's first commit of any kind after it: how
/// long the request took to reach the showing process and have it act.
@MainActor func firstCommit(_ activity: SurfaceActivity, _ start: UInt32) -> Double? {
  activity.first(atOrAfter: start) {
    if case .commit = $0.kind { return true }
    return false
  }.map { milliseconds(start, $0.stamp) }
}

inRounds { round, keep in
  for tool in rotated(["wl-toast", "wob", "mako"], round) {
    sleep(seconds: 0.1)  // the last frame is long done: the toast is static
    let percent = 10 + (round * 7) % 80
    switch tool {
    case "wl-toast":
      var command = must("starting wl-toast") {
        try Launched(wlToastUpdate(percent), environment: environment, stderrPath: commandsLog)
      }
      guard let (status, exited) = command.wait(), status == 0 else {
        fail("a wl-toast update failed or hung (\(commandsLog))")
      }
      let commit = ownerLog.contentCommit(after: command.stamp, "the owner's updated frame")
      // The same command again, for its peak RSS under /usr/bin/time.
      sleep(seconds: 0.05)
      let start = WaylandDebugClock.now()
      let rss = must("timing a wl-toast update") {
        try peakResidentKiBUnderTime(
          wlToastUpdate(percent + 1), environment: environment, scratch: bench.scratch)
      }
      _ = ownerLog.contentCommit(after: start, "the owner's updated frame")
      if keep {
        record("update", "wl-toast", milliseconds(command.stamp, commit.stamp))
        record("update-reached", "wl-toast", firstCommit(ownerLog.activity, command.stamp))
        record("update-exit", "wl-toast", Double(exited - command.monotonic) / 1e6)
        record("rss-update", "wl-toast", Double(rss) / 1024)
      }
    case "wob":
      let frame = wobShow(percent)
      if keep {
        record("update", "wob", milliseconds(frame.start, frame.commit))
        record("update-reached", "wob", firstCommit(wobLog.activity, frame.start))
      }
    default:
      // With mako running and nothing shown: a new notification, then its update.
      let dismissed = WaylandDebugClock.now()
      must("makoctl dismiss") { try bench.run(["makoctl", "dismiss", "--all"]) }
      if makoShows {
        _ = makoLog.wait(for: "mako's surface to go") {
          $0.first(atOrAfter: dismissed) { $0.kind == .destroyed }
        }
      }
      sleep(seconds: 0.1)
      let shown = notify(["--print-id", "Saved", "Round \(round)"])
      makoShows = true
      sleep(seconds: 0.2)
      let updated = notify(["--replace-id=\(notification)", "Volume \(percent)%", "Round \(round)"])
      sleep(seconds: 0.05)
      let start = WaylandDebugClock.now()
      let rss = must("timing notify-send") {
        try peakResidentKiBUnderTime(
          ["notify-send", "--replace-id=\(notification)", "Volume \(percent + 1)%", "Again"],
          environment: environment, scratch: bench.scratch)
      }
      _ = makoLog.contentCommit(after: start, "mako's updated frame")
      if keep {
        record("resident", "mako", shown.frame)
        record("resident-exit", "mako", shown.exit)
        record("update", "mako", updated.frame)
        record("update-reached", "mako", updated.wakes)
        record("update-exit", "mako", updated.exit)
        record("rss-update", "mako", Double(rss) / 1024)
      }
    }
  }
}

// MARK: - Wake-ups while static

print("wake-ups while a toast is static...")
let swaynagLogPath = bench.log("swaynag-static.log")
var swaynag = must("starting swaynag") {
  try Launched(["swaynag", "-m", "Saved"], environment: environment, stderrPath: swaynagLogPath)
}
_ = DebugLog(path: swaynagLogPath).contentCommit(after: swaynag.stamp, "swaynag's frame")
guard
  let makoPID = processes(
    named: "mako", withEnvironment: "WAYLAND_DISPLAY=\(bench.sway.socketPath)"
  ).first
else { fail("mako is gone") }
let windows = rounds >= 10 ? 3 : 1
for _ in 0..<windows {
  _ = wobShow(50)  // wob hides 10 s after its last value
  sleep(seconds: 0.5)
  let pids: [(String, pid_t)] = [
    ("wl-toast", updateOwner), ("wob", wob.pid), ("swaynag", swaynag.pid), ("mako", makoPID),
  ]
  let before = pids.map { contextSwitches($0.1) }
  sleep(seconds: 2)
  let after = pids.map { contextSwitches($0.1) }
  for (index, (tool, _)) in pids.enumerated() {
    guard let start = before[index], let end = after[index] else { fail("\(tool) is gone") }
    record("wakeups", tool, Double(max(0, end - start)))
  }
}
swaynag.stop()
wob.stop()
close(wobPipe.write)
mako.stop()
must("hiding the updated toast") { try bench.run([wlToast, "hide", "--tag", "bench"]) }
bench.waitGone(updateOwner, "the owner")

// MARK: - Screen readers: the owner's CPU per update

print("the owner's CPU time per update, with and without a screen reader...")

/// The CPU time all threads of `pid` have used so far, in nanoseconds (schedstat).
@MainActor func cpuTime(of pid: pid_t) -> UInt64 {
  listDirectory("/proc/\(pid)/task").reduce(0) { total, task in
    guard let data = readFile("/proc/\(pid)/task/\(task)/schedstat") else { return total }
    return total
      + (String(decoding: data, as: UTF8.self).split(separator: " ").first.flatMap {
        UInt64($0)
      } ?? 0)
  }
}

/// The owner's CPU time per update (ms) on `desktop`: `rounds` updates of one
/// toast, each waited for through its frame and, with `listener`, its
/// announcement, and spaced past the 150 ms that merges a burst, so that each
/// is announced on its own.
@MainActor func ownerCPUPerUpdate(
  on desktop: AccessibilityBus, listener: AtspiListener?
) -> Double {
  let trace = bench.log("trace-cpu-\(nextSerial())")
  var quiet = environment.merging(["WL_TOAST_TRACE": trace]) { $1 }
  quiet.merge(desktop.clientEnvironment) { $1 }
  quiet.removeValue(forKey: "WAYLAND_DEBUG")
  @MainActor func update(_ percent: Int) {
    let frames = traceFrames(trace).count
    let heard = listener.map { heardTimes($0).count } ?? 0
    var command = must("starting wl-toast") {
      try Launched(
        [
          wlToast, "--tag", "cpu", "--no-animation", "--timeout", "0", "--progress",
          "\(percent)", "Volume",
        ], environment: quiet, stderrPath: commandsLog)
    }
    guard let (status, _) = command.wait(), status == 0 else {
      fail("a wl-toast update failed or hung (\(commandsLog))")
    }
    must("waiting for the frame and what is heard") {
      try waitUntil("the owner's frame for \(percent)%", timeout: 10) {
        traceFrames(trace).count > frames
      }
      if let listener {
        try waitUntil("the announcement of \(percent)%", timeout: 10) {
          heardTimes(listener).count > heard
        }
      }
    }
    sleep(seconds: 0.2)
  }
  update(0)
  guard let owner = bench.ownerPID(tag: "cpu") else { fail("no owner shows tag cpu") }
  let start = cpuTime(of: owner)
  for index in 1...rounds { update(index) }
  let used = cpuTime(of: owner) - start
  must("hiding the toast") { try bench.run([wlToast, "hide", "--tag", "cpu"]) }
  bench.waitGone(owner, "the owner")
  return Double(used) / 1e6 / Double(rounds)
}
record("cpu-update-silent", "wl-toast", ownerCPUPerUpdate(on: withoutReader, listener: nil))
record(
  "cpu-update-announced", "wl-toast", ownerCPUPerUpdate(on: withReader, listener: screenReader))
screenReader.stop()
withReader.stop()
withoutReader.stop()

// MARK: - Frames: frame callback -> commit

print("frames: the spinner at scale 1 and 2, the banner's slide...")
let renderLogPath = bench.log("owner-frames.log")
let renderEnvironment = environment.merging(["WL_TOAST_OWNER_LOG": renderLogPath]) { $1 }
let renderLog = DebugLog(path: renderLogPath)

@MainActor func recordFrames(_ frames: [SurfaceActivity.Frame], _ key: String) {
  for frame in frames {
    record(key, "wl-toast", frame.renderMicroseconds.map { Double($0) / 1000 })
    record("commits-per-frame", "wl-toast", frame.commitsBeforeNextFrame.map(Double.init))
  }
}

/// The owner of this phase.
var renderOwner: pid_t?

/// The spinner, after its fade-in, for 0.1 s a round.
@MainActor func spinnerFrames(scale: Int) {
  must("setting the scale") {
    try bench.sway.swaymsg(["output", "HEADLESS-1", "scale", "\(scale)"])
  }
  sleep(seconds: 0.2)
  // The owner stays for the whole phase (--linger), so the log has one process.
  let shown = must("showing the spinner") {
    try bench.run(
      [wlToast, "--tag", "spinner", "--spinner", "--timeout", "0", "--linger", "30", "Working"],
      extra: renderEnvironment)
  }
  guard shown.status == 0 else { fail("the spinner did not show") }
  renderOwner = renderOwner ?? bench.ownerPID(tag: "spinner")
  sleep(seconds: 0.5)  // past the 0.25 s fade-in: the spinner alone turns
  let start = WaylandDebugClock.now()
  sleep(seconds: max(0.3, Double(rounds) * 0.1))
  let end = WaylandDebugClock.now()
  sleep(seconds: 0.05)
  renderLog.refresh()
  let frames = renderLog.activity.frames(from: start, to: end)
  guard !frames.isEmpty else { fail("the spinner at scale \(scale) drew no frame") }
  recordFrames(frames, "frame-spinner-\(scale)")
  must("hiding the spinner") { try bench.run([wlToast, "hide", "--tag", "spinner"]) }
  bench.waitHidden(tag: "spinner")
}
spinnerFrames(scale: 1)
spinnerFrames(scale: 2)
must("setting the scale") { try bench.sway.swaymsg(["output", "HEADLESS-1", "scale", "1"]) }
sleep(seconds: 0.2)
inRounds { round, keep in
  var command = must("showing the banner") {
    try Launched(
      [
        wlToast, "--style", "banner", "--tag", "banner", "--timeout", "0", "--linger", "30",
        "Copied to clipboard",
      ],
      environment: renderEnvironment, stderrPath: commandsLog)
  }
  guard let (status, _) = command.wait(), status == 0 else { fail("the banner did not show") }
  let first = renderLog.contentCommit(after: command.stamp, "the banner's first frame").stamp
  sleep(seconds: 0.9)
  renderLog.refresh()
  // The slide: 0.8 s from the first frame.
  if keep {
    recordFrames(renderLog.activity.frames(from: first, to: first &+ 800_000), "frame-banner")
  }
  must("hiding the banner") { try bench.run([wlToast, "hide", "--tag", "banner"]) }
  bench.waitHidden(tag: "banner")
  sleep(seconds: 0.1)
}
if let renderOwner {
  kill(renderOwner, SIGTERM)
  bench.waitGone(renderOwner, "the owner")
}

// MARK: - First toast with a resident owner

print("first toast with a resident owner (wl-toast daemon)...")
let daemonLogPath = bench.log("owner-daemon.log")
// The daemon keeps its standard error, and becomes the owner in its own process.
var daemon = must("starting wl-toast daemon") {
  try Launched([wlToast, "daemon"], environment: environment, stderrPath: daemonLogPath)
}
let daemonLog = DebugLog(path: daemonLogPath)
_ = daemonLog.wait(for: "the daemon to connect") {
  $0.first(atOrAfter: daemon.stamp) { $0.kind == .connected }
}
sleep(seconds: 0.5)
inRounds { round, keep in
  sleep(seconds: 0.1)
  var command = must("starting wl-toast") {
    try Launched(
      [wlToast, "--tag", "resident", "--no-animation", "--timeout", "0", "Saved"],
      environment: environment, stderrPath: commandsLog)
  }
  guard let (status, exited) = command.wait(), status == 0 else {
    fail("a first toast for the daemon failed or hung (\(commandsLog))")
  }
  let commit = daemonLog.contentCommit(after: command.stamp, "the daemon's first frame")
  if keep {
    record("resident", "wl-toast", milliseconds(command.stamp, commit.stamp))
    record("resident-exit", "wl-toast", since(command, exited))
  }
  must("hiding the toast") { try bench.run([wlToast, "hide", "--tag", "resident"]) }
  bench.waitHidden(tag: "resident")
}
// Idle: nothing shown, the daemon waiting for a command.
for _ in 0..<windows {
  sleep(seconds: 0.5)
  guard let before = contextSwitches(daemon.pid) else { fail("the daemon is gone") }
  sleep(seconds: 2)
  guard let after = contextSwitches(daemon.pid) else { fail("the daemon is gone") }
  record("wakeups-idle", "wl-toast", Double(max(0, after - before)))
}
daemon.stop()

// MARK: - Start-up alone, sizes, libraries

print("--version, sizes, libraries...")
let versionCommands: [String: [String]] = [
  "wl-toast": [wlToast, "--version"], "wob": ["wob", "--version"],
  "swaynag": ["swaynag", "--version"], "mako": ["notify-send", "--version"],
]
inRounds { round, keep in
  for tool in rotated(toolNames, round) {
    guard let arguments = versionCommands[tool] else { continue }
    var process = must("starting \(arguments[0])") {
      try Launched(arguments, environment: environment)
    }
    guard let (_, exited) = process.wait() else { fail("\(arguments[0]) --version hung") }
    if keep { record("version", tool, Double(exited - process.monotonic) / 1e6) }
  }
}

/// The size of a file in bytes.
@MainActor func fileSize(_ path: String) -> Int? {
  var info = stat()
  return stat(path, &info) == 0 ? Int(info.st_size) : nil
}

/// The size in bytes of a stripped copy (`strip`: no symbols, no debug information).
@MainActor func strippedSize(_ path: String) -> Int? {
  let copy = bench.scratch + "/stripped"
  defer { unlink(copy) }
  guard (try? bench.run(["strip", "-o", copy, path]))?.status == 0 else { return nil }
  return fileSize(copy)
}

/// How many shared libraries `ldd` lists (the vDSO not counted).
@MainActor func libraryCount(_ path: String) -> Int? {
  guard let result = try? bench.run(["ldd", path]) else { return nil }
  if result.output.contains("statically linked") { return 0 }
  return result.output.split(separator: "\n").filter {
    $0.contains("/") && !$0.contains("linux-vdso")
  }.count
}

let showingPrograms = [
  "wl-toast": bench.owner, "wob": which("wob")!, "swaynag": which("swaynag")!,
  "mako": which("mako")!,
]
let updatePrograms = ["wl-toast": wlToast, "mako": which("notify-send")!]
for (tool, path) in showingPrograms {
  record("size-showing", tool, fileSize(path).map { Double($0) / 1024 })
  record("stripped-showing", tool, strippedSize(path).map { Double($0) / 1024 })
  record("libraries-showing", tool, libraryCount(path).map(Double.init))
}
for (tool, path) in updatePrograms {
  record("size-update", tool, fileSize(path).map { Double($0) / 1024 })
  record("stripped-update", tool, strippedSize(path).map { Double($0) / 1024 })
  record("libraries-update", tool, libraryCount(path).map(Double.init))
}

// MARK: - Report

stopEverything()

/// The rows in order: key, title, unit, decimals.
let rows: [(String, String, String, Int)] = [
  ("first", "first toast, nothing running: exec → frame with content", "ms", 1),
  ("first-start", "… of which exec → get_registry (process start)", "ms", 2),
  ("first-roundtrips", "… get_registry → first configure", "ms", 2),
  ("first-draw", "… configure → frame committed", "ms", 2),
  ("first-trace", "first toast by wl-toast's own frame trace (check)", "ms", 1),
  ("first-quiet", "first toast without WAYLAND_DEBUG, by the frame trace", "ms", 1),
  ("first-a11y", "… the same beside an accessibility bus, no screen reader on", "ms", 1),
  ("first-reader", "… the same with a screen reader on", "ms", 1),
  ("announced", "… first frame → the screen reader hears the announcement", "ms", 1),
  ("cpu-update-silent", "owner's CPU per update, no screen reader", "ms", 2),
  ("cpu-update-announced", "owner's CPU per update, announced to a screen reader", "ms", 2),
  ("first-exit", "first toast: exec → command exits", "ms", 1),
  ("resident", "first toast, owner/daemon already running", "ms", 1),
  ("resident-exit", "… exec → command exits", "ms", 1),
  ("update", "update of a showing toast: exec → new frame", "ms", 1),
  ("update-reached", "… of which exec → the showing process's first commit", "ms", 2),
  ("update-exit", "update: exec → command exits", "ms", 1),
  ("rss-showing", "peak RSS of the showing process", "MiB", 1),
  ("rss-update", "peak RSS of an update command", "MiB", 1),
  ("frame-spinner-1", "render per frame, HUD spinner, scale 1", "ms", 2),
  ("frame-spinner-2", "render per frame, HUD spinner, scale 2", "ms", 2),
  ("frame-banner", "render per frame, banner slide", "ms", 2),
  ("commits-per-frame", "commits per frame callback (all frames above)", "count", 0),
  ("wakeups", "wake-ups while static (context switches in 2 s)", "count", 0),
  ("wakeups-idle", "wake-ups of a resident owner, nothing shown (2 s)", "count", 0),
  ("version", "--version: exec → exit", "ms", 1),
  ("size-showing", "binary size, showing program", "KiB", 0),
  ("stripped-showing", "… stripped", "KiB", 0),
  ("libraries-showing", "shared libraries (ldd), showing program", "count", 0),
  ("size-update", "binary size, update command", "KiB", 0),
  ("stripped-update", "… stripped", "KiB", 0),
  ("libraries-update", "shared libraries (ldd), update command", "count", 0),
]
var ordered: [Figure] = []
for (key, title, unit, decimals) in rows {
  var figure = Figure(key, title, unit: unit, decimals: decimals)
  figure.samples = figures[key]?.samples ?? [:]
  ordered.append(figure)
}

let notes = [
  "wl-toast: the showing process is wl-toast-owner, the update command is wl-toast; "
    + "frames from the owner's WAYLAND_DEBUG log (WL_TOAST_OWNER_LOG); already running = "
    + "a wl-toast daemon (resident owner) waiting with nothing shown.",
  "wob: first toast = exec of wob with a value waiting on its standard input; "
    + "update = a value written to its standard input (no process started: write → frame).",
  "swaynag: first toast = exec of swaynag -m; it has no update.",
  "mako: first toast = notify-send with no mako running, the bus starting mako (D-Bus "
    + "activation); already running = notify-send to a running mako with nothing shown; "
    + "update = notify-send --replace-id; its update command and --version are notify-send's.",
  "Screen readers: wl-toast's rows beside an accessibility bus use at-spi2-core's bus "
    + "launcher and registry on a private session bus; the screen reader is a libatspi "
    + "listener (python3-gi) registered for object:announcement; CPU per update is the "
    + "owner's threads' schedstat over the updates, spaced 0.2 s apart.",
  "Every frame time: exec (read right before posix_spawn) → the first wl_surface.commit "
    + "after a wl_surface.attach in the client's WAYLAND_DEBUG log, realtime clock.",
]

/// The ratios issue 10's budgets are stated in, from the medians above.
@MainActor func issueRatios() -> [String] {
  func median(_ key: String, _ tool: String) -> Double? {
    ordered.first { $0.key == key }?.summary(tool)?.median
  }
  var lines: [String] = []
  func add(_ text: String, _ ours: Double?, _ theirs: Double?, budget: String) {
    guard let ours, let theirs, theirs > 0 else { return }
    lines.append("\(text): \(fixed(ours / theirs, 2))× (budget \(budget))")
  }
  add(
    "issue 10: first toast ÷ swaynag's first toast", median("first", "wl-toast"),
    median("first", "swaynag"), budget: "≤ 0.8")
  add(
    "issue 10: update ÷ wob's first toast (cold start)", median("update", "wl-toast"),
    median("first", "wob"), budget: "≤ 1.0")
  add(
    "issue 10: first toast with a resident owner ÷ wob's first toast",
    median("resident", "wl-toast"), median("first", "wob"), budget: "≤ 1.0")
  add(
    "issue 10: owner's peak RSS ÷ swaynag's", median("rss-showing", "wl-toast"),
    median("rss-showing", "swaynag"), budget: "≤ 1.0")
  add(
    "issue 10: update command's peak RSS ÷ 4 MiB", median("rss-update", "wl-toast"), 4,
    budget: "≤ 1.0")
  add(
    "issue 10: HUD frame at scale 2 ÷ 2 ms", median("frame-spinner-2", "wl-toast"), 2,
    budget: "≤ 1.0")
  add(
    "issue 12: first toast beside an accessibility bus, no screen reader ÷ without one",
    median("first-a11y", "wl-toast"), median("first-quiet", "wl-toast"),
    budget: "no start-up cost: within the noise of 1.0")
  add(
    "issue 12: first toast with a screen reader on ÷ without one",
    median("first-reader", "wl-toast"), median("first-quiet", "wl-toast"),
    budget: "none; the announcement follows the first frame")
  return lines
}

// How many frame callbacks the frame rows rest on.
let perFrame = figures["commits-per-frame"]?.samples["wl-toast"] ?? []
let framesCounted =
  "commits per frame callback: \(perFrame.count) callbacks followed by another, "
  + "\(perFrame.filter { $0 == 1 }.count) of them with exactly one commit; frames timed: "
  + ["frame-spinner-1", "frame-spinner-2", "frame-banner"].map {
    "\($0) \(figures[$0]?.samples["wl-toast"]?.count ?? 0)"
  }.joined(separator: ", ")

// The owner's trace against its WAYLAND_DEBUG log, round by round.
var agreement = "no trace"
if let debug = figures["first"]?.samples["wl-toast"],
  let trace = figures["first-trace"]?.samples["wl-toast"], debug.count == trace.count,
  !debug.isEmpty
{
  let differences = zip(trace, debug).map { $0 - $1 }
  let summary = Summary(differences)
  agreement =
    "WL_TOAST_TRACE − WAYLAND_DEBUG commit: median \(fixed(summary.median * 1000, 0)) µs, "
    + "\(fixed(summary.minimum * 1000, 0)) to \(fixed(summary.maximum * 1000, 0)) µs"
}

/// The first line of a file, for the machine's description.
@MainActor func field(_ path: String, _ name: String) -> String {
  guard let data = readFile(path) else { return "?" }
  for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
  where line.hasPrefix(name) {
    if let separator = line.firstIndex(where: { $0 == ":" || $0 == "=" }) {
      return String(
        line[line.index(after: separator)...].drop { $0 == " " || $0 == "\t" || $0 == "\"" }
          .prefix { $0 != "\"" })
    }
  }
  return "?"
}
var system = utsname()
uname(&system)
let kernel = withUnsafeBytes(of: system.release) { raw in
  String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
}
var context: [(String, String)] = [
  ("cpu", field("/proc/cpuinfo", "model name")),
  ("cores", String(sysconf(Int32(_SC_NPROCESSORS_ONLN)))),
  ("memory", field("/proc/meminfo", "MemTotal")),
  ("kernel", kernel),
  ("os", field("/etc/os-release", "PRETTY_NAME")),
  ("binaries", directory),
  ("trace-agreement", agreement),
  ("load-average-before", loadBefore),
  ("load-average-after", loadAverage()),
]
for package in ["sway", "libwayland-client0", "wob", "mako-notifier", "libnotify-bin"] {
  let version = try? runCommand(
    ["dpkg-query", "-W", "-f", "${Version}", package], environment: currentEnvironment())
  context.append((package, version?.output ?? "?"))
}

print("")
print(table(ordered))
print("")
for note in notes { print("- " + note) }
print("- " + agreement + ".")
print("- " + framesCounted)
for line in issueRatios() { print("- " + line) }
print("- Machine: " + context.prefix(5).map { "\($0.0) \($0.1)" }.joined(separator: "; "))
print("- Load average (1, 5, 15 min) before: \(loadBefore); after: \(loadAverage())")
if let jsonPath {
  let text = json(
    ordered, rounds: rounds, context: context,
    notes: notes + [agreement, framesCounted] + issueRatios())
  let slash = jsonPath.lastIndex(of: "/").map { String(jsonPath[..<$0]) }
  if let slash, !slash.isEmpty {
    _ = try? runCommand(["mkdir", "-p", slash], environment: currentEnvironment())
  }
  must("writing \(jsonPath)") { try writeFile(jsonPath, text) }
  print("JSON: \(jsonPath)")
}
