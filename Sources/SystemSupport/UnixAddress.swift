import Glibc

/// Calls `body` with the `sockaddr_un` of a Unix socket path and its length, for
/// `bind` and `connect`, and returns its result; nil, without calling it, when
/// the path does not fit. (Not generic: a generic function of another module
/// has its result's `Optional` type made by the runtime at its first call.)
public func withUnixAddress(
  _ path: String, _ body: (UnsafePointer<sockaddr>, socklen_t) -> Int32
) -> Int32? {
  var address = sockaddr_un()
  address.sun_family = sa_family_t(AF_UNIX)
  var path = path
  let fits = path.withUTF8 { bytes in
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      guard bytes.count < buffer.count else { return false }
      buffer.copyBytes(from: bytes)
      buffer[bytes.count] = 0
      return true
    }
  }
  guard fits else { return nil }
  return withUnsafePointer(to: &address) { pointer in
    pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
      body($0, socklen_t(MemoryLayout<sockaddr_un>.size))
    }
  }
}

/// The longest path a Unix socket address holds, in bytes.
public let maximumUnixPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

/// Connects a new blocking, close-on-exec stream socket to the Unix socket at
/// `path` and returns it. A peer that accepts nothing (a stopped program)
/// leaves connections in its backlog; once that is full, `connect` waits for
/// room, here at most `limit` (the socket's send timeout, which the kernel
/// applies to a connect, then cleared).
///
/// - Throws: the connect's ``Errno``: `EAGAIN` when `limit` passed first,
///   `ENAMETOOLONG` when the path does not fit in an address.
public func connectUnixStream(to path: String, within limit: Duration) throws(Errno) -> Int32 {
  let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
  guard fd >= 0 else { throw .current }
  func sendTimeout(_ duration: Duration) {
    var value = timeval(
      tv_sec: Int(duration.components.seconds),
      tv_usec: Int(duration.components.attoseconds / 1_000_000_000_000))
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &value, socklen_t(MemoryLayout<timeval>.size))
  }
  sendTimeout(limit)
  // -2: the path does not fit.
  let connected = retryingOnInterrupt { withUnixAddress(path) { connect(fd, $0, $1) } ?? -2 }
  guard connected == 0 else {
    let error = connected == -2 ? Errno(rawValue: ENAMETOOLONG) : .current
    close(fd)
    throw error
  }
  sendTimeout(.zero)
  return fd
}
