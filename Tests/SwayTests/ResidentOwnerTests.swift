import CompositorCases
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
  /// Shows a toast that expires at once, waits for its end, and checks the
  /// owner with `pid` served it.
  static func showAndExpire(on desk: Desk<HeadlessSway>, servedBy pid: Int32) throws {
    let result = try desk.runToEnd([
      "--wait", "--print-outcome", "--no-animation", "--timeout", "0.2", "Warm",
    ])
    #expect(result.status == 0 && result.output == "expired\n", "\(result.errors)")
    #expect(desk.ownerProcesses() == [pid], "served by the resident owner")
  }

  @Test func theDaemonStaysIdleBetweenToastsAndServesThemAll() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.sway.runtimeDirectory + "/daemon.log"
    let daemon = try desk.run(["daemon"], logPath: log)
    let socket = try Rendezvous(display: desk.sway.socketPath).socketPath
    try waitUntil("the daemon's socket") { access(socket, F_OK) == 0 }
    // It is the owner: the command exec'd wl-toast-owner in place.
    try Self.showAndExpire(on: desk, servedBy: daemon.pid)
    try expectIdle(daemon.pid)
    try Self.showAndExpire(on: desk, servedBy: daemon.pid)
    // A new toast's command returns once it is on screen, as with an owner it
    // starts: one screenshot right after it shows the box.
    #expect(
      try desk.runToEnd(["--tag", "new", "--no-animation", "--timeout", "0", "New"]).status == 0)
    #expect(
      try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3)
        == Looks.hudBox(Toast("New")))
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

  @Test func theDaemonEndsWithItsCompositorWithStatus0AndNoLine() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.scratch("daemon-end") + ".log"
    let daemon = try desk.run(["daemon"], logPath: log)
    let socket = try Rendezvous(display: desk.sway.socketPath).socketPath
    try waitUntil("the daemon's socket") { access(socket, F_OK) == 0 }
    #expect(
      try desk.runToEnd(["--tag", "t", "--no-animation", "--timeout", "0", "Showing"]).status == 0)
    desk.sway.stop()
    #expect(daemon.wait(timeout: 10) == 0, "the session's end is the daemon's ordinary end")
    let errors = String(decoding: readFile(log) ?? [], as: UTF8.self)
    #expect(errors.isEmpty, "\(errors)")
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
    let log = StandardStream.file(desk.sway.runtimeDirectory + "/activated.log")
    var run = Run(
      ["activated"], program: builtProduct("wl-toast-owner"),
      environment: desk.environment.merging(["LISTEN_FDS": "1"]) { $1 }, stdout: log,
      stderr: log)
    run.descriptors = [3: fd]
    run.pidVariable = "LISTEN_PID"
    let owner = try desk.start(run)
    defer { owner.terminate() }
    try Self.showAndExpire(on: desk, servedBy: owner.pid)
    try expectIdle(owner.pid)
    try Self.showAndExpire(on: desk, servedBy: owner.pid)
    kill(owner.pid, SIGTERM)
    #expect(owner.wait(timeout: 5) == 0)
    #expect(access(rendezvous.socketPath, F_OK) == 0, "the socket is systemd's: it stays")
  }

  @Test func activationWithoutASocketIsRefusedInOneLine() throws {
    let runner = try CommandRunner()
    var run = Run(
      ["activated"], program: builtProduct("wl-toast-owner"),
      environment: runner.environment.merging(["LISTEN_FDS": "1"]) { $1 })
    run.pidVariable = "LISTEN_PID"
    let result = try runner.runToEnd(run)
    #expect(result.status == 1)
    #expect(
      result.output + result.errors
        == "wl-toast-owner: activated: expected one listening sequential-packet socket from"
        + " systemd (LISTEN_FDS=1, LISTEN_PID of this process)\n")
  }
}
