import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing

/// `wl-toast watch media` on a headless sway, following real MPRIS players
/// on a private session bus: mpv with its MPRIS plug-in, and a test player
/// that publishes hostile values.
@Suite(.serialized)
struct WatchMediaTests {
  /// A desk running `watch media` on a bus of its own.
  final class MediaDesk {
    let desk: Desk<HeadlessSway>
    let players: MediaPlayers
    let watcher: ChildProcess
    /// The watcher's standard output and error.
    let log: String

    /// Starts the desk and the bus, runs `before` (players there before the
    /// watch), starts the watcher and waits until it has subscribed to the
    /// players' signals (its match rules on the bus). Its toasts stay until
    /// replaced (`[preset media]`), so that a loaded machine cannot miss one.
    /// With `busAddress`, the watcher reaches the bus there (a link to its socket).
    init(busAddress: String? = nil, before: (MediaPlayers) throws -> Void = { _ in }) throws {
      desk = try Desk<HeadlessSway>()
      players = try MediaPlayers()
      desk.environment.merge(players.clientEnvironment) { $1 }
      if let busAddress { desk.environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress }
      let config = desk.sway.runtimeDirectory + "/watch-config"
      try makeConfigHome(at: config, config: "[preset media]\ntimeout = 0\n")
      desk.environment["XDG_CONFIG_HOME"] = config
      try before(players)
      log = desk.scratch("watch-media") + ".log"
      watcher = try desk.run(["watch", "media"], logPath: log)
      try waitWhileWatching("watch media to subscribe to the players' signals", timeout: 20) {
        players.matchRules(of: watcher.pid) >= 2
      }
    }

    deinit {
      watcher.terminate()
      players.stop()
    }

    /// What the watcher wrote.
    var errors: String {
      readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    }

    /// Waits until `condition` holds; fails at once when the watcher ends.
    func waitWhileWatching(
      _ awaited: @autoclosure () -> String, timeout: Double, _ condition: () throws -> Bool
    ) throws {
      try waitUntil(awaited(), timeout: timeout) {
        guard watcher.isRunning else { throw HarnessError("watch media ended: \(errors)") }
        return try condition()
      }
    }

    /// After the bus went away once: waits until the watcher has subscribed
    /// on the players' bus again and a new player's track shows, the loss
    /// told in one line.
    func expectFollowingAgain(timeout: Double) throws {
      try waitWhileWatching("watch media subscribed on the players' bus again", timeout: timeout) {
        players.matchRules(of: watcher.pid) >= 2
      }
      let player = try players.startTestPlayer("next")
      try player.send(#"{"n": 1, "title": "Back", "artist": "A", "status": "Playing"}"#)
      try waitForToast("Back — A")
      #expect(errors == "wl-toast: watch media: the session bus went away; trying again\n")
    }

    /// Waits until the media toast says `text`; its status.
    @discardableResult
    func waitForToast(_ text: String, timeout: Double = 20) throws -> ToastStatus {
      var seen: ToastStatus?
      try waitUntil(
        "the media toast '\(text)' (last: \(lastSeen(seen?.text)))", timeout: timeout
      ) {
        guard watcher.isRunning else { throw HarnessError("watch media ended: \(errors)") }
        seen = try desk.status(tag: "media")
        return seen?.text == text
      }
      return seen!
    }
  }

  /// The icon of the toast in `status`.
  static func icon(_ status: ToastStatus) -> String? {
    status.json["toast"]?["icon"]?.stringValue
  }

  @Test func mpvsTracksShowWithTheirCoverAndPauseShowsItsIcon() throws {
    let media = try MediaDesk()
    try media.players.startMPV()
    let first = try media.waitForToast("First Song — Test Artist")
    #expect(Self.icon(first) == media.players.music + "/cover.jpg")
    try media.desk.screenshot("the cover's pixels in the banner") { shot in
      guard let box = shot.boundingBox(of: MediaPlayers.coverColor, tolerance: 8) else {
        return false
      }
      return box.width >= 20 && box.height >= 20
    }
    try media.players.playerctl(["next"])
    try media.waitForToast("Second Song — Other Artist")
    try media.players.playerctl(["pause"])
    let paused = try media.waitForToast("Second Song")
    #expect(Self.icon(paused) == "media-playback-pause-symbolic")

    // Nothing changes: the watcher does not wake.
    try expectIdle(media.watcher.pid)
    #expect(media.errors.isEmpty, "\(media.errors)")
  }

  @Test func aPlayerThereBeforeTheWatchShowsOnlyItsChanges() throws {
    var early: TestPlayer?
    let media = try MediaDesk { players in
      let player = try players.startTestPlayer("early")
      try player.send(#"{"n": 1, "title": "Before", "artist": "A", "status": "Playing"}"#)
      try player.sync()
      early = player
    }
    let player = try #require(early)
    // The watcher read the player's properties and is done with them: they show nothing.
    try player.waitForGetAll()
    try waitUntilSettled(media.watcher.pid)
    #expect(
      try media.desk.status(tag: "media") == nil, "the track playing at start is the baseline")
    try player.send(#"{"n": 2, "title": "After", "artist": "A"}"#)
    try media.waitForToast("After — A")
  }

  @Test func aPlayerThatAppearsStoppedShowsNothingAndALaterCoverJoinsItsBanner() throws {
    let media = try MediaDesk()
    let player = try media.players.startTestPlayer("late")
    // Started stopped, with no track, as players start: nothing to show.
    try player.waitForGetAll()
    try waitUntilSettled(media.watcher.pid)
    #expect(try media.desk.status(tag: "media") == nil, "a player started stopped")
    try player.send(#"{"n": 1, "title": "Now", "artist": "A", "status": "Playing"}"#)
    #expect(Self.icon(try media.waitForToast("Now — A")) == nil, "no cover yet")
    // Its cover in a change of its own, as browsers send it: the banner takes it.
    let png = media.players.directory + "/later.png"
    try writeBytes(png, pngFile(width: 8, height: 8, rgb: [0, 200, 255]))
    try player.send(#"{"n": 1, "title": "Now", "artist": "A", "artUrl": "file://\#(png)"}"#)
    try waitUntil("the banner to take the cover") {
      try media.desk.status(tag: "media").map(Self.icon) == png
    }
  }

  @Test func theBusGoingAwayIsOneLineAndTheWatchFollowsTheNextBus() throws {
    let media = try MediaDesk()
    try media.players.restartBus()
    try media.expectFollowingAgain(timeout: 20)
  }

  @Test(arguments: SilentBus.Mode.allCases)
  func aSessionBusThatDoesNotAnswerOrClosesAtStartIsOneLineAndStatus1(_ mode: SilentBus.Mode)
    throws
  {
    let bus = try SilentBus(mode)
    let desk = try Desk<HeadlessSway>()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    let result = try desk.runToEnd(["watch", "media"], timeout: 30)
    #expect(result.status == 1)
    let why =
      mode == .closing ? "closed the connection before answering" : "did not answer within 5 s"
    #expect(result.errors == "wl-toast: watch media: the session bus at \(bus.socket) \(why)\n")
    try waitUntil("every connection to the bus closed") {
      bus.connections >= 1 && bus.closedConnections == bus.connections
    }
  }

  @Test func aMutePlayerFloodingItsSignalsLeavesTheWatchToOtherPlayers() throws {
    let media = try MediaDesk()
    let mute = try media.players.startTestPlayer("mute", answersGetAll: false)
    let good = try media.players.startTestPlayer("good")
    try waitUntil("the watcher to ask the mute player", timeout: 20) {
      mute.getAllUnanswered >= 1
    }
    try mute.send(#"{"status": "Playing"}"#)
    try media.waitForToast("Playing")
    let before = try #require(statusFields(media.watcher.pid)["VmRSS"])
    // Its name dropped and taken 2,000 times, 10,000 changes: the watch
    // keeps up and shows the last.
    try mute.send(#"{"rename": 2000}"#)
    try mute.send(#"{"flood": 10000}"#)
    try mute.send(#"{"n": 1, "title": "Mute last", "artist": "A", "status": "Playing"}"#)
    try media.waitForToast("Mute last — A", timeout: 60)
    try good.send(#"{"n": 2, "title": "Good", "artist": "B", "status": "Playing"}"#)
    try media.waitForToast("Good — B")
    let after = try #require(statusFields(media.watcher.pid)["VmRSS"])
    if !underAddressSanitizer {
      #expect(after - before < 4096, "resident \(before) KiB, then \(after) KiB")
    }
  }

  @Test func aBusThatDoesNotAnswerAfterStartIsTriedAgainQuietly() throws {
    // The watcher's bus address names a link: to the players' bus, then to a
    // silent one, then back.
    let links = try makeTemporaryDirectory(prefix: "wl-toast-bus-link")
    defer { removeTree(links) }
    let link = links + "/bus"
    let silent = try SilentBus(.silent)
    let media = try MediaDesk(busAddress: "unix:path=" + link) { players in
      #expect(symlink(players.directory + "/bus", link) == 0)
    }
    #expect(unlink(link) == 0 && symlink(silent.socket, link) == 0)
    try media.players.restartBus()
    try media.waitWhileWatching("watch media to try the silent bus and give it up", timeout: 30) {
      silent.closedConnections >= 1
    }
    // Back to the players' bus: followed again, and the silent bus said nothing.
    #expect(unlink(link) == 0 && symlink(media.players.directory + "/bus", link) == 0)
    try media.expectFollowingAgain(timeout: 40)
  }

  @Test func withoutASessionBusTheWatchIsOneLineAndStatus1() throws {
    let desk = try Desk<HeadlessSway>()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=/nonexistent/wl-toast-bus"
    let refused = try desk.runToEnd(["watch", "media"])
    #expect(refused.status == 1)
    #expect(
      refused.errors
        == "wl-toast: watch media: cannot connect to the session bus at /nonexistent/wl-toast-bus\n"
    )
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
    desk.environment["XDG_RUNTIME_DIR"] = desk.compositor.runtimeDirectory + "/no-bus-here"
    let absent = try desk.runToEnd(["watch", "media"])
    #expect(absent.status == 1)
    #expect(
      absent.errors
        == "wl-toast: watch media: no session bus: DBUS_SESSION_BUS_ADDRESS is unset and"
        + " $XDG_RUNTIME_DIR/bus is none\n")
  }

  @Test func aHostilePlayerGetsTextAloneAndLeavesTheWatchAlive() throws {
    let media = try MediaDesk()
    let player = try media.players.startTestPlayer("hostile")
    let directory = media.players.directory
    try player.send(#"{"n": 1, "title": "Good", "artist": "A", "status": "Playing"}"#)
    try media.waitForToast("Good — A")

    // A PNG cover of the player's own is the icon.
    let png = directory + "/art.png"
    try writeBytes(png, pngFile(width: 8, height: 8, rgb: [0, 200, 255]))
    try player.send(#"{"n": 2, "title": "Covered", "artist": "A", "artUrl": "file://\#(png)"}"#)
    #expect(Self.icon(try media.waitForToast("Covered — A")) == png)
    // And a JPEG one with Exif metadata.
    let jpeg = directory + "/art.jpg"
    let exif = Array("Exif".utf8) + [UInt8](repeating: 0, count: 4000)
    try writeBytes(jpeg, jpegFile(width: 8, height: 8, rgb: [0, 200, 255], metadata: exif))
    try player.send(#"{"n": 3, "title": "Photo", "artist": "A", "artUrl": "file://\#(jpeg)"}"#)
    #expect(Self.icon(try media.waitForToast("Photo — A")) == jpeg)

    // Covers that are no drawable local file: the text alone, at once.
    #expect(mkfifo(directory + "/fifo", 0o600) == 0)
    let huge = open(directory + "/huge.png", O_WRONLY | O_CREAT, 0o600)
    #expect(huge >= 0 && ftruncate(huge, 200 << 20) == 0)
    close(huge)
    try writeBytes(directory + "/cover.jpg", [0xff, 0xd8, 0xff, 0xe0, 0, 16])
    let bad = [
      "file://\(directory)/fifo", "file://\(directory)", "file://\(directory)/huge.png",
      "http://127.0.0.1:9/cover.png", "file:art.png", "file://\(directory)/art%00.png",
      "file://\(directory)/cover.jpg", "file://\(directory)/missing.png",
    ]
    for (index, uri) in bad.enumerated() {
      try player.send(
        #"{"n": \#(10 + index), "title": "Bad \#(index)", "artist": "A", "artUrl": "\#(uri)"}"#)
      let status = try media.waitForToast("Bad \(index) — A")
      #expect(Self.icon(status) == nil, "\(uri)")
    }

    // Values of other types than MPRIS's: what can be read shows.
    try player.send(
      #"{"properties": {"Metadata": ["a{sv}", {"mpris:trackid": ["o", "/t/50"], "#
        + #""xesam:title": ["i", 5], "xesam:artist": ["i", 7], "#
        + #""xesam:url": ["s", "file:///m/Typed%20Name.ogg"]}]}}"#)
    try media.waitForToast("Typed Name.ogg")
    try player.send(#"{"properties": {"Metadata": ["s", "junk"], "PlaybackStatus": ["i", 3]}}"#)
    try player.send(#"{"n": 51, "title": "After junk", "artist": "A"}"#)
    try media.waitForToast("After junk — A")

    // A title of 5 MB is cut.
    try player.send(
      #"{"properties": {"Metadata": ["a{sv}", {"mpris:trackid": ["o", "/t/60"], "#
        + #""xesam:title": ["huge-s", 5000000], "xesam:artist": ["as", ["A"]]}]}}"#)
    var cut: ToastStatus?
    try waitUntil("the huge title cut", timeout: 20) {
      cut = try media.desk.status(tag: "media")
      return cut?.text.hasPrefix("xxxx") == true
    }
    #expect((cut?.text.unicodeScalars.count ?? .max) < 600)
    #expect(cut?.text.hasSuffix("… — A") == true)

    // A flood of changes: the watch keeps up and shows the last.
    try player.send(#"{"flood": 2000}"#)
    try media.waitForToast("Flood 1999")

    // It ends on SIGTERM, having said nothing.
    #expect(kill(media.watcher.pid, SIGTERM) == 0)
    #expect(media.watcher.wait(timeout: 10) == 0)
    #expect(media.errors.isEmpty, "\(media.errors)")
  }
}
