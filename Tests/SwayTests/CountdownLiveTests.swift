import CompositorCases
import SystemSupport
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// The countdown line (`--countdown`) on sway, through the `wl-toast` command.
@Suite(.serialized)
struct CountdownLiveTests {
  /// The HUD the tests show, and where its box is on sway's output.
  static let message = "Undo with Ctrl+Z while this line runs"
  static var box: Box { Looks.hudBox(Toast(message)) }
  /// The screen row through the line: the upper of its two rows.
  static var row: Int { box.y + box.height - Int(Design.Countdown.thickness) }

  /// A screenshot of the line's row across the box, and the monotonic
  /// instants just before and just after grim took it.
  static func lineRow(on desk: Desk<HeadlessSway>) throws -> (
    shot: Image, before: Double, after: Double
  ) {
    let before = MonotonicTime.now.seconds
    let shot = try desk.sway.screenshot(x: box.x, y: row, width: box.width, height: 1)
    return (shot, before, MonotonicTime.now.seconds)
  }

  /// The box's corner radius: the columns at either end of the line's row
  /// where the rounded corners show the shadow and the desktop.
  static let corner = Int(Design.HUD.cornerRadius)

  /// The last column of `shot` (the line's row) that the line lights, nil
  /// when none does, looked for between the rounded corners: the box is
  /// dark, the line the text colour, faint.
  static func lineEnd(_ shot: Image) -> Int? {
    let dark = Int(hudColor.red) + Int(hudColor.green) + Int(hudColor.blue)
    return (corner..<(shot.width - corner)).last { x in
      let pixel = shot.pixel(x: x, y: 0)
      return Int(pixel.red) + Int(pixel.green) + Int(pixel.blue) > dark + 90
    }
  }

  @Test func theLineShrinksAtTheTimeoutsPaceBetweenTwoScreenshots() throws {
    let desk = try Desk<HeadlessSway>()
    let timeout = 8.0
    let command = try desk.run([
      "--no-animation", "--countdown", "--timeout", "\(timeout)", Self.message,
    ])
    defer { command.terminate() }
    // The whole line is the box's width, gone over the timeout.
    let pace = Double(Self.box.width) / timeout
    // Its end once past the right-hand corner, where it can be measured.
    var first: (shot: Image, before: Double, after: Double)?
    try waitUntil("the countdown line under the HUD's text", timeout: desk.compositor.patience) {
      first = try Self.lineRow(on: desk)
      let end = first.flatMap { Self.lineEnd($0.shot) } ?? Int.max
      return end < Self.box.width - Self.corner - 1
    }
    let early = try #require(first)
    let earlyEnd = try #require(Self.lineEnd(early.shot))
    // Two seconds' worth shorter, polled for.
    var second: (shot: Image, before: Double, after: Double)?
    try waitUntil("the line shorter by two seconds' worth", timeout: timeout) {
      second = try Self.lineRow(on: desk)
      let end = second.flatMap { Self.lineEnd($0.shot) } ?? 0
      return Double(earlyEnd - end) >= 2 * pace
    }
    let late = try #require(second)
    let lateEnd = try #require(Self.lineEnd(late.shot), "the line is still there")
    // As far as the time between the screenshots says, give or take a frame
    // shown up to half a second late (a loaded machine) and a pixel: a pace
    // half or twice the timeout's is still far outside.
    let lag = 0.5
    let shortest = pace * (late.before - early.after - lag) - 2
    let longest = pace * (late.after - early.before + lag) + 2
    let shrunk = Double(earlyEnd - lateEnd)
    #expect(
      shrunk >= shortest && shrunk <= longest,
      "shrank \(shrunk) px, expected \(shortest)...\(longest) at \(pace) px/s")
  }

  @Test func itsFramesDifferOnlyAlongTheLine() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--no-animation", "--countdown", "--timeout", "8", Self.message,
    ])
    defer { command.terminate() }
    let first = try desk.screenshot("the HUD box at \(Self.box)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == Self.box
    }
    let second = try desk.screenshot("a countdown frame that differs from the first") {
      $0.difference(from: first) != nil
    }
    let changed = try #require(second.difference(from: first))
    let thickness = Int(Design.Countdown.thickness)
    let line = Box(
      x: Self.box.x, y: Self.box.y + Self.box.height - thickness, width: Self.box.width,
      height: thickness)
    #expect(line.contains(changed), "changed \(changed), the line \(line)")
  }

  @Test func aToastWithoutATimeoutDrawsNoLine() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--no-animation", "--countdown", "--timeout", "0", Self.message,
    ])
    defer { command.terminate() }
    try desk.screenshot("the HUD box at \(Self.box)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == Self.box
    }
    #expect(Self.lineEnd(try Self.lineRow(on: desk).shot) == nil)
  }

  /// The pointer resting on a `--dismiss tap` toast holds its timeout: the
  /// line stays where it is for as long as the pointer does, and once it
  /// leaves the line is full again and runs down the whole timeout.
  @Test func theLineStopsWhileThePointerRestsOnTheToast() throws {
    let desk = try Desk<HeadlessSway>()
    let timeout = 3.0
    try desk.input.move(x: Self.box.x + Self.box.width / 2, y: Self.box.y + Self.box.height / 2)
    let command = try desk.run([
      "--no-animation", "--countdown", "--dismiss", "tap", "--timeout", "\(timeout)", Self.message,
    ])
    defer { command.terminate() }
    // The first frames may precede the pointer's entering, so the line is
    // taken as held once two screenshots a fifth of a second apart or more
    // (a running line moves a fifteenth of the box's width in that time)
    // show its end in the same column.
    var seen: (end: Int, after: Double)?
    var stopped: Int?
    try waitUntil("the countdown line to stop under the pointer", timeout: desk.compositor.patience)
    {
      let row = try Self.lineRow(on: desk)
      guard let column = Self.lineEnd(row.shot) else { return false }
      if let earlier = seen, earlier.end == column {
        if row.before - earlier.after >= 0.2 { stopped = column }
      } else {
        seen = (column, row.after)
      }
      return stopped != nil
    }
    let end = try #require(stopped)
    // Frames only while it moves: held, the owner commits nothing, and
    // nothing else wakes it.
    try expectIdle(try #require(try desk.status()?.owner, "the owner's pid"))
    // Held for longer than the whole timeout, the line does not move.
    let until = now() + timeout + 1
    var shots = 0
    while now() < until {
      shots += 1
      let shot = try Self.lineRow(on: desk).shot
      #expect(Self.lineEnd(shot) == end, "screenshot \(shots): the line moved while hovered")
      if Self.lineEnd(shot) != end { break }
    }
    let left = now()
    try desk.input.move(x: 5, y: 5)
    // It runs again, and the toast lasts its full timeout from then.
    try waitUntil("the line running down again", timeout: timeout) {
      let moving = Self.lineEnd(try Self.lineRow(on: desk).shot) ?? 0
      return moving < end
    }
    try PauseCases.expectHUDGoes(desk, timeout: timeout, since: left, "after the pointer left")
  }

  /// Frames only while the line moves: once an update in place takes the
  /// timeout away (`--timeout 0`), the line is gone and the owner, the toast
  /// still shown, wakes no more.
  @Test func theOwnerSleepsOnceAnUpdateTakesTheLineAway() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--no-animation", "--countdown", "--timeout", "8", Self.message,
    ])
    defer { command.terminate() }
    try waitUntil("the countdown line under the HUD's text", timeout: desk.compositor.patience) {
      Self.lineEnd(try Self.lineRow(on: desk).shot) != nil
    }
    let update = try desk.runToEnd([
      "--no-animation", "--countdown", "--timeout", "0", Self.message,
    ])
    #expect(update.status == 0, "\(update.errors)")
    try waitUntil("the line gone with the timeout", timeout: desk.compositor.patience) {
      Self.lineEnd(try Self.lineRow(on: desk).shot) == nil
    }
    try expectIdle(try #require(try desk.status()?.owner, "the owner's pid"))
    #expect(Self.lineEnd(try Self.lineRow(on: desk).shot) == nil)
  }
}
