import Notifications
import Testing

/// Notification ids: never 0, replaced ones kept, chosen ones taken whenever
/// not live, the count giving none twice and skipping live and chosen ones,
/// the end of the count passed safely.
struct NotificationIDsTests {
  @Test func newIDsCountFromOneAndAreNeverReused() {
    var ids = NotificationIDs()
    var live: Set<UInt32> = []
    var given: [UInt32] = []
    for round in 0..<100 {
      let id = ids.assign(requested: 0) { live.contains($0) }
      given.append(id)
      live.insert(id)
      if round % 3 == 0 { live.remove(id) }  // some end at once
    }
    #expect(given == Array(1...100))
  }

  @Test func aLiveReplacedIDIsKept() {
    var ids = NotificationIDs()
    let first = ids.assign(requested: 0) { _ in false }
    #expect(ids.assign(requested: first) { $0 == first } == first)
    #expect(ids.assign(requested: 0) { $0 == first } == 2)
  }

  @Test func anUnknownReplacedIDIsTakenAndSkippedByTheCount() {
    var ids = NotificationIDs()
    #expect(ids.assign(requested: 3) { _ in false } == 3, "dunstify -r 3")
    #expect(ids.assign(requested: 0) { _ in false } == 1)
    #expect(ids.assign(requested: 0) { _ in false } == 2)
    #expect(ids.assign(requested: 0) { _ in false } == 4, "3 was chosen")
    #expect(ids.assign(requested: 2) { _ in false } == 2, "2 ended: a caller may choose it")
    #expect(ids.assign(requested: 2593) { _ in false } == 2593)
    #expect(ids.assign(requested: 2593) { $0 == 2593 } == 2593, "replaced while live")
  }

  /// `dunstify -p -r 2593 -t 300`, then again after each one expired: the
  /// same id every time, so the script's cards never stack.
  @Test func aChosenIDIsHonouredAgainAfterItEnded() {
    var ids = NotificationIDs()
    for round in 0..<10 {
      #expect(ids.assign(requested: 2593) { _ in false } == 2593, "round \(round)")
      #expect(ids.assign(requested: 0) { _ in false } == UInt32(round + 1))
    }
  }

  @Test func neverZero() {
    var ids = NotificationIDs(startingAt: 0)
    #expect(ids.assign(requested: 0) { _ in false } == 1)
    var end = NotificationIDs(startingAt: .max)
    #expect(end.assign(requested: 0) { _ in false } == .max)
    #expect(end.assign(requested: 0) { _ in false } == 1, "0 is skipped when the count wraps")
  }

  @Test func afterTheCountWrapsLiveIDsAreSkipped() {
    var ids = NotificationIDs(startingAt: .max - 1)
    let live: Set<UInt32> = [.max - 1, 1, 2]
    #expect(ids.assign(requested: 0) { live.contains($0) } == .max)
    #expect(ids.assign(requested: 0) { live.contains($0) } == 3)
    #expect(ids.assign(requested: 50) { live.contains($0) } == 50, "a chosen id, given before")
    #expect(ids.assign(requested: 0) { live.contains($0) } == 4)
  }

  @Test func pastTheLimitChosenIDsAreHonouredButNotSkipped() {
    var ids = NotificationIDs()
    for index in 0..<UInt32(NotificationIDs.chosenLimit) {
      #expect(ids.assign(requested: 10 + index) { _ in false } == 10 + index)
    }
    #expect(ids.assign(requested: 5) { _ in false } == 5, "past the limit: still honoured")
    let counted = (0..<10).map { _ in ids.assign(requested: 0) { _ in false } }
    #expect(counted == [1, 2, 3, 4, 5, 6, 7, 8, 9, 4106], "5 was not remembered")
  }

  @Test func theCountSkipsLiveIDs() {
    var ids = NotificationIDs()
    let live: Set<UInt32> = [2, 3]
    #expect(ids.assign(requested: 0) { live.contains($0) } == 1)
    #expect(ids.assign(requested: 0) { live.contains($0) } == 4)
  }
}
