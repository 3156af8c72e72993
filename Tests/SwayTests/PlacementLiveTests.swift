import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// Positions, margins, stacks and outputs on a real sway, read from screenshots.
@Suite(.serialized)
struct PlacementLiveTests {
  /// The HUD box of a short text, in logical pixels.
  static let hud = (width: 160, height: 120)

  /// Where a box of `size` rests at `position` with `margin` on an output of
  /// `output` logical pixels, from the rule alone: its near side `margin` from
  /// each edge it rests against, centred along the others.
  static func expectedBox(
    at position: Toast.Position, margin: Int, size: (width: Int, height: Int),
    output: (width: Int, height: Int)
  ) -> Box {
    let name = position.rawValue
    let x =
      name.hasSuffix("left") || position == .left
      ? margin
      : name.hasSuffix("right") || position == .right
        ? output.width - margin - size.width : (output.width - size.width) / 2
    let y =
      name.hasPrefix("top")
      ? margin
      : name.hasPrefix("bottom")
        ? output.height - margin - size.height : (output.height - size.height) / 2
    return Box(x: x, y: y, width: size.width, height: size.height)
  }

  /// The box-coloured pixels near `box` (within 4 pixels, less than half the
  /// gap between stacked boxes), as a bounding box.
  static func boxFound(near box: Box, in shot: Image) -> Box? {
    shot.boundingBox { x, y in
      x >= box.x - 4 && x < box.x + box.width + 4 && y >= box.y - 4
        && y < box.y + box.height + 4
        && shot.pixel(x: x, y: y).isClose(to: hudColor, tolerance: 3)
    }
  }
  /// Takes screenshots until the box-coloured pixels near each of `boxes`
  /// (``boxFound(near:in:)``) are exactly those boxes; `what` names them.
  static func waitForBoxes(_ boxes: [Box], on desk: Desk<HeadlessSway>, _ what: String) throws {
    var last: [Box?] = []
    try desk.screenshot("\(what) at \(boxes) (last: \(last))") { shot in
      last = boxes.map { boxFound(near: $0, in: shot) }
      return last == boxes
    }
  }

  static func scaled(_ box: Box, by scale: Int) -> Box {
    Box(x: box.x * scale, y: box.y * scale, width: box.width * scale, height: box.height * scale)
  }

  @Test(arguments: [1, 2])
  func everyPositionLandsAtItsMarginFromTheEdges(scale: Int) throws {
    let desk = try Desk<HeadlessSway>()
    if scale != 1 { try desk.sway.swaymsg(["output", "HEADLESS-1", "scale", String(scale)]) }
    let output = (width: 1280 / scale, height: 720 / scale)
    // Two rounds, so that no two boxes overlap on the small scale-2 output.
    let rounds: [[Toast.Position]] = [
      [.topLeft, .topRight, .bottomLeft, .bottomRight, .center], [.top, .bottom, .left, .right],
    ]
    for positions in rounds {
      for position in positions {
        let result = try desk.runToEnd([
          "--tag", position.rawValue, "--position", position.rawValue, "--margin", "30",
          "--no-animation", "--timeout", "0", "Hi",
        ])
        #expect(result.status == 0, "\(result.errors)")
      }
      let expected = positions.map {
        Self.scaled(
          Self.expectedBox(at: $0, margin: 30, size: Self.hud, output: output), by: scale)
      }
      try Self.waitForBoxes(
        expected, on: desk, "boxes at \(positions.map(\.rawValue).joined(separator: ", "))")
      for position in positions {
        #expect(try desk.runToEnd(["hide", "--tag", position.rawValue]).status == 0)
      }
      try desk.screenshot("no box left") { $0.boundingBox(of: hudColor, tolerance: 3) == nil }
    }
  }

  @Test func aZeroMarginPutsTheBoxAgainstTheEdges() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(
      try desk.runToEnd([
        "--position", "top-left", "--margin", "0", "--no-animation", "--timeout", "0", "Flush",
      ]).status == 0)
    let box = Box(x: 0, y: 0, width: Self.hud.width, height: Self.hud.height)
    try Self.waitForBoxes([box], on: desk, "the box in the corner")
  }

  @Test func aBannerAtTheBottomRestsAtItsMargin() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(
      try desk.runToEnd([
        "--style", "banner", "--position", "bottom", "--margin", "40", "--no-animation",
        "--timeout", "0", "Low",
      ]).status == 0)
    let pill = blend(Design.Banner.background, over: HeadlessSway.background)
    let shot = try desk.screenshot("a pill near the bottom") {
      $0.boundingBox(of: pill, tolerance: 4) != nil
    }
    let found = try #require(shot.boundingBox(of: pill, tolerance: 4))
    #expect(found.y + found.height == 720 - 40, "its bottom 40 px above the edge: \(found)")
    #expect(found.height == Int(Design.Banner.height))
  }

  @Test func threeTagsAtOnePositionStackAndHidingTheMiddleOneClosesTheGap() throws {
    let desk = try Desk<HeadlessSway>()
    for tag in ["a", "b", "c"] {
      #expect(
        try desk.runToEnd(["--tag", tag, "--no-animation", "--timeout", "0", tag.uppercased()])
          .status == 0)
    }
    let gap = Int(Design.stackGap)
    let height = Self.hud.height
    let left = (1280 - Self.hud.width) / 2
    func column(_ count: Int) -> [Box] {
      let total = count * height + (count - 1) * gap
      return (0..<count).map { index in
        Box(
          x: left, y: (720 - total) / 2 + index * (height + gap), width: Self.hud.width,
          height: height)
      }
    }
    let three = column(3)
    try Self.waitForBoxes(three, on: desk, "three boxes stacked")
    #expect(try desk.runToEnd(["hide", "--tag", "b"]).status == 0)
    let two = column(2)
    var last: [Box?] = []
    try desk.screenshot("the gap closed: boxes at \(two) (last: \(last))") { shot in
      last = two.map { Self.boxFound(near: $0, in: shot) }
      return last == two && Self.boxFound(near: three[1], in: shot).map { $0 == three[1] } != true
    }
    #expect(try desk.status(tag: "a")?.text == "A")
    #expect(try desk.status(tag: "c")?.text == "C")
  }

  /// Shows two still toasts tagged `first` and `second`, in that order, at
  /// `position`, each until hidden.
  static func showFirstAndSecond(at position: String, on desk: Desk<HeadlessSway>) throws {
    for tag in ["first", "second"] {
      #expect(
        try desk.runToEnd([
          "--tag", tag, "--position", position, "--no-animation", "--timeout", "0", tag,
        ]).status == 0)
    }
  }

  @Test func aSecondToastsFirstFrameIsAlreadyInItsPlaceInTheStack() throws {
    let desk = try Desk<HeadlessSway>()
    try Self.showFirstAndSecond(at: "bottom", on: desk)
    // The first screenshot that shows more than the first box (sway may
    // draw the second's first commit a frame after the command returns):
    // the box-coloured pixels outside the first box are the second box, in
    // its place.
    let first = Box(x: 560, y: 720 - 10 - 120, width: 160, height: 120)
    let second = Box(
      x: 560, y: 720 - 10 - 120 - Int(Design.stackGap) - 120, width: 160, height: 120)
    var found: Box?
    try desk.screenshot("a second box beside the first at \(first)") { shot in
      found = shot.boundingBox { x, y in
        !(x >= first.x - 4 && x < first.x + first.width + 4 && y >= first.y - 4
          && y < first.y + first.height + 4)
          && shot.pixel(x: x, y: y).isClose(to: hudColor, tolerance: 3)
      }
      return found != nil
    }
    #expect(found == second)
  }

  @Test func cardsStackAtTheTopRightTheNewestFirst() throws {
    let desk = try Desk<HeadlessSway>()
    let texts = [("first", "First"), ("second", "Second\nand more\nlines")]
    for (tag, text) in texts {
      #expect(
        try desk.runToEnd([
          "--tag", tag, "--style", "card", "--no-animation", "--timeout", "0", text,
        ]).status == 0)
    }
    let heights = texts.map { _, text in
      Int(
        ToastLayout(toast: Toast(text, style: .card), outputWidth: 1280, outputHeight: 720).box
          .height)
    }
    #expect(heights[0] < heights[1])
    let x = 1280 - Design.margin - Int(Design.Card.width)
    let width = Int(Design.Card.width)
    let newest = Box(x: x, y: Design.margin, width: width, height: heights[1])
    let older = Box(
      x: x, y: Design.margin + heights[1] + Int(Design.stackGap), width: width, height: heights[0])
    let color = blend(Design.Card.background, over: HeadlessSway.desktop)
    var last: [Box?] = []
    try desk.screenshot("the newest card on top: \([newest, older]) (last: \(last))") { shot in
      last = [newest, older].map { box in
        shot.boundingBox { x, y in
          x >= box.x - 4 && x < box.x + box.width + 4 && y >= box.y - 4
            && y < box.y + box.height + 4 && shot.pixel(x: x, y: y).isClose(to: color, tolerance: 3)
        }
      }
      return last == [newest, older]
    }
  }

  @Test func anUpdateThatGrowsAToastMovesItsNeighbours() throws {
    let desk = try Desk<HeadlessSway>()
    try Self.showFirstAndSecond(at: "top", on: desk)
    let second = Box(x: 560, y: 10 + 120 + Int(Design.stackGap), width: 160, height: 120)
    try Self.waitForBoxes([second], on: desk, "the second box under the first")
    // A spinner, a bar and three lines make the first box taller: the second
    // moves down by as much.
    let long = String(repeating: "longer ", count: 40)
    #expect(
      try desk.runToEnd([
        "--tag", "first", "--position", "top", "--spinner", "--progress", "50", "--no-animation",
        "--timeout", "0", long,
      ]).status == 0)
    var grown = Toast(long, showsSpinner: true, progress: 0.5)
    grown.position = .top
    let taller = Int(ToastLayout(toast: grown, outputWidth: 1280, outputHeight: 720).box.height)
    #expect(taller > 120)
    let moved = Box(x: 560, y: 10 + taller + Int(Design.stackGap), width: 160, height: 120)
    try Self.waitForBoxes([moved], on: desk, "the second box moved")
  }

  @Test func theTopLayerStaysUnderAFullscreenWindowAndTheOverlayAbove() throws {
    let desk = try Desk<HeadlessSway>()
    let window = try ChildProcess(
      ["weston-flower"], environment: desk.sway.clientEnvironment,
      logPath: desk.sway.runtimeDirectory + "/flower.log")
    defer { window.terminate() }
    try waitUntil("the window to be mapped") {
      try desk.sway.swaymsg(["-t", "get_tree"]).contains("\"pid\": \(window.pid)")
    }
    try desk.sway.swaymsg(["[pid=\(window.pid)]", "fullscreen", "enable"])
    var before = try desk.sway.screenshot()
    try waitUntil("the window to cover the output") {
      let shot = try desk.sway.screenshot()
      defer { before = shot }
      return shot.pixel(x: 5, y: 5) != HeadlessSway.background
        && shot.pixel(x: 1275, y: 715) != HeadlessSway.background
        && shot.mismatches(
          in: Box(x: 0, y: 0, width: 1280, height: 720), from: before.pixel(x:y:), origin: (0, 0))
          == 0
    }
    #expect(
      try desk.runToEnd(["--tag", "t", "--layer", "top", "--no-animation", "--timeout", "0", "T"])
        .status == 0)
    #expect(
      try desk.runToEnd([
        "--tag", "o", "--position", "top-left", "--no-animation", "--timeout", "0", "O",
      ]).status == 0)
    let overlay = Self.expectedBox(at: .topLeft, margin: 10, size: Self.hud, output: (1280, 720))
    let shot = try desk.screenshot("the overlay HUD over the window at \(overlay)") {
      $0.mismatches(in: overlay, from: before.pixel(x:y:), origin: (0, 0), tolerance: 2)
        > overlay.width * overlay.height / 2
    }
    let top = Self.expectedBox(at: .center, margin: 10, size: Self.hud, output: (1280, 720))
    #expect(
      shot.mismatches(in: top, from: before.pixel(x:y:), origin: (0, 0), tolerance: 2) == 0,
      "the top layer is under the fullscreen window")
  }
}
