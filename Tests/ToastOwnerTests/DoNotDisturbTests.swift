import Glibc
import Testing
import ToastModel
import ToastProtocol

@testable import ToastKit
@testable import ToastOwner

/// Do-not-disturb's state file on a real file system, the inotify records
/// the owner reads, and the window states of wlr-foreign-toplevel-management.
@Suite struct DoNotDisturbTests {
  /// A fresh private runtime directory (the rendezvous makes `wl-toast/` in it).
  static func runtime() throws -> String {
    var template = Array("/tmp/wl-toast-dnd-XXXXXX".utf8CString)
    let made = try #require(mkdtemp(&template))
    return String(cString: made)
  }

  @Test func theStateIsTheFilesPresenceAndOnlyOursCounts() throws {
    let runtime = try Self.runtime()
    defer {
      rmdir(runtime + "/wl-toast/state")
      rmdir(runtime + "/wl-toast")
      rmdir(runtime)
    }
    let rendezvous = try Rendezvous(display: "wayland-9", runtimeDirectory: runtime)
    let state = DoNotDisturbState(rendezvous)
    #expect(state.path == runtime + "/wl-toast/state/do-not-disturb")
    #expect(try state.read() == .off, "no directory yet")
    try state.write(.on)
    #expect(try state.read() == .on)
    try state.write(.on)
    #expect(try state.read() == .on, "on twice is on")
    try state.write(.off)
    #expect(try state.read() == .off)
    try state.write(.off)
    #expect(try state.read() == .off, "off twice is off")
    // A symbolic link is never followed, to read or to write.
    #expect(symlink(runtime + "/elsewhere", state.path) == 0)
    #expect(throws: RendezvousError.notOurFile(state.path)) { try state.read() }
    #expect(throws: RendezvousError.notOurFile(state.path)) { try state.write(.on) }
    #expect(throws: RendezvousError.notOurFile(state.path)) { try state.write(.off) }
    #expect(access(runtime + "/elsewhere", F_OK) != 0, "nothing made through the link")
    unlink(state.path)
    // A directory that others may enter is not ours to trust.
    chmod(runtime + "/wl-toast", 0o755)
    #expect(throws: RendezvousError.directoryNotPrivate(runtime + "/wl-toast")) {
      try state.read()
    }
    chmod(runtime + "/wl-toast", 0o700)
    chmod(state.directory, 0o777)
    #expect(throws: RendezvousError.directoryNotPrivate(state.directory)) { try state.read() }
    chmod(state.directory, 0o700)
    #expect(try state.read() == .off)
  }

  @Test func inotifyRecordsGiveWhatHappenedToWhichFile() throws {
    let runtime = try Self.runtime()
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

  @Test func concurrentChangesFollowOneAnother() async throws {
    let runtime = try Self.runtime()
    defer {
      unlink(runtime + "/wl-toast/state/do-not-disturb")
      rmdir(runtime + "/wl-toast/state")
      rmdir(runtime + "/wl-toast")
      rmdir(runtime)
    }
    let state = DoNotDisturbState(try Rendezvous(display: "wayland-9", runtimeDirectory: runtime))
    // Each change sees the state the one before left: 101 toggles turn it on.
    let results = try await withThrowingTaskGroup(of: DoNotDisturb.self) { group in
      for _ in 0..<101 { group.addTask { try state.change(\.toggled) } }
      return try await group.reduce(into: [DoNotDisturb]()) { $0.append($1) }
    }
    #expect(results.filter { $0 == .on }.count == 51)
    #expect(try state.read() == .on)
  }

  @Test func windowStatesAreThirtyTwoBitValues() {
    func bytes(_ values: [UInt32]) -> [UInt8] {
      values.flatMap { value in withUnsafeBytes(of: value) { Array($0) } }
    }
    #expect(windowStates(bytes([2, 3])) == [2, 3])
    #expect(windowStates([]) == [])
    #expect(windowStates(bytes([1]) + [0xff, 0xff]) == [1], "a cut value is left out")
  }
}
