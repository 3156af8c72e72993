import Glibc
import Notifications
import SystemSupport
import TestSupport
import Testing

/// Applications' notifications as screen readers meet them: the notification
/// server, its clients (notify-send), the accessibility plumbing and the
/// screen reader on one private session bus (a ``NotificationBus`` on the
/// ``AccessibilityBus``'s), the cards on a headless sway.
@Suite(.serialized)
struct NotificationScreenReaderTests {
  /// The accessibility plumbing, with a screen reader said to be on, and
  /// `wl-toast daemon --notifications` serving its session bus.
  static func server() throws -> (AccessibilityBus, NotificationServerTests.Server) {
    let desktop = try AccessibilityBus(screenReader: true)
    let server = try NotificationServerTests.Server(bus: try NotificationBus(on: desktop))
    return (desktop, server)
  }

  /// What a screen reader says for `notify-send -a Calendar Meeting "Room 4"`.
  static let meeting = "Calendar: Meeting. Room 4"

  @Test func aCardIsAnnouncedWithItsAppSummaryAndBodyACriticalOneAssertively() throws {
    let (desktop, server) = try Self.server()
    // Registered for both events, as Orca 45 and later are: announcements win.
    let listener = try desktop.listen(to: [
      "object:announcement", "object:state-changed:showing",
    ])
    let id = try server.notify(["-a", "Calendar", "-t", "0", "Meeting", "Room 4"])
    try waitUntil("the card announced (heard: \(listener.heard()))") {
      listener.spoken() == [Self.meeting]
    }
    let announced = try #require(listener.heard().first { $0.isAnnouncement })
    #expect(announced.data == Self.meeting && announced.name == Self.meeting)
    #expect(announced.role == "notification" && announced.app == "wl-toast")
    #expect(announced.detail1 == 1, "polite")
    #expect(!listener.heard().contains { $0.isShowing }, "one event, never both")

    // Critical: said at once. Markup in the body is said as its text.
    _ = try server.notify(["-a", "Backup", "-u", "critical", "Disk full", "Only <b>2 GB</b> left"])
    let critical = "Backup: Disk full. Only 2 GB left"
    try waitUntil("the critical card announced (heard: \(listener.heard()))") {
      listener.spoken() == [Self.meeting, critical]
    }
    let assertive = try #require(listener.heard().first { $0.data == critical })
    #expect(assertive.detail1 == 2, "assertive")

    // The application closes it: its object goes as the card does.
    #expect(try server.call("CloseNotification", [String(id)]).status == 0)
    try waitUntil("showing off for the closed card (heard: \(listener.heard()))") {
      listener.heard().contains { $0.isHidden && $0.name == Self.meeting }
    }
  }

  @Test func aButtonsActionThroughLibatspiIsTheActionNotifySendWaitsFor() throws {
    let (desktop, server) = try Self.server()
    let listener = try desktop.listen(to: ["object:state-changed:showing"])
    let waiting = try server.desk.start(
      Run(
        ["--wait", "-a", "Calendar", "-A", "snooze=Snooze", "Meeting", "Room 4"],
        program: "notify-send"))
    defer { waiting.terminate() }
    try waitUntil("the card heard (heard: \(listener.heard()))") {
      listener.spoken() == [Self.meeting]
    }
    // No pointer, no key: the screen reader alone presses Snooze.
    let pressed = try PressedButton(named: "Snooze", on: desktop)
    #expect(pressed.done && pressed.role == "push button" && pressed.index == 0)
    #expect(pressed.parent == Self.meeting && pressed.parentRole == "notification")
    #expect(pressed.actions == [["click", "Activates the button", ""]])
    #expect(waiting.wait(timeout: 20) == 0)
    #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "snooze\n")
    // As a click does: sway gives a token for the card's surface (no input
    // to name), then the action, then the end (dismissed).
    #expect(
      try server.bus.signalsUntilClosed(1) == [
        "ActivationToken(1, TOKEN)", "ActionInvoked(1, snooze)", "NotificationClosed(1, 2)",
      ])
    try NotificationServerTests.expectNoCard(on: server.desk)
  }

  @Test func aCardsDefaultActionAndDismissAreActionsOfItsObject() throws {
    let (desktop, server) = try Self.server()
    let listener = try desktop.listen(to: ["object:state-changed:showing"])
    let waiting = try server.desk.start(
      Run(
        ["--wait", "-a", "Calendar", "-A", "default=Open", "-t", "0", "Meeting", "Room 4"],
        program: "notify-send"))
    defer { waiting.terminate() }
    try waitUntil("the card heard (heard: \(listener.heard()))") {
      listener.spoken() == [Self.meeting]
    }
    // The default action is a click on the card's body: its object's `activate`.
    let opened = try PressedButton(named: Self.meeting, action: "activate", on: desktop)
    #expect(opened.done && opened.role == "notification" && opened.parent == "wl-toast")
    #expect(
      opened.actions == [["activate", "Open", ""], ["dismiss", "Dismisses the notification", ""]])
    #expect(waiting.wait(timeout: 20) == 0)
    #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "default\n")
    #expect(
      try server.bus.signalsUntilClosed(1) == [
        "ActivationToken(1, TOKEN)", "ActionInvoked(1, default)", "NotificationClosed(1, 2)",
      ])

    // Without a default action, `dismiss` alone: a right click, reason 2.
    let id = try server.notify(["-a", "Mail", "-t", "0", "New mail"])
    try waitUntil("the second card heard (heard: \(listener.heard()))") {
      listener.spoken() == [Self.meeting, "Mail: New mail"]
    }
    let dismissed = try PressedButton(named: "Mail: New mail", action: "dismiss", on: desktop)
    #expect(dismissed.done && dismissed.actions == [["dismiss", "Dismisses the notification", ""]])
    #expect(try server.bus.signalsUntilClosed(id) == ["NotificationClosed(\(id), 2)"])
    try NotificationServerTests.expectNoCard(on: server.desk)
  }

  /// The real thing: Debian 12's Orca 43 (see ``Orca``).
  @Test func orcaSaysTheNotificationThenSnoozePushButtonOnceFocusGivesItTheKeyboard() throws {
    let (desktop, server) = try Self.server()
    let orca = try Orca(on: desktop)
    let waiting = try server.desk.start(
      Run(
        ["--wait", "-a", "Calendar", "-A", "snooze=Snooze", "Meeting", "Room 4"],
        program: "notify-send"))
    defer { waiting.terminate() }
    // What Orca said, in one line: speech-dispatcher's module speaks (here,
    // writes) a long text sentence by sentence.
    func spoken() -> String {
      orca.spoken().joined(separator: " ").split(separator: " ").joined(separator: " ")
    }
    func said(_ text: String) -> String.Index? { spoken().firstRange(of: text)?.lowerBound }
    // Orca 43 presents a notification as its role and name.
    let notification = "notification \(Self.meeting)"
    try waitUntil(
      "Orca to say the notification (spoken: \(orca.spoken()))\n\(orca.debugTail())",
      timeout: 20
    ) { said(notification) != nil }
    #expect(said("Snooze push button") == nil, "a card never takes the keyboard by itself")
    let focus = try server.desk.runToEnd(["notifications", "focus"])
    #expect(focus.status == 0, "\(focus.errors)")
    try waitUntil(
      "Orca to say the focused button (spoken: \(orca.spoken()))\n\(orca.debugTail())",
      timeout: 20
    ) { said("Snooze push button") != nil }
    let text = spoken()
    #expect(said(notification)! < said("Snooze push button")!, "\(text)")
    // Said once: not also before the keyboard was given (a late, wrong focus
    // after the notification's own speech would add a second).
    #expect(text.ranges(of: "Snooze push button").count == 1, "\(text)")
    #expect(
      text.ranges(of: "Calendar: Meeting.").count == 1, "the notification once: \(orca.spoken())")
    #expect(waiting.isRunning, "nothing chosen yet")
  }
}
