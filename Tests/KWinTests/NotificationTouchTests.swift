import CompositorCases
import Glibc
import Notifications
import SystemSupport
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// Applications' notifications touched on KWin 5.27 at 1.5 (the one
/// compositor here with touch input, through fake_input's touch requests):
/// `wl-toast daemon --notifications` on KWin's private session bus, with
/// notify-send as the client and `dbus-monitor`'s record of the signals.
@Suite(.serialized)
struct NotificationTouchTests {
  /// A KWin desk (its output covered by the desktop's colour) whose
  /// commands and clients use KWin's session bus, with `wl-toast daemon
  /// --notifications` serving it.
  final class Server {
    let desk: Desk<HeadlessKWin>
    let bus: NotificationBus
    let daemon: ChildProcess
    let log: String

    init() throws {
      desk = try HeadlessKWin.desk(outputs: 1)
      bus = try NotificationBus(on: desk.kwin)
      desk.environment.merge(bus.clientEnvironment) { $1 }
      log = desk.scratch("daemon") + ".log"
      daemon = try desk.run(["daemon", "--notifications"], logPath: log)
      try waitUntil("the daemon to own \(NotificationBus.serverName) (log: \(errors))", timeout: 30)
      {
        guard daemon.isRunning else { throw HarnessError("the daemon exited: \(errors)") }
        return bus.serverProcess() == daemon.pid
      }
    }

    deinit { daemon.terminate() }

    /// What the daemon wrote on standard error.
    var errors: String { readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? "" }
  }

  @Test func aTouchOnAButtonIsTheActionNotifySendWaitsFor() throws {
    let server = try Server()
    // KWin gives a token for the touch on the card, before the action.
    try expectSnoozeChosen(on: server.desk, bus: server.bus) { x, y in
      try server.desk.input.touch(x: Double(x), y: Double(y))
    }
  }

  @Test func aTapOnTheBodyOfACardWithoutADefaultActionDismissesIt() throws {
    let server = try Server()
    let sent = try server.desk.runToEnd(
      Run(["-p", "-a", "Mail", "-t", "0", "New mail", "From Ann"], program: "notify-send"))
    let id = try #require(
      sent.output.split(separator: "\n").first.flatMap { UInt32($0) }, "\(sent.errors)")
    let box = CardLooks.restingBox(
      CardLooks.card(app: "Mail", summary: "New mail", body: "From Ann"))
    try CardLooks.expectCard(at: box, on: server.desk)
    try server.desk.input.touch(x: Double(box.x + 20), y: Double(box.y + box.height - 6))
    #expect(
      try server.bus.signalsUntilClosed(id, timeout: 30) == ["NotificationClosed(\(id), 2)"],
      "no action")
    try CardLooks.expectNoCard(on: server.desk)
  }
}
