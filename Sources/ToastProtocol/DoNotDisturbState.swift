import Glibc
import ToastModel

/// Do-not-disturb's state, which outlives owners: a file named
/// `do-not-disturb` in the rendezvous's private directory, there while it is
/// on. One state for all the user's displays; the runtime directory, and with
/// it the state, goes at logout.
///
/// As with the socket, nothing is followed that is not the user's own: the
/// directory must be the user's and private, and the file a regular file of
/// the user's (a symbolic link or another's file is refused with
/// ``RendezvousError/notOurFile(_:)``).
package struct DoNotDisturbState: Sendable {
  private let rendezvous: Rendezvous
  /// The private directory.
  package var directory: String { rendezvous.directory }
  /// The state file's path.
  package let path: String
  /// The state file's name.
  package static let fileName = "do-not-disturb"

  /// The state kept beside `rendezvous`'s socket.
  package init(_ rendezvous: Rendezvous) {
    self.rendezvous = rendezvous
    path = rendezvous.directory + "/" + Self.fileName
  }

  /// The state: on while the file is there. No directory yet is off.
  package func read() throws(RendezvousError) -> DoNotDisturb {
    var info = stat()
    guard lstat(directory, &info) == 0 else {
      if errno == ENOENT { return .off }
      throw .system("inspect", directory)
    }
    guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == getuid(), info.st_mode & 0o077 == 0
    else { throw .directoryNotPrivate(directory) }
    guard lstat(path, &info) == 0 else {
      if errno == ENOENT { return .off }
      throw .system("inspect", path)
    }
    guard info.st_mode & S_IFMT == S_IFREG, info.st_uid == getuid() else {
      throw .notOurFile(path)
    }
    return .on
  }

  /// Sets the state: creates the file (mode 0600) or removes it.
  package func write(_ state: DoNotDisturb) throws(RendezvousError) {
    try rendezvous.prepareDirectory()
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
