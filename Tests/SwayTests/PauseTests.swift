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
    try PauseCases.idleHoldsATimeout(on: HeadlessSway.self)
  }
}
