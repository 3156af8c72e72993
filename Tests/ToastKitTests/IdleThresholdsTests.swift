import Testing

@testable import ToastKit

/// The thresholds an idle watch keeps, and the milliseconds it asks the
/// compositor for, without a compositor.
struct IdleThresholdsTests {
  @Test func aThresholdAskedAgainMovesToTheMostRecent() {
    let kept = IdleWatch.asking(for: 1000, recent: [1000, 2000, 3000])
    #expect(kept.recent == [2000, 3000, 1000])
    #expect(kept.dropped.isEmpty)
  }

  @Test func aFifthThresholdDropsTheOneAskedForLeastRecently() {
    #expect(IdleWatch.thresholdsKept == 4)
    let kept = IdleWatch.asking(for: 5000, recent: [1000, 2000, 3000, 4000])
    #expect(kept.recent == [2000, 3000, 4000, 5000])
    #expect(kept.dropped == [1000])
  }

  @Test func aThresholdAskedForFirstIsKept() {
    let kept = IdleWatch.asking(for: 120_000, recent: [])
    #expect(kept.recent == [120_000])
    #expect(kept.dropped.isEmpty)
  }

  @Test func theCompositorIsAskedForAtLeastASecond() {
    #expect(IdleWatch.milliseconds(0.001) == 1000)
    #expect(IdleWatch.milliseconds(1.5) == 1500)
    #expect(IdleWatch.milliseconds(-.infinity) == 1000)
    #expect(IdleWatch.milliseconds(.infinity) == UInt32.max)
  }
}
