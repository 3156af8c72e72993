import CompositorCases
import TestSupport
import Testing
import ToastKit

/// Timeouts that wait for the person on sway 1.7: idleness through
/// org_kde_kwin_idle (sway 1.7 offers no ext_idle_notifier_v1), and the
/// virtual pointer resting on a toast.
@Suite(.serialized)
struct PauseTests {
  @Test func idleHoldsATimeoutUntilAKeyPress() throws {
    try PauseCases.idleHoldsATimeout(on: HeadlessSway.self, through: .kde)
  }

  /// A 1.5 s `--dismiss tap` toast stays while the pointer rests on it for
  /// 4 s, and goes 1.5 s (plus the margin) after the pointer leaves.
  @Test func thePointerOnATapToastHoldsItsTimeout() throws {
    let desk = try Desk<HeadlessSway>()
    // The pointer rests where the HUD appears, before it does.
    try desk.input.move(x: desk.center.x, y: desk.center.y)
    let shown = try desk.runToEnd([
      "--tag", "hover", "--dismiss", "tap", "--timeout", "1.5", "--no-animation", "Hover",
    ])
    #expect(shown.status == 0, "\(shown.errors)")
    let shownAt = now()
    try PauseCases.expectHUDStays(desk, until: shownAt + 4, "held under the pointer")
    let left = now()
    try desk.input.move(x: 5, y: 5)
    try PauseCases.expectHUDGoes(desk, timeout: 1.5, since: left, "after the pointer left")
  }

  /// A touch-through toast (the default) has no input region: the pointer
  /// on it does not hold it.
  @Test func aTouchThroughToastGoesUnderThePointer() throws {
    let desk = try Desk<HeadlessSway>()
    try desk.input.move(x: desk.center.x, y: desk.center.y)
    let shown = try desk.runToEnd([
      "--tag", "through", "--timeout", "1", "--no-animation", "Through",
    ])
    #expect(shown.status == 0, "\(shown.errors)")
    // Its 1 s, and the margin a held toast is given.
    try waitUntil("the HUD to go under the pointer", timeout: 1 + PauseCases.margin) {
      try !PauseCases.showsHUD(desk)
    }
  }

  /// A threshold that is not a number, negative, under a second or past a day: the usage
  /// error's line (and the pointer to --help) and status, no toast.
  @Test func aBadIdleThresholdIsOneLineAndAUsageError() throws {
    let desk = try Desk<HeadlessSway>()
    for value in ["nan", "-1", "86401", "1e300", "0.5"] {
      let result = try desk.runToEnd(["--idle-threshold", value, "Hi"])
      #expect(result.status == 64)
      #expect(
        result.errors
          == "wl-toast: --idle-threshold: expected 0 (never) or seconds from 1 to 86400,"
          + " got '\(value)'\n"
          + "Try 'wl-toast --help' for more information.\n")
    }
    #expect(desk.ownerProcesses().isEmpty, "no owner started for it")
  }
}
