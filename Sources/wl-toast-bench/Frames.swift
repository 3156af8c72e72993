import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// Frames: frame callback -> commit, for the spinner at scale 1 and 2, the
// countdown line at scale 2 and the banner's slide.

@MainActor func measureFrames() {

  print("frames: the spinner at scale 1 and 2, the countdown at scale 2, the banner's slide...")
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

  /// The frames of a toast shown with `options` (named `what` and tagged
  /// `tag`) whose one moving part moves, after its fade-in, for 0.1 s a round.
  @MainActor func movingFrames(_ what: String, tag: String, options: [String], scale: Int) {
    must("setting the scale") {
      try bench.sway.swaymsg(["output", "HEADLESS-1", "scale", "\(scale)"])
    }
    sleep(seconds: 0.2)
    // The owner stays for the whole phase (--linger), so the log has one process.
    let shown = must("showing the \(what)") {
      try bench.run(
        [wlToast, "--tag", tag] + options + ["--linger", "30", "Working"],
        extra: renderEnvironment)
    }
    guard shown.status == 0 else { fail("the \(what) did not show") }
    renderOwner = renderOwner ?? bench.ownerPID(tag: tag)
    sleep(seconds: 0.5)  // past the 0.25 s fade-in: only the moving part moves
    let start = WaylandDebugClock.now()
    sleep(seconds: max(0.3, Double(rounds) * 0.1))
    let end = WaylandDebugClock.now()
    sleep(seconds: 0.05)
    renderLog.refresh()
    let frames = renderLog.activity.frames(from: start, to: end)
    guard !frames.isEmpty else { fail("the \(what) at scale \(scale) drew no frame") }
    recordFrames(frames, "frame-\(tag)-\(scale)")
    must("hiding the \(what)") { try bench.run([wlToast, "hide", "--tag", tag]) }
    bench.waitHidden(tag: tag)
  }
  let spinner = ["--spinner", "--timeout", "0"]
  movingFrames("spinner", tag: "spinner", options: spinner, scale: 1)
  movingFrames("spinner", tag: "spinner", options: spinner, scale: 2)
  // The countdown line of a timeout longer than the phase, at scale 2.
  let countdownOptions = ["--countdown", "--timeout", "\(max(0.3, Double(rounds) * 0.1) + 30)"]
  movingFrames("countdown", tag: "countdown", options: countdownOptions, scale: 2)
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

}
