import TestSupport
import Testing
import ToastProtocol

/// The notification server's history as a mako or dunst user meets it:
/// `notify-send`'s cards dismissed, `wl-toast notifications history` and
/// `restore` on a headless sway, `dbus-monitor`'s record of the signals.
@Suite(.serialized)
struct NotificationHistoryTests {
  typealias Server = NotificationServerTests.Server

  /// What `wl-toast notifications history` prints, one object a line.
  static func history(_ server: Server) throws -> [JSONValue] {
    let result = try server.desk.runToEnd(["notifications", "history"])
    #expect(result.status == 0, "\(result.errors)")
    return try result.output.split(separator: "\n").map { try JSONValue.parse(String($0)) }
  }

  /// The ids of `objects`.
  static func ids(_ objects: [JSONValue]) -> [UInt32] {
    objects.compactMap { $0["id"]?.doubleValue.flatMap { UInt32(exactly: $0) } }
  }

  /// Runs `wl-toast notifications WORDS` and expects status 0.
  static func command(_ server: Server, _ words: String...) throws {
    let result = try server.desk.runToEnd(["notifications"] + words)
    #expect(result.status == 0, "\(words): \(result.errors)")
  }

  /// The `NotificationClosed` signals about `id` seen so far, once the
  /// server's signals up to a `CloseNotification` of a notification sent
  /// now are in `dbus-monitor`'s record (signals come in order).
  static func closedSignals(of id: UInt32, _ server: Server) throws -> [String] {
    let marker = try server.notify(["-t", "0", "Marker"])
    #expect(try server.call("CloseNotification", [String(marker)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(marker), "3"])
    return server.bus.signals().filter {
      $0.member == "NotificationClosed" && $0.arguments.first == String(id)
    }.map(\.description)
  }

  @Test func aDismissedCardIsRestoredWithItsIdAndEndsAgainWithoutASecondSignal() throws {
    let server = try Server()
    let id = try server.notify(["-a", "Mail", "-t", "0", "Meeting", "In five minutes"])
    let card = NotificationServerTests.card(
      app: "Mail", summary: "Meeting", body: "In five minutes", timeout: 0)
    try NotificationServerTests.expectDrawnAsOffscreen(card, on: server.desk)
    try Self.command(server, "dismiss", String(id))
    try server.bus.waitForSignal("NotificationClosed", [String(id), "2"])
    try NotificationServerTests.expectNoCard(on: server.desk)
    let kept = try Self.history(server)
    #expect(Self.ids(kept) == [id])
    #expect(kept.first?["app"]?.stringValue == "Mail")
    #expect(kept.first?["summary"]?.stringValue == "Meeting")
    #expect(kept.first?["body"]?.stringValue == "In five minutes")
    #expect(kept.first?["shown"]?.boolValue == false)
    #expect(try server.list().isEmpty, "list stays live-only")

    try Self.command(server, "restore")
    try NotificationServerTests.expectDrawnAsOffscreen(card, on: server.desk)
    let live = try server.list()
    #expect(Self.ids(live) == [id] && live.first?["shown"]?.boolValue == true)
    #expect(try Self.history(server).isEmpty, "restored, it leaves the history")

    // Its end again, by a right click: back into the history, no second signal.
    let box = NotificationServerTests.restingBox(card)
    try server.desk.input.click(x: box.x + 20, y: box.y + box.height - 6, button: .right)
    try NotificationServerTests.expectNoCard(on: server.desk)
    try waitUntil("the card back in the history") { Self.ids(try Self.history(server)) == [id] }
    #expect(try Self.closedSignals(of: id, server) == ["NotificationClosed(\(id), 2)"])
  }

  @Test func aRestoredCardIsListedWithoutTheStackTagANewCardHolds() throws {
    let server = try Server()
    let tagged = ["-a", "Volume", "-t", "0", "-h", "string:x-dunst-stack-tag:vol"]
    let old = try server.notify(tagged + ["Volume 40%"])
    try Self.command(server, "dismiss", String(old))
    try waitUntil("the card in the history") { Self.ids(try Self.history(server)) == [old] }
    try Self.command(server, "restore")
    let new = try server.notify(tagged + ["Volume 50%"])
    #expect(new != old, "the restored card holds no tag for the new one to replace")
    var listed: [JSONValue] = []
    try waitUntil("both listed (\(listed))") {
      listed = try server.list()
      return listed.count == 2
    }
    let tags = Dictionary(
      uniqueKeysWithValues: listed.map { (Self.ids([$0]).first ?? 0, $0["tag"]) })
    #expect(tags[new] == .string("vol"), "\(listed)")
    #expect(tags[old] == .null, "\(listed)")
  }

  @Test func aRestoredCardsActionIsInvokedAndItsIdIsTheApplicationsAgainWhenReplaced() throws {
    let server = try Server()
    let sent = try server.call(
      "Notify", ["'Mail'", "0", "''", "'Reminder'", "''", "['later', 'Later']", "{}", "0"])
    let number = sent.output.split(separator: " ").last?.filter(\.isNumber)
    let id = try #require(number.flatMap { UInt32($0) }, "\(sent.output) \(sent.errors)")
    try waitUntil("the card shown") { try server.list().first?["shown"]?.boolValue == true }
    try Self.command(server, "dismiss", String(id))
    try server.bus.waitForSignal("NotificationClosed", [String(id), "2"])
    try Self.command(server, "restore")
    try waitUntil("the card shown again") { Self.ids(try server.list()) == [id] }
    #expect(try server.list().first?["actions"] == .object(["later": .string("Later")]))
    try Self.command(server, "invoke", String(id), "later")
    try server.bus.waitForSignal("ActionInvoked", [String(id), "later"])
    try waitUntil("the card gone") { try server.list().isEmpty }
    #expect(try Self.closedSignals(of: id, server) == ["NotificationClosed(\(id), 2)"])

    // Restored, then sent again by its application (replaces_id): its own again.
    try Self.command(server, "restore")
    try waitUntil("the card shown again") { Self.ids(try server.list()) == [id] }
    #expect(try server.notify(["-r", String(id), "-t", "0", "Reminder", "updated"]) == id)
    #expect(try server.call("CloseNotification", [String(id)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(id), "3"])
    #expect(try Self.history(server).isEmpty, "closed by its application: not kept")
  }

  @Test func theHistoryKeepsMaxHistoryOfTheNewestAndNoneTheApplicationClosed() throws {
    let server = try Server(configuration: "[notifications]\nmax-history = 2\n")
    var ids: [UInt32] = []
    for number in 1...3 {
      let id = try server.notify(["-t", "0", "Dismissed \(number)"])
      try Self.command(server, "dismiss", String(id))
      ids.append(id)
    }
    let closed = try server.notify(["-t", "0", "Closed by its application"])
    #expect(try server.call("CloseNotification", [String(closed)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(closed), "3"])
    let kept = try Self.history(server)
    #expect(Self.ids(kept) == [ids[2], ids[1]], "newest first, at most 2")
    #expect(kept.map { $0["summary"]?.stringValue } == ["Dismissed 3", "Dismissed 2"])
  }

  @Test func aCriteriaSectionsHistoryFalseKeepsItsApplicationsOut() throws {
    let server = try Server(configuration: "[app-name=Spotify]\nhistory = false\n")
    let song = try server.notify(["-a", "Spotify", "-t", "0", "Now playing"])
    let mail = try server.notify(["-a", "Mail", "-t", "0", "New mail"])
    try Self.command(server, "dismiss", "--all")
    try server.bus.waitForSignal("NotificationClosed", [String(song), "2"])
    try server.bus.waitForSignal("NotificationClosed", [String(mail), "2"])
    #expect(Self.ids(try Self.history(server)) == [mail])
  }

  @Test func maxHistory0KeepsNoneAndRestoreThenShowsNothing() throws {
    let server = try Server(arguments: ["--max-history", "0"])
    let id = try server.notify(["-t", "0", "Gone"])
    try Self.command(server, "dismiss", String(id))
    try server.bus.waitForSignal("NotificationClosed", [String(id), "2"])
    #expect(try Self.history(server).isEmpty)
    let before = try server.surfacesMade()
    try Self.command(server, "restore")
    #expect(try server.list().isEmpty)
    #expect(try server.surfacesMade() == before, "no card")
  }
}
