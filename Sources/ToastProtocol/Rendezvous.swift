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
/// ever followed, and peers on both sides are checked with `SO_PEERCRED`. The
/// directory is opened once and checked through its descriptor, and the lock
/// file and the socket are reached through it (``PrivateDirectory``): a
/// directory swapped for a link after the check is not followed.
package struct Rendezvous: Sendable {
  /// The private directory.
  package let directory: String
  /// The socket of the owner for this display.
  package let socketPath: String
  /// The lock file that elects one owner.
  package let lockPath: String
  /// The socket's name in the directory.
  private let socketName: String
  /// The lock file's name in the directory.
  private let lockName: String

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
    socketName = key + ".sock"
    lockName = key + ".lock"
    socketPath = directory + "/" + socketName
    lockPath = directory + "/" + lockName
    // The socket is reached through the directory's descriptor, but its path
    // is where others (a systemd socket unit) bind it.
    guard socketPath.utf8.count <= maximumUnixPathLength else {
      throw .pathTooLong(socketPath)
    }
  }

  /// The private directory, created if needed, opened and checked.
  package func openDirectory() throws(RendezvousError) -> PrivateDirectory {
    try PrivateDirectory.prepared(directory)
  }

  /// Whether the user's own socket is in `directory` (false: nothing is);
  /// throws for anything else there.
  private func hasOurSocket(in directory: borrowing PrivateDirectory) throws(RendezvousError)
    -> Bool
  {
    try directory.hasOwnEntry(socketName, type: S_IFSOCK, else: .notOurSocket(socketPath))
  }

  /// Connects to a running owner; nil when there is none (no socket, or a stale
  /// one). The socket is non-blocking. An owner whose backlog is full (stopped,
  /// or overloaded) is tried again until `deadline`, then given up on.
  package func connect(until deadline: MonotonicTime = .now) throws(RendezvousError)
    -> FileDescriptor?
  {
    try connect(in: openDirectory(), until: deadline)
  }

  /// ``connect(until:)`` to the socket in `directory`.
  private func connect(in directory: borrowing PrivateDirectory, until deadline: MonotonicTime)
    throws(RendezvousError) -> FileDescriptor?
  {
    guard try hasOurSocket(in: directory) else { return nil }
    guard let fd = FileDescriptor(returnedBy: packetSocket()) else {
      throw .system("create a socket for", socketPath)
    }
    let address = directory.addressPath(of: socketName)
    while true {
      if retryingOnInterrupt({
        withUnixAddress(address) { Glibc.connect(fd.rawValue, $0, $1) } ?? -1
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
  /// file is removed. Both descriptors close when the listener goes.
  package struct Listener: ~Copyable {
    /// The listening socket.
    package let socket: FileDescriptor
    /// The inode of the socket file it is bound to (0: a file it does not own).
    package let inode: UInt64
    /// The locked election lock file; nil for a socket systemd passed (no election).
    package let lock: FileDescriptor?

    /// A listener of these descriptors, which it owns from now on.
    package init(socket: consuming FileDescriptor, inode: UInt64, lock: consuming FileDescriptor?) {
      self.socket = socket
      self.inode = inode
      self.lock = lock
    }

    /// A listener of descriptors handed over from another process.
    package init(adopting numbers: Numbers) {
      let lock: FileDescriptor? =
        if let number = numbers.lockFD { FileDescriptor(number) } else { nil }
      self.init(socket: FileDescriptor(numbers.fd), inode: numbers.inode, lock: lock)
    }

    /// The descriptors' numbers, to hand them to another process (the
    /// listener still owns them here).
    package var numbers: Numbers {
      let lockFD: Int32? =
        switch lock {
        case .some(let fd): fd.rawValue
        case .none: nil
        }
      return Numbers(fd: socket.rawValue, inode: inode, lockFD: lockFD)
    }

    /// A listener's descriptors by number, as one process hands them to the
    /// program it starts (``OwnerLaunch/serve(_:linger:)``).
    package struct Numbers: Equatable, Sendable {
      /// The listening socket's descriptor.
      package var fd: Int32
      /// The inode of the socket file it is bound to.
      package var inode: UInt64
      /// The election lock's descriptor; nil for none.
      package var lockFD: Int32?

      /// The numbers of a listener's descriptors.
      package init(fd: Int32, inode: UInt64, lockFD: Int32? = nil) {
        self.fd = fd
        self.inode = inode
        self.lockFD = lockFD
      }
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
    let directory = try openDirectory()
    // An owner holds the lock for as long as it runs: while the lock is busy,
    // an owner is starting (or running without its socket); try to reach it.
    // The lock is released when it closes: on any way out but winning.
    let lock: FileDescriptor
    while true {
      if let fd = try connect(in: directory, until: deadline) { return .connected(fd) }
      if let acquired = try tryLockElection(in: directory) {
        lock = acquired
        break
      }
      guard MonotonicTime.now < deadline else { throw .lockBusy(lockPath) }
      pause(for: .milliseconds(5))
    }
    if let fd = try connect(in: directory, until: deadline) { return .connected(fd) }
    // No owner answers: whatever socket is left is stale.
    if try hasOurSocket(in: directory) { _ = directory.remove(socketName) }
    // Non-blocking: the owner accepts every pending connection, then returns to its loop.
    guard let fd = FileDescriptor(returnedBy: packetSocket()) else {
      throw .system("create a socket for", socketPath)
    }
    let previous = umask(0o177)
    let bound =
      withUnixAddress(directory.addressPath(of: socketName)) { bind(fd.rawValue, $0, $1) } ?? -1
    umask(previous)
    guard bound == 0, listen(fd.rawValue, 64) == 0 else { throw .system("listen on", socketPath) }
    guard let info = try directory.status(of: socketName) else {
      throw .system("listen on", path: socketPath, errno: ENOENT)
    }
    return .owner(Listener(socket: fd, inode: UInt64(info.st_ino), lock: lock))
  }

  /// Opens and locks the election lock file in `directory` without waiting;
  /// nil when another process holds it. A file an owner removed as it ended
  /// is never the one locked: only the one now in the directory counts.
  private func tryLockElection(in directory: borrowing PrivateDirectory) throws(RendezvousError)
    -> FileDescriptor?
  {
    while true {
      guard let lock = directory.openFile(lockName, O_RDWR | O_CREAT) else {
        throw .system("open", lockPath)
      }
      fchmod(lock.rawValue, 0o600)  // whatever the umask
      guard retryingOnInterrupt({ flock(lock.rawValue, LOCK_EX | LOCK_NB) }) == 0 else {
        if errno == EWOULDBLOCK { return nil }
        throw .system("lock", lockPath)
      }
      if directory.holds(lock.rawValue, at: lockName) { return lock }
    }
  }

  /// Removes what an owner leaves when it ends: its socket, if it is still
  /// the one `listener` is bound to (a newer owner's stays), then, while the
  /// listener still holds it, the lock file, so that neither piles up. The
  /// lock goes when the listener does.
  package func retire(_ listener: borrowing Listener) {
    let opened: PrivateDirectory?
    do {
      opened = try PrivateDirectory.existing(directory)
    } catch {
      return
    }
    guard let directory = opened else { return }
    if let info = try? directory.status(of: socketName), UInt64(info.st_ino) == listener.inode {
      _ = directory.remove(socketName)
    }
    if let lock = listener.numbers.lockFD, directory.holds(lock, at: lockName) {
      _ = directory.remove(lockName)
    }
  }
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
package func refuseClients(
  of listener: borrowing Rendezvous.Listener, answer: (String) -> OwnerReply
) {
  while true {
    var waiting = pollfd(fd: listener.socket.rawValue, events: Int16(POLLIN), revents: 0)
    guard retryingOnInterrupt({ poll(&waiting, 1, 200) }) > 0 else { return }
    // Each connection closes as the loop goes round.
    guard let connection = FileDescriptor(returnedBy: wlt_accept(listener.socket.rawValue)) else {
      continue
    }
    let fd = connection.rawValue
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
  }
}
