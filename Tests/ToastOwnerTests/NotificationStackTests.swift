import Testing
import ToastProtocol

@testable import ToastOwner

/// The notification server's bookkeeping: which notifications show as
/// cards, which wait, and how each ends.
@Suite struct NotificationStackTests {
  typealias Stack = NotificationStack<String>

  static func entry(
    _ id: UInt32, app: String = "app", stackTag: String? = nil, critical: Bool = false,
    transient: Bool = false, cost: Int = 0, text: String = ""
  ) -> Stack.Entry {
    Stack.Entry(
      id: id, appName: app, stackTag: stackTag, isCritical: critical, isTransient: transient,
      cost: cost, payload: text)
  }

  static func tag(_ card: Int) -> String { "notification \(card)" }

  @Test func cardsShowUpToTheLimitAndTheRestWaitInOrder() {
    var stack = Stack(visibleLimit: 2)
    #expect(stack.notify(Self.entry(1)) == [.show(id: 1, tag: Self.tag(1))])
    #expect(stack.notify(Self.entry(2)) == [.show(id: 2, tag: Self.tag(2))])
    #expect(stack.notify(Self.entry(3)) == [], "the third waits")
    #expect(stack.ordered.map(\.id) == [2, 1, 3], "newest card first")
    #expect(stack.tag(of: 3) == nil && stack.tag(of: 2) == Self.tag(2))
    #expect(
      stack.cardEnded(tag: Self.tag(1), reason: .expired) == [
        .closed(id: 1, reason: .expired), .show(id: 3, tag: Self.tag(3)),
      ])
    #expect(stack.count == 2)
  }

  /// A critical notification finds every card taken by others: the oldest
  /// of them goes back to the head of the queue (no signal), and shows again
  /// when a card goes, before those that came after it.
  @Test func aCriticalOneTakesTheOldestOtherCardsPlace() {
    var stack = Stack(visibleLimit: 2)
    _ = stack.notify(Self.entry(1))
    _ = stack.notify(Self.entry(2))
    _ = stack.notify(Self.entry(3))
    #expect(
      stack.notify(Self.entry(4, critical: true)) == [
        .hide(tag: Self.tag(1)), .show(id: 4, tag: Self.tag(3)),
      ])
    #expect(stack.ordered.map(\.id) == [4, 2, 1, 3], "cards newest first, then the queue")
    #expect(stack.cardEnded(tag: Self.tag(1), reason: .other) == [], "its card's end says nothing")
    // Two critical ones hold both cards: a third waits.
    #expect(
      stack.notify(Self.entry(5, critical: true)) == [
        .hide(tag: Self.tag(2)), .show(id: 5, tag: Self.tag(4)),
      ])
    #expect(stack.notify(Self.entry(6, critical: true)) == [], "no card that is not critical")
    #expect(
      stack.cardEnded(tag: Self.tag(3), reason: .dismissed) == [
        .closed(id: 4, reason: .dismissed), .show(id: 6, tag: Self.tag(5)),
      ])
    #expect(
      stack.cardEnded(tag: Self.tag(4), reason: .dismissed) == [
        .closed(id: 5, reason: .dismissed), .show(id: 2, tag: Self.tag(6)),
      ], "the card sent back last shows first")
    #expect(stack.count == 4)
  }

  @Test func aLiveIdIsReplacedInPlaceOnScreenAndInTheQueue() {
    var stack = Stack(visibleLimit: 1)
    _ = stack.notify(Self.entry(1, text: "a"))
    _ = stack.notify(Self.entry(2, text: "b"))
    #expect(stack.notify(Self.entry(1, text: "a2")) == [.show(id: 1, tag: Self.tag(1))])
    #expect(stack.notify(Self.entry(2, text: "b2")) == [], "waiting: only its content changes")
    #expect(stack.ordered.map(\.payload) == ["a2", "b2"])
    #expect(stack.count == 2)
  }

  @Test func aStackTagTakesTheCardOfTheSameApplicationsNotification() {
    var stack = Stack()
    _ = stack.notify(Self.entry(1, app: "volume", stackTag: "vol"))
    _ = stack.notify(Self.entry(2, app: "other", stackTag: "vol"))
    // The same application: the new id takes the card, the old one ends as expired.
    #expect(
      stack.notify(Self.entry(3, app: "volume", stackTag: "vol")) == [
        .closed(id: 1, reason: .expired), .show(id: 3, tag: Self.tag(1)),
      ])
    #expect(stack.id(forTag: Self.tag(1)) == 3 && !stack.isLive(1))
    #expect(stack.ordered.map(\.id) == [2, 3], "another application's tag is its own")
    // An end reported for the card now belongs to the new notification.
    #expect(
      stack.cardEnded(tag: Self.tag(1), reason: .expired) == [.closed(id: 3, reason: .expired)])
  }

  @Test func closingGoesAtOnceAndLaterEndsOfItsCardAreIgnored() {
    var stack = Stack(visibleLimit: 1)
    _ = stack.notify(Self.entry(1))
    _ = stack.notify(Self.entry(2))
    #expect(
      stack.close(1, reason: .closedByCall) == [
        .hide(tag: Self.tag(1)), .closed(id: 1, reason: .closedByCall),
        .show(id: 2, tag: Self.tag(2)),
      ])
    #expect(stack.cardEnded(tag: Self.tag(1), reason: .dismissed) == [], "closed already")
    #expect(stack.close(1, reason: .closedByCall) == [], "an id no longer live")
    #expect(stack.close(99, reason: .dismissed) == [], "an id never seen")
    #expect(stack.cardEnded(tag: Self.tag(2), reason: nil) == [], "another card took the surface")
    #expect(stack.isLive(2))
  }

  @Test func doNotDisturbSendsCardsBackToWaitAndDropsTransientOnes() {
    var stack = Stack()
    _ = stack.notify(Self.entry(1))
    _ = stack.notify(Self.entry(2, critical: true))
    _ = stack.notify(Self.entry(3, transient: true))
    #expect(
      stack.hold(true) == [
        .hide(tag: Self.tag(3)), .closed(id: 3, reason: .other), .hide(tag: Self.tag(1)),
      ])
    #expect(stack.notify(Self.entry(4)) == [], "waits while held")
    #expect(stack.notify(Self.entry(5, transient: true)) == [.closed(id: 5, reason: .other)])
    #expect(stack.notify(Self.entry(6, critical: true)) == [.show(id: 6, tag: Self.tag(4))])
    // Released: the one that went back shows first, then the newer one.
    #expect(
      stack.hold(false) == [.show(id: 1, tag: Self.tag(5)), .show(id: 4, tag: Self.tag(6))])
    #expect(stack.cardEnded(tag: Self.tag(1), reason: .expired) == [], "its old card is forgotten")
    #expect(stack.ordered.map(\.id) == [4, 1, 6, 2])
  }

  @Test func pastTheCapacityTheOldestWaitingNonCriticalOneEnds() {
    var stack = Stack(visibleLimit: 1, capacity: 3)
    _ = stack.notify(Self.entry(1))
    // The critical one takes the card; the first waits, at the head of the queue.
    #expect(
      stack.notify(Self.entry(2, critical: true)) == [
        .hide(tag: Self.tag(1)), .show(id: 2, tag: Self.tag(2)),
      ])
    _ = stack.notify(Self.entry(3))
    #expect(stack.notify(Self.entry(4)) == [.closed(id: 1, reason: .other)])
    #expect(stack.notify(Self.entry(5)) == [.closed(id: 3, reason: .other)])
    #expect(stack.ordered.map(\.id) == [2, 4, 5])
    var bytes = Stack(visibleLimit: 1, byteBudget: 100)
    _ = bytes.notify(Self.entry(1, cost: 60))
    _ = bytes.notify(Self.entry(2, cost: 30))
    #expect(bytes.notify(Self.entry(3, cost: 30)) == [.closed(id: 2, reason: .other)])
    #expect(bytes.notify(Self.entry(3, cost: 50)) == [.closed(id: 3, reason: .other)])
    #expect(bytes.ordered.map(\.id) == [1], "the card on screen stays")
  }

  @Test func closingAllEndsCardsAndTheWaitingAlike() {
    var stack = Stack(visibleLimit: 1)
    _ = stack.notify(Self.entry(7))
    _ = stack.notify(Self.entry(8))
    #expect(
      stack.closeAll(reason: .other) == [
        .hide(tag: Self.tag(1)), .closed(id: 7, reason: .other), .closed(id: 8, reason: .other),
      ])
    #expect(stack.count == 0 && stack.ordered.isEmpty)
  }

  @Test func aReplacementByIdWhoseStackTagAnotherHoldsEndsThatOne() {
    var stack = Stack()
    _ = stack.notify(Self.entry(1, stackTag: "t"))
    _ = stack.notify(Self.entry(2))
    // The id of one, the tag of the other: the first ends, replaced.
    #expect(
      stack.notify(Self.entry(2, stackTag: "t", text: "both")) == [
        .hide(tag: Self.tag(1)), .closed(id: 1, reason: .expired), .show(id: 2, tag: Self.tag(2)),
      ])
    #expect(stack.ordered.map(\.payload) == ["both"])
    // The tag now belongs to the updated one.
    #expect(
      stack.notify(Self.entry(3, stackTag: "t")) == [
        .closed(id: 2, reason: .expired), .show(id: 3, tag: Self.tag(2)),
      ])
    // Naming the same one twice: updated in place, nothing ends.
    #expect(stack.notify(Self.entry(3, stackTag: "t")) == [.show(id: 3, tag: Self.tag(2))])
    #expect(stack.ordered.map(\.id) == [3])
  }

  @Test func aReplacementWaitsOrShowsAsItsOwnUrgencySaysWhileHeld() {
    var stack = Stack()
    _ = stack.hold(true)
    _ = stack.notify(Self.entry(1, stackTag: "battery"))
    _ = stack.notify(Self.entry(2))
    #expect(stack.ordered.map(\.id) == [1, 2] && stack.tag(of: 1) == nil)
    // Critical now, by its stack tag or its id: it shows at once.
    #expect(
      stack.notify(Self.entry(3, stackTag: "battery", critical: true)) == [
        .closed(id: 1, reason: .expired), .show(id: 3, tag: Self.tag(1)),
      ])
    #expect(stack.notify(Self.entry(2, critical: true)) == [.show(id: 2, tag: Self.tag(2))])
    // No longer critical: back to the head of the queue, without an end.
    #expect(stack.notify(Self.entry(2)) == [.hide(tag: Self.tag(2))])
    #expect(stack.ordered.map(\.id) == [3, 2] && stack.tag(of: 2) == nil)
    // Released: it shows again, with a new card.
    #expect(stack.hold(false) == [.show(id: 2, tag: Self.tag(3))])
    // A waiting critical one (the card is a critical one's) that is no
    // longer critical waits among the others.
    var full = Stack(visibleLimit: 1)
    _ = full.notify(Self.entry(1, critical: true))
    _ = full.notify(Self.entry(2))
    _ = full.notify(Self.entry(3, critical: true))
    #expect(full.ordered.map(\.id) == [1, 3, 2])
    #expect(full.notify(Self.entry(3)) == [])
    #expect(full.notify(Self.entry(2, critical: true)) == [])
    #expect(full.ordered.map(\.id) == [1, 2, 3])
  }

  @Test func cardTagsCannotBeAToastsTag() {
    #expect(Stack.tagPrefix.contains(" "), "--tag takes no spaces")
  }
}
