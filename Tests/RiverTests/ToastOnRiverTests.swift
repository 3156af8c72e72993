import CompositorCases
import TestSupport
import Testing

/// The HUD and the banner on a real river: the cases every compositor runs
/// alike (CompositorCases), where they show, what input does to them, and
/// updates in place.
@Suite(.serialized)
struct ToastOnRiverTests {
  @Test(arguments: SharedCase.allCases)
  func onRiver(_ shared: SharedCase) throws {
    try shared.run(on: HeadlessRiver.self)
  }
}
