import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// The first toast with a resident owner (wl-toast daemon) beside mako's.

@MainActor func measureResidentOwner() {

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

}
