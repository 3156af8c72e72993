import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// Updates of a showing toast beside wob's and mako's, mako's first toast with
// its daemon running, then the wake-ups of each while static.

/// The updates, then the wake-ups while static (the same showing processes).
@MainActor func measureUpdatesAndWakeUps() {

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
        let updated = notify([
          "--replace-id=\(notification)", "Volume \(percent)%", "Round \(round)",
        ])
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

}
