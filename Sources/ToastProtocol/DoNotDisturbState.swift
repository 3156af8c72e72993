import Glibc
import SystemSupport
import ToastModel

/// Do-not-disturb's state, which outlives owners: a file named
/// `do-not-disturb` in `state/` under the rendezvous's private directory,
/// there while it is on. One state for all the user's displays; the runtime
/// directory, and with it the state, goes at logout. The state has a
/// directory of its own so that owners, which follow it with inotify, hear of
/// nothing else (other displays' sockets and locks).
///
/// As with the socket, nothing is followed that is not the user's own: both
/// directories must be the user's and private (each opened once and checked
/// through its descriptor, the file reached through it), and the file a
/// regular file of the user's (a symbolic link or another's file is refused
/// with ``RendezvousError/notOurFile(_:)``).
package struct DoNotDisturbState: Sendable {
  private let rendezvous: Rendezvous
  /// The directory of the state, for messages (owners watch it through its descriptor).
  package let directory: String
  /// The state file's path.
  package let path: String
  /// The state file's name.
  package static let fileName = "do-not-disturb"
  /// The name of the state's directory in the rendezvous's.
  package static let directoryName = "state"
  /// How long a change waits for another's to end before it gives up.
  static let lockTimeout: Duration = .seconds(10)

  /// The state kept beside `rendezvous`'s socket.
  package init(_ rendezvous: Rendezvous) {
    self.rendezvous = rendezvous
    directory = rendezvous.directory + "/" + Self.directoryName
    path = directory + "/" + Self.fileName
  }

  /// The state's directory, created if needed (both it and the rendezvous's),
  /// opened and checked: for an owner to watch it, and for a change.
  package func openDirectory() throws(RendezvousError) -> PrivateDirectory {
    try rendezvous.openDirectory().prepared(Self.directoryName)
  }

  /// The state: on while the file is there. No directory yet is off.
  package func read() throws(RendezvousError) -> DoNotDisturb {
    guard let top = try PrivateDirectory.existing(rendezvous.directory),
      let state = try top.existing(Self.directoryName)
    else { return .off }
    return try read(in: state)
  }

  /// The state as the file in `state` (the state's directory) says.
  private func read(in state: borrowing PrivateDirectory) throws(RendezvousError) -> DoNotDisturb {
    try state.hasOwnEntry(Self.fileName, type: S_IFREG, else: .notOurFile(path)) ? .on : .off
  }

  /// Sets the state: creates the file (mode 0600) or removes it.
  package func write(_ state: DoNotDisturb) throws(RendezvousError) {
    _ = try change { _ in state }
  }

  /// Changes the state as `change` says from the current one, and returns
  /// the new one. The state's directory is locked (`flock`) from the reading
  /// to the writing, so that changes made at once follow one another: of N
  /// toggles, each sees the state the one before left.
  package func change(_ change: (DoNotDisturb) -> DoNotDisturb) throws(RendezvousError)
    -> DoNotDisturb
  {
    let state = try openDirectory()
    try lock(state)
    let current = try read(in: state)
    let next = change(current)
    guard next != current else { return next }
    switch next {
    case .on:
      guard let file = state.openFile(Self.fileName, O_WRONLY | O_CREAT | O_NONBLOCK) else {
        if errno == ELOOP { throw .notOurFile(path) }
        throw .system("create", path)
      }
      var info = stat()
      guard fstat(file.rawValue, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
        info.st_uid == getuid()
      else { throw .notOurFile(path) }
    case .off:
      guard state.remove(Self.fileName) || errno == ENOENT else { throw .system("remove", path) }
    }
    // The lock goes as the directory's descriptor closes.
    return next
  }

  /// Locks the state's directory for a change, waiting for another's to end
  /// (a change holds it for a moment) until ``lockTimeout`` passes.
  private func lock(_ state: borrowing PrivateDirectory) throws(RendezvousError) {
    let deadline = MonotonicTime.now + Self.lockTimeout
    while retryingOnInterrupt({ flock(state.descriptor.rawValue, LOCK_EX | LOCK_NB) }) != 0 {
      guard errno == EWOULDBLOCK else { throw .system("lock", directory) }
      guard MonotonicTime.now < deadline else { throw .lockBusy(directory) }
      // A change holds the lock for a moment: a few looks, not a spin.
      pause(for: .milliseconds(10))
    }
  }
}
