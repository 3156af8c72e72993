import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// The HUD and the banner on a real river: where they show, what input does
/// to them, and updates in place.
@Suite(.serialized)
struct ToastOnRiverTests {
  @Test func theHUDIsCentredWithTheDesignColours() throws {
    let desk = try RiverDesk()
    let command = try desk.run(["--no-animation", "--timeout", "0", "Saved"])
    defer { command.terminate() }
    let expected = Looks.hudBox(Toast("Saved"))
    #expect(expected == Box(x: 560, y: 300, width: 160, height: 120), "centred on the output")
    var seen: Box?
    let shot = try desk.screenshot("the HUD box at \(expected) (last seen: \(lastSeen(seen)))") {
      seen = $0.boundingBox(of: Looks.hudBox, tolerance: 3)
      return seen == expected
    }
    // White text inside the box; the desktop just left of it.
    #expect(shot.brightPixels(in: expected.insetBy(20), than: Looks.hudBox) > 50)
    #expect(shot.pixel(x: expected.x - 3, y: expected.y + 60) == HeadlessRiver.background)
  }

  @Test func theBannerSlidesDownAndRestsBelowTheTopEdge() throws {
    let desk = try RiverDesk()
    // The library in this process, so that frames come only while it dispatches.
    let presenter = try ToastPresenter(display: desk.river.socketPath)
    presenter.show(Toast("Hi", style: .banner, timeout: 0))
    // Frames of the 0.8 s entry until one on screen shows the pill above its
    // resting place: a frame from the middle of the slide.
    var rows: ClosedRange<Int>?
    try waitUntil("the pill to show above its resting place (last seen: \(lastSeen(rows)))") {
      try presenter.dispatch(timeout: .milliseconds(20))
      rows = try desk.river.screenshot(width: 1280, height: 120).darkRows(x: 610)
      return rows.map { $0.upperBound < 49 } ?? false
    }
    // "Hi" gives the narrowest pill (100 + 20 wide), centred: x 580...699, rows 10...49.
    let resting = Looks.restingPill("Hi")
    #expect(resting == Box(x: 580, y: 10, width: 120, height: 40))
    var seen: Box?
    try waitUntil("the opaque pill at rest, \(resting) (last seen: \(lastSeen(seen)))") {
      try presenter.dispatch(timeout: .milliseconds(20))
      seen = try desk.river.screenshot(width: 1280, height: 120).pillBox
      return seen == resting
    }
  }

  @Test func aClickOnATapToastDismissesItWithStatusTwo() throws {
    let desk = try RiverDesk()
    let command = try desk.run([
      "--wait", "--no-animation", "--timeout", "0", "--dismiss", "tap", "Tap me",
    ])
    let box = Looks.hudBox(Toast("Tap me"))
    try desk.screenshot("the HUD box at \(box)") {
      $0.boundingBox(of: Looks.hudBox, tolerance: 3) == box
    }
    try desk.input.click(x: box.x + 10, y: box.y + 10)
    #expect(command.wait(timeout: 5) == 2)
    try desk.screenshot("no HUD box left") {
      $0.boundingBox(of: Looks.hudBox, tolerance: 3) == nil
    }
  }

  @Test func touchThroughLetsTheClickReachTheSurfaceBelow() throws {
    let desk = try RiverDesk()
    let below = try ColorSurface(
      socketPath: desk.river.socketPath, width: 400, height: 300, argb: 0xff33_aa33,
      layer: .bottom)
    #expect(try below.pump { below.isMapped })
    let command = try desk.run(["--no-animation", "--timeout", "0", "Over"])
    defer { command.terminate() }
    let boxColor = blend(Design.HUD.background, over: RGB(0x33, 0xaa, 0x33))
    let box = Looks.hudBox(Toast("Over"))
    try desk.screenshot("the HUD box at \(box) over the green surface") {
      $0.boundingBox(of: boxColor, tolerance: 3) == box
    }
    try desk.input.click(x: box.x + 10, y: box.y + 10)
    #expect(try below.pump { below.pointerEvents.contains(.button(code: 0x110, pressed: true)) })
    #expect(
      try desk.river.screenshot().boundingBox(of: boxColor, tolerance: 3) == box, "it stays")
  }

  @Test func escapeDismissesAModalToast() throws {
    let desk = try RiverDesk()
    let command = try desk.run([
      "--wait", "--no-animation", "--timeout", "0", "--modal", "--dim", "--dismiss", "tap", "Esc",
    ])
    let dimmed = blend(Design.dim, over: HeadlessRiver.background)
    try desk.screenshot("the desktop dimmed behind the modal toast") {
      $0.pixel(x: 10, y: 10).isClose(to: dimmed, tolerance: 3)
    }
    try desk.input.press(keysym: 0xff1b)  // Escape
    #expect(command.wait(timeout: 5) == 2)
  }

  @Test func aSecondCommandWithTheTagUpdatesTheToastInPlace() throws {
    let desk = try RiverDesk()
    func show(_ percent: Int) throws {
      let result = try desk.runToEnd([
        "--tag", "volume", "--progress", String(percent), "--no-animation", "--timeout", "0",
        "Volume \(percent)%",
      ])
      #expect(result.status == 0, "\(result.errors)")
    }
    try show(40)
    var first = Toast("Volume 40%")
    first.progress = 0.4
    let box = Looks.hudBox(first)
    let before = try desk.screenshot("the HUD box at \(box)") {
      $0.boundingBox(of: Looks.hudBox, tolerance: 3) == box
    }
    try show(70)
    var second = first
    second.text = "Volume 70%"
    second.progress = 0.7
    #expect(Looks.hudBox(second) == box, "the same box: the bar and the text change")
    try desk.screenshot("the bar and text redrawn inside \(box)") { shot in
      guard shot.boundingBox(of: Looks.hudBox, tolerance: 3) == box,
        let changed = shot.difference(from: before)
      else { return false }
      return box.contains(changed)
    }
    let status = try #require(try desk.status(tag: "volume"))
    #expect(status.text == "Volume 70%")
    #expect(status.surfaces == 1, "one surface: updated in place, not shown again")
  }
}

extension Image {
  /// The rows at column `x` darker than the desktop (the pill, even half faded in).
  func darkRows(x: Int) -> ClosedRange<Int>? {
    let background = HeadlessRiver.background
    let limit = Int(background.red) + Int(background.green) + Int(background.blue) - 15
    let rows = (0..<height).filter { y in
      let p = pixel(x: x, y: y)
      return Int(p.red) + Int(p.green) + Int(p.blue) < limit
    }
    guard let first = rows.first, let last = rows.last else { return nil }
    return first...last
  }

}
