/// The ids of a server's notifications: never 0, and never given twice in
/// the server's life, until all 4,294,967,295 have been given once (then the
/// count starts again at 1, skipping the ids of live notifications).
package struct NotificationIDs: Sendable {
  /// The next id to give; every id below it has been given (or chosen).
  private var next: UInt32
  /// Ids at or above ``next`` that callers chose (an unknown `replaces_id`):
  /// given already, skipped when the count reaches them.
  private var chosen: Set<UInt32> = []
  /// Whether the count went past `UInt32.max`: every id has been given.
  private var wrapped = false

  /// The most chosen ids above the count remembered: past it, an unknown
  /// `replaces_id` gets the next id instead (memory stays bounded whatever
  /// clients ask).
  package static let chosenLimit = 4096

  /// Ids from 1.
  package init() {
    next = 1
  }

  /// Ids from `first` (not 0), as if those below had been given: for tests
  /// of the end of the count.
  package init(startingAt first: UInt32) {
    next = max(first, 1)
  }

  /// The id of a new notification, or of one that replaces another:
  /// - `replacesID` of a live notification: that id (it is updated in place);
  /// - another `replacesID` but 0: that id, as the specification says (a
  ///   script's `dunstify -r 2593`), unless it was given before (or
  ///   ``chosenLimit`` are remembered): then the next id;
  /// - 0: the next id never given and not live.
  package mutating func assign(requested replacesID: UInt32, isLive: (UInt32) -> Bool) -> UInt32 {
    if replacesID != 0 {
      if isLive(replacesID) { return replacesID }
      if !wasGiven(replacesID) && chosen.count < Self.chosenLimit {
        chosen.insert(replacesID)
        return replacesID
      }
    }
    return nextID(isLive: isLive)
  }

  /// Whether `id` was given or chosen before.
  private func wasGiven(_ id: UInt32) -> Bool {
    wrapped || id < next || chosen.contains(id)
  }

  /// The next id of the count that was never chosen and is not live.
  private mutating func nextID(isLive: (UInt32) -> Bool) -> UInt32 {
    while true {
      let id = next
      if next == .max {
        next = 1
        wrapped = true
      } else {
        next += 1
      }
      if chosen.remove(id) != nil { continue }
      if isLive(id) { continue }
      return id
    }
  }
}
