import Glibc
import SystemSupport

/// A directory of the user's, closed to others, opened once and checked
/// through its descriptor: whatever is reached in it afterwards (files with
/// `openat`, sockets by ``addressPath(of:)``) is in the very directory that
/// was checked, even when its path is swapped for a link meanwhile.
///
/// Nothing is followed that is not the user's own: a link where the
/// directory should be, another's directory or one that others may enter
/// is refused with ``RendezvousError/directoryNotPrivate(_:)``.
package struct PrivateDirectory: ~Copyable {
  /// The directory's path, for messages (and for the paths of what is in it).
  package let path: String
  /// The open directory.
  package let descriptor: FileDescriptor

  private init(path: String, descriptor: consuming FileDescriptor) {
    self.path = path
    self.descriptor = descriptor
  }

  /// The directory at `path`; nil when nothing is there.
  package static func existing(_ path: String) throws(RendezvousError) -> PrivateDirectory? {
    try open(path, in: AT_FDCWD, creating: false)
  }

  /// The directory at `path`, made (mode 0700, whatever the umask) when
  /// nothing is there.
  package static func prepared(_ path: String) throws(RendezvousError) -> PrivateDirectory {
    guard let directory = try open(path, in: AT_FDCWD, creating: true) else {
      throw .system("open", path: path, errno: ENOENT)
    }
    return directory
  }

  /// The directory `name` in this one; nil when nothing is there.
  package func existing(_ name: String) throws(RendezvousError) -> PrivateDirectory? {
    try Self.open(path + "/" + name, at: name, in: descriptor.rawValue, creating: false)
  }

  /// The directory `name` in this one, made (mode 0700) when nothing is there.
  package func prepared(_ name: String) throws(RendezvousError) -> PrivateDirectory {
    let path = path + "/" + name
    guard let directory = try Self.open(path, at: name, in: descriptor.rawValue, creating: true)
    else { throw .system("open", path: path, errno: ENOENT) }
    return directory
  }

  /// Opens (and with `creating`, first makes) the directory `name` relative
  /// to `parent` (a directory's descriptor, or `AT_FDCWD` for a path), never
  /// following a link, and checks it; `path` names it in errors.
  private static func open(
    _ path: String, at name: String? = nil, in parent: Int32, creating: Bool
  ) throws(RendezvousError) -> PrivateDirectory? {
    let name = name ?? path
    if creating {
      if mkdirat(parent, name, 0o700) == 0 {
        // 0700 whatever the umask (a mode-000 directory would lock the user
        // out); the process's umask is left alone, other threads may use it.
        guard fchmodat(parent, name, 0o700, 0) == 0 else { throw .system("create", path) }
      } else if errno != EEXIST {
        throw .system("create", path)
      }
    }
    let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC | O_NONBLOCK
    guard let descriptor = FileDescriptor(returnedBy: openat(parent, name, flags)) else {
      let code = errno
      if code == ENOENT && !creating { return nil }
      // A link, a file, or a directory the user may not open: say what it is.
      var info = stat()
      if fstatat(parent, name, &info, AT_SYMLINK_NOFOLLOW) == 0, !isPrivateDirectory(info) {
        throw .directoryNotPrivate(path)
      }
      throw .system("open", path: path, errno: code)
    }
    var info = stat()
    guard fstat(descriptor.rawValue, &info) == 0 else { throw .system("inspect", path) }
    guard isPrivateDirectory(info) else { throw .directoryNotPrivate(path) }
    return PrivateDirectory(path: path, descriptor: descriptor)
  }

  /// Whether `info` is of a directory of the user's that others may not use.
  private static func isPrivateDirectory(_ info: stat) -> Bool {
    info.st_mode & S_IFMT == S_IFDIR && info.st_uid == getuid() && info.st_mode & 0o077 == 0
  }

  /// What is at `name` in the directory, never following a link; nil when
  /// nothing is there.
  package func status(of name: String) throws(RendezvousError) -> stat? {
    var info = stat()
    guard fstatat(descriptor.rawValue, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
      if errno == ENOENT { return nil }
      throw .system("inspect", path + "/" + name)
    }
    return info
  }

  /// Whether the user's own file of `type` (`S_IFSOCK`, `S_IFREG`, …) is at
  /// `name`: false when nothing is there; throws `refusal` for anything else
  /// there (a link, another type, another user's).
  package func hasOwnEntry(_ name: String, type: mode_t, else refusal: RendezvousError)
    throws(RendezvousError) -> Bool
  {
    guard let info = try status(of: name) else { return false }
    guard info.st_mode & S_IFMT == type, info.st_uid == getuid() else { throw refusal }
    return true
  }

  /// Opens the file `name` in the directory with `flags` (`O_NOFOLLOW` and
  /// `O_CLOEXEC` added); nil when that fails, `errno` set.
  package func openFile(_ name: String, _ flags: Int32, mode: mode_t = 0o600) -> FileDescriptor? {
    FileDescriptor(
      returnedBy: openat(descriptor.rawValue, name, flags | O_NOFOLLOW | O_CLOEXEC, mode))
  }

  /// Removes the entry `name`; false when that fails, `errno` set.
  package func remove(_ name: String) -> Bool {
    unlinkat(descriptor.rawValue, name, 0) == 0
  }

  /// Whether `fd` is the file now at `name` (not one removed or replaced since).
  package func holds(_ fd: Int32, at name: String) -> Bool {
    var open = stat()
    guard fstat(fd, &open) == 0, let named = try? status(of: name) else { return false }
    return open.st_dev == named.st_dev && open.st_ino == named.st_ino
  }

  /// A path of this very directory, through its descriptor
  /// (`/proc/self/fd/N`), whatever is at the directory's path by then: for
  /// calls that take a path and no descriptor (`inotify_add_watch`). (The
  /// programs need /proc in any case: the Swift runtime reads its arguments
  /// and its own path there.)
  package var descriptorPath: String { "/proc/self/fd/\(descriptor.rawValue)" }

  /// The path by which `bind` and `connect` reach the socket `name` in this
  /// very directory (`/proc/self/fd/N/NAME`).
  package func addressPath(of name: String) -> String { descriptorPath + "/" + name }
}
