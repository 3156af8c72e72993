import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// The owner's CPU time per update, with and without a screen reader.

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

/// Both figures; the desktops are stopped after.
@MainActor func measureOwnerCPU(_ desktops: Desktops) {
  let (withoutReader, withReader, screenReader) = (
    desktops.withoutReader, desktops.withReader, desktops.screenReader
  )
  print("the owner's CPU time per update, with and without a screen reader...")
  record("cpu-update-silent", "wl-toast", ownerCPUPerUpdate(on: withoutReader, listener: nil))
  record(
    "cpu-update-announced", "wl-toast", ownerCPUPerUpdate(on: withReader, listener: screenReader))
  screenReader.stop()
  withReader.stop()
  withoutReader.stop()

}
