import Testing

@testable import ToastKit

/// A timeout that pauses and starts again, without a compositor or a clock:
/// the times are the test's.
struct ToastTimeoutTests {
  @Test func aTimeoutRunsOutItsLengthAfterItsStart() {
    let timeout = ToastTimeout(length: 3, startingAt: 10)
    #expect(!timeout.isPaused)
    #expect(timeout.deadline == 13)
    #expect(timeout.deadline.map { $0 - 11.5 } == 1.5, "half of it left at 11.5")
    #expect(timeout.deadline.map { $0 <= 20 } == true, "none left at 20")
  }

  @Test func aPauseStopsItAndItsEndStartsTheFullLengthAgain() {
    var timeout = ToastTimeout(length: 3, startingAt: 10)
    #expect(timeout.pause(.idle) == .paused)
    #expect(timeout.isPaused && timeout.deadline == nil)
    #expect(timeout.startedAt == 10, "a paused timeout keeps its start until it runs again")
    // Input comes back 100 s later: 3 s from then, not what was left.
    #expect(timeout.resume(.idle, at: 112) == .restarted)
    #expect(!timeout.isPaused && timeout.startedAt == 112 && timeout.deadline == 115)
  }

  @Test func itRunsAgainOnlyOnceNothingHoldsIt() {
    var timeout = ToastTimeout(length: 1.5, startingAt: 0)
    #expect(timeout.pause(.pointer) == .paused)
    #expect(timeout.pause(.idle) == nil, "already paused")
    #expect(timeout.pause(.pointer) == nil, "the same reason again")
    #expect(timeout.resume(.idle, at: 5) == nil, "the pointer still rests on it")
    #expect(timeout.pauses == [.pointer])
    #expect(timeout.resume(.pointer, at: 7) == .restarted)
    #expect(timeout.deadline == 8.5)
  }

  @Test func aReasonThatDidNotHoldItChangesNothing() {
    var timeout = ToastTimeout(length: 2, startingAt: 4)
    #expect(timeout.resume(.touch, at: 5) == nil)
    #expect(timeout.deadline == 6, "still running from its start")
    #expect(timeout.set(.touch, false, at: 5) == nil)
    #expect(timeout.set(.touch, true, at: 5) == .paused)
    #expect(timeout.set(.touch, false, at: 5.5) == .restarted)
    #expect(timeout.deadline == 7.5)
  }

  @Test func aPauseThatEndsBeforeTheEntryEndsKeepsTheStartAtTheEntrysEnd() {
    // The entry animation ends at 10; the pointer comes and goes during it.
    var timeout = ToastTimeout(length: 2, startingAt: 10)
    #expect(timeout.pause(.pointer) == .paused)
    #expect(timeout.resume(.pointer, at: 9.5) == .restarted)
    #expect(timeout.deadline == 12)
  }

  @Test func anUpdateKeepsWhatHoldsIt() {
    let paused = ToastTimeout(length: 2, startingAt: 0, pauses: [.idle, .touch])
    #expect(paused.isPaused && paused.deadline == nil)
    #expect(ToastTimeout.PauseReason.allCases.count == 3)
  }

  @Test func idlenessHoldsItOnceThenItRunsItsFullLength() {
    var timeout = ToastTimeout(length: 3, startingAt: 0)
    #expect(timeout.pause(.idle) == .paused)
    #expect(timeout.resume(.idle, at: 10) == .restarted)
    // Idle again a second after the user came back: the toast was seen.
    #expect(timeout.pause(.idle) == nil)
    #expect(!timeout.isPaused && timeout.deadline == 13)
    // The pointer still holds it.
    #expect(timeout.pause(.pointer) == .paused)
    #expect(timeout.resume(.pointer, at: 12) == .restarted)
    #expect(timeout.pause(.pointer) == .paused)
  }

  @Test func idlenessThatEndsWhileThePointerHoldsItIsSpentToo() {
    var timeout = ToastTimeout(length: 3, startingAt: 0, pauses: [.idle, .pointer])
    #expect(timeout.resume(.idle, at: 5) == nil, "the pointer still holds it")
    #expect(timeout.pause(.idle) == nil)
    #expect(timeout.pauses == [.pointer])
  }
}
