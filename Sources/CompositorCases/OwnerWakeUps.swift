import Glibc
import SystemSupport
import TestSupport
import Testing

/// How often the threads of `pid` have been woken so far (context switches):
/// under ThreadSanitizer, its main thread's only, since the runtime's own
/// thread wakes every 100 ms (``underThreadSanitizer``); an owner's loop
/// runs on its main thread.
package func wakeUps(of pid: Int32) -> Int {
  contextSwitches(pid, mainThreadOnly: underThreadSanitizer) ?? 0
}

/// The owner with `pid` stays idle: once the last toast's echoes have settled
/// (the command hanging up, buffers released), no wake-up in two seconds (the
/// default linger is one), and it is still there afterwards.
///
/// Settled means half a second without a wake-up: the echoes follow the
/// toast's end by milliseconds, and a waking process is scheduled within
/// milliseconds on a machine whose cores are busy, so the margin is a
/// hundredfold.
package func expectIdle(_ pid: Int32) throws {
  try waitUntilSettled(pid)
  let before = wakeUps(of: pid)
  // Time passing is what is measured here: nothing to wait for instead.
  pause(for: .seconds(2))
  #expect(wakeUps(of: pid) == before, "no wake-up while idle")
  #expect(kill(pid, 0) == 0, "still running past the linger")
}

/// Waits until the process with `pid` has settled: half a second without a
/// wake-up (``expectIdle(_:)`` says why that margin holds), so that what it
/// was doing (a watcher reading its baseline, an owner's echoes) is done.
package func waitUntilSettled(_ pid: Int32) throws {
  try waitUntil("process \(pid) to settle", timeout: 20) {
    let settled = wakeUps(of: pid)
    pause(for: .milliseconds(500))
    return wakeUps(of: pid) == settled
  }
}
