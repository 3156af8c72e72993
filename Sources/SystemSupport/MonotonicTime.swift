import Glibc

/// A point on the monotonic clock (`CLOCK_MONOTONIC`, the clock of timerfds),
/// in nanoseconds.
public struct MonotonicTime: Comparable, Hashable, Sendable {
  /// Nanoseconds since an arbitrary start.
  public var nanoseconds: UInt64

  /// Creates a time from nanoseconds.
  public init(nanoseconds: UInt64) { self.nanoseconds = nanoseconds }

  /// The current time.
  public static var now: MonotonicTime {
    var spec = timespec()
    clock_gettime(CLOCK_MONOTONIC, &spec)
    return MonotonicTime(nanoseconds: UInt64(spec.tv_sec) * 1_000_000_000 + UInt64(spec.tv_nsec))
  }

  /// The time in seconds since the clock's start.
  public var seconds: Double { Double(nanoseconds) / 1e9 }

  /// This time moved by `duration` (not before the clock's start; a century at most).
  public func advanced(by duration: Duration) -> MonotonicTime {
    let (seconds, attoseconds) = duration.components
    let century: Int64 = 3_155_760_000
    let nanos =
      Int64(clamping: min(max(seconds, -century), century)) * 1_000_000_000 + attoseconds
      / 1_000_000_000
    if nanos >= 0 { return MonotonicTime(nanoseconds: nanoseconds &+ UInt64(nanos)) }
    return MonotonicTime(nanoseconds: nanoseconds - min(nanoseconds, nanos.magnitude))
  }

  /// The time from `other` to this one (negative when this one is earlier).
  public func duration(since other: MonotonicTime) -> Duration {
    nanoseconds >= other.nanoseconds
      ? .nanoseconds(Int64(clamping: nanoseconds - other.nanoseconds))
      : .nanoseconds(-Int64(clamping: other.nanoseconds - nanoseconds))
  }

  /// This time moved by `duration`.
  public static func + (time: MonotonicTime, duration: Duration) -> MonotonicTime {
    time.advanced(by: duration)
  }

  /// The time from `earlier` to `later`.
  public static func - (later: MonotonicTime, earlier: MonotonicTime) -> Duration {
    later.duration(since: earlier)
  }

  /// Whether `lhs` comes before `rhs`.
  public static func < (lhs: MonotonicTime, rhs: MonotonicTime) -> Bool {
    lhs.nanoseconds < rhs.nanoseconds
  }
}

/// Waits `duration` between two tries of something that cannot be waited for
/// on a descriptor (a full socket backlog, a busy lock, a child's exit).
public func pause(for duration: Duration) {
  var nothing = pollfd()
  _ = poll(&nothing, 0, Duration.pollTimeout(duration))
}

extension Duration {
  /// The duration in seconds, as a floating-point number.
  public var inSeconds: Double {
    let (seconds, attoseconds) = components
    return Double(seconds) + Double(attoseconds) / 1e18
  }

  /// A duration of `seconds`, which may be fractional; NaN is zero, and
  /// anything beyond a century is a century.
  public static func seconds(clamping seconds: Double) -> Duration {
    let century = 3_155_760_000.0
    let value = seconds.isNaN ? 0 : min(max(seconds, -century), century)
    return .nanoseconds(Int64((value * 1e9).rounded()))
  }

  /// Whole milliseconds, rounded up, for `poll()`: -1 (forever) for nil, at
  /// most about 24 days.
  public static func pollTimeout(_ duration: Duration?) -> Int32 {
    guard let duration else { return -1 }
    let milliseconds = (duration.inSeconds * 1000).rounded(.up)
    return Int32(min(max(milliseconds, 0), 2_000_000_000))
  }
}
