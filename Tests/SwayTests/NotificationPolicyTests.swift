import CompositorCases
import Glibc
import Notifications
import SystemSupport
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastProtocol
import ToastRendering

/// The policies, looks and rules of applications' notifications on a
/// headless sway, as a user meets them: do-not-disturb (`wl-toast dnd`), a
/// fullscreen window, the configuration's `[notifications]` and criteria
/// sections, replacements that name two notifications at once, and the
/// documented preview. Clients are `notify-send` and `gdbus`; the signals
/// are `dbus-monitor`'s record; the cards are screenshots compared with
/// offscreen renderings of the same cards.
@Suite(.serialized)
struct NotificationPolicyTests {
  typealias Server = NotificationServerTests.Server

  /// The card of `request` as the server makes it with `rules`.
  static func card(_ request: NotificationRequest, rules: [NotificationRule] = []) -> Toast {
    NotificationCard.toast(for: request, rules: rules)
  }

  /// A request as `notify-send -a APP -u URGENCY SUMMARY BODY` sends it.
  static func request(
    app: String, summary: String, body: String = "", urgency: Toast.Urgency = .normal,
    timeout: Int32 = 0
  ) -> NotificationRequest {
    var hints = NotificationHints()
    hints.urgency = urgency
    return NotificationRequest(
      appName: app, summary: summary, body: body, hints: hints, expireTimeout: timeout)
  }

  /// A card's box with its shadow (offset 2, blur 4) and a pixel more.
  static func shadowed(_ box: Box) -> Box {
    Box(x: box.x - 8, y: box.y - 8, width: box.width + 16, height: box.height + 16)
  }

  /// The bounding box of the pixels of `shot` that differ from `below`
  /// (by more than 8), within `region` (nil: anywhere).
  static func changes(in shot: Image, from below: Image, within region: Box?) -> Box? {
    shot.boundingBox { x, y in
      if let region,
        x < region.x || y < region.y || x >= region.x + region.width
          || y >= region.y + region.height
      {
        return false
      }
      return !shot.pixel(x: x, y: y).isClose(to: below.pixel(x: x, y: y), tolerance: 8)
    }
  }

  /// Waits until `card` rests alone at the top right, drawn as it is
  /// offscreen over `below` (a screenshot without it) but for 1 % of its
  /// pixels, and nothing else on screen (within `region`: where a window
  /// that redraws itself is not) differs from `below`; returns that
  /// screenshot.
  @discardableResult
  static func expectDrawn(
    _ card: Toast, over below: Image, within region: Box? = nil, on desk: Desk<HeadlessSway>
  ) throws -> Image {
    let box = NotificationServerTests.restingBox(card)
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let origin = (x: box.x - Int(layout.box.x), y: box.y - Int(layout.box.y))
    let reference = composited(
      card, under: { below.pixel(x: $0 + origin.x, y: $1 + origin.y) })
    let shadowed = Self.shadowed(box)
    var mismatches = 0
    var changed: Box?
    return try desk.screenshot(
      "\(Toast.quoted(card.text)) alone at \(box) as drawn offscreen (\(mismatches) pixels"
        + " differ; changed: \(lastSeen(changed)))", timeout: 20
    ) { shot in
      changed = changes(in: shot, from: below, within: region)
      mismatches = shot.mismatches(in: box, from: reference.blend, origin: origin)
      return mismatches < box.width * box.height / 100
        && changed.map { shadowed.contains($0) } == true
    }
  }

  /// The output with nothing on it, once sway shows its background all
  /// over (a screenshot taken as it starts can show it not yet drawn).
  static func bareDesktop(on desk: Desk<HeadlessSway>) throws -> Image {
    try desk.screenshot("the bare desktop") { shot in
      stride(from: 0, to: shot.height, by: 8).allSatisfy { y in
        stride(from: 0, to: shot.width, by: 8).allSatisfy { x in
          shot.pixel(x: x, y: y).isClose(to: HeadlessSway.desktop, tolerance: 2)
        }
      }
    }
  }

  /// Waits until the screen (within `region`) is `below` again: no card.
  static func expectNothingOver(
    _ below: Image, within region: Box? = nil, on desk: Desk<HeadlessSway>
  ) throws {
    var changed: Box?
    try desk.screenshot("no card (changed: \(lastSeen(changed)))", timeout: 20) { shot in
      changed = changes(in: shot, from: below, within: region)
      return changed == nil
    }
  }

  /// The ids of the notifications `list` prints, and whether each shows.
  static func listed(_ server: Server) throws -> [(id: UInt32, shown: Bool)] {
    try server.list().map {
      (
        UInt32($0["id"]?.doubleValue ?? 0),
        $0["shown"]?.boolValue ?? false
      )
    }
  }

  /// Waits until `list` prints exactly these ids, each shown or waiting.
  static func expectListed(_ expected: [(UInt32, Bool)], _ server: Server) throws {
    var seen: [(id: UInt32, shown: Bool)] = []
    try waitUntil("notifications list to say \(expected) (seen: \(seen))", timeout: 20) {
      seen = try listed(server)
      return seen.map(\.id) == expected.map(\.0) && seen.map(\.shown) == expected.map(\.1)
    }
  }

  /// The `NotificationClosed` signals for `id` seen so far: their reasons.
  static func closes(of id: UInt32, on bus: NotificationBus) -> [String] {
    bus.signals().filter { $0.member == "NotificationClosed" && $0.arguments.first == String(id) }
      .map { $0.arguments.last ?? "" }
  }

  /// Turns do-not-disturb `state` (`on`, `off`) with `wl-toast dnd`.
  static func doNotDisturb(_ state: String, _ server: Server) throws {
    let result = try server.desk.runToEnd(["dnd", state])
    #expect(result.status == 0 && result.output == state + "\n", "\(result.errors)")
  }

  // MARK: - Do-not-disturb

  /// A normal notification sent during do-not-disturb waits off screen with
  /// its clock stopped, a critical one shows at once, and the held one shows
  /// when do-not-disturb ends, for its whole timeout: 4 s, of which the card
  /// is seen on screen in a screenshot begun at least 4 - 1.5 s after
  /// do-not-disturb ended (1.5 s of margin for a loaded machine's
  /// screenshots), and it ends as expired no sooner than 4 - 0.1 s after
  /// (0.1 s for the clocks' rounding).
  @Test func aHeldNotificationShowsWhenDoNotDisturbEndsForItsWholeTimeout() throws {
    let server = try Server()
    let desktop = try Self.bareDesktop(on: server.desk)
    try Self.doNotDisturb("on", server)
    let timeout = 4.0
    let held = try server.notify(["-a", "Mail", "-t", "4000", "Held", "until later"])
    let heldSince = now()
    let heldCard = Self.card(
      Self.request(app: "Mail", summary: "Held", body: "until later", timeout: 4000))
    let critical = try server.notify(["-a", "Power", "-u", "critical", "Battery", "5% left"])
    let criticalCard = Self.card(
      Self.request(
        app: "Power", summary: "Battery", body: "5% left", urgency: .critical, timeout: -1))
    // The critical one shows at once, alone; the held one waits.
    try Self.expectDrawn(criticalCard, over: desktop, on: server.desk)
    try Self.expectListed([(critical, true), (held, false)], server)
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(critical)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(critical), "2"])
    // The desktop where the held card would be, and everywhere else.
    try Self.expectNothingOver(desktop, on: server.desk)
    let box = NotificationServerTests.restingBox(heldCard)
    #expect(
      try server.desk.sway.screenshot().mismatches(
        in: box, from: { desktop.pixel(x: $0, y: $1) }, origin: (0, 0)) == 0)
    // Held longer than its timeout: time passing is what is tested here.
    pause(for: .seconds(max(0, timeout + 0.5 - (now() - heldSince))))
    try Self.expectListed([(held, false)], server)
    #expect(Self.closes(of: held, on: server.bus).isEmpty, "its clock stopped while it waited")
    let released = now()
    try Self.doNotDisturb("off", server)
    try Self.expectDrawn(heldCard, over: desktop, on: server.desk)
    // Watched until it goes, in screenshots of its place alone (quick to
    // take): the last that showed it began late enough.
    let place = Self.shadowed(box)
    var lastSeenSince: Double?
    try waitUntil("the held card to go (last seen \(lastSeen(lastSeenSince)) s in)", timeout: 30) {
      let began = now()
      let shot = try server.desk.sway.screenshot(
        x: place.x, y: place.y, width: place.width, height: place.height)
      let seen = shot.boundingBox {
        !shot.pixel(x: $0, y: $1).isClose(to: HeadlessSway.desktop, tolerance: 8)
      }
      guard seen == nil else {
        lastSeenSince = began - released
        return false
      }
      return true
    }
    #expect(try #require(lastSeenSince) >= timeout - 1.5, "shown its whole timeout")
    try server.bus.waitForSignal("NotificationClosed", [String(held), "1"])
    #expect(now() - released >= timeout - 0.1)
    #expect(Self.closes(of: held, on: server.bus) == ["1"], "one end, as expired")
  }

  /// Cards on screen when do-not-disturb begins go back to waiting without a
  /// `NotificationClosed` and come back when it ends; a transient one ends
  /// instead, with reason 4.
  @Test func cardsOnScreenWaitThroughDoNotDisturbWithoutAnEndAndTransientOnesEnd() throws {
    let server = try Server()
    let desktop = try Self.bareDesktop(on: server.desk)
    let meeting = try server.notify(["-a", "Calendar", "-t", "0", "Meeting", "at noon"])
    let card = Self.card(Self.request(app: "Calendar", summary: "Meeting", body: "at noon"))
    try Self.expectDrawn(card, over: desktop, on: server.desk)
    let transient = try server.notify(["-a", "Clock", "-e", "-t", "0", "Tick"])
    try Self.expectListed([(transient, true), (meeting, true)], server)
    try Self.doNotDisturb("on", server)
    try server.bus.waitForSignal("NotificationClosed", [String(transient), "4"])
    try Self.expectNothingOver(desktop, on: server.desk)
    try Self.expectListed([(meeting, false)], server)
    // A transient one sent meanwhile ends at once, unseen.
    let late = try server.notify(["-a", "Clock", "-e", "-t", "0", "Tock"])
    try server.bus.waitForSignal("NotificationClosed", [String(late), "4"])
    try Self.doNotDisturb("off", server)
    try Self.expectDrawn(card, over: desktop, on: server.desk)
    try Self.expectListed([(meeting, true)], server)
    #expect(Self.closes(of: meeting, on: server.bus).isEmpty, "it went back without an end")
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(meeting)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(meeting), "2"])
    #expect(Self.closes(of: meeting, on: server.bus) == ["2"])
    #expect(Self.closes(of: transient, on: server.bus) == ["4"])
    #expect(Self.closes(of: late, on: server.bus) == ["4"])
  }

  /// An application's `CloseNotification` of a notification that waits
  /// through do-not-disturb ends it with reason 3, and it never shows.
  @Test func aWaitingNotificationClosedByItsApplicationNeverShows() throws {
    let server = try Server()
    let desktop = try Self.bareDesktop(on: server.desk)
    try Self.doNotDisturb("on", server)
    let cancelled = try server.notify(["-a", "Chat", "-t", "0", "Typing", "…"])
    try Self.expectListed([(cancelled, false)], server)
    #expect(try server.call("CloseNotification", [String(cancelled)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(cancelled), "3"])
    try Self.expectListed([], server)
    try Self.doNotDisturb("off", server)
    // The next one shows alone: the closed one did not come back before it.
    let next = try server.notify(["-a", "Chat", "-t", "0", "Sent"])
    try Self.expectDrawn(
      Self.card(Self.request(app: "Chat", summary: "Sent")), over: desktop, on: server.desk)
    try Self.expectListed([(next, true)], server)
    #expect(Self.closes(of: cancelled, on: server.bus) == ["3"])
  }

  /// A critical notification that replaces a waiting one (by its stack tag or
  /// its id) shows at once through do-not-disturb; a card on screen whose
  /// update is no longer critical goes back to waiting.
  @Test func aCriticalUpdateOfAWaitingNotificationShowsThroughDoNotDisturb() throws {
    let server = try Server()
    let desktop = try Self.bareDesktop(on: server.desk)
    try Self.doNotDisturb("on", server)
    let tagged = ["-a", "Power", "-t", "0", "-h", "string:x-canonical-private-synchronous:battery"]
    let low = try server.notify(tagged + ["Battery", "20% left"])
    try Self.expectListed([(low, false)], server)
    let empty = try server.notify(tagged + ["-u", "critical", "Battery", "5% left"])
    try server.bus.waitForSignal("NotificationClosed", [String(low), "1"])
    let criticalCard = Self.card(
      Self.request(app: "Power", summary: "Battery", body: "5% left", urgency: .critical))
    try Self.expectDrawn(criticalCard, over: desktop, on: server.desk)
    try Self.expectListed([(empty, true)], server)
    // The same by replaces_id: the waiting one shows, with its id.
    let disk = try server.notify(["-a", "Disk", "-t", "0", "Disk", "90% full"])
    try Self.expectListed([(empty, true), (disk, false)], server)
    #expect(
      try server.notify([
        "-a", "Disk", "-t", "0", "-r", String(disk), "-u", "critical", "Disk full",
      ])
        == disk)
    try Self.expectListed([(disk, true), (empty, true)], server)
    // No longer critical: the card goes back to waiting, without an end.
    #expect(
      try server.notify(["-a", "Disk", "-t", "0", "-r", String(disk), "Disk", "80% full"]) == disk)
    try Self.expectListed([(empty, true), (disk, false)], server)
    try Self.expectDrawn(criticalCard, over: desktop, on: server.desk)
    #expect(Self.closes(of: disk, on: server.bus).isEmpty)
    try Self.doNotDisturb("off", server)
    try Self.expectListed([(disk, true), (empty, true)], server)
  }

  // MARK: - Fullscreen

  /// With `fullscreen = delay` in `[notifications]` a card waits while a
  /// fullscreen window covers the output and shows when the window leaves
  /// fullscreen; `fullscreen = suppress` (here for one application) waits
  /// too; a critical card shows at once over the fullscreen window.
  @Test func withFullscreenDelayACardWaitsForFullscreenToEndAndACriticalOneShowsAtOnce()
    throws
  {
    let server = try Server(
      configuration:
        "[notifications]\nfullscreen = delay\n\n[app-name=Player]\nfullscreen = suppress\n"
    )
    let desk = server.desk
    let desktop = try Self.bareDesktop(on: desk)
    // The cards' corner: the window (which redraws itself, in new colours,
    // when sway tells it of a change) is far from it.
    let corner = Box(x: 800, y: 0, width: 480, height: 300)
    // The window floats in the bottom-left corner when it is not
    // fullscreen, away from the cards.
    for command in ["floating enable", "resize set 300 200", "move position 0 500"] {
      try desk.sway.swaymsg(["for_window [app_id=\"org.freedesktop.weston.flower\"] " + command])
    }
    let flower = try DeskMannersTests.fullscreenFlower(on: desk)
    defer { flower.terminate() }
    var fullscreen = try desk.sway.screenshot()
    try waitUntil("the fullscreen window drawn over the cards' corner", timeout: 20) {
      fullscreen = try desk.sway.screenshot()
      return fullscreen.pixel(x: 1270, y: 10) != desktop.pixel(x: 1270, y: 10)
    }
    let later = try server.notify(["-a", "Mail", "-t", "0", "Later", "after the film"])
    try Self.expectListed([(later, false)], server)
    let critical = try server.notify(["-a", "Power", "-u", "critical", "Battery", "5% left"])
    let criticalCard = Self.card(
      Self.request(
        app: "Power", summary: "Battery", body: "5% left", urgency: .critical, timeout: -1))
    try Self.expectDrawn(criticalCard, over: fullscreen, within: corner, on: desk)
    #expect(try desk.runToEnd(["notifications", "dismiss", String(critical)]).status == 0)
    try Self.expectNothingOver(fullscreen, within: corner, on: desk)
    try Self.expectListed([(later, false)], server)
    try desk.sway.swaymsg(["fullscreen", "disable"])
    var windowed = try desk.sway.screenshot()
    try waitUntil("the floating window, and the card", timeout: 20) {
      windowed = try desk.sway.screenshot()
      return windowed.pixel(x: 640, y: 200).isClose(to: HeadlessSway.desktop, tolerance: 2)
        && Self.changes(in: windowed, from: desktop, within: corner) != nil
    }
    try Self.expectListed([(later, true)], server)
    // The card at rest over the desktop: the window is far from it.
    try Self.expectDrawn(
      Self.card(Self.request(app: "Mail", summary: "Later", body: "after the film")),
      over: windowed.replacing(corner, from: desktop), within: corner, on: desk)
    #expect(try desk.runToEnd(["notifications", "dismiss", String(later)]).status == 0)
    // An application whose section says suppress: it waits all the same.
    try desk.sway.swaymsg(["[app_id=\"org.freedesktop.weston.flower\"]", "fullscreen", "enable"])
    try Self.expectNothingOver(fullscreen, within: corner, on: desk)
    let paused = try server.notify(["-a", "Player", "-t", "0", "Paused"])
    try Self.expectListed([(paused, false)], server)
    try desk.sway.swaymsg(["fullscreen", "disable"])
    try Self.expectDrawn(
      Self.card(Self.request(app: "Player", summary: "Paused")),
      over: windowed.replacing(corner, from: desktop), within: corner, on: desk)
    try Self.expectListed([(paused, true)], server)
    #expect(Self.closes(of: later, on: server.bus) == ["2"])
    #expect(Self.closes(of: paused, on: server.bus).isEmpty)
  }

  // MARK: - Criteria sections

  /// `[notifications]` applies to every card, `[app-name=Firefox]` to
  /// Firefox's only, and `[urgency=critical]`, later in the file, wins over
  /// both for a critical card: each card's background is its section's,
  /// drawn as the offscreen card with the rules the command reads.
  @Test func criteriaSectionsColourTheCardsTheyMatchAndNoOthers() throws {
    let configuration = """
      [notifications]
      background = #304050

      [app-name=Firefox]
      background = #a00000

      [urgency=critical]
      background = #008000
      """
    let server = try Server(configuration: configuration)
    let rules = Config(text: configuration, path: "config").checked().notificationRules()
    #expect(rules.count == 3)
    let desktop = try Self.bareDesktop(on: server.desk)
    let cases: [(app: String, urgency: Toast.Urgency, color: RGB)] = [
      ("Mail", .normal, RGB(0x30, 0x40, 0x50)),
      ("Firefox", .normal, RGB(0xa0, 0x00, 0x00)),
      ("Firefox", .critical, RGB(0x00, 0x80, 0x00)),
      ("Mail", .low, RGB(0x30, 0x40, 0x50)),
    ]
    for (app, urgency, color) in cases {
      let id = try server.notify([
        "-a", app, "-u", urgency.rawValue, "-t", "0", "Download", "finished",
      ])
      let card = Self.card(
        Self.request(app: app, summary: "Download", body: "finished", urgency: urgency),
        rules: rules)
      try Self.expectColoured(card, color, id: id, over: desktop, server)
    }
  }

  /// `[summary~="^Volume"]` colours the card of a summary that starts with
  /// "Volume", and not one where the word comes later.
  @Test func aSummaryRegexSectionColoursTheCardsItMatchesAndNoOthers() throws {
    let configuration = """
      [notifications]
      background = #304050

      [summary~="^Volume"]
      background = #a00000
      """
    let server = try Server(configuration: configuration)
    let rules = Config(text: configuration, path: "config").checked().notificationRules()
    #expect(rules.count == 2)
    let desktop = try Self.bareDesktop(on: server.desk)
    for (summary, color) in [
      ("Volume 40%", RGB(0xa0, 0x00, 0x00)), ("Mute Volume", RGB(0x30, 0x40, 0x50)),
    ] {
      let id = try server.notify(["-a", "pactl", "-t", "0", summary, "speakers"])
      let card = Self.card(
        Self.request(app: "pactl", summary: summary, body: "speakers"), rules: rules)
      try Self.expectColoured(card, color, id: id, over: desktop, server)
    }
  }

  /// The card drawn, most of its box `color` exactly once its fade in has
  /// ended (a frame of the fade can pass for the card above); then dismissed.
  static func expectColoured(
    _ card: Toast, _ color: RGB, id: UInt32, over desktop: Image, _ server: Server
  ) throws {
    _ = try expectDrawn(card, over: desktop, on: server.desk)
    let box = NotificationServerTests.restingBox(card)
    var filled = 0
    try server.desk.screenshot(
      "card \(id): most of it \(color) (\(filled) pixels)", timeout: 20
    ) { shot in
      filled =
        box.width * box.height
        - shot.mismatches(in: box, from: { _, _ in color }, origin: (0, 0), tolerance: 2)
      return filled > box.width * box.height / 2
    }
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(id)]).status == 0)
    try expectNothingOver(desktop, on: server.desk)
  }

  // MARK: - Replacements naming two notifications

  /// A `Notify` with both a `replaces_id` and a stack tag (mako#653): naming
  /// the same notification, it is updated in place; naming two, the one of
  /// the id is updated and the one holding the tag ends as replaced. One
  /// card remains, the server goes on, and every notification ends with
  /// exactly one `NotificationClosed`.
  /// A rule's output that is not there (unplugged): the card shows where a
  /// card without the rule does, and its notification lives on.
  @Test func aRulesMissingOutputShowsTheCardWhereOthersShow() throws {
    let server = try Server(configuration: "[app-name=Chat]\noutput = DP-9\n")
    let id = try server.notify(["-a", "Chat", "-t", "0", "Hello"])
    let card = NotificationServerTests.card(app: "Chat", summary: "Hello", body: "", timeout: 0)
    try NotificationServerTests.expectCard(
      at: NotificationServerTests.restingBox(card), on: server.desk)
    #expect(try server.list().first?["shown"]?.boolValue == true)
    #expect(try NotificationHistoryTests.closedSignals(of: id, server) == [])
  }

  @Test func aReplacementByIdAndStackTagAtOnceLeavesOneCard() throws {
    let server = try Server()
    let desktop = try Self.bareDesktop(on: server.desk)
    let tag = ["-h", "string:x-canonical-private-synchronous:t"]
    let first = try server.notify(["-a", "test", "-t", "0"] + tag + ["a", "first"])
    #expect(
      try server.notify(["-a", "test", "-t", "0", "-r", String(first)] + tag + ["a", "second"])
        == first)
    try Self.expectDrawn(
      Self.card(Self.request(app: "test", summary: "a", body: "second")), over: desktop,
      on: server.desk)
    try Self.expectListed([(first, true)], server)
    // The tag alone: a new id takes the card, the first ends as replaced.
    let third = try server.notify(["-a", "test", "-t", "0"] + tag + ["a", "third"])
    try server.bus.waitForSignal("NotificationClosed", [String(first), "1"])
    try Self.expectListed([(third, true)], server)
    // The id of one notification, the tag of another.
    let other = try server.notify(["-a", "test", "-t", "0", "b", "other"])
    try Self.expectListed([(other, true), (third, true)], server)
    #expect(
      try server.notify(["-a", "test", "-t", "0", "-r", String(other)] + tag + ["c", "both"])
        == other)
    try server.bus.waitForSignal("NotificationClosed", [String(third), "1"])
    try Self.expectListed([(other, true)], server)
    try Self.expectDrawn(
      Self.card(Self.request(app: "test", summary: "c", body: "both")), over: desktop,
      on: server.desk)
    // The tag is the updated one's now.
    let last = try server.notify(["-a", "test", "-t", "0"] + tag + ["d", "last"])
    try server.bus.waitForSignal("NotificationClosed", [String(other), "1"])
    try Self.expectListed([(last, true)], server)
    #expect(try server.desk.runToEnd(["notifications", "dismiss", "--all"]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(last), "2"])
    #expect(server.daemon.isRunning)
    for id in [first, third, other, last] {
      #expect(Self.closes(of: id, on: server.bus).count == 1, "one end for \(id)")
    }
    #expect(Set([first, third, other, last]).count == 4)
  }

  // MARK: - Preview

  /// The preview line of docs/NOTIFICATIONS.md, run as it is written.
  static let previewLine =
    "wl-toast --render-png card.png --style card --markup --icon mail-unread"
    + " --button Snooze $'<small>Mail</small>\\n<b>Alice</b>\\nLunch?'"

  /// The documented `--render-png` line draws exactly the card the server
  /// shows for the matching `notify-send`.
  @Test func theDocumentedPreviewIsTheCardTheServerShows() throws {
    let docs = try #require(readFile(repositoryDirectory + "/docs/NOTIFICATIONS.md"))
    #expect(String(decoding: docs, as: UTF8.self).contains(Self.previewLine + "\n"))
    let server = try Server()
    let desktop = try Self.bareDesktop(on: server.desk)
    // The line through bash, for its $'…' quoting, with this build's wl-toast.
    let directory = server.desk.compositor.runtimeDirectory
    let command =
      "cd \(directory) && wl-toast() { '\(builtProduct("wl-toast"))' \"$@\"; } && "
      + Self.previewLine
    let preview = try server.desk.runToEnd(Run(["-c", command], program: "bash"))
    #expect(preview.status == 0 && preview.errors.isEmpty, "\(preview.errors)")
    let drawn = try #require(OffscreenImage(png: directory + "/card.png"))
    let request = NotificationRequest(
      appName: "Mail", appIcon: "mail-unread", summary: "Alice", body: "Lunch?",
      actions: [NotificationAction(key: "snooze", label: "Snooze")], expireTimeout: 0)
    let card = Self.card(request)
    let expected = OffscreenImage.render(card, outputWidth: 1280, outputHeight: 720)
    #expect(drawn.width == expected.width && drawn.height == expected.height)
    var differing = 0
    for y in 0..<min(drawn.height, expected.height) {
      for x in 0..<min(drawn.width, expected.width)
      where drawn.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
        differing += 1
      }
    }
    #expect(differing == 0, "\(differing) pixels differ from the server's card")
    // notify-send waits for an action when it offers one.
    let sent = try server.desk.start(
      Run(
        ["-a", "Mail", "-i", "mail-unread", "-A", "snooze=Snooze", "-t", "0", "Alice", "Lunch?"],
        program: "notify-send"))
    defer { sent.terminate() }
    try Self.expectDrawn(card, over: desktop, on: server.desk)
  }
}
