import CompositorCases
import TestSupport
import Testing

/// The cases every compositor runs alike (CompositorCases), on sway.
@Suite(.serialized)
struct SharedCasesOnSway {
  @Test(arguments: SharedCase.allCases)
  func onSway(_ shared: SharedCase) throws {
    try shared.run(on: HeadlessSway.self)
  }
}
