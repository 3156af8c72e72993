import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastKit

/// The timing options of the HUD libraries: grace time and minimum show time.
@Suite(.serialized)
struct TimingTests {
  static let boxColor = HUDTests.boxColor

  @Test func aToastHiddenWithinItsGraceTimeNeverAppears() throws {
    let desk = try Desk()
    let waiting = try desk.run([
      "--wait", "--print-outcome", "--grace", "2", "--tag", "job", "--spinner",
      "--no-animation", "--timeout", "0", "Working",
    ])
    // The command does not wait for a frame that is not due yet.
    try waitUntil("the owner to hold the toast") { try desk.status(tag: "job") != nil }
    #expect(try desk.status(tag: "job")?.drawn == [], "no surface during the grace time")
    #expect(try desk.runToEnd(["hide", "--tag", "job"]).status == 0)
    #expect(waiting.wait(timeout: 5) == 0)
    #expect(try desk.status(tag: "job") == nil)
    #expect(try desk.sway.screenshot().boundingBox(of: Self.boxColor, tolerance: 3) == nil)
  }

  @Test func aToastStillWantedAfterItsGraceTimeAppears() throws {
    let desk = try Desk()
    let started = MonotonicTime.now
    let result = try desk.runToEnd([
      "--grace", "0.5", "--no-animation", "--timeout", "0", "Slow job",
    ])
    #expect(result.status == 0)
    #expect(MonotonicTime.now - started < .milliseconds(500), "returned before the grace time")
    let box = HUDTests.expectedBox(Toast("Slow job"))
    try desk.screenshot("the HUD after its grace time at \(box)") {
      $0.boundingBox(of: Self.boxColor, tolerance: 3) == box
    }
    #expect(MonotonicTime.now - started >= .milliseconds(500), "not before it")
  }

  @Test func aToastHiddenEarlyStaysForItsMinimumShowTime() throws {
    let desk = try Desk()
    let log = desk.sway.runtimeDirectory + "/min-show.log"
    let started = MonotonicTime.now
    let waiting = try ChildProcess(
      [
        builtProduct("wl-toast"), "--wait", "--print-outcome", "--min-show", "1.5",
        "--no-animation", "--timeout", "0", "Blink",
      ], environment: desk.sway.clientEnvironment, logPath: log)
    let box = HUDTests.expectedBox(Toast("Blink"))
    try desk.screenshot("the HUD at \(box)") {
      $0.boundingBox(of: Self.boxColor, tolerance: 3) == box
    }
    #expect(try desk.runToEnd(["hide"]).status == 0)
    // Hidden at once by the program, it is still on screen: no flicker.
    #expect(try desk.sway.screenshot().boundingBox(of: Self.boxColor, tolerance: 3) == box)
    #expect(waiting.wait(timeout: 5) == 0)
    // Its first frame came after the start: it ended 1.5 s after that at the earliest.
    #expect(MonotonicTime.now - started >= .milliseconds(1500), "it stayed its minimum time")
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "hidden\n")
  }
}
