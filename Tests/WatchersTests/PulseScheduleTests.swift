import Testing

@testable import Watchers

/// How the sound server's connection asks and waits: one question in flight
/// per object, and the delays between attempts while the server is away.
struct PulseScheduleTests {
  @Test func aBurstOfEventsAsksTwiceWithOneQuestionInFlight() {
    var gate = RequestGate()
    var asked = 0
    var answers = 0
    // Twenty events before the first answer comes back.
    for _ in 0..<20 where gate.request() { asked += 1 }
    #expect(asked == 1)
    #expect(gate.inFlight && gate.dirty)
    // The answer asks once more for what came meanwhile; that answer ends it.
    answers += 1
    if gate.answered(), gate.request() { asked += 1 }
    answers += 1
    let again = gate.answered()
    #expect(!again)
    #expect(asked == 2 && answers == 2)
    #expect(!gate.inFlight && !gate.dirty)
  }

  @Test func anEventAfterTheAnswerAsksAgain() {
    var gate = RequestGate()
    let first = gate.request()
    let done = !gate.answered()
    let next = gate.request()
    #expect(first && done && next)
  }

  @Test func aResetForgetsTheQuestionInFlight() {
    var gate = RequestGate()
    let first = gate.request()
    let second = gate.request()
    #expect(first && !second)
    gate.reset()
    #expect(!gate.inFlight && !gate.dirty)
    let afterReset = gate.request()
    #expect(afterReset)
  }

  @Test func theBackoffDoublesFromAQuarterSecondToThirtySeconds() {
    var backoff = Backoff()
    let delays = (0..<10).map { _ in backoff.delay() }
    #expect(
      delays == [
        .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2), .seconds(4), .seconds(8),
        .seconds(16), .seconds(30), .seconds(30), .seconds(30),
      ])
    backoff.reset()
    #expect(backoff.delay() == .milliseconds(250))
  }
}
