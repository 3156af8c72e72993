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

  /// Where `card` rests alone at the top right of KWin's 1280x720 logical output.
  static func restingBox(_ card: Toast) -> Box {
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let width = Int(layout.box.width)
    return Box(
      x: 1280 - Design.margin - width, y: Design.margin, width: width,
      height: Int(layout.box.height))
  }

  /// The centre of button `index` of `card` resting alone, in logical pixels.
  static func buttonCentre(_ index: Int, of card: Toast) -> (x: Double, y: Double) {
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let box = restingBox(card)
    let frame = layout.buttons[index].frame
    return (
      Double(box.x) - layout.box.x + frame.x + frame.width / 2,
      Double(box.y) - layout.box.y + frame.y + frame.height / 2
    )
  }

  static let cardColor = blend(Design.Card.background, over: HeadlessKWin.desktop)

  /// Waits until the only card on screen rests at `box` (logical), seen in
  /// device pixels at 1.5 to within 3 of them.
  static func expectCard(at box: Box, on desk: Desk<HeadlessKWin>) throws {
    let scale = desk.kwin.scale
    var last: Box?
    try desk.screenshot("a card at \(box) logical (last: \(lastSeen(last)) device)") { shot in
      last = shot.boundingBox(of: cardColor, tolerance: 3)
      guard let seen = last else { return false }
      let expected = [box.x, box.y, box.x + box.width, box.y + box.height].map {
        Double($0) * scale
      }
      let edges = [seen.x, seen.y, seen.x + seen.width, seen.y + seen.height].map(Double.init)
      return zip(edges, expected).allSatisfy { abs($0 - $1) <= 3 }
    }
  }

  /// The card of `notify-send -a APP [-A KEY=LABEL...] SUMMARY BODY`, as the server makes it.
  static func card(app: String, summary: String, body: String, actions: [NotificationAction])
    -> Toast
  {
    NotificationCard.toast(
      for: NotificationRequest(appName: app, summary: summary, body: body, actions: actions),
      rules: [])
  }

  @Test func aTouchOnAButtonIsTheActionNotifySendWaitsFor() throws {
    let server = try Server()
    let waiting = try server.desk.start(
      Run(
        ["--wait", "-a", "Calendar", "-A", "snooze=Snooze", "Meeting", "Room 4"],
        program: "notify-send"))
    defer { waiting.terminate() }
    let card = Self.card(
      app: "Calendar", summary: "Meeting", body: "Room 4",
      actions: [NotificationAction(key: "snooze", label: "Snooze")])
    try Self.expectCard(at: Self.restingBox(card), on: server.desk)
    let snooze = Self.buttonCentre(0, of: card)
    try server.desk.input.touch(x: snooze.x, y: snooze.y)
    #expect(waiting.wait(timeout: 30) == 0)
    #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "snooze\n")
    let signals = try server.bus.waitForSignal("NotificationClosed", ["1", "2"], timeout: 30)
    // KWin gives a token for the touch on the card, before the action.
    #expect(
      signals.map(\.member) == ["ActivationToken", "ActionInvoked", "NotificationClosed"],
      "\(signals)")
    #expect(
      signals.dropFirst().map(\.description) == [
        "ActionInvoked(1, snooze)", "NotificationClosed(1, 2)",
      ])
  }

  @Test func aTapOnTheBodyOfACardWithoutADefaultActionDismissesIt() throws {
    let server = try Server()
    let sent = try server.desk.runToEnd(
      Run(["-p", "-a", "Mail", "-t", "0", "New mail", "From Ann"], program: "notify-send"))
    let id = try #require(
      sent.output.split(separator: "\n").first.flatMap { UInt32($0) }, "\(sent.errors)")
    let card = Self.card(app: "Mail", summary: "New mail", body: "From Ann", actions: [])
    let box = Self.restingBox(card)
    try Self.expectCard(at: box, on: server.desk)
    try server.desk.input.touch(x: Double(box.x + 20), y: Double(box.y + box.height - 6))
    let signals = try server.bus.waitForSignal(
      "NotificationClosed", [String(id), "2"], timeout: 30)
    #expect(signals.map(\.description) == ["NotificationClosed(\(id), 2)"], "no action: \(signals)")
    try server.desk.screenshot("no card") { $0.boundingBox(of: Self.cardColor, tolerance: 3) == nil }
  }
}
