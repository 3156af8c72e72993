import Glibc
import TestSupport
import Testing
import ToastCommand
import ToastOwner
import ToastProtocol

/// The sway IPC client and the watcher against a real headless sway.
@Suite(.serialized)
struct SwayIPCLiveTests {
  /// Waits with poll() (no sleeps) until the watcher turns an event into an
  /// action; fails after `timeout` seconds.
  static func nextAction(
    _ connection: SwayIPCConnection, _ watcher: inout SwayWatcher, timeout: Double = 10
  ) throws -> SwayWatchAction? {
    let deadline = now() + timeout
    while true {
      for event in try connection.readAvailable() {
        if let action = watcher.handle(eventType: event.type, payload: event.payload) {
          return action
        }
      }
      let left = deadline - now()
      guard left > 0 else { return nil }
      var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
      let ready = poll(&descriptor, 1, Int32(left * 1000) + 1)
      #expect(ready >= 0 || errno == EINTR)
    }
  }

  @Test func modeEventsFromSwayBecomeAStickyToastAndAHide() throws {
    let sway = try HeadlessSway(
      extraConfig: "mode \"resize\" {\n  bindsym Escape mode \"default\"\n}")
    let connection = try SwayIPCConnection(socketPath: sway.ipcSocketPath)
    let version = try connection.request(type: SwayIPCMessageType.getVersion, payload: "")
    #expect(try JSONValue.parse(version)["major"]?.doubleValue != nil, "\(version)")

    var watcher = SwayWatcher(options: SwayWatchOptions())
    try connection.subscribe(to: watcher.subscriptions)

    try sway.swaymsg(["mode", "resize"])
    #expect(try Self.nextAction(connection, &watcher) == .show(text: "resize", sticky: true))
    try sway.swaymsg(["mode", "default"])
    #expect(try Self.nextAction(connection, &watcher) == .hide)

    // RUN_COMMAND through the client itself: sway answers with a success array.
    let reply = try connection.request(type: SwayIPCMessageType.runCommand, payload: "mode resize")
    #expect(try JSONValue.parse(reply) == .array([.object(["success": .bool(true)])]), "\(reply)")
    #expect(try Self.nextAction(connection, &watcher) == .show(text: "resize", sticky: true))

    // When sway goes away, reading says so in one line.
    sway.stop()
    var closedError: SwayIPCError?
    let deadline = now() + 10
    while closedError == nil && now() < deadline {
      var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 1000)
      do {
        _ = try connection.readAvailable()
      } catch {
        closedError = error
      }
    }
    #expect(closedError == .closed)
    #expect(closedError?.description == "sway closed the IPC connection")
  }
}
