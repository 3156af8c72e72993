import Glibc

/// A value of `errno`: what a failed system call reports.
public struct Errno: Error, Equatable, Hashable, Sendable, CustomStringConvertible {
  /// The number.
  public var rawValue: Int32

  /// The error with this number.
  public init(rawValue: Int32) { self.rawValue = rawValue }

  /// The error of the last failed call on this thread.
  public static var current: Errno { Errno(rawValue: errno) }

  /// The system's text for it, such as "No such file or directory".
  public var description: String { String(cString: strerror(rawValue)) }

  /// EINTR: a signal interrupted the call.
  public static let interrupted = Errno(rawValue: EINTR)
  /// EAGAIN: nothing to do now on a non-blocking descriptor.
  public static let wouldBlock = Errno(rawValue: EAGAIN)
}

/// Runs a system call until a signal does not interrupt it: the result of the
/// first call that did not fail with EINTR (`errno` still set when it failed).
///
/// ```swift
/// let count = retryingOnInterrupt { read(fd, &buffer, buffer.count) }
/// ```
@inlinable
public func retryingOnInterrupt<Result: BinaryInteger>(_ call: () -> Result) -> Result {
  while true {
    let result = call()
    if result >= 0 || errno != EINTR { return result }
  }
}
