import Notifications
import Testing

/// Notification ids: never 0, replaced ones kept, chosen ones taken, none
/// given twice, the end of the count passed safely.
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

  @Test func anUnknownReplacedIDIsTakenOnceAndSkippedByTheCount() {
    var ids = NotificationIDs()
    #expect(ids.assign(requested: 3) { _ in false } == 3, "dunstify -r 3")
    #expect(ids.assign(requested: 0) { _ in false } == 1)
    #expect(ids.assign(requested: 0) { _ in false } == 2)
    #expect(ids.assign(requested: 0) { _ in false } == 4, "3 was taken")
    #expect(ids.assign(requested: 3) { _ in false } == 5, "3 ended: it is not given again")
    #expect(ids.assign(requested: 2) { _ in false } == 6, "2 was given by the count")
    #expect(ids.assign(requested: 2593) { _ in false } == 2593)
    #expect(ids.assign(requested: 2593) { $0 == 2593 } == 2593, "replaced while live")
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
    #expect(ids.assign(requested: 50) { live.contains($0) } == 4, "every id was given once")
  }

  @Test func chosenIDsAreRememberedUpToALimit() {
    var ids = NotificationIDs()
    for index in 0..<UInt32(NotificationIDs.chosenLimit) {
      #expect(ids.assign(requested: 1_000_000 + index) { _ in false } == 1_000_000 + index)
    }
    #expect(ids.assign(requested: 5_000_000) { _ in false } == 1, "past the limit: the count")
  }
}
