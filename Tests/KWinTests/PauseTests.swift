import CompositorCases
import TestSupport
import Testing
import ToastKit

/// Timeouts that wait for the person on KWin 5.27: idleness through
/// ext_idle_notifier_v1, and a finger resting on a toast.
@Suite(.serialized)
struct PauseTests {
  @Test func idleHoldsATimeoutUntilAKeyPress() throws {
    try PauseCases.idleHoldsATimeout(on: HeadlessKWin.self)
  }
}
