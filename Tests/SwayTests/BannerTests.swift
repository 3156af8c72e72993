import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// The banner on a real compositor.
@Suite(.serialized)
struct BannerTests {
  /// The pill's vertical extent at column `x` (rows darker than the desktop), if any.
  static func pillRows(_ shot: Image, x: Int, background: RGB = HeadlessSway.background)
    -> ClosedRange<Int>?
  {
    let limit = Int(background.red) + Int(background.green) + Int(background.blue) - 15
    var rows: [Int] = []
    for y in 0..<120 {
      let p = shot.pixel(x: x, y: y)
      if Int(p.red) + Int(p.green) + Int(p.blue) < limit { rows.append(y) }
    }
    guard let first = rows.first, let last = rows.last else { return nil }
    return first...last
  }

  @Test func theBannerSitsBelowABarThatReservesSpace() throws {
    let desk = try Desk<HeadlessSway>()
    let bar = try ColorSurface(
      socketPath: desk.sway.socketPath, width: 0, height: 30, argb: 0xffdd_dddd, layer: .top,
      anchor: [.top, .left, .right], exclusiveZone: 30)
    #expect(try bar.pump { bar.isMapped })
    let command = try desk.run(["--style", "banner", "--no-animation", "--timeout", "0", "Hi"])
    let shot = try desk.screenshot("the pill below the bar") {
      Self.pillRows($0, x: 610).map { $0.lowerBound > 30 } ?? false
    }
    #expect(Self.pillRows(shot, x: 610) == 40...79, "10 px below the 30 px bar")
    command.terminate()
  }

  @Test func aNewMessageChangesTheWidthWithoutSlidingAgain() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    presenter.show(Toast("Hi", style: .banner, timeout: 0))
    let pill = blend(Design.Banner.background, over: HeadlessSway.background)
    func pillBox() throws -> Box? {
      try desk.sway.screenshot(width: 1280, height: 120).boundingBox(of: pill, tolerance: 3)
    }
    // Let the entry finish.
    let resting = Box(x: 580, y: 10, width: 120, height: 40)
    var rest: Box?
    try waitUntil("the pill at rest and opaque, \(resting) (last seen: \(lastSeen(rest)))") {
      try presenter.dispatch(timeout: .milliseconds(50))
      rest = try pillBox()
      return rest == resting
    }
    presenter.show(
      Toast("A much longer message than before", style: .banner, timeout: 0))
    var boxes: [Box] = []
    try waitUntil("the pill to widen past 120 px (last seen: \(lastSeen(boxes.last)))") {
      try presenter.dispatch(timeout: .milliseconds(50))
      if let box = try pillBox() { boxes.append(box) }
      return (boxes.last?.width ?? 0) > 120
    }
    #expect(boxes.allSatisfy { $0.y == 10 }, "the pill never left its place: \(boxes)")
    #expect(presenter.isPresenting)
  }
}
