import Glibc
import TestSupport
import Testing
import ToastModel
import ToastProtocol

/// Do-not-disturb's state file on a real file system: its presence is the
/// state, only the user's own counts, and changes follow one another.
@Suite struct DoNotDisturbStateTests {
  @Test func theStateIsTheFilesPresenceAndOnlyOursCounts() throws {
    let runtime = try makeTemporaryDirectory(prefix: "wl-toast-dnd")
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

  @Test func concurrentChangesFollowOneAnother() async throws {
    let runtime = try makeTemporaryDirectory(prefix: "wl-toast-dnd")
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
}
