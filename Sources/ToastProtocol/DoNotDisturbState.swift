import Glibc
import ToastModel

/// Do-not-disturb's state, which outlives owners: a file named
/// `do-not-disturb` in `state/` under the rendezvous's private directory,
/// there while it is on. One state for all the user's displays; the runtime
/// directory, and with it the state, goes at logout. The state has a
/// directory of its own so that owners, which follow it with inotify, hear of
/// nothing else (other displays' sockets and locks).
///
/// As with the socket, nothing is followed that is not the user's own: both
/// directories must be the user's and private, and the file a regular file of
/// the user's (a symbolic link or another's file is refused with
/// ``RendezvousError/notOurFile(_:)``).
package struct DoNotDisturbState: Sendable {
  private let rendezvous: Rendezvous
  /// The directory of the state, which owners watch.
  package let directory: String
  /// The state file's path.
  package let path: String
  /// The state file's name.
  package static let fileName = "do-not-disturb"

  /// The state kept beside `rendezvous`'s socket.
  package init(_ rendezvous: Rendezvous) {
    self.rendezvous = rendezvous
    directory = rendezvous.directory + "/state"
    path = directory + "/" + Self.fileName
  }

  /// Creates the state's directory if needed (for an owner to watch it).
  package func prepareDirectory() throws(RendezvousError) {
    try rendezvous.prepareDirectory()
    try preparePrivateDirectory(directory)
  }

  /// The state: on while the file is there. No directory yet is off.
  package func read() throws(RendezvousError) -> DoNotDisturb {
    guard try isPrivateDirectory(rendezvous.directory), try isPrivateDirectory(directory) else {
      return .off
    }
    return try isOwnEntry(path, type: S_IFREG, else: .notOurFile(path)) ? .on : .off
  }

  /// Sets the state: creates the file (mode 0600) or removes it.
  package func write(_ state: DoNotDisturb) throws(RendezvousError) {
    try prepareDirectory()
    switch state {
    case .on:
      let fd = open(path, O_WRONLY | O_CREAT | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK, 0o600)
      guard fd >= 0 else {
        if errno == ELOOP { throw .notOurFile(path) }
        throw .system("create", path)
      }
      defer { close(fd) }
      var info = stat()
      guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid()
      else { throw .notOurFile(path) }
    case .off:
      guard try read() == .on else { return }
      guard unlink(path) == 0 || errno == ENOENT else { throw .system("remove", path) }
    }
  }
}
