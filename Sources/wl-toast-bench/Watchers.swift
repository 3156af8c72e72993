import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// `wl-toast watch audio` beside the key binding it replaces: from `pactl
// set-sink-volume` to the owner's new frame, the watcher's CPU per change, its
// wake-ups while nothing changes and its peak RSS.

/// The columns: the watcher (wl-toast watch audio) and the key binding's shell
/// glue it replaces (pactl, then wl-toast with the level pactl reports).
let watcherNames = ["wl-toast", "pactl && wl-toast"]

@MainActor func measureAudioWatcher() {

  print("watch audio: pactl → the volume HUD...")
  let sound = must("starting a PulseAudio server") { try SoundServer(.pulseAudio) }
  defer { sound.stop() }
  let soundEnvironment = environment.merging(sound.clientEnvironment) { $1 }
  // A second sink, not the default: the key binding's pactl changes it, so
  // that the watcher (which follows the default output) stays out of its rounds.
  must("a second sink") {
    _ = try runTool(
      ["pactl", "load-module", "module-null-sink", "sink_name=bench-other"],
      environment: soundEnvironment)
  }
  let ownerLogPath = bench.log("owner-watch.log")
  let watcherEnvironment = soundEnvironment.merging(["WL_TOAST_OWNER_LOG": ownerLogPath]) { $1 }
  var watcher = must("starting wl-toast watch audio") {
    try Launched(
      [wlToast, "watch", "audio"], environment: watcherEnvironment,
      stderrPath: bench.log("watch-audio.log"))
  }
  let ownerLog = DebugLog(path: ownerLogPath)
  var level = 30
  /// The next volume, never the one before (the watcher shows changes only).
  func nextLevel() -> Int {
    level = 10 + (level + 7 - 10) % 80
    return level
  }
  /// `pactl set-sink-volume` of the default output, until the owner's frame.
  @MainActor func watched() -> Double {
    var pactl = must("starting pactl") {
      try Launched(
        ["pactl", "set-sink-volume", "@DEFAULT_SINK@", "\(nextLevel())%"],
        environment: soundEnvironment, stderrPath: commandsLog)
    }
    guard pactl.wait()?.status == 0 else { fail("pactl failed (\(commandsLog))") }
    return milliseconds(
      pactl.stamp, ownerLog.contentCommit(after: pactl.stamp, "the watcher's HUD").stamp)
  }
  // The watcher connects to the sound server once started: until then, a change shows nothing.
  must("the watcher's first HUD") {
    try waitUntil("the watcher's first HUD (\(bench.log("watch-audio.log")))", timeout: 20) {
      var pactl = try Launched(
        ["pactl", "set-sink-volume", "@DEFAULT_SINK@", "\(nextLevel())%"],
        environment: soundEnvironment)
      _ = pactl.wait()
      sleep(seconds: 0.3)
      ownerLog.refresh()
      return ownerLog.activity.first(atOrAfter: pactl.stamp) {
        if case .commit = $0.kind { return true }
        return false
      } != nil
    }
  }
  let glue =
    "pactl set-sink-volume bench-other $0% && v=$(pactl get-sink-volume bench-other"
    + " | grep -o '[0-9]*%' | head -n 1 | tr -d %) && \(wlToast) --tag volume --progress $v"
    + " --timeout 1.5 Volume $v%"
  inRounds { round, keep in
    for tool in rotated(watcherNames, round) {
      sleep(seconds: 0.1)
      if tool == "wl-toast" {
        let frame = watched()
        if keep { record("watch-audio", tool, frame) }
      } else {
        var command = must("starting the key binding's shell") {
          try Launched(
            ["sh", "-c", glue, "\(nextLevel())"], environment: soundEnvironment,
            stderrPath: commandsLog)
        }
        guard command.wait()?.status == 0 else { fail("the key binding failed (\(commandsLog))") }
        let commit = ownerLog.contentCommit(after: command.stamp, "the key binding's HUD")
        if keep { record("watch-audio", tool, milliseconds(command.stamp, commit.stamp)) }
      }
    }
  }
  // The owner the watcher started (it holds it while it runs).
  guard let owner = bench.ownerPID(tag: "volume") else { fail("no owner shows the volume HUD") }
  // CPU per change: 50 changes, 20 ms apart, the watcher's threads' schedstat.
  let before = cpuTime(of: watcher.pid)
  for _ in 0..<50 {
    _ = must("pactl") {
      try runTool(
        ["pactl", "set-sink-volume", "@DEFAULT_SINK@", "\(nextLevel())%"],
        environment: soundEnvironment)
    }
    sleep(seconds: 0.02)
  }
  sleep(seconds: 0.2)
  record("watch-audio-cpu", "wl-toast", Double(cpuTime(of: watcher.pid) - before) / 50 / 1e6)
  // Nothing changes: the watcher waits in poll().
  for _ in 0..<windows {
    sleep(seconds: 0.5)
    guard let start = contextSwitches(watcher.pid) else { fail("the watcher is gone") }
    sleep(seconds: 2)
    guard let end = contextSwitches(watcher.pid) else { fail("the watcher is gone") }
    record("watch-audio-wakeups", "wl-toast", Double(max(0, end - start)))
  }
  if let rss = peakResidentKiB(watcher.pid) {
    record("watch-audio-rss", "wl-toast", Double(rss) / 1024)
  }
  watcher.stop()
  must("hiding the volume HUD") { try bench.run([wlToast, "hide", "--tag", "volume"]) }
  // The next scenario starts with no owner running.
  bench.waitGone(owner, "the watch's owner")
}
