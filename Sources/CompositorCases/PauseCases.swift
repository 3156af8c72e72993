import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastProtocol

/// Timeouts that wait for the person, on any compositor: a toast stays
/// while its reader is away, and goes its full timeout after they come back.
package enum PauseCases {
  /// How much later than its full timeout a toast that was held may go:
  /// the compositor's event, the owner's timer and the screenshots that
  /// look for it all run late on a loaded machine, never early.
  package static let margin = 2.0

  /// ``margin`` on `desk`'s compositor, as much longer as it is late
  /// (``TestSupport/TestCompositor/lateness``).
  static func margin<C: TestCompositor>(on desk: Desk<C>) -> Double {
    margin * desk.compositor.lateness
  }

  /// Whether the first output shows a HUD's box.
  package static func showsHUD<C: TestCompositor>(_ desk: Desk<C>) throws -> Bool {
    try desk.compositor.screenshot().boundingBox(of: Looks.hudColor(C.self), tolerance: 3) != nil
  }

  /// Checks, screenshot after screenshot, that a HUD stays on screen until
  /// `end` (seconds on the monotonic clock): what is measured is time
  /// passing, so the wait is the measure.
  package static func expectHUDStays<C: TestCompositor>(
    _ desk: Desk<C>, until end: Double, _ what: String
  ) throws {
    var shots = 0
    while now() < end {
      shots += 1
      guard try showsHUD(desk) else {
        Issue.record("\(what): gone \(end - now()) s too early (screenshot \(shots))")
        return
      }
      pause(for: .milliseconds(100))
    }
  }

  /// Waits for the HUD to go: within `timeout` and ``margin(on:)`` of `since`, and
  /// no sooner than `timeout` after it (a full timeout, not what was left).
  package static func expectHUDGoes<C: TestCompositor>(
    _ desk: Desk<C>, timeout: Double, since start: Double, _ what: String
  ) throws {
    try waitUntil(
      "\(what): the HUD to go", timeout: start + timeout + margin(on: desk) - now()
    ) {
      try !showsHUD(desk)
    }
    let after = now() - start
    #expect(after >= timeout, "\(what): gone \(after) s after, before its full \(timeout) s")
  }

  /// The idle protocols an owner may use, as its `WAYLAND_DEBUG` log names
  /// them.
  package enum IdleProtocol: String, CaseIterable, Sendable {
    /// `ext_idle_notifier_v1`.
    case standard = "ext_idle_notifier_v1"
    /// KDE's `org_kde_kwin_idle`.
    case kde = "org_kde_kwin_idle"

    /// The interface of its notification object, and its event when
    /// idleness begins.
    var notification: (interface: String, idle: String) {
      switch self {
      case .standard: ("ext_idle_notification_v1", "idled")
      case .kde: ("org_kde_kwin_idle_timeout", "idle")
      }
    }
  }

  /// With `--idle-threshold 1`, after two seconds without input, a 3 s
  /// toast is still on screen 5 s after it appeared; one key press, and it
  /// goes its full 3 s later (plus ``margin``). The resident owner wakes 0
  /// times while nothing shows, before and after, and its `WAYLAND_DEBUG`
  /// log shows that it learnt idleness through `expected` alone.
  package static func idleHoldsATimeout<C: TestCompositor>(
    on _: C.Type, through expected: IdleProtocol
  ) throws {
    let desk = try C.desk(outputs: 1)
    let log = desk.scratch("daemon") + ".log"
    desk.environment["WAYLAND_DEBUG"] = "1"
    let daemon = try desk.run(["daemon"], logPath: log)
    desk.environment["WAYLAND_DEBUG"] = nil
    defer { daemon.terminate() }
    let socket = try Rendezvous(
      display: desk.compositor.socketPath, runtimeDirectory: desk.environment["XDG_RUNTIME_DIR"]
    ).socketPath
    try waitUntil("the daemon's socket") { access(socket, F_OK) == 0 }
    // More than two seconds without input (nothing has touched the seat
    // since the desk started), the owner asleep all along.
    try expectIdle(daemon.pid, log: log)
    let shown = try desk.runToEnd([
      "--tag", "away", "--idle-threshold", "1", "--timeout", "3", "--no-animation", "Away",
    ])
    #expect(shown.status == 0, "\(shown.errors)")
    // The command returns at the first frame: the timeout counts from about now.
    let shownAt = now()
    try expectHUDStays(desk, until: shownAt + 5, "held while the user is away")
    let pressed = now()
    try desk.input.press(.tab)
    try expectHUDGoes(desk, timeout: 3, since: pressed, "after a key press")
    try expectIdle(daemon.pid, log: log)
    let messages = (readFile(log) ?? []).split(separator: 0x0A).compactMap {
      WaylandDebugMessage(line: Substring(String(decoding: $0, as: UTF8.self)))
    }
    for idle in IdleProtocol.allCases {
      let used = messages.contains { $0.isRequest && $0.interface == idle.rawValue }
      #expect(used == (idle == expected), "\(idle.rawValue) used: \(used)")
    }
    let events = messages.filter {
      !$0.isRequest && $0.interface == expected.notification.interface
    }
    #expect(
      events.map(\.name).starts(with: [expected.notification.idle, "resumed"]),
      "the idle object's events: \(events.map(\.name))")
  }
}
