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
