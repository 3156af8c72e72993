import Glibc
import SystemSupport

/// A Unix stream socket in a directory of its own that listens and never
/// accepts, as a stopped compositor's does: connections wait in its
/// backlog, and nothing answers them. Removed as the value goes.
package final class SilentSocket {
  /// The socket's path (for `Display(name:)`).
  package let path: String
  private let directory: String
  private let listener: Int32

  /// Listens at a new path with `backlog` (0 holds one connection).
  package init(backlog: Int32) throws {
    directory = try makeTemporaryDirectory(prefix: "wl-toast-silent")
    path = directory + "/wayland-silent"
    listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    guard listener >= 0, withUnixAddress(path, { bind(listener, $0, $1) }) == 0,
      listen(listener, backlog) == 0
    else {
      let error = Errno.current
      if listener >= 0 { close(listener) }
      removeTree(directory)
      throw HarnessError("cannot listen at \(path): \(error)")
    }
  }

  deinit {
    close(listener)
    removeTree(directory)
  }
}

/// Connections to the listening Unix socket at a path that nobody accepts
/// (a stopped program's), made until its backlog is full: a client's
/// connect would then wait for room. Closed as the value goes.
package final class QueuedConnections {
  /// Whether the backlog filled: a last connect was refused for want of room.
  package private(set) var filledBacklog = false
  private var descriptors: [Int32] = []

  /// Connects, without waiting, until the backlog is full or `limit`
  /// connections wait.
  package init(toSocketAt path: String, limit: Int = 256) {
    for _ in 0..<limit {
      let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue), 0)
      guard fd >= 0 else { break }
      descriptors.append(fd)
      if withUnixAddress(path, { connect(fd, $0, $1) }) == -1 && errno == EAGAIN {
        filledBacklog = true
        break
      }
    }
  }

  /// Closes them (the program, once it goes on, finds them gone).
  package func close() {
    for fd in descriptors { Glibc.close(fd) }
    descriptors = []
  }

  deinit { close() }
}
