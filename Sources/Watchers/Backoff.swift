/// The delays between attempts to reach a server that is away: from
/// ``first``, doubling up to ``limit``, which stays until ``reset()``.
package struct Backoff: Equatable, Sendable {
  /// The first delay.
  package let first: Duration
  /// The longest delay.
  package let limit: Duration

  /// The delay before the next attempt.
  package private(set) var next: Duration

  /// Backoff at its first delay: by default 0.25 s, doubling up to 30 s.
  package init(first: Duration = .milliseconds(250), limit: Duration = .seconds(30)) {
    self.first = first
    self.limit = limit
    next = first
  }

  /// The delay before the next attempt; the one after is twice as long, at
  /// most ``limit``.
  package mutating func delay() -> Duration {
    defer { next = min(next * 2, limit) }
    return next
  }

  /// The server was reached: the next loss waits the first delay again.
  package mutating func reset() { next = first }
}
