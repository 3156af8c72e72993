import Testing
import ToastProtocol

@testable import ToastOwner

/// The notification server's history: which ended notifications it keeps,
/// how many, and how a restored one ends.
@Suite struct NotificationHistoryTests {
  typealias Stack = NotificationStack<String>

  static func entry(
    _ id: UInt32, app: String = "app", stackTag: String? = nil, transient: Bool = false
  ) -> Stack.Entry {
    Stack.Entry(
      id: id, appName: app, stackTag: stackTag, isTransient: transient, payload: "n\(id)")
  }

  static func tag(_ card: Int) -> String { "notification \(card)" }

  @Test func theRingKeepsTheNewestUpToItsLimit() {
    var history = NotificationHistory<Int>(limit: 2)
    for number in 1...3 { history.record(number, cost: 10) }
    #expect(history.entries == [3, 2])
    history.limit = 1
    #expect(history.entries == [3], "a lower limit drops the oldest")
    #expect(history.takeNewest() == 3)
    #expect(history.takeNewest() == nil)
    var none = NotificationHistory<Int>(limit: 0)
    none.record(1, cost: 0)
    #expect(none.entries.isEmpty, "a limit of 0 keeps none")
  }

  @Test func theRingKeepsAtMostItsBytes() {
    var history = NotificationHistory<Int>(limit: 5, byteBudget: 100)
    history.record(1, cost: 60)
    history.record(2, cost: 30)
    #expect(history.entries == [2, 1])
    history.record(3, cost: 30)
    #expect(history.entries == [3, 2], "the oldest goes past the budget")
    history.remove { $0 == 3 }
    history.record(4, cost: 70)
    #expect(history.entries == [4, 2], "what was removed no longer counts")
  }

  @Test func expiredAndDismissedOnesAreKeptNewestFirst() {
    var stack = Stack()
    for id in UInt32(1)...3 { _ = stack.notify(Self.entry(id)) }
    _ = stack.cardEnded(tag: Self.tag(1), reason: .expired)
    _ = stack.close(2, reason: .dismissed)
    _ = stack.close(3, reason: .closedByCall)
    #expect(stack.history.entries.map(\.id) == [2, 1], "not the one the application closed")
  }

  @Test func theServersStopTransientOnesAndReplacedOnesAreNotKept() {
    var stack = Stack()
    _ = stack.notify(Self.entry(1))
    _ = stack.notify(Self.entry(2, transient: true))
    _ = stack.notify(Self.entry(3, stackTag: "volume"))
    // A stack tag's new notification replaces the old one (reason 1).
    #expect(
      stack.notify(Self.entry(4, stackTag: "volume")).contains(.closed(id: 3, reason: .expired)))
    // replaces_id: the same notification, updated.
    _ = stack.notify(Self.entry(1))
    _ = stack.close(2, reason: .dismissed)
    #expect(stack.history.entries.isEmpty, "\(stack.history.entries.map(\.id))")
    _ = stack.closeAll(reason: .other)
    #expect(stack.history.entries.isEmpty, "the server's stop keeps none")
  }

  @Test func oneARuleKeepsOutIsNotKept() {
    var stack = Stack()
    var quiet = Self.entry(1, app: "Spotify")
    quiet.keepsHistory = false
    _ = stack.notify(quiet)
    _ = stack.notify(Self.entry(2))
    _ = stack.close(1, reason: .dismissed)
    _ = stack.cardEnded(tag: Self.tag(2), reason: .expired)
    #expect(stack.history.entries.map(\.id) == [2])
  }

  @Test func dismissAllKeepsTheNewestCardFirst() {
    var stack = Stack(visibleLimit: 2)
    for id in UInt32(1)...3 { _ = stack.notify(Self.entry(id)) }
    _ = stack.closeAll(reason: .dismissed)
    #expect(stack.history.entries.map(\.id) == [2, 1, 3], "the cards, then the waiting one")
  }

  @Test func aRestoredOneShowsWithItsIdAndEndsWithoutASecondSignal() throws {
    var stack = Stack()
    _ = stack.notify(Self.entry(7, stackTag: "volume"))
    #expect(stack.close(7, reason: .dismissed).contains(.closed(id: 7, reason: .dismissed)))
    let restoring = stack.restore()
    let restored = try #require(restoring)
    #expect(restored.id == 7 && restored.effects == [.show(id: 7, tag: Self.tag(2))])
    #expect(stack.entry(7)?.payload == "n7" && stack.history.entries.isEmpty)
    // Its application heard its end already: it ends silent, back into the history.
    #expect(stack.cardEnded(tag: Self.tag(2), reason: .expired) == [])
    #expect(stack.history.entries.map(\.id) == [7])
    _ = stack.restore()
    #expect(
      stack.close(7, reason: .closedByCall) == [.hide(tag: Self.tag(3))],
      "silent, and out of the history")
    #expect(stack.history.entries.isEmpty && stack.restore() == nil)
  }

  @Test func anIdSentAgainIsTheApplicationsOwnOnceMore() {
    var stack = Stack()
    _ = stack.notify(Self.entry(7))
    _ = stack.close(7, reason: .dismissed)
    #expect(stack.restore()?.id == 7)
    // The application updates it while restored (replaces_id): its end is heard again.
    _ = stack.notify(Self.entry(7))
    #expect(
      stack.close(7, reason: .dismissed) == [
        .hide(tag: Self.tag(2)), .closed(id: 7, reason: .dismissed),
      ])
    // An id in the history that a new notification takes leaves the history.
    _ = stack.notify(Self.entry(7))
    #expect(stack.history.entries.isEmpty)
  }

  @Test func aRestoredOneTakesNoLiveOnesStackTag() throws {
    var stack = Stack()
    _ = stack.notify(Self.entry(1, stackTag: "volume"))
    _ = stack.close(1, reason: .dismissed)
    _ = stack.notify(Self.entry(2, stackTag: "volume"))
    let restoring = stack.restore()
    let restored = try #require(restoring)
    #expect(!restored.effects.contains { if case .closed = $0 { true } else { false } })
    #expect(stack.ordered.map(\.id) == [1, 2])
  }
}
