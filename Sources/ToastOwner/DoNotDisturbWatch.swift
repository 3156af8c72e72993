import Glibc
import SystemSupport
import ToastKit
import ToastProtocol

/// Follows do-not-disturb's state file for an owner: inotify on the state's
/// directory, in the owner's event loop, so that `wl-toast dnd` (for any
/// display) reaches every owner at once, and nothing wakes while nothing
/// changes there. A directory removed (or moved away) is made again and
/// followed anew, for the owner's whole life.
final class DoNotDisturbWatch {
  private let state: DoNotDisturbState
  private let loop: EventLoop
  private let inotify: FileDescriptor
  private var token: EventLoop.Token?
  private let onChange: (DoNotDisturb) -> Void
  /// What is watched: the file coming and going, and the directory itself moving.
  private static let mask = UInt32(
    IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB | IN_MOVE_SELF)

  /// Watches `state`'s directory (made if needed), telling `onChange` the
  /// state whenever the file comes or goes; nil when inotify is not
  /// available or the directory cannot be watched (the state is then read
  /// once, at the owner's start).
  init?(_ state: DoNotDisturbState, loop: EventLoop, onChange: @escaping (DoNotDisturb) -> Void) {
    guard let inotify = FileDescriptor(returnedBy: inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)))
    else { return nil }
    guard Self.watch(state, with: inotify) else { return nil }
    let fd = inotify.rawValue
    self.state = state
    self.loop = loop
    self.inotify = inotify
    self.onChange = onChange
    token = loop.addSource(fd: fd) { [unowned self] _ in readEvents() }
  }

  deinit {
    if let token { loop.remove(token) }
  }

  /// Makes `state`'s directory if needed (private, and checked as always) and
  /// adds it to `inotify`, through the descriptor the directory was checked
  /// by; false when either cannot be done.
  private static func watch(_ state: DoNotDisturbState, with inotify: borrowing FileDescriptor)
    -> Bool
  {
    let directory: PrivateDirectory
    do {
      directory = try state.openDirectory()
    } catch {
      return false
    }
    return inotify_add_watch(inotify.rawValue, directory.descriptorPath, mask) >= 0
  }

  /// Reads what inotify reports; an event on the state file's name reads the
  /// state again. When the directory went (`IN_IGNORED`: the watch is gone
  /// with it), it is made again, watched, and the state read once, so that
  /// a change made before the watch counts too.
  private func readEvents() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var concerned = false
    var lost = false
    while true {
      let count = retryingOnInterrupt { read(inotify.rawValue, &buffer, buffer.count) }
      guard count > 0 else { break }
      for event in inotifyEvents(in: buffer[..<count]) {
        if event.mask & UInt32(IN_Q_OVERFLOW) != 0 {
          // Events were lost: the state is read again, whatever they were.
          concerned = true
        } else if event.mask & UInt32(IN_IGNORED) != 0 {
          lost = true
        } else if event.mask & UInt32(IN_MOVE_SELF) != 0 {
          // Moved away: followed no more where it went (IN_IGNORED follows).
          inotify_rm_watch(inotify.rawValue, event.watch)
        } else if event.name == DoNotDisturbState.fileName {
          concerned = true
        }
      }
    }
    if lost {
      // Nothing more is heard if this fails (the directory is not ours now):
      // do-not-disturb stays as it was, and the log says so once.
      guard Self.watch(state, with: inotify) else {
        printError(
          "wl-toast: cannot follow do-not-disturb in \(state.directory) any more;"
            + " it stays as it was")
        return
      }
      concerned = true
    }
    guard concerned else { return }
    // A file that is not ours at the path: do-not-disturb stays as it was.
    if let current = try? state.read() { onChange(current) }
  }
}

/// One record of inotify: the watch it is of, what happened and the name
/// of the file it happened to (empty for the watched directory itself).
struct InotifyEvent: Equatable {
  var watch: Int32
  var mask: UInt32
  var name: String
}

/// The records of a buffer of `inotify_event` records.
func inotifyEvents(in events: ArraySlice<UInt8>) -> [InotifyEvent] {
  var records: [InotifyEvent] = []
  var offset = events.startIndex
  let header = MemoryLayout<inotify_event>.size
  while offset + header <= events.endIndex {
    let (watch, mask, length) = events[offset..<offset + header].withUnsafeBytes {
      (
        $0.loadUnaligned(fromByteOffset: 0, as: Int32.self),
        $0.loadUnaligned(fromByteOffset: 4, as: UInt32.self),
        Int($0.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
      )
    }
    let nameStart = offset + header
    let nameEnd = min(nameStart + length, events.endIndex)
    let bytes = events[nameStart..<nameEnd].prefix { $0 != 0 }
    records.append(
      InotifyEvent(watch: watch, mask: mask, name: String(decoding: bytes, as: UTF8.self)))
    offset = nameEnd
  }
  return records
}
