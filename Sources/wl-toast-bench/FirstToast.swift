import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// The first toast with nothing running: wl-toast (with and without
// WAYLAND_DEBUG, beside accessibility buses), wob, swaynag and mako.

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
  _ tool: String, _ arguments: [String], input: String?, _ round: Int, _ keep: Bool,
  key: String = "first", as recorded: String? = nil
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
    record(key, recorded ?? tool, milliseconds(process.stamp, commit.stamp))
    // swaynag's bar is also what `wl-toast nag`'s is measured against.
    if tool == "swaynag" { record("nag-first", tool, milliseconds(process.stamp, commit.stamp)) }
    if key == "first" {
      recordStages(log.activity, process.stamp, commit.stamp, tool)
      record("rss-showing", tool, peakResidentKiB(process.pid).map { Double($0) / 1024 })
    }
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

/// Two desktops with their accessibility plumbing (at-spi2-core's bus launcher
/// and registry on a session bus of their own): on one no screen reader runs, on
/// the other one is on and listens for announcements (libatspi, as Orca 45 does).
struct Desktops {
  let withoutReader: AccessibilityBus
  let withReader: AccessibilityBus
  let screenReader: AtspiListener
}

@MainActor func startDesktops() -> Desktops {
  let withoutReader = must("starting an accessibility bus") { try AccessibilityBus() }
  cleanups.append { withoutReader.stop() }
  let withReader = must("starting an accessibility bus") {
    try AccessibilityBus(screenReader: true)
  }
  cleanups.append { withReader.stop() }
  let screenReader = must("starting a screen reader's listener") {
    try withReader.listen(to: ["object:announcement"])
  }

  return Desktops(withoutReader: withoutReader, withReader: withReader, screenReader: screenReader)
}

/// exec -> first frame with content, each tool in turn in each round.
@MainActor func measureFirstToasts(_ desktops: Desktops) {
  let (withoutReader, withReader, screenReader) = (
    desktops.withoutReader, desktops.withReader, desktops.screenReader
  )
  print("first toast, nothing running (exec -> first frame with content)...")
  let firstToasts =
    toolNames + ["wl-toast, quiet", "wl-toast, a11y", "wl-toast, reader", "wl-toast nag"]
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
      case "wl-toast nag":
        // Its own showing process, as swaynag is: exec -> its first frame.
        peerFirst(
          "wl-toast nag", [wlToast, "nag", "--no-animation", "-m", "Saved"], input: nil, round,
          keep, key: "nag-first", as: "wl-toast")
      default: makoFirst(round, keep)
      }
    }
  }

}
