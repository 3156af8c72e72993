/// The notifications that ended by expiry or by the user, kept so that
/// `wl-toast notifications restore` can show them again (mako's
/// `max-history`, dunst's `history_length`): newest first, at most
/// ``limit`` of them and ``byteBudget`` bytes of their text and pixels (as
/// the live ones are counted); past either, the oldest goes. A limit of 0
/// keeps none.
///
/// Each entry is held as the server held it live, its image already cut to
/// at most 256 px a side (256 KiB of pixels).
package struct NotificationHistory<Entry> {
  /// The most entries kept: mako's default, 5, unless the configuration says otherwise.
  package var limit: Int {
    didSet { trim() }
  }

  /// The most bytes of text and pixels kept (each entry's cost, as given).
  package let byteBudget: Int

  /// The entries, newest first.
  package var entries: [Entry] { kept.map(\.entry) }

  private var kept: [(entry: Entry, cost: Int)] = []
  private var totalCost = 0

  /// An empty history keeping at most `limit` entries and `byteBudget` bytes
  /// (16 MiB by default).
  package init(limit: Int = 5, byteBudget: Int = 16 << 20) {
    self.limit = limit
    self.byteBudget = byteBudget
  }

  /// Keeps `entry`, which holds about `cost` bytes, as the newest; the
  /// oldest go while more than ``limit`` or ``byteBudget`` are kept.
  package mutating func record(_ entry: Entry, cost: Int) {
    guard limit > 0 else { return }
    kept.insert((entry, cost), at: 0)
    totalCost += cost
    trim()
  }

  /// Takes the newest entry out; nil when none is kept.
  package mutating func takeNewest() -> Entry? {
    guard !kept.isEmpty else { return nil }
    let newest = kept.removeFirst()
    totalCost -= newest.cost
    return newest.entry
  }

  /// Forgets every entry `matches`.
  package mutating func remove(where matches: (Entry) -> Bool) {
    kept.removeAll { matches($0.entry) }
    totalCost = kept.reduce(0) { $0 + $1.cost }
  }

  private mutating func trim() {
    while let oldest = kept.last, kept.count > max(limit, 0) || totalCost > byteBudget {
      kept.removeLast()
      totalCost -= oldest.cost
    }
  }
}
