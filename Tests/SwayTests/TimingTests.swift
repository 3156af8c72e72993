import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastKit

/// The timing options of the HUD libraries: grace time and minimum show time.
@Suite(.serialized)
struct TimingTests {

  @Test func aToastHiddenWithinItsGraceTimeNeverAppears() throws {
    let desk = try Desk<HeadlessSway>()
    // A grace time far longer than the test's own steps take on a loaded
    // machine (each is a command of well under a second): the hide comes
    // within it on any machine.
    let waiting = try desk.run([
      "--wait", "--print-outcome", "--grace", "60", "--tag", "job", "--spinner",
      "--no-animation", "--timeout", "0", "Working",
    ])
    // The command does not wait for a frame that is not due yet.
    try waitUntil("the owner to hold the toast") { try desk.status(tag: "job") != nil }
    #expect(try desk.status(tag: "job")?.drawn == [], "no surface during the grace time")
    #expect(try desk.runToEnd(["hide", "--tag", "job"]).status == 0)
    #expect(waiting.wait(timeout: 5) == 0)
    #expect(try desk.status(tag: "job") == nil)
    #expect(try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) == nil)
  }

  @Test func aToastStillWantedAfterItsGraceTimeAppears() throws {
    let desk = try Desk<HeadlessSway>()
    let started = MonotonicTime.now
    let result = try desk.runToEnd([
      "--grace", "8", "--tag", "job", "--no-animation", "--timeout", "0", "Slow job",
    ])
    #expect(result.status == 0)
    // The command hands the toast over and returns: it does not wait out the
    // grace time, so nothing is drawn yet when it has returned (a cold owner
    // start takes well under a second, even on a loaded machine).
    let returned = MonotonicTime.now - started
    #expect(
      try desk.status(tag: "job")?.drawn.isEmpty == true,
      "returned before the grace time (after \(returned))")
    // Its first frame is seen only after the grace time (status is asked
    // every few milliseconds, so an early frame would be seen early).
    try desk.waitUntilDrawn(tag: "job", timeout: 8 + desk.sway.patience)
    #expect(MonotonicTime.now - started >= .seconds(8), "not before it")
    let box = Looks.hudBox(Toast("Slow job"))
    try desk.screenshot("the HUD after its grace time at \(box)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == box
    }
    #expect(try desk.runToEnd(["hide", "--tag", "job"]).status == 0)
  }

  @Test func aToastHiddenEarlyStaysForItsMinimumShowTime() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.sway.runtimeDirectory + "/min-show.log"
    let started = MonotonicTime.now
    // A minimum show time of 5 s: the steps from its first frame to the check
    // that it is still on screen (a status poll, a hide, a screenshot) take
    // well under that on a loaded machine.
    let waiting = try desk.run(
      [
        "--wait", "--print-outcome", "--min-show", "5", "--no-animation", "--timeout", "0",
        "Blink",
      ], logPath: log)
    try desk.waitUntilDrawn()
    #expect(try desk.runToEnd(["hide"]).status == 0)
    // Hidden at once by the program, it is still on screen: no flicker.
    let box = Looks.hudBox(Toast("Blink"))
    #expect(try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) == box)
    #expect(waiting.wait(timeout: 20) == 0)
    // Its first frame came after the start: it ended 5 s after that at the earliest.
    #expect(MonotonicTime.now - started >= .seconds(5), "it stayed its minimum time")
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "hidden\n")
  }

  @Test func theOwnerStoppingEndsAToastWithinItsMinimumShowTimeAsHidden() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.sway.runtimeDirectory + "/min-show.log"
    let waiting = try desk.run(
      ["--wait", "--print-outcome", "--min-show", "60", "--timeout", "0", "Stay"], logPath: log)
    try desk.waitUntilDrawn()
    let owner = try #require(try desk.status()).owner
    #expect(kill(owner, SIGTERM) == 0)
    #expect(waiting.wait(timeout: desk.compositor.patience) == 0)
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "hidden\n")
  }
}
