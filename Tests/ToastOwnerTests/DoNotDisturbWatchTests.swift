import Glibc
import TestSupport
import Testing

@testable import ToastOwner

/// The inotify records the owner reads to follow do-not-disturb's state.
@Suite struct DoNotDisturbWatchTests {
  @Test func inotifyRecordsGiveWhatHappenedToWhichFile() throws {
    let runtime = try makeTemporaryDirectory(prefix: "wl-toast-dnd")
    defer { rmdir(runtime) }
    let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
    #expect(fd >= 0)
    defer { close(fd) }
    let watch = inotify_add_watch(fd, runtime, UInt32(IN_CREATE | IN_DELETE))
    #expect(watch >= 0)
    for name in ["a.lock", "do-not-disturb", String(repeating: "n", count: 200)] {
      let file = open(runtime + "/" + name, O_CREAT | O_WRONLY, 0o600)
      close(file)
      unlink(runtime + "/" + name)
    }
    var buffer = [UInt8](repeating: 0, count: 4096)
    func records() -> [InotifyEvent] {
      let count = read(fd, &buffer, buffer.count)
      #expect(count > 0)
      return ToastOwner.inotifyEvents(in: buffer[..<max(count, 0)])
    }
    let names = records().map(\.name)
    #expect(
      names == [
        "a.lock", "a.lock", "do-not-disturb", "do-not-disturb", String(repeating: "n", count: 200),
        String(repeating: "n", count: 200),
      ])
    #expect(ToastOwner.inotifyEvents(in: buffer[0..<7]) == [], "a cut record is no name")
    // The watched directory removed: its watch ends, with no name.
    #expect(rmdir(runtime) == 0)
    let last = records().last
    #expect(last == InotifyEvent(watch: watch, mask: UInt32(IN_IGNORED), name: ""), "\(last)")
  }
}
