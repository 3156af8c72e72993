/// The ids of a server's notifications, never 0.
///
/// An id a caller chooses (an unknown `replaces_id`) is honoured whenever it
/// is not in use, however often it was used before. The ids the server picks
/// come from a count that gives each once until all 4,294,967,295 have been
/// given (then it starts again at 1), skipping ids in use and ids callers
/// chose that it has not reached yet (up to ``chosenLimit`` remembered), so
/// a script's fixed id is not handed to another program meanwhile.
package struct NotificationIDs: Sendable {
  /// The next id the count gives, unless it is skipped then.
  private var next: UInt32
  /// Ids at or above ``next`` that callers chose: skipped by the count.
  private var chosen: Set<UInt32> = []

  /// The most chosen ids the count remembers to skip: past it, a chosen id
  /// is still honoured but not remembered (memory stays bounded whatever
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
  /// - `replacesID` but 0: that id, whether live (it is updated in place)
  ///   or not, as the specification says and dunst does (a script's
  ///   `dunstify -r 2593`, again after each one ended);
  /// - 0: the next id of the count that is neither live nor chosen.
  package mutating func assign(requested replacesID: UInt32, isLive: (UInt32) -> Bool) -> UInt32 {
    if replacesID != 0 {
      if replacesID >= next && chosen.count < Self.chosenLimit { chosen.insert(replacesID) }
      return replacesID
    }
    while true {
      let id = next
      next = next == .max ? 1 : next + 1
      if chosen.remove(id) != nil || isLive(id) { continue }
      return id
    }
  }
}
