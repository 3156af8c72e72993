import CompositorCases
import TestSupport
import Testing

/// The shared cases on KWin at scale 1.5 (those of one output: its virtual
/// backend makes one), in device pixels.
@Suite(.serialized)
struct SharedCasesOnKWin {
  @Test(arguments: SharedCase.cases(for: HeadlessKWin.self))
  func onKWin(_ shared: SharedCase) throws {
    try shared.run(on: HeadlessKWin.self)
  }
}
