import Testing

@testable import ToastKit

/// What the presenter reads of wlr-foreign-toplevel-management's windows.
@Suite struct FullscreenWindowsTests {
  @Test func windowStatesAreThirtyTwoBitValues() {
    func bytes(_ values: [UInt32]) -> [UInt8] {
      values.flatMap { value in withUnsafeBytes(of: value) { Array($0) } }
    }
    #expect(windowStates(bytes([2, 3])) == [2, 3])
    #expect(windowStates([]) == [])
    #expect(windowStates(bytes([1]) + [0xff, 0xff]) == [1], "a cut value is left out")
  }
}
