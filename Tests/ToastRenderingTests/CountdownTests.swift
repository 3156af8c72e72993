import Testing
import ToastModel
import ToastRendering

struct CountdownTests {
  @Test func theShareLeftFallsFromOneToZeroOverTheTimeout() {
    let countdown = Countdown(length: 4, startedAt: 10)
    #expect(countdown.remaining(at: 9) == 1, "full until the timeout starts")
    #expect(countdown.remaining(at: 10) == 1)
    #expect(countdown.remaining(at: 11) == 0.75)
    #expect(countdown.remaining(at: 13) == 0.25)
    #expect(countdown.remaining(at: 14) == 0)
    #expect(countdown.remaining(at: 20) == 0)
    #expect(countdown.isMoving(at: 9))
    #expect(countdown.isMoving(at: 13.9))
    #expect(!countdown.isMoving(at: 14))
  }

  @Test func aPauseHoldsTheShareUntilTheTimeoutStartsAgainAtItsFullLength() {
    var countdown = Countdown(length: 4, startedAt: 10)
    countdown.pause(at: 11)
    #expect(countdown.isPaused)
    #expect(countdown.remaining(at: 12) == 0.75)
    #expect(countdown.remaining(at: 30) == 0.75)
    #expect(!countdown.isMoving(at: 12))
    countdown.pause(at: 12)
    #expect(countdown.pausedAt == 11, "a second pause keeps the first")
    countdown.restart(at: 13)
    #expect(!countdown.isPaused)
    #expect(countdown.remaining(at: 13) == 1)
    #expect(countdown.remaining(at: 15) == 0.5)
    #expect(countdown.isMoving(at: 16.9))
    #expect(!countdown.isMoving(at: 17))
  }

  @Test func aFrameOfAPausedLineShowsTheSameShareAndAsksForNoNextFrame() {
    var countdown = Countdown(length: 4, startedAt: 10)
    let running = Countdown.line(of: countdown, shown: true, at: 11)
    #expect(running.remaining == 0.75 && running.moving)
    countdown.pause(at: 11)
    for time in [11.0, 12, 20] {
      let paused = Countdown.line(of: countdown, shown: true, at: time)
      #expect(paused.remaining == 0.75 && !paused.moving, "at \(time)")
    }
    countdown.restart(at: 20)
    let again = Countdown.line(of: countdown, shown: true, at: 21)
    #expect(again.remaining == 0.75 && again.moving)
    let out = Countdown.line(of: countdown, shown: true, at: 24)
    #expect(out.remaining == 0 && !out.moving, "run out: still")
  }

  @Test func aLineNotShownDrawsNothingAndOneNotStartedIsFullAndAboutToMove() {
    let countdown = Countdown(length: 4, startedAt: 10)
    let hidden = Countdown.line(of: countdown, shown: false, at: 11)
    #expect(hidden.remaining == nil && !hidden.moving)
    let unstarted = Countdown.line(of: nil, shown: true, at: 11)
    #expect(unstarted.remaining == 1 && unstarted.moving)
  }

  @Test func aTimeoutOfNoLengthLeavesNothingAndNeverMoves() {
    for length in [0, -1, .nan, .infinity] {
      let countdown = Countdown(length: length, startedAt: 0)
      #expect(countdown.remaining(at: 0) == 0)
      #expect(!countdown.isMoving(at: 0))
    }
  }
}

/// Where the countdown line of `toast` ends on the pixel row `row` of its
/// render at `scale` with `remaining` left: the last column that differs from
/// the render without the line, nil when none does.
private func lineEnd(
  _ toast: Toast, remaining: Double, scale: Double, row: Int
) -> Int? {
  let with = OffscreenImage.render(
    toast, scale: scale, appearance: Appearance(opacity: 1, slide: 1, countdown: remaining))
  let without = OffscreenImage.render(toast, scale: scale)
  var end: Int?
  for x in 0..<with.width where with.pixel(x: x, y: row) != without.pixel(x: x, y: row) {
    end = x
  }
  return end
}

/// The pixel row through the middle of the countdown line of `toast` at `scale`.
private func lineRow(_ toast: Toast, scale: Double) -> Int {
  let line = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720).countdownLine
  return Int(((line.y + line.height / 2) * scale).rounded(.down))
}

struct CountdownRenderTests {
  @Test(arguments: [Toast.Style.hud, .card, .banner, .bar])
  func theLineEndsWhereTheShareLeftSays(_ style: Toast.Style) throws {
    var toast = Toast("Copied", style: style)
    toast.showsCountdown = true
    let scale = 2.0
    let line = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720).countdownLine
    let row = lineRow(toast, scale: scale)
    for remaining in [0.25, 0.5, 0.75] {
      let end = try #require(lineEnd(toast, remaining: remaining, scale: scale, row: row))
      let expected = (line.x + line.width * remaining) * scale
      #expect(abs(Double(end) + 1 - expected) <= 1, "\(style) at \(remaining): ends at \(end)")
    }
    #expect(lineEnd(toast, remaining: 0, scale: scale, row: row) == nil, "none left: no line")
  }

  @Test func aPausedCountdownDrawsTheSameLineWhileARunningOneShrinks() throws {
    var toast = Toast("Saved", style: .card)
    toast.showsCountdown = true
    let row = lineRow(toast, scale: 2)
    let line = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720).countdownLine
    var countdown = Countdown(length: 10, startedAt: 0)
    let early = try #require(
      lineEnd(toast, remaining: countdown.remaining(at: 2), scale: 2, row: row))
    let late = try #require(
      lineEnd(toast, remaining: countdown.remaining(at: 6), scale: 2, row: row))
    // Four of its ten seconds: four tenths of the line, in pixels at scale 2.
    #expect(abs(Double(early - late) - line.width * 0.4 * 2) <= 1)
    countdown.pause(at: 2)
    let paused = [2.0, 6.0].map {
      OffscreenImage.render(
        toast, scale: 2.0,
        appearance: Appearance(opacity: 1, slide: 1, countdown: countdown.remaining(at: $0)))
    }
    var differing = 0
    for y in 0..<paused[0].height {
      for x in 0..<paused[0].width where paused[0].pixel(x: x, y: y) != paused[1].pixel(x: x, y: y)
      {
        differing += 1
      }
    }
    #expect(differing == 0)
  }

  @Test func redrawingOnlyAroundTheLineGivesTheWholeFramesPixels() throws {
    var toast = Toast("Uploaded", style: .card, progress: 0.4)
    toast.showsCountdown = true
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let later = Appearance(opacity: 1, slide: 1, countdown: 0.35)
    let whole = try drawnPixels(toast, layout: layout, scale: 2, appearance: later)
    let line = layout.countdownLine
    let width = Int32(Double(layout.surfaceWidth) * 2)
    let height = Int32(Double(layout.surfaceHeight) * 2)
    var bytes = [UInt8](repeating: 0x5a, count: Int(width * height * 4))
    try bytes.withUnsafeMutableBytes { buffer in
      let canvas = try #require(
        Canvas(pixels: buffer.baseAddress!, width: width, height: height, stride: width * 4))
      canvas.draw(
        toast, layout: layout, appearance: Appearance(opacity: 1, slide: 1, countdown: 0.9),
        scale: 2)
      canvas.draw(
        toast, layout: layout, appearance: later, scale: 2,
        clip: Rect(
          x: line.x - 1, y: line.y - 1, width: line.width + 2, height: line.height + 2))
    }
    #expect(bytes == whole)
  }

  @Test func aCardWithItsLineHalfGoneLooksAsItsReference() throws {
    var toast = Toast("Backup finished", style: .card)
    toast.showsCountdown = true
    try expectMatchesReference(
      .render(toast, scale: 2.0, appearance: Appearance(opacity: 1, slide: 1, countdown: 0.5)),
      named: "card-countdown")
  }
}
