import Glibc
import SystemSupport
import ToastKit
import ToastProtocol

/// Follows do-not-disturb's state file for an owner: inotify on the private
/// directory, in the owner's event loop, so that `wl-toast dnd` (for any
/// display) reaches every owner at once, and nothing wakes while nothing
/// changes there.
final class DoNotDisturbWatch {
  private let state: DoNotDisturbState
  private let loop: EventLoop
  private let inotify: FileDescriptor
  private var token: EventLoop.Token?
  private let onChange: (DoNotDisturb) -> Void

  /// Watches `state`'s directory, telling `onChange` the state whenever the
  /// file comes or goes; nil when inotify is not available (the state is
  /// then read once, at the owner's start).
  init?(_ state: DoNotDisturbState, loop: EventLoop, onChange: @escaping (DoNotDisturb) -> Void) {
    guard let inotify = FileDescriptor(returnedBy: inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)))
    else { return nil }
    let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM | IN_ATTRIB)
    guard inotify_add_watch(inotify.rawValue, state.directory, mask) >= 0 else { return nil }
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

  /// Reads what inotify reports; an event on the state file's name reads the state again.
  private func readEvents() {
    var buffer = [UInt8](repeating: 0, count: 4096)
    var concerned = false
    while true {
      let count = retryingOnInterrupt { read(inotify.rawValue, &buffer, buffer.count) }
      guard count > 0 else { break }
      concerned =
        concerned || inotifyFileNames(in: buffer[..<count]).contains(DoNotDisturbState.fileName)
    }
    guard concerned else { return }
    // A file that is not ours at the path: do-not-disturb stays as it was.
    if let current = try? state.read() { onChange(current) }
  }
}

/// The file names of a buffer of `inotify_event` records.
func inotifyFileNames(in events: ArraySlice<UInt8>) -> [String] {
  var names: [String] = []
  var offset = events.startIndex
  let header = MemoryLayout<inotify_event>.size
  while offset + header <= events.endIndex {
    let length = events[offset..<offset + header].withUnsafeBytes {
      Int($0.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
    }
    let nameStart = offset + header
    let nameEnd = min(nameStart + length, events.endIndex)
    let bytes = events[nameStart..<nameEnd].prefix { $0 != 0 }
    names.append(String(decoding: bytes, as: UTF8.self))
    offset = nameEnd
  }
  return names
}
