import Glibc

/// A file descriptor this code owns: closed when the value goes away, so that
/// no error path has to pair its own `close()`. It cannot be copied (a copy
/// would close it twice); ``take()`` gives the number up (to hand it to another
/// process), ``close()`` closes it where the error matters.
public struct FileDescriptor: ~Copyable {
  /// The descriptor's number, for system calls; the value still owns it.
  public let rawValue: Int32

  /// Takes ownership of `rawValue`, an open descriptor.
  public init(_ rawValue: Int32) {
    self.rawValue = rawValue
  }

  /// Takes ownership of what a call returned: nil when it failed (below 0),
  /// `errno` left as the call set it.
  public init?(returnedBy rawValue: Int32) {
    guard rawValue >= 0 else { return nil }
    self.rawValue = rawValue
  }

  deinit {
    Glibc.close(rawValue)
  }

  /// Closes it, reporting the error (a socket whose last data could not be
  /// sent, a file on a full disk).
  public consuming func close() throws(Errno) {
    let raw = rawValue
    discard self
    guard Glibc.close(raw) == 0 else { throw Errno.current }
  }

  /// Gives up ownership: the number, which the caller (or another process)
  /// now closes.
  public consuming func take() -> Int32 {
    let raw = rawValue
    discard self
    return raw
  }
}
