/// The delays between attempts to reach a server that is away: from
/// ``first``, doubling up to ``limit``, back to the first once reached.
package struct Backoff: Equatable, Sendable {
  /// The first delay.
  package static let first: Duration = .milliseconds(250)
  /// The longest delay.
  package static let limit: Duration = .seconds(30)

  /// The delay before the next attempt.
  package private(set) var next: Duration = Backoff.first

  /// Backoff at its first delay.
  package init() {}

  /// The delay before the next attempt; the one after is twice as long, at
  /// most ``limit``.
  package mutating func delay() -> Duration {
    defer { next = min(next * 2, Self.limit) }
    return next
  }

  /// The server was reached: the next loss waits the first delay again.
  package mutating func reset() { next = Self.first }
}
