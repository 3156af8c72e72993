import Testing
import ToastModel

@testable import ToastRendering

/// Where surfaces go: anchors, margins, stacks and scales, without a compositor.
struct PlacementTests {
  func toast(_ style: Toast.Style = .hud, at position: Toast.Position?, margin: Int? = nil)
    -> Toast
  {
    var toast = Toast("Hi", style: style)
    toast.position = position
    toast.margin = margin
    return toast
  }

  @Test func theCentreIsAnchoredNowhere() {
    let centred = toast(at: nil)
    let layout = ToastLayout(toast: centred, outputWidth: 1280, outputHeight: 720)
    let placement = Placement(toast: centred, layout: layout)
    #expect(placement.anchors == [])
    #expect(placement == Placement(toast: toast(at: .center), layout: layout))
  }

  @Test(arguments: Toast.Position.allCases)
  func theBoxKeepsItsMarginToEveryEdgeItRestsAgainst(position: Toast.Position) {
    for style in [Toast.Style.hud, .banner] {  // a bar spans its edge: BarLayoutTests
      let placed = toast(style, at: position, margin: 40)
      let layout = ToastLayout(toast: placed, outputWidth: 1280, outputHeight: 720)
      let placement = Placement(toast: placed, layout: layout)
      #expect(placement.anchors == position.edges)
      let box = layout.box
      // The box's distance to an anchored edge: the surface's margin plus the room around the box.
      if position.edges.contains(.top) { #expect(Double(placement.top) + box.y == 40) }
      if position.edges.contains(.left) { #expect(Double(placement.left) + box.x == 40) }
      if position.edges.contains(.bottom) {
        let below = Double(layout.surfaceHeight) - box.y - box.height
        #expect(Double(placement.bottom) + below == 40, "\(style) at \(position)")
      }
      if position.edges.contains(.right) {
        let beside = Double(layout.surfaceWidth) - box.x - box.width
        #expect(Double(placement.right) + beside == 40, "\(style) at \(position)")
      }
    }
  }

  @Test func theDefaultsAreTheCentreForAHudAndTheTopForABanner() {
    #expect(Toast("Hi").effectivePosition == .center)
    #expect(Toast("Hi", style: .banner).effectivePosition == .top)
    #expect(Toast("Hi").effectiveMargin == Design.margin)
    // The banner rests where its design puts it: its gap below the edge, no extra margin.
    let banner = Toast("Hi", style: .banner)
    let layout = ToastLayout(toast: banner, outputWidth: 1280, outputHeight: 720)
    #expect(Placement(toast: banner, layout: layout).top == 0)
    #expect(layout.box.y == Design.Banner.topGap)
  }

  @Test func theOffsetMovesAnAnchoredHudThroughItsMarginsAndACentredOneInsideItsSurface() {
    var corner = toast(at: .topRight, margin: 20)
    corner.offset = Toast.Offset(x: -30, y: 15)
    let layout = ToastLayout(toast: corner, outputWidth: 1280, outputHeight: 720)
    let plain = ToastLayout(toast: toast(at: .topRight), outputWidth: 1280, outputHeight: 720)
    #expect(layout.surfaceWidth == plain.surfaceWidth, "no room added for the offset")
    let placement = Placement(toast: corner, layout: layout)
    #expect(Double(placement.top) + layout.box.y == 20 + 15)
    let beside = Double(layout.surfaceWidth) - layout.box.x - layout.box.width
    #expect(Double(placement.right) + beside == 20 + 30, "moved 30 to the left")

    var top = toast(at: .top)
    top.offset = Toast.Offset(x: 40, y: 0)
    let moved = ToastLayout(toast: top, outputWidth: 1280, outputHeight: 720)
    #expect(moved.surfaceWidth == plain.surfaceWidth + 80, "x is free at the top: in the surface")
  }

  @Test func aModalToastCoversTheOutput() {
    var modal = toast(at: .bottomLeft)
    modal.isModal = true
    let layout = ToastLayout(toast: modal, outputWidth: 1280, outputHeight: 720)
    #expect(Placement(toast: modal, layout: layout).anchors == .all)
  }

  @Test func toastsAtAnEdgeStackAwayFromItInTheOrderTheyAppeared() {
    let gap = Design.stackGap
    #expect(Stacking.shifts(extents: [], position: .top) == [])
    #expect(Stacking.shifts(extents: [40], position: .top) == [0])
    #expect(
      Stacking.shifts(extents: [40, 60, 40], position: .bottomRight) == [
        0, 40 + gap, 100 + 2 * gap,
      ])
    #expect(Stacking.shifts(extents: [200, 100], position: .left) == [0, 200 + gap])
  }

  @Test func hudsAtTheCentreStackAroundIt() {
    let gap = Design.stackGap
    #expect(Stacking.shifts(extents: [120], position: .center) == [0])
    #expect(Stacking.shifts(extents: [120, 120], position: .center) == [-65, 65])
    let three = Stacking.shifts(extents: [120, 140, 120], position: .center)
    #expect(three[1] == 0, "the middle one of three equal gaps stays at the centre")
    #expect(three[0] == -(60 + gap + 70))
    #expect(three[2] == 70 + gap + 60)
  }

  @Test func stackedHudsNeverOverlap() {
    let extents = [120.0, 166, 120, 200]
    for position in Toast.Position.allCases {
      let shifts = Stacking.shifts(extents: extents, position: position)
      // At an edge a shift moves the box's near side; at the centre, its middle.
      let centred = position == .center ? 0.5 : 0
      for index in 1..<extents.count {
        let previousEnd = shifts[index - 1] + extents[index - 1] * (1 - centred)
        let start = shifts[index] - extents[index] * centred
        #expect(start - previousEnd >= Design.stackGap - 1, "\(position) \(index)")
      }
    }
  }

  @Test func aToastClosingAGapMovesQuicklyThenGentlyAndArrives() {
    let duration = Design.stackMove.inSeconds
    #expect(Stacking.shift(movingFrom: 130, to: 0, elapsed: 0) == 130)
    let half = Stacking.shift(movingFrom: 130, to: 0, elapsed: duration / 2)
    #expect(half > 0 && half < 65, "more than half way at half time (ease-out): \(half)")
    #expect(Stacking.shift(movingFrom: 130, to: 0, elapsed: duration) == 0)
    #expect(Stacking.shift(movingFrom: 130, to: 0, elapsed: 10) == 0)
    #expect(
      Stacking.shift(movingFrom: -65, to: 65, elapsed: duration / 4).truncatingRemainder(
        dividingBy: 1) == 0)
  }

  @Test func aShiftMovesAnEdgeToastThroughItsMarginAndACentredOneInsideItsSurface() {
    let top = toast(.banner, at: nil)
    let layout = ToastLayout(toast: top, outputWidth: 1280, outputHeight: 720)
    #expect(Placement(toast: top, layout: layout, shift: 50).top == 50)
    let right = toast(at: .right)
    let side = ToastLayout(toast: right, outputWidth: 1280, outputHeight: 720)
    #expect(
      Placement(toast: right, layout: side, shift: 170).right
        == Placement(toast: right, layout: side).right + 170)
    let centre = toast(at: nil)
    let alone = ToastLayout(toast: centre, outputWidth: 1280, outputHeight: 720)
    let shifted = ToastLayout(toast: centre, outputWidth: 1280, outputHeight: 720, shift: -65)
    #expect(shifted.surfaceHeight == alone.surfaceHeight + 130)
    #expect(shifted.box.midY - Double(shifted.surfaceHeight) / 2 == -65)
    #expect(shifted.surfaceHeight % 2 == 0 && shifted.surfaceWidth % 2 == 0)
  }

  @Test(arguments: [(150, 1.25), (180, 1.5), (210, 1.75), (270, 2.25)])
  func fractionalScalesGiveBuffersOfTheLogicalSizeTimesTheScale(
    numerator: Int, factor: Double
  ) {
    let scale = RenderScale(fractional: numerator)
    #expect(scale.factor == factor)
    #expect(!scale.isInteger)
    for logical in [1, 2, 3, 41, 184, 1280, 720] {
      let exact = Double(logical) * factor
      #expect(scale.pixels(logical) == Int(exact.rounded(.toNearestOrAwayFromZero)), "\(logical)")
    }
    #expect(scale.roundedUp == Int(factor.rounded(.up)))
    #expect(RenderScale.integer(scale.roundedUp) >= scale, "never less sharp")
  }

  @Test func wholeScalesAreExactAndNonsenseIsOne() {
    #expect(RenderScale.integer(2).isInteger)
    #expect(RenderScale.integer(2).pixels(184) == 368)
    #expect(RenderScale.integer(0) == .one)
    #expect(RenderScale(fractional: 0) == .one)
    #expect(RenderScale.integer(3).description == "3")
    #expect(RenderScale(fractional: 180).description == "1.5")
    #expect(RenderScale.integer(Int.max).pixels(2) == nil, "too large: no buffer")
  }
}
