import ToastModel

/// Why a notification ended, as `NotificationClosed` tells it.
package enum NotificationCloseReason: UInt32, Equatable, Sendable {
  /// Its time ran out.
  case expired = 1
  /// The user dismissed it: a click, a right click, an action chosen,
  /// `wl-toast notifications dismiss`.
  case dismissed = 2
  /// The application closed it (`CloseNotification`).
  case closedByCall = 3
  /// Any other end: the server stopped, lost its name, or made room.
  case other = 4
}

/// The notifications a server holds and which of them show as cards: pure
/// bookkeeping, told what happens and answering with what to do
/// (``Effect``), so that every rule here is tested without a compositor.
///
/// - At most ``visibleLimit`` cards show (5, as mako's `max-visible`);
///   later notifications wait, critical ones before the others, each in
///   its order of arrival, and show as cards go. A waiting notification's
///   clock does not run: its timeout starts when its card appears.
/// - A notification with the id of a live one (`replaces_id`) replaces it
///   in place: its card (the same tag, so the same surface) or its place
///   in the queue. When its stack tag is another live notification's of
///   the same application, that other one ends as replaced (reason 1):
///   one notification holds a tag.
/// - A notification with a stack tag that a live one of the same
///   application has takes that one's card or place in the queue, with an
///   id of its own; the one it replaces ends as expired (reason 1), as
///   dunst does.
/// - While held (do-not-disturb), only critical notifications show; the
///   other cards go back to the queue (no `NotificationClosed`) and show
///   again, timeout restarted, once released. Transient notifications are
///   dropped instead of waiting (reason 4). A replacement goes where its
///   own urgency puts it: a critical one that takes a waiting one's place
///   shows at once, and a card on screen replaced by a non-critical one
///   goes back to waiting.
/// - At most ``capacity`` notifications and ``byteBudget`` bytes of
///   content are held: past either, the oldest waiting notification (a
///   non-critical one first) ends with reason 4.
/// - One that ends by expiry or by the user (reasons 1 and 2) goes into the
///   ``history``, unless it is transient, a rule keeps it out
///   (``Entry/keepsHistory``) or a stack tag's new notification replaced it;
///   ``restore()`` makes the newest one live again. Its
///   application heard its end already: it ends again without a
///   `NotificationClosed` (back into the history), unless the application
///   sent its id again meanwhile (then it is the application's own again).
///
/// Every card gets a new tag each time it appears (``tagPrefix`` and a
/// number): a card that goes away (closed, back to the queue) is forgotten
/// at once, and the end the presenter reports for it later is ignored.
package struct NotificationStack<Payload> {
  /// One notification: what the rules here read, and what the server keeps.
  package struct Entry {
    /// Its id, never 0.
    package var id: UInt32
    /// The sending application's name (stack tags match within one).
    package var appName: String
    /// Its stack tag (`x-canonical-private-synchronous`, `x-dunst-stack-tag`).
    package var stackTag: String?
    /// Whether it shows through do-not-disturb and waits before the others.
    package var isCritical: Bool
    /// Whether it is dropped rather than held by do-not-disturb.
    package var isTransient: Bool
    /// Whether it goes into the ``history`` when it ends (a rule's
    /// `history = false` keeps it out).
    package var keepsHistory: Bool
    /// About how many bytes it holds (text and pixels), for ``byteBudget``.
    package var cost: Int
    /// What the server keeps with it (the request, the toast).
    package var payload: Payload
    /// Whether its application heard its end already: a notification
    /// restored from the history, which ends again without a word.
    package var endTold = false

    /// A notification with its parts.
    package init(
      id: UInt32, appName: String, stackTag: String? = nil, isCritical: Bool = false,
      isTransient: Bool = false, keepsHistory: Bool = true, cost: Int = 0, payload: Payload
    ) {
      self.id = id
      self.appName = appName
      self.stackTag = stackTag
      self.isCritical = isCritical
      self.isTransient = isTransient
      self.keepsHistory = keepsHistory
      self.cost = cost
      self.payload = payload
    }
  }

  /// What the server does after a change, in order.
  package enum Effect: Equatable {
    /// Shows the notification's card with this tag: a new card, or the one
    /// with the tag changed in place.
    case show(id: UInt32, tag: String)
    /// Takes the card with this tag away, without a word to the application.
    case hide(tag: String)
    /// Tells the application its notification ended (`NotificationClosed`).
    case closed(id: UInt32, reason: NotificationCloseReason)
  }

  /// The most cards on screen at once.
  package var visibleLimit: Int
  /// The most notifications held (shown and waiting).
  package var capacity: Int
  /// The most bytes of content held (``Entry/cost``).
  package var byteBudget: Int
  /// What the tags of cards start with: a space, which no `--tag` has.
  package static var tagPrefix: String { "notification " }

  private var entries: [UInt32: Entry] = [:]
  /// The ids on screen, oldest card first, and their tags.
  private var shown: [(id: UInt32, tag: String)] = []
  /// The critical ids waiting, in the order they show (before the others).
  private var waitingCritical: [UInt32] = []
  /// The other ids waiting, in the order they show: the oldest first.
  private var waitingOthers: [UInt32] = []
  /// The live notification with each stack tag, by application.
  private var stacked: [StackKey: UInt32] = [:]
  private var cards = 0
  private var totalCost = 0
  /// Whether do-not-disturb holds the non-critical notifications back.
  package private(set) var isHeld = false
  /// The notifications that ended by expiry or by the user, newest first.
  package var history = NotificationHistory<Entry>()

  /// An application and a stack tag of its.
  private struct StackKey: Hashable {
    var appName: String
    var tag: String
  }

  /// An empty stack: 5 cards, 1000 notifications, 64 MiB by default.
  package init(visibleLimit: Int = 5, capacity: Int = 1000, byteBudget: Int = 64 << 20) {
    self.visibleLimit = visibleLimit
    self.capacity = capacity
    self.byteBudget = byteBudget
  }

  /// Whether a notification with `id` is held (shown or waiting).
  package func isLive(_ id: UInt32) -> Bool { entries[id] != nil }

  /// The notification with `id`.
  package func entry(_ id: UInt32) -> Entry? { entries[id] }

  /// The notification whose card has `tag`.
  package func id(forTag tag: String) -> UInt32? { shown.first { $0.tag == tag }?.id }

  /// The tag of the card of the notification with `id`; nil while it waits.
  package func tag(of id: UInt32) -> String? { shown.first { $0.id == id }?.tag }

  /// How many notifications are held.
  package var count: Int { entries.count }

  /// The notifications on screen, newest card first, then those waiting in
  /// the order they will show.
  package var ordered: [Entry] {
    (shown.reversed().map(\.id) + waitingCritical + waitingOthers).compactMap { entries[$0] }
  }

  /// Takes a notification in, its id assigned already: it replaces the
  /// live one with its id in place, or the one with its stack tag, or
  /// shows when there is room, or waits.
  package mutating func notify(_ entry: Entry) -> [Effect] {
    // The id is live again: an older notification kept with it goes.
    history.remove { $0.id == entry.id }
    if let old = entries[entry.id] {
      totalCost += entry.cost - old.cost
      unstack(old)
      entries[entry.id] = entry
      // Another notification of the application holding the stack tag ends,
      // replaced: one card per tag.
      var effects: [Effect] = []
      if let stackTag = entry.stackTag,
        let other = stacked[StackKey(appName: entry.appName, tag: stackTag)], other != entry.id
      {
        effects += close(other, reason: .expired, kept: false)
      }
      restack(entry)
      if isHeld && entry.isTransient && !entry.isCritical {
        return effects + close(entry.id, reason: .other)
      }
      effects += rerank(entry)
      // Shown already when the other's end made room: shown once.
      if let tag = tag(of: entry.id), !effects.contains(.show(id: entry.id, tag: tag)) {
        effects.append(.show(id: entry.id, tag: tag))
      }
      return effects + promote() + makeRoom()
    }
    entries[entry.id] = entry
    totalCost += entry.cost
    if let stackTag = entry.stackTag,
      let old = stacked[StackKey(appName: entry.appName, tag: stackTag)]
    {
      // The new one takes the old one's card (or place).
      if let index = shown.firstIndex(where: { $0.id == old }) {
        shown[index].id = entry.id
      } else if let index = waitingCritical.firstIndex(of: old) {
        waitingCritical[index] = entry.id
      } else if let index = waitingOthers.firstIndex(of: old) {
        waitingOthers[index] = entry.id
      }
      var effects = forget(old).map { told($0, reason: .expired) } ?? []
      restack(entry)
      if isHeld && entry.isTransient && !entry.isCritical {
        return effects + close(entry.id, reason: .other)
      }
      effects += rerank(entry)
      if let tag = tag(of: entry.id) { effects.append(.show(id: entry.id, tag: tag)) }
      return effects + promote() + makeRoom()
    }
    if isHeld && entry.isTransient && !entry.isCritical {
      forget(entry.id)
      return [.closed(id: entry.id, reason: .other)]
    }
    restack(entry)
    enqueue(entry.id, critical: entry.isCritical)
    return promote() + makeRoom()
  }

  /// Ends the notification with `id` for `reason`: its card goes, or its
  /// place in the queue; nothing for an id that is not live.
  package mutating func close(_ id: UInt32, reason: NotificationCloseReason) -> [Effect] {
    close(id, reason: reason, kept: true)
  }

  /// ``close(_:reason:)``, into the history only when `kept` (and its
  /// reason and kind let it).
  private mutating func close(
    _ id: UInt32, reason: NotificationCloseReason, kept: Bool
  ) -> [Effect] {
    guard entries[id] != nil else { return [] }
    var effects: [Effect] = []
    if let index = shown.firstIndex(where: { $0.id == id }) {
      effects.append(.hide(tag: shown.remove(at: index).tag))
    }
    waitingCritical.removeAll { $0 == id }
    waitingOthers.removeAll { $0 == id }
    if let entry = forget(id) {
      if kept { remember(entry, reason: reason) }
      effects += told(entry, reason: reason)
    }
    return effects + promote()
  }

  /// The card with `tag` ended on screen (its timeout, the user): its
  /// notification ends for `reason`. Nil `reason` (another card took the
  /// surface) and a tag no longer known change nothing.
  package mutating func cardEnded(tag: String, reason: NotificationCloseReason?) -> [Effect] {
    guard let reason, let id = id(forTag: tag) else { return [] }
    shown.removeAll { $0.tag == tag }
    guard let entry = forget(id) else { return promote() }
    remember(entry, reason: reason)
    return told(entry, reason: reason) + promote()
  }

  /// Holds the non-critical notifications back (do-not-disturb on) or lets
  /// them show again.
  package mutating func hold(_ held: Bool) -> [Effect] {
    guard held != isHeld else { return [] }
    isHeld = held
    guard held else { return promote() }
    var effects: [Effect] = []
    // Transient ones end; the other cards go back to the head of the queue,
    // in the order they showed.
    let transient = entries.values.lazy.filter { $0.isTransient && !$0.isCritical }.map(\.id)
    for id in transient.sorted() { effects += close(id, reason: .other) }
    var returning: [UInt32] = []
    for card in shown where !(entries[card.id]?.isCritical ?? true) {
      effects.append(.hide(tag: card.tag))
      returning.append(card.id)
    }
    shown.removeAll { returning.contains($0.id) }
    waitingOthers.insert(contentsOf: returning, at: 0)
    // Critical ones that waited take the room.
    return effects + promote()
  }

  /// Ends every notification for `reason` (the server stops, `dismiss
  /// --all`): cards first, and none that waits is shown on the way.
  package mutating func closeAll(reason: NotificationCloseReason) -> [Effect] {
    var effects: [Effect] = shown.map { .hide(tag: $0.tag) }
    let ended = (shown.map(\.id) + waitingCritical + waitingOthers).compactMap { entries[$0] }
    effects += ended.flatMap { told($0, reason: reason) }
    // The waiting ones first, then the cards from the oldest: the newest
    // card is the first that restore brings back.
    for entry in ended[shown.count...].reversed() + ended[..<shown.count] {
      remember(entry, reason: reason)
    }
    shown.removeAll()
    waitingCritical.removeAll()
    waitingOthers.removeAll()
    entries.removeAll()
    stacked.removeAll()
    totalCost = 0
    return effects
  }

  // MARK: - The queue

  /// Puts `id` at the end of the queue of its rank (critical or not).
  private mutating func enqueue(_ id: UInt32, critical: Bool) {
    if critical { waitingCritical.append(id) } else { waitingOthers.append(id) }
  }

  /// Puts `entry`, which took the place of another (its own old content or
  /// the one it replaced), where its urgency ranks it: waiting among the
  /// critical ones or the others, or, when held and no longer critical,
  /// back at the head of the queue, its card taken away.
  private mutating func rerank(_ entry: Entry) -> [Effect] {
    let id = entry.id
    if let index = shown.firstIndex(where: { $0.id == id }) {
      guard isHeld && !entry.isCritical else { return [] }
      let card = shown.remove(at: index)
      waitingOthers.insert(id, at: 0)
      return [.hide(tag: card.tag)]
    }
    if entry.isCritical, let index = waitingOthers.firstIndex(of: id) {
      waitingOthers.remove(at: index)
      waitingCritical.append(id)
    } else if !entry.isCritical, let index = waitingCritical.firstIndex(of: id) {
      waitingCritical.remove(at: index)
      waitingOthers.insert(id, at: 0)
    }
    return []
  }

  /// Shows waiting notifications while there is room and they may show:
  /// critical ones first, the others unless held. A critical one that finds
  /// no room takes the place of the oldest card that is not critical, which
  /// goes back to the head of the queue, as do-not-disturb sends cards back
  /// (dunst sorts by urgency alike): a critical notification shows at once,
  /// also when the cards are held back by a fullscreen window.
  private mutating func promote() -> [Effect] {
    var effects: [Effect] = []
    var returned = 0
    while !waitingCritical.isEmpty, shown.count >= visibleLimit,
      let index = shown.firstIndex(where: { !(entries[$0.id]?.isCritical ?? true) })
    {
      let card = shown.remove(at: index)
      effects.append(.hide(tag: card.tag))
      waitingOthers.insert(card.id, at: returned)
      returned += 1
      effects += showWhileRoom(atMost: 1)
    }
    return effects + showWhileRoom()
  }

  /// Shows waiting notifications while there is room (at most `limit`).
  private mutating func showWhileRoom(atMost limit: Int = .max) -> [Effect] {
    var effects: [Effect] = []
    while shown.count < visibleLimit && effects.count < limit {
      let id: UInt32
      if !waitingCritical.isEmpty {
        id = waitingCritical.removeFirst()
      } else if !isHeld && !waitingOthers.isEmpty {
        id = waitingOthers.removeFirst()
      } else {
        break
      }
      cards += 1
      let tag = Self.tagPrefix + String(cards)
      shown.append((id, tag))
      effects.append(.show(id: id, tag: tag))
    }
    return effects
  }

  /// Ends the oldest waiting notifications (non-critical ones first) while
  /// more than ``capacity`` or ``byteBudget`` are held.
  private mutating func makeRoom() -> [Effect] {
    var effects: [Effect] = []
    while entries.count > capacity || totalCost > byteBudget,
      let oldest = waitingOthers.first ?? waitingCritical.first
    {
      effects += close(oldest, reason: .other)
    }
    return effects
  }

  /// Notes `entry` as the live one with its stack tag.
  private mutating func restack(_ entry: Entry) {
    guard let tag = entry.stackTag else { return }
    stacked[StackKey(appName: entry.appName, tag: tag)] = entry.id
  }

  /// Forgets `entry` as the live one with its stack tag.
  private mutating func unstack(_ entry: Entry) {
    guard let tag = entry.stackTag else { return }
    let key = StackKey(appName: entry.appName, tag: tag)
    if stacked[key] == entry.id { stacked[key] = nil }
  }

  /// Forgets the notification with `id`; returns it.
  @discardableResult
  private mutating func forget(_ id: UInt32) -> Entry? {
    guard let entry = entries.removeValue(forKey: id) else { return nil }
    totalCost -= entry.cost
    unstack(entry)
    return entry
  }

  // MARK: - The history

  /// Keeps `entry`, which ended for `reason`, in the history when it ended
  /// by expiry or by the user, is not transient and no rule keeps it out.
  private mutating func remember(_ entry: Entry, reason: NotificationCloseReason) {
    guard reason == .expired || reason == .dismissed, !entry.isTransient, entry.keepsHistory
    else { return }
    history.record(entry, cost: entry.cost)
  }

  /// The `NotificationClosed` of `entry`, which ended for `reason`: none
  /// when its application heard its end already.
  private func told(_ entry: Entry, reason: NotificationCloseReason) -> [Effect] {
    entry.endTold ? [] : [.closed(id: entry.id, reason: reason)]
  }

  /// Makes the newest notification of the history live again, taken out of
  /// it, as a new one would be (shown when there is room); its end is told
  /// already, and it leaves its stack tag behind (it takes the place of no
  /// live notification). Nil when the history is empty.
  package mutating func restore() -> (id: UInt32, effects: [Effect])? {
    guard var entry = history.takeNewest() else { return nil }
    entry.endTold = true
    entry.stackTag = nil
    return (entry.id, notify(entry))
  }
}
