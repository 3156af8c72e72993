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
///
/// `log`, the process's log (its `WAYLAND_DEBUG` lines when it has them), is
/// quoted from where the two seconds began when it woke: what woke it.
package func expectIdle(_ pid: Int32, log: String? = nil) throws {
  try waitUntilSettled(pid)
  let before = wakeUps(of: pid)
  let logged = log.map { readFile($0)?.count ?? 0 } ?? 0
  // Time passing is what is measured here: nothing to wait for instead.
  pause(for: .seconds(2))
  let after = wakeUps(of: pid)
  let meanwhile = log.flatMap { readFile($0) }.map {
    String(decoding: $0.dropFirst(logged).suffix(2000), as: UTF8.self)
  }
  #expect(
    after == before,
    "no wake-up while idle: \(after - before) context switches; logged meanwhile: \(meanwhile ?? "-")"
  )
  #expect(kill(pid, 0) == 0, "still running past the linger")
}

/// Waits until the process with `pid` has settled: half a second without a
/// wake-up (``expectIdle(_:log:)`` says why that margin holds), so that what it
/// was doing (a watcher reading its baseline, an owner's echoes) is done.
package func waitUntilSettled(_ pid: Int32) throws {
  try waitUntil("process \(pid) to settle", timeout: 20) {
    let settled = wakeUps(of: pid)
    pause(for: .milliseconds(500))
    return wakeUps(of: pid) == settled
  }
}
