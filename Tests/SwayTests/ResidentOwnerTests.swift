import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastCommand
import ToastKit

/// Owners that stay after their last toast: `wl-toast daemon`, and the owner
/// that systemd starts through socket activation (wl-toast@.socket).
@Suite(.serialized)
struct ResidentOwnerTests {
  /// How often the threads of `pid` have been woken so far (context switches):
  /// under ThreadSanitizer, its main thread's only, since the runtime's own
  /// thread wakes every 100 ms (``underThreadSanitizer``); the owner's loop
  /// runs on its main thread.
  static func wakeUps(of pid: Int32) -> Int {
    contextSwitches(pid, mainThreadOnly: underThreadSanitizer) ?? 0
  }

  /// Shows a toast that expires at once, waits for its end, and checks the
  /// owner with `pid` served it.
  static func showAndExpire(on desk: Desk<HeadlessSway>, servedBy pid: Int32) throws {
    let result = try desk.runToEnd([
      "--wait", "--print-outcome", "--no-animation", "--timeout", "0.2", "Warm",
    ])
    #expect(result.status == 0 && result.output == "expired\n", "\(result.errors)")
    #expect(desk.ownerProcesses() == [pid], "served by the resident owner")
  }

  /// The owner stays idle: once the last toast's echoes have settled (the
  /// command hanging up, buffers released), no wake-up in two seconds (the
  /// default linger is one), and it is still there afterwards.
  ///
  /// Settled means half a second without a wake-up: the echoes follow the
  /// toast's end by milliseconds, and a waking process is scheduled within
  /// milliseconds on a machine whose cores are busy, so the margin is a
  /// hundredfold.
  static func expectIdle(_ pid: Int32) throws {
    try waitUntil("the owner to settle", timeout: 20) {
      let settled = wakeUps(of: pid)
      pause(for: .milliseconds(500))
      return wakeUps(of: pid) == settled
    }
    let before = wakeUps(of: pid)
    // Time passing is what is measured here: nothing to wait for instead.
    pause(for: .seconds(2))
    #expect(wakeUps(of: pid) == before, "no wake-up while idle")
    #expect(kill(pid, 0) == 0, "still running past the linger")
  }

  @Test func theDaemonStaysIdleBetweenToastsAndServesThemAll() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.sway.runtimeDirectory + "/daemon.log"
    let daemon = try ChildProcess(
      [builtProduct("wl-toast"), "daemon"], environment: desk.sway.clientEnvironment,
      logPath: log)
    let socket = try Rendezvous(display: desk.sway.socketPath).socketPath
    try waitUntil("the daemon's socket") { access(socket, F_OK) == 0 }
    // It is the owner: the command exec'd wl-toast-owner in place.
    try Self.showAndExpire(on: desk, servedBy: daemon.pid)
    try Self.expectIdle(daemon.pid)
    try Self.showAndExpire(on: desk, servedBy: daemon.pid)
    // A new toast's command returns once it is on screen, as with an owner it
    // starts: one screenshot right after it shows the box.
    #expect(
      try desk.runToEnd(["--tag", "new", "--no-animation", "--timeout", "0", "New"]).status == 0)
    #expect(
      try desk.sway.screenshot().boundingBox(of: HUDTests.boxColor, tolerance: 3)
        == HUDTests.expectedBox(Toast("New")))
    #expect(try desk.runToEnd(["hide", "--tag", "new"]).status == 0)
    // A second daemon finds the first and says so.
    let second = try desk.runToEnd(["daemon"])
    #expect(second.status == 1)
    #expect(
      second.errors == "wl-toast: daemon: an owner already serves this display at \(socket)\n")
    // SIGTERM ends it cleanly, leaving no socket.
    kill(daemon.pid, SIGTERM)
    #expect(daemon.wait(timeout: 5) == 0)
    #expect(access(socket, F_OK) != 0, "its socket is gone")
  }

  @Test func aSocketActivatedOwnerServesTheFirstCommandAndStays() throws {
    let desk = try Desk<HeadlessSway>()
    // What systemd does for wl-toast@.socket: listen at the path wl-toast looks
    // for, and start the service with the socket as descriptor 3.
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    _ = try rendezvous.openDirectory()
    let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #expect(fd >= 0)
    defer { close(fd) }
    let bound = withUnixAddress(rendezvous.socketPath) { bind(fd, $0, $1) } ?? -1
    #expect(bound == 0 && listen(fd, 16) == 0)
    defer { unlink(rendezvous.socketPath) }
    let owner = try ChildProcess(
      [
        "sh", "-c", "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" activated",
        builtProduct("wl-toast-owner"),
      ], environment: desk.sway.clientEnvironment,
      logPath: desk.sway.runtimeDirectory + "/activated.log", descriptors: [3: fd])
    defer { owner.terminate() }
    try Self.showAndExpire(on: desk, servedBy: owner.pid)
    try Self.expectIdle(owner.pid)
    try Self.showAndExpire(on: desk, servedBy: owner.pid)
    kill(owner.pid, SIGTERM)
    #expect(owner.wait(timeout: 5) == 0)
    #expect(access(rendezvous.socketPath, F_OK) == 0, "the socket is systemd's: it stays")
  }

  @Test func activationWithoutASocketIsRefusedInOneLine() throws {
    let result = try runCommand(
      [
        "sh", "-c", "LISTEN_PID=$$ LISTEN_FDS=1 exec \"$0\" activated 2>&1",
        builtProduct("wl-toast-owner"),
      ],
      environment: currentEnvironment())
    #expect(result.status == 1)
    #expect(
      result.output
        == "wl-toast-owner: activated: expected one listening sequential-packet socket from"
        + " systemd (LISTEN_FDS=1, LISTEN_PID of this process)\n")
  }
}
