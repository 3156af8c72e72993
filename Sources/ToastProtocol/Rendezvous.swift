import CSystem
import Glibc
import SystemSupport

/// Why the per-user socket could not be used.
package enum RendezvousError: Error, Equatable, CustomStringConvertible {
  /// A system call on a path failed: what was being done, the path, the errno.
  case system(String, path: String, errno: Int32)
  /// The socket's path does not fit in `sockaddr_un`.
  case pathTooLong(String)
  /// The directory is not a private directory of the user's.
  case directoryNotPrivate(String)
  /// Something other than the user's own socket is at the socket's path.
  case notOurSocket(String)
  /// Something other than the user's own regular file is at a state file's path.
  case notOurFile(String)
  /// The process listening on the socket runs as another user.
  case foreignOwner(String)
  /// The owner does not take connections (stopped, or too busy) and the time
  /// to wait for it ran out.
  case ownerBusy(String)
  /// Another command holds the election lock and the time to wait ran out.
  case lockBusy(String)

  /// One line without the program name.
  package var description: String {
    switch self {
    case .system(let what, let path, let code): "cannot \(what) \(path): \(Errno(rawValue: code))"
    case .pathTooLong(let path): "the socket path \(path) is too long"
    case .directoryNotPrivate(let path):
      "refusing to use \(path): it is not a private directory owned by you"
    case .notOurSocket(let path): "refusing to use \(path): it is not a socket owned by you"
    case .notOurFile(let path): "refusing to use \(path): it is not a regular file owned by you"
    case .foreignOwner(let path): "refusing \(path): its owner runs as another user"
    case .ownerBusy(let path):
      "the toast owner at \(path) takes no connections (stopped or overloaded); giving up"
    case .lockBusy(let path): "another wl-toast holds \(path) and does not let go; giving up"
    }
  }

  /// The failure of the call just made (`errno`), as an error.
  package static func system(_ what: String, _ path: String) -> RendezvousError {
    .system(what, path: path, errno: errno)
  }
}

/// Where the owner of a display's toasts listens: a socket in a directory
/// private to the user, `$XDG_RUNTIME_DIR/wl-toast/` (or `/tmp/wl-toast-UID/`).
///
/// Nothing that is not the user's own socket in the user's own 0700 directory is
/// ever followed, and peers on both sides are checked with `SO_PEERCRED`.
package struct Rendezvous: Sendable {
  /// The private directory.
  package let directory: String
  /// The socket of the owner for this display.
  package let socketPath: String
  /// The lock file that elects one owner.
  package let lockPath: String

  /// The rendezvous for the Wayland display `display` (or `WAYLAND_DISPLAY`)
  /// in the user's runtime directory `runtimeDirectory` (or `XDG_RUNTIME_DIR`).
  package init(display: String? = nil, runtimeDirectory: String? = nil) throws(RendezvousError) {
    let name =
      display ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) }.flatMap {
        $0.isEmpty ? nil : $0
      } ?? "wayland-0"
    if let runtime = runtimeDirectory ?? getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }),
      runtime.hasPrefix("/")
    {
      directory = runtime + "/wl-toast"
    } else {
      directory = "/tmp/wl-toast-\(getuid())"
    }
    // A display path can be long or hold slashes: name the socket by a hash then.
    let safe = name.utf8.allSatisfy { $0 >= 0x2d && $0 < 0x7f && $0 != 0x2f } && name.count <= 32
    let key = safe ? name : "display-" + hex(fnv1a(name))
    socketPath = directory + "/" + key + ".sock"
    lockPath = directory + "/" + key + ".lock"
    guard socketPath.utf8.count <= maximumUnixPathLength else {
      throw .pathTooLong(socketPath)
    }
  }

  /// Creates the private directory if needed and checks that it is ours and private.
  package func prepareDirectory() throws(RendezvousError) {
    try preparePrivateDirectory(directory)
  }

  /// Whether the user's own socket is at the socket path (false: nothing is);
  /// throws for anything else there.
  func hasOurSocket() throws(RendezvousError) -> Bool {
    try isOwnEntry(socketPath, type: S_IFSOCK, else: .notOurSocket(socketPath))
  }

  /// Connects to a running owner; nil when there is none (no socket, or a stale
  /// one). The socket is non-blocking. An owner whose backlog is full (stopped,
  /// or overloaded) is tried again until `deadline`, then given up on.
  package func connect(until deadline: MonotonicTime = .now) throws(RendezvousError)
    -> FileDescriptor?
  {
    try prepareDirectory()
    guard try hasOurSocket() else { return nil }
    guard let fd = FileDescriptor(returnedBy: packetSocket()) else {
      throw .system("create a socket for", socketPath)
    }
    while true {
      // The path fits: init checked its length.
      if retryingOnInterrupt({
        withUnixAddress(socketPath) { Glibc.connect(fd.rawValue, $0, $1) } ?? -1
      }) == 0 {
        break
      }
      let code = errno
      if code == EAGAIN && MonotonicTime.now < deadline {
        pause(for: .milliseconds(5))
        continue
      }
      if code == ECONNREFUSED || code == ENOENT { return nil }
      if code == EAGAIN { throw .ownerBusy(socketPath) }
      errno = code
      throw .system("connect to", socketPath)
    }
    guard peerUID(fd.rawValue) == getuid() else { throw .foreignOwner(socketPath) }
    return fd
  }

  /// A new non-blocking sequential-packet Unix socket, or -1.
  private func packetSocket() -> Int32 {
    socket(
      AF_UNIX,
      Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        | Int32(SOCK_NONBLOCK.rawValue), 0)
  }

  /// The outcome of an election.
  package enum Election: ~Copyable {
    /// An owner runs: a connected socket to it.
    case connected(FileDescriptor)
    /// This process won: a listening socket; become the owner.
    case owner(Listener)
  }

  /// A listening socket, the identity of the file it is bound to, and the
  /// election lock, which the owner holds for as long as it runs: while it
  /// does, no other process can become the display's owner, even if its socket
  /// file is removed.
  package struct Listener: Equatable, Sendable {
    /// The listening descriptor.
    package let fd: Int32
    /// The inode of the socket file it is bound to.
    package let inode: UInt64
    /// The locked election lock file; nil for a socket systemd passed (no election).
    package let lockFD: Int32?

    /// A listener handed over from another process.
    package init(fd: Int32, inode: UInt64, lockFD: Int32? = nil) {
      self.fd = fd
      self.inode = inode
      self.lockFD = lockFD
    }

    /// Whether `fd` is a listening sequential-packet socket, the only kind an
    /// owner serves on (not `/dev/null`, a closed descriptor or a stream).
    package static func isListeningSocket(_ fd: Int32) -> Bool {
      var type: Int32 = 0
      var listening: Int32 = 0
      var size = socklen_t(MemoryLayout<Int32>.size)
      return getsockopt(fd, SOL_SOCKET, SO_TYPE, &type, &size) == 0
        && type == Int32(SOCK_SEQPACKET.rawValue)
        && getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &listening, &size) == 0 && listening == 1
    }
  }

  /// Connects to the owner or, when there is none, becomes it: under an exclusive
  /// lock, so that commands started at once end with exactly one owner.
  /// Waits no longer than `deadline` for a busy owner or another command's lock.
  package func connectOrListen(until deadline: MonotonicTime) throws(RendezvousError) -> Election {
    // An owner holds the lock for as long as it runs: while the lock is busy,
    // an owner is starting (or running without its socket); try to reach it.
    // The lock is released when it closes: on any way out but winning.
    let lock: FileDescriptor
    while true {
      if let fd = try connect(until: deadline) { return .connected(fd) }
      if let acquired = try tryLockElection() {
        lock = acquired
        break
      }
      guard MonotonicTime.now < deadline else { throw .lockBusy(lockPath) }
      pause(for: .milliseconds(5))
    }
    if let fd = try connect(until: deadline) { return .connected(fd) }
    // No owner answers: whatever socket is left is stale.
    if try hasOurSocket() { unlink(socketPath) }
    // Non-blocking: the owner accepts every pending connection, then returns to its loop.
    guard let fd = FileDescriptor(returnedBy: packetSocket()) else {
      throw .system("create a socket for", socketPath)
    }
    let previous = umask(0o177)
    let bound = withUnixAddress(socketPath) { bind(fd.rawValue, $0, $1) } ?? -1
    umask(previous)
    var info = stat()
    guard bound == 0, listen(fd.rawValue, 64) == 0, lstat(socketPath, &info) == 0 else {
      throw .system("listen on", socketPath)
    }
    return .owner(Listener(fd: fd.take(), inode: UInt64(info.st_ino), lockFD: lock.take()))
  }

  /// Opens and locks the election lock file without waiting; nil when another
  /// process holds it. A file an owner removed as it ended is never the one
  /// locked: only the one now at the path counts.
  private func tryLockElection() throws(RendezvousError) -> FileDescriptor? {
    while true {
      guard
        let lock = FileDescriptor(
          returnedBy: open(lockPath, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0o600))
      else { throw .system("open", lockPath) }
      fchmod(lock.rawValue, 0o600)  // whatever the umask
      guard retryingOnInterrupt({ flock(lock.rawValue, LOCK_EX | LOCK_NB) }) == 0 else {
        if errno == EWOULDBLOCK { return nil }
        throw .system("lock", lockPath)
      }
      if isFile(lock.rawValue, at: lockPath) { return lock }
    }
  }

  /// Removes the socket if it is still the one `listener` is bound to (a newer
  /// owner's socket stays).
  package func removeSocket(of listener: Listener) {
    var info = stat()
    if lstat(socketPath, &info) == 0, UInt64(info.st_ino) == listener.inode { unlink(socketPath) }
  }

  /// Everything an owner leaves when it ends: its socket, then, while it still
  /// holds it, the lock file, so that neither piles up; then the lock goes.
  package func retire(_ listener: Listener) {
    removeSocket(of: listener)
    close(listener.fd)
    guard let lock = listener.lockFD else { return }
    if isFile(lock, at: lockPath) { unlink(lockPath) }
    close(lock)
  }
}

/// Creates the directory at `path` (mode 0700) if needed and checks that it
/// is the user's own and private.
func preparePrivateDirectory(_ path: String) throws(RendezvousError) {
  if mkdir(path, 0o700) == 0 {
    // 0700 whatever the umask: a mode-000 directory would lock the user out.
    chmod(path, 0o700)
  } else if errno != EEXIST {
    throw .system("create", path)
  }
  guard try isPrivateDirectory(path) else { throw .system("inspect", path) }
}

/// Whether the private directory at `path` exists: false when nothing is
/// there; throws when what is there is not a directory of the user's, closed
/// to others (a link included).
func isPrivateDirectory(_ path: String) throws(RendezvousError) -> Bool {
  try isOwnEntry(path, type: S_IFDIR, closedToOthers: true, else: .directoryNotPrivate(path))
}

/// Whether the user's own file of `type` (`S_IFSOCK`, `S_IFREG`, …) is at
/// `path`, never following a link: false when nothing is there; throws
/// `refusal` for anything else there (another type, another user's, or with
/// `closedToOthers` one that others may use).
func isOwnEntry(
  _ path: String, type: mode_t, closedToOthers: Bool = false, else refusal: RendezvousError
) throws(RendezvousError) -> Bool {
  var info = stat()
  guard lstat(path, &info) == 0 else {
    if errno == ENOENT { return false }
    throw .system("inspect", path)
  }
  guard info.st_mode & S_IFMT == type, info.st_uid == getuid(),
    !closedToOthers || info.st_mode & 0o077 == 0
  else { throw refusal }
  return true
}

/// Whether `fd` is the file now at `path` (not one removed or replaced since).
private func isFile(_ fd: Int32, at path: String) -> Bool {
  var open = stat()
  var named = stat()
  return fstat(fd, &open) == 0 && lstat(path, &named) == 0 && open.st_dev == named.st_dev
    && open.st_ino == named.st_ino
}

/// The uid of the process at the other end of a Unix socket, or nil.
package func peerUID(_ fd: Int32) -> uid_t? {
  let uid = wlt_peer_uid(fd)
  return uid < 0 ? nil : uid_t(uid)
}

func fnv1a(_ text: String) -> UInt64 {
  var hash: UInt64 = 0xcbf2_9ce4_8422_2325
  for byte in text.utf8 {
    hash ^= UInt64(byte)
    hash = hash &* 0x100_0000_01b3
  }
  return hash
}

func hex(_ value: UInt64) -> String {
  let digits = String(value, radix: 16)
  return String(repeating: "0", count: max(0, 16 - digits.count)) + digits
}

/// Answers every command waiting on `listener` with a failure, for an owner
/// that cannot start: its first command connected before it ran, and others
/// may have since. `answer` turns each request's text into the reply (a usage
/// error in the content wins over the failure). Returns once no command has
/// connected for a moment.
package func refuseClients(of listener: Rendezvous.Listener, answer: (String) -> OwnerReply) {
  while true {
    var waiting = pollfd(fd: listener.fd, events: Int16(POLLIN), revents: 0)
    guard retryingOnInterrupt({ poll(&waiting, 1, 200) }) > 0 else { return }
    let fd = wlt_accept(listener.fd)
    guard fd >= 0 else { continue }
    // Take the request first, so that the answer follows it.
    var request = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    var text = ""
    if retryingOnInterrupt({ poll(&request, 1, 1000) }) > 0 {
      var buffer = [UInt8](repeating: 0, count: maximumMessageSize)
      let count = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
      if count > 0 { text = String(decoding: buffer[0..<count], as: UTF8.self) }
    }
    let reply = Array((answer(text).encoded + "\n").utf8)
    _ = send(fd, reply, reply.count, Int32(MSG_NOSIGNAL))
    close(fd)
  }
}
