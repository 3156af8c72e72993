import CompositorCases
import Glibc
import Notifications
import SystemSupport
import TestSupport
import Testing
import ToastKit
import ToastProtocol
import ToastRendering

/// `wl-toast daemon --notifications` as applications meet it: clients
/// nobody here wrote (notify-send, dunstify, zenity, gdbus, dbus-send,
/// Python's dbus) on a
/// private session bus, the cards on a headless sway, `dbus-monitor`'s
/// record of the signals.
@Suite(.serialized)
struct NotificationServerTests {
  /// A headless sway whose commands and clients use a private notification
  /// bus, with `wl-toast daemon --notifications` serving it.
  final class Server {
    let bus: NotificationBus
    let desk: Desk<HeadlessSway>
    let daemon: ChildProcess
    let log: String

    /// A daemon started with `arguments`, reading `configuration` (the text
    /// of a configuration file) from the test's own `XDG_CONFIG_HOME`, with
    /// `environment` added to its own.
    init(
      bus: NotificationBus? = nil, arguments: [String] = [], configuration: String? = nil,
      environment: [String: String] = [:]
    ) throws {
      let bus = try bus ?? NotificationBus()
      self.bus = bus
      desk = try deskWithOwnRuntime()
      desk.environment.merge(bus.clientEnvironment) { $1 }
      desk.environment.merge(environment) { $1 }
      if let configuration {
        let home = desk.compositor.runtimeDirectory + "/config-home"
        #expect(mkdir(home, 0o700) == 0 && mkdir(home + "/wl-toast", 0o700) == 0)
        try writeFile(home + "/wl-toast/config", configuration)
        desk.environment["XDG_CONFIG_HOME"] = home
      }
      log = desk.scratch("daemon") + ".log"
      daemon = try desk.run(["daemon", "--notifications"] + arguments, logPath: log)
      try waitUntil("the daemon to own \(NotificationBus.serverName) (log: \(errors))") {
        guard daemon.isRunning else { throw HarnessError("the daemon exited: \(errors)") }
        return bus.serverProcess() == daemon.pid
      }
      // The bus gives the name a moment before the daemon hears its
      // RequestName answered and serves the commands too.
      try waitUntil("the daemon to serve the notification commands (log: \(errors))") {
        try desk.runToEnd(["notifications", "list"]).status == 0
      }
    }

    deinit { daemon.terminate() }

    /// What the daemon wrote on standard error.
    var errors: String { readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Runs a client program on the bus to its end.
    func client(
      _ program: String, _ arguments: [String], timeout: Double? = nil
    ) throws -> CommandResult {
      try desk.runToEnd(Run(arguments, program: program), timeout: timeout)
    }

    /// Calls a method of the server with `gdbus call` (arguments in GVariant text).
    func call(_ method: String, _ arguments: [String] = []) throws -> CommandResult {
      try desk.runToEnd(bus.gdbusCall(method, arguments))
    }

    /// Runs `notify-send ARGUMENTS -p` and returns the id it printed.
    func notify(_ arguments: [String]) throws -> UInt32 {
      let result = try client("notify-send", ["-p"] + arguments)
      let printed = result.output.split(separator: "\n").first.flatMap { UInt32($0) }
      return try #require(printed, "notify-send printed an id: \(result.output) \(result.errors)")
    }

    /// What `wl-toast notifications list` prints, one object a line.
    func list() throws -> [JSONValue] {
      let result = try desk.runToEnd(["notifications", "list"])
      #expect(result.status == 0, "\(result.errors)")
      return try result.output.split(separator: "\n").map { try JSONValue.parse(String($0)) }
    }

    /// How many surfaces the owner has made so far, through a toast that
    /// stays with the tag `probe`.
    func surfacesMade() throws -> Int {
      if try desk.status(tag: "probe") == nil {
        #expect(
          try desk.runToEnd(["--tag", "probe", "--timeout", "0", "--no-animation", "probe"])
            .status == 0)
      }
      return try #require(try desk.status(tag: "probe")).surfaces
    }
  }

  /// The card a notification shows, as the server makes it.
  static func card(
    app: String, summary: String, body: String, actions: [NotificationAction] = [],
    timeout: Int32 = -1
  ) -> Toast {
    CardLooks.card(app: app, summary: summary, body: body, actions: actions, timeout: timeout)
  }

  /// Where a card rests alone at the top right of sway's 1280x720 output.
  static func restingBox(_ card: Toast) -> Box { CardLooks.restingBox(card) }

  /// Where button `index` of a card resting alone at the top right is.
  static func buttonBox(_ index: Int, of card: Toast) -> Box {
    CardLooks.buttonBox(index, of: card)
  }

  /// The centre of button `index` of a card resting alone at the top right.
  static func buttonCentre(_ index: Int, of card: Toast) -> (x: Int, y: Int) {
    CardLooks.buttonCentre(index, of: card)
  }

  /// Waits until the only card on screen rests at `box`.
  static func expectCard(at box: Box, on desk: Desk<HeadlessSway>) throws {
    try CardLooks.expectCard(at: box, on: desk)
  }

  /// Waits until `card` rests alone at the top right, drawn as it is offscreen
  /// (but for 1 % of its pixels); returns that screenshot.
  @discardableResult
  static func expectDrawnAsOffscreen(_ card: Toast, on desk: Desk<HeadlessSway>) throws -> Image {
    let box = restingBox(card)
    try expectCard(at: box, on: desk)
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let reference = composited(card, over: HeadlessSway.desktop)
    let origin = (x: box.x - Int(layout.box.x), y: box.y - Int(layout.box.y))
    var mismatches = 0
    return try desk.screenshot("the card as drawn offscreen (\(mismatches) pixels differ)") {
      mismatches = $0.mismatches(in: box, from: reference.blend, origin: origin)
      return mismatches < box.width * box.height / 100
    }
  }

  /// Waits until no card is on screen.
  static func expectNoCard(on desk: Desk<HeadlessSway>) throws {
    try CardLooks.expectNoCard(on: desk)
  }

  @Test func notifySendShowsACardAtTheTopRightAsItIsDrawnOffscreen() throws {
    let server = try Server()
    let id = try server.notify(["-a", "Mail", "-t", "0", "Meeting", "In five minutes"])
    #expect(id == 1, "the first id")
    let card = Self.card(app: "Mail", summary: "Meeting", body: "In five minutes", timeout: 0)
    try Self.expectDrawnAsOffscreen(card, on: server.desk)
    let listed = try server.list()
    #expect(listed.count == 1)
    #expect(listed.first?["id"]?.doubleValue == 1 && listed.first?["app"]?.stringValue == "Mail")
    #expect(listed.first?["summary"]?.stringValue == "Meeting")
    #expect(listed.first?["body"]?.stringValue == "In five minutes")
    #expect(listed.first?["urgency"]?.stringValue == "normal")
    #expect(listed.first?["shown"]?.boolValue == true)
  }

  @Test func anImageDataIconAndAValueBarShowAsTheyAreDrawnOffscreen() throws {
    let server = try Server()
    // 4x4 pixels: red, green, blue and half-transparent white, row after row.
    let pixels: [[UInt8]] = [
      [255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [255, 255, 255, 128],
    ]
    let rgba = (0..<16).flatMap { pixels[$0 / 4] }
    let image =
      "<(4, 4, 16, true, 8, 4, [byte " + rgba.map(String.init).joined(separator: ", ") + "])>"
    let called = try server.call(
      "Notify",
      ["Img", "0", "''", "'Pixels'", "''", "[]", "{'image-data': \(image), 'value': <40>}", "0"])
    #expect(called.status == 0 && called.output == "(uint32 1,)\n", "\(called.errors)")
    var hints = NotificationHints()
    hints.image = .pixels(try #require(Toast.Image(width: 4, height: 4, rgba: rgba)))
    hints.value = 40
    let card = NotificationCard.toast(
      for: NotificationRequest(appName: "Img", summary: "Pixels", hints: hints, expireTimeout: 0),
      rules: [])
    #expect(card.image != nil && card.progress == 0.4)
    let shot = try Self.expectDrawnAsOffscreen(card, on: server.desk)
    // The icon's colours, scaled up from its 16 pixels.
    #expect(shot.colorfulPixels(in: Self.restingBox(card)) > 500)
  }

  @Test func aJPEGImagePathShowsThePhotoAsItIsDrawnOffscreen() throws {
    let server = try Server()
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-photo")
    defer { removeTree(directory) }
    let photo = directory + "/screenshot.jpg"
    let magenta = RGB(255, 0, 255)
    try writeBytes(
      photo, jpegFile(width: 96, height: 64, rgb: [magenta.red, magenta.green, magenta.blue]))
    _ = try server.notify([
      "-a", "Camera", "-t", "0", "-h", "string:image-path:file://" + photo, "Saved", "A photo",
    ])
    var hints = NotificationHints()
    hints.image = .file(photo)
    let card = NotificationCard.toast(
      for: NotificationRequest(
        appName: "Camera", summary: "Saved", body: "A photo", hints: hints, expireTimeout: 0),
      rules: [])
    let shot = try Self.expectDrawnAsOffscreen(card, on: server.desk)
    // The photo fitted into the icon's square, keeping its shape: 48x32.
    let photoBox = try #require(shot.boundingBox(of: magenta, tolerance: 8))
    #expect(photoBox.width == 48 && photoBox.height == 32, "\(photoBox)")
    #expect(Self.restingBox(card).contains(photoBox))
  }

  @Test func replacesIDUpdatesTheCardInPlaceAndCloseNotificationEndsIt() throws {
    let server = try Server()
    let before = try server.surfacesMade()
    let id = try server.notify(["-t", "0", "Copying", "1 of 3"])
    try waitUntil("the card's surface") { try server.surfacesMade() == before + 1 }
    #expect(try server.notify(["-r", String(id), "-t", "0", "Copying", "2 of 3"]) == id)
    try waitUntil("the card updated") {
      try server.list().first?["body"]?.stringValue == "2 of 3"
    }
    #expect(try server.surfacesMade() == before + 1, "the same surface")
    let closed = try server.call("CloseNotification", [String(id)])
    #expect(closed.status == 0, "\(closed.errors)")
    let signals = try server.bus.waitForSignal("NotificationClosed", [String(id), "3"])
    #expect(signals.filter { $0.member == "NotificationClosed" }.count == 1, "\(signals)")
    try Self.expectNoCard(on: server.desk)
    #expect(try server.list().isEmpty)
    // An id no notification has: success and no signal, as mako and dunst
    // answer (the specification asks for an empty error).
    #expect(try server.call("CloseNotification", ["4242"]).status == 0)
    #expect(try server.call("CloseNotification", [String(id)]).status == 0)
    // An unknown replaces_id becomes the new notification's id (dunstify -r).
    #expect(try server.notify(["-r", "2593", "-t", "0", "Fixed id"]) == 2593)
    #expect(try server.notify(["-t", "0", "Next"]) != 2593)
    // Signals come in order: once this one is seen, the unknown ids' would have been.
    #expect(try server.call("CloseNotification", ["2593"]).status == 0)
    let later = try server.bus.waitForSignal("NotificationClosed", ["2593", "3"])
    #expect(
      later.filter { $0.member == "NotificationClosed" }.map(\.description) == [
        "NotificationClosed(\(id), 3)", "NotificationClosed(2593, 3)",
      ])
  }

  @Test func aSynchronousSeriesUpdatesOneCard() throws {
    let server = try Server()
    let before = try server.surfacesMade()
    var ids: [UInt32] = []
    for level in [20, 40, 60] {
      ids.append(
        try server.notify([
          "-a", "volume", "-t", "0", "-h", "int:value:\(level)",
          "-h", "string:x-canonical-private-synchronous:volume", "Volume \(level)%",
        ]))
      try waitUntil("the card at \(level)%") {
        try server.list().map { $0["summary"]?.stringValue } == ["Volume \(level)%"]
      }
    }
    #expect(try server.surfacesMade() == before + 1, "one surface for the series")
    #expect(Set(ids).count == 3, "each its own id")
    // The replaced ones ended as expired, as with dunst.
    try server.bus.waitForSignal("NotificationClosed", [String(ids[0]), "1"])
    try server.bus.waitForSignal("NotificationClosed", [String(ids[1]), "1"])
    // Another application's tag is its own.
    _ = try server.notify([
      "-a", "other", "-t", "0", "-h", "string:x-canonical-private-synchronous:volume", "Other",
    ])
    try waitUntil("two cards") { try server.list().count == 2 }
  }

  @Test func aButtonClickedIsTheActionNotifySendWaitsFor() throws {
    let server = try Server()
    // The token first (sway gives one for the click), so the application
    // may raise its window; the end after the action.
    try expectSnoozeChosen(on: server.desk, bus: server.bus) { x, y in
      try server.desk.input.click(x: x, y: y)
    }
  }

  @Test func focusHandsTheKeyboardToTheNewestCardWithActions() throws {
    let server = try Server()
    let refused = try server.desk.runToEnd(["notifications", "focus"])
    #expect(
      refused.status == 1 && refused.errors == "wl-toast: no notification with actions shows\n",
      "\(refused.errors)")
    let waiting = try server.desk.start(
      Run(
        [
          "--wait", "-a", "Calendar", "-A", "later=Later", "-A", "snooze=Snooze", "Meeting", "Soon",
        ],
        program: "notify-send"))
    defer { waiting.terminate() }
    let card = Self.card(
      app: "Calendar", summary: "Meeting", body: "Soon",
      actions: [
        NotificationAction(key: "later", label: "Later"),
        NotificationAction(key: "snooze", label: "Snooze"),
      ])
    try Self.expectCard(at: Self.restingBox(card), on: server.desk)
    // Shown without the keyboard: a key goes elsewhere.
    try server.desk.input.press(.enter)
    #expect(waiting.isRunning)
    #expect(try server.desk.runToEnd(["notifications", "focus"]).status == 0)
    // The focus ring on the first button, Tab moves it to the second, Enter chooses it.
    func ring(_ index: Int, in shot: Image) -> UInt8 {
      let button = Self.buttonBox(index, of: card)
      return shot.pixel(x: button.x, y: button.y + button.height / 2).red
    }
    try server.desk.screenshot("a ring around Later") {
      ring(0, in: $0) > 200 && ring(1, in: $0) < 150
    }
    try server.desk.input.press(.tab)
    try server.desk.screenshot("a ring around Snooze") {
      ring(1, in: $0) > 200 && ring(0, in: $0) < 150
    }
    try server.desk.input.press(.enter)
    #expect(waiting.wait(timeout: 20) == 0)
    #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "snooze\n")
  }

  @Test func aRightClickDismissesAndALeftClickIsTheDefaultAction() throws {
    let server = try Server()
    let card = Self.card(app: "App", summary: "First", body: "", timeout: 0)
    let first = try server.notify(["-a", "App", "-t", "0", "First"])
    let box = Self.restingBox(card)
    try Self.expectCard(at: box, on: server.desk)
    try server.desk.input.click(x: box.x + 20, y: box.y + box.height - 6, button: .right)
    try server.bus.waitForSignal("NotificationClosed", [String(first), "2"])
    try Self.expectNoCard(on: server.desk)
    let waiting = try server.desk.start(
      Run(
        ["--wait", "-a", "App", "-A", "default=Open", "-t", "0", "First"], program: "notify-send"))
    defer { waiting.terminate() }
    try Self.expectCard(at: box, on: server.desk)
    try server.desk.input.click(x: box.x + 20, y: box.y + box.height - 6)
    #expect(waiting.wait(timeout: 20) == 0)
    #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "default\n")
  }

  @Test func dunstifyAndZenityAreServedToo() throws {
    let server = try Server()
    func dunstify(_ arguments: [String]) throws -> String {
      let result = try server.client("dunstify", ["-p"] + arguments)
      #expect(result.status == 0, "\(result.errors)")
      return result.output
    }
    // A volume script written for dunst: a fixed id, then a stack tag.
    #expect(try dunstify(["-r", "2593", "-t", "0", "-h", "int:value:40", "Volume"]) == "2593\n")
    let stacked = ["-a", "volume", "-t", "0", "-h", "string:x-dunst-stack-tag:volume"]
    let first = try dunstify(stacked + ["-h", "int:value:50", "Volume 50%"])
    let second = try dunstify(stacked + ["-h", "int:value:60", "Volume 60%"])
    #expect(first != second)
    try waitUntil("one card of the stack tag") {
      try server.list().compactMap { $0["summary"]?.stringValue }.sorted() == [
        "Volume", "Volume 60%",
      ]
    }
    let zenity = try server.client("zenity", ["--notification", "--text", "Zenity says hi"])
    #expect(zenity.status == 0, "\(zenity.errors)")
    try waitUntil("zenity's notification") {
      try server.list().contains { $0["summary"]?.stringValue == "Zenity says hi" }
    }
  }

  @Test func capabilitiesAndServerInformationSayWhatIsBuilt() throws {
    let server = try Server()
    func call(_ method: String) throws -> String {
      let result = try server.call(method)
      #expect(result.status == 0, "\(result.errors)")
      return result.output
    }
    #expect(
      try call("GetCapabilities")
        == "(['actions', 'body', 'body-markup', 'icon-static', 'sound'],)\n")
    #expect(try call("GetServerInformation") == "('wl-toast', 'wl-toast', '0.1.0', '1.2')\n")
  }

  @Test func anotherServerIsNamedAndReplaceTakesTheNameFromIt() throws {
    let first = try Server()
    let dismissed = try first.notify(["-t", "0", "Read"])
    #expect(try first.desk.runToEnd(["notifications", "dismiss", String(dismissed)]).status == 0)
    let kept = try first.notify(["-t", "0", "Kept?"])
    // A second display's daemon on the same bus: refused in one line, status 1.
    let desk = try deskWithOwnRuntime()
    desk.environment.merge(first.bus.clientEnvironment) { $1 }
    let refused = try desk.runToEnd(["daemon", "--notifications"])
    #expect(refused.status == 1)
    let owner = try #require(first.bus.serverConnection())
    #expect(
      refused.errors
        == "wl-toast: org.freedesktop.Notifications is owned by \(owner) (pid \(first.daemon.pid))\n"
    )
    #expect(try first.bus.hasServer() && first.bus.serverProcess() == first.daemon.pid)
    // With --replace it takes the name; the first says so and its notification ends.
    let log = desk.scratch("second") + ".log"
    let second = try desk.run(["daemon", "--notifications", "--replace"], logPath: log)
    defer { second.terminate() }
    try waitUntil("the second daemon to own the name") {
      first.bus.serverProcess() == second.pid
    }
    try first.bus.waitForSignal("NotificationClosed", [String(kept), "4"])
    try waitUntil("the first daemon to say it lost the name (\(first.errors))") {
      first.errors
        == "wl-toast: lost org.freedesktop.Notifications to another server; notifications end here\n"
    }
    #expect(first.daemon.isRunning, "toasts go on")
    #expect(try first.desk.runToEnd(["--timeout", "0.1", "--wait", "still here"]).status == 0)
    // The second goes; the first serves again, its ids and history going on.
    second.terminate()
    #expect(try first.desk.runToEnd(["daemon", "--notifications"]).status == 0)
    try waitUntil("the first daemon to own the name again") {
      first.bus.serverProcess() == first.daemon.pid
    }
    let next = try first.notify(["-t", "0", "After"])
    #expect(next > kept, "no id given twice in the owner's life: \(next) after \(kept)")
    let history = NotificationHistoryTests.ids(try NotificationHistoryTests.history(first))
    #expect(history.contains(dismissed), "\(history)")
  }

  @Test func everyNotificationEndsOnceWhenTheOwnerStopsOrTheBusGoes() throws {
    let server = try Server()
    var ids: [UInt32] = []
    for number in 1...6 { ids.append(try server.notify(["-t", "0", "Card \(number)"])) }
    try waitUntil("six notifications") { try server.list().count == 6 }
    kill(server.daemon.pid, SIGTERM)
    #expect(server.daemon.wait(timeout: 20) == 0)
    for id in ids { try server.bus.waitForSignal("NotificationClosed", [String(id), "4"]) }
    #expect(server.bus.signals().filter { $0.member == "NotificationClosed" }.count == 6)
    #expect(try !server.bus.hasServer())
    // The bus goes away under another daemon: one line, and toasts go on.
    let other = try Server()
    other.bus.stop()
    try waitUntil("the daemon to say the bus went away (\(other.errors))") {
      other.errors == "wl-toast: the session bus went away; notifications end here\n"
    }
    #expect(try other.desk.runToEnd(["--timeout", "0.1", "--wait", "still here"]).status == 0)
    #expect(other.daemon.isRunning)
  }

  @Test func aCloseAnsweredAsTheNameIsLostIsStillTold() throws {
    let server = try Server()
    let id = try server.notify(["-t", "0", "Closing"])
    try waitUntil("the notification") { try server.list().count == 1 }
    // The owner stopped, one client asks it to close the notification, then
    // takes its name: the owner reads both in one turn.
    kill(server.daemon.pid, SIGSTOP)
    let taken: CommandResult
    do {
      taken = try server.client(
        "/usr/bin/python3",
        [
          "-c",
          """
          import dbus
          bus = dbus.SessionBus()
          server = bus.get_object(
              'org.freedesktop.Notifications', '/org/freedesktop/Notifications',
              introspect=False)
          server.CloseNotification(
              dbus.UInt32(\(id)), dbus_interface='org.freedesktop.Notifications',
              ignore_reply=True)
          print(bus.request_name(
              'org.freedesktop.Notifications',
              dbus.bus.NAME_FLAG_REPLACE_EXISTING | dbus.bus.NAME_FLAG_DO_NOT_QUEUE))
          """,
        ])
    } catch {
      kill(server.daemon.pid, SIGCONT)
      throw error
    }
    kill(server.daemon.pid, SIGCONT)
    #expect(taken.output == "1\n", "the client owns the name: \(taken.errors)")
    try waitUntil("the daemon to say it lost the name (\(server.errors))") {
      server.errors.contains("lost org.freedesktop.Notifications")
    }
    #expect(
      try server.bus.signalsUntilClosed(id) == ["NotificationClosed(\(id), 3)"])
  }

  @Test func withoutASessionBusTheDaemonSaysSoAndEnds() throws {
    let desk = try deskWithOwnRuntime()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = nil
    let result = try desk.runToEnd(["daemon", "--notifications"])
    #expect(result.status == 1)
    #expect(
      result.errors
        == "wl-toast: no session bus: DBUS_SESSION_BUS_ADDRESS is unset and"
        + " $XDG_RUNTIME_DIR/bus is none\n")
    #expect(desk.ownerProcesses().isEmpty, "no owner stays")
    // Set, but to no Unix socket: the line says so.
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = "tcp:host=127.0.0.1,port=1"
    let tcp = try desk.runToEnd(["daemon", "--notifications"])
    #expect(tcp.status == 1)
    #expect(
      tcp.errors
        == "wl-toast: no session bus: DBUS_SESSION_BUS_ADDRESS ('tcp:host=127.0.0.1,port=1')"
        + " names no Unix socket\n")
  }

  @Test(arguments: SilentBus.Mode.unanswering)
  func aSessionBusThatDoesNotAnswerIsOneLineAndStatus1(_ mode: SilentBus.Mode) throws {
    let bus = try SilentBus(mode)
    let desk = try deskWithOwnRuntime()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    let result = try desk.runToEnd(["daemon", "--notifications"], timeout: 30)
    #expect(result.status == 1)
    #expect(
      result.errors == "wl-toast: the session bus at \(bus.socket) did not answer within 5 s\n")
    #expect(desk.ownerProcesses().isEmpty, "no owner stays")
    try waitUntil("every connection to the bus closed") {
      bus.connections >= 1 && bus.closedConnections == bus.connections
    }
  }

  @Test func anOwnerAlreadyRunningTakesTheNameWhenAsked() throws {
    let bus = try NotificationBus()
    let desk = try deskWithOwnRuntime()
    desk.environment.merge(bus.clientEnvironment) { $1 }
    // A lingering owner, started by a toast.
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Hello"]).status == 0)
    let owner = try #require(desk.ownerProcesses().first)
    let asked = try desk.runToEnd(["daemon", "--notifications"])
    #expect(asked.status == 0 && asked.errors.isEmpty, "\(asked.errors)")
    #expect(bus.serverProcess() == owner)
    // Resident now: it stays after its last toast.
    #expect(try desk.runToEnd(["hide", "--tag", "t"]).status == 0)
    #expect(try desk.runToEnd(Run(["-t", "1", "Once"], program: "notify-send")).status == 0)
    try expectIdle(owner)
    // Asked again: it serves already.
    #expect(try desk.runToEnd(["daemon", "--notifications"]).status == 0)
    #expect(desk.ownerProcesses() == [owner])
  }

  /// A `daemon --notifications` that goes while the owner still waits for
  /// the bus leaves its answer to nobody: not to the next command, whose
  /// connection the owner holds under the same number when the bus gives up.
  @Test func aCommandThatGoesWhileTheBusIsAskedLeavesItsAnswerToNobody() throws {
    let bus = try SilentBus(.helloOnly)
    let desk = try deskWithOwnRuntime()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Hello"]).status == 0)
    let owner = try #require(desk.ownerProcesses().first)
    // The owner's first connection to the bus is its screen reader's look
    // (after the first frame); the second, the notification server's.
    try waitUntil("the owner to look for a screen reader") { bus.connections == 1 }
    let asking = try desk.start(Run(["daemon", "--notifications"]))
    try waitUntil("the owner to ask the bus for the name") { bus.connections == 2 }
    asking.terminate()
    // The owner has seen the command go; the bus's 5 s have not passed.
    try waitUntilSettled(owner)
    let waiting = try desk.start(Run(["--tag", "w", "--timeout", "0", "--wait", "Waiting"]))
    defer { waiting.terminate() }
    try desk.waitUntilDrawn(tag: "w")
    try waitUntil("the owner to give the bus up", timeout: 20) { bus.closedConnections == 2 }
    try waitUntilSettled(owner)
    let errors = String(decoding: waiting.captured(2), as: UTF8.self)
    #expect(waiting.isRunning, "the toast's command still waits: \(errors)")
    #expect(try desk.runToEnd(["hide", "--tag", "w"]).status == 0)
    #expect(waiting.wait(timeout: 10) == 0)
    #expect(desk.ownerProcesses() == [owner])
  }

  @Test func theCommandsListDismissAndInvoke() throws {
    let server = try Server()
    let mail = try server.notify(["-a", "Mail", "-t", "0", "-c", "email.arrived", "New mail"])
    let waiting = try server.desk.start(
      Run(
        ["--wait", "-A", "default=Open", "-A", "later=Later", "-t", "0", "Reminder"],
        program: "notify-send"))
    defer { waiting.terminate() }
    try waitUntil("two notifications") { try server.list().count == 2 }
    let listed = try server.list()
    #expect(listed.map { $0["summary"]?.stringValue } == ["Reminder", "New mail"], "newest first")
    #expect(listed.last?["category"]?.stringValue == "email.arrived")
    #expect(
      listed.first?["actions"]
        == .object(["default": .string("Open"), "later": .string("Later")]))
    let reminder = try #require(listed.first?["id"]?.doubleValue.flatMap { UInt32(exactly: $0) })
    let wrong = try server.desk.runToEnd(["notifications", "invoke", String(reminder), "never"])
    #expect(wrong.status == 1)
    #expect(
      wrong.errors
        == "wl-toast: notification \(reminder) has no action 'never' (actions: 'default', 'later')\n"
    )
    #expect(try server.desk.runToEnd(["notifications", "invoke", String(reminder)]).status == 0)
    #expect(waiting.wait(timeout: 20) == 0)
    #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "default\n")
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(mail)]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", [String(mail), "2"])
    let gone = try server.desk.runToEnd(["notifications", "dismiss", String(mail)])
    #expect(gone.status == 1 && gone.errors == "wl-toast: no notification with id \(mail)\n")
    _ = try server.notify(["-t", "0", "One"])
    _ = try server.notify(["-t", "0", "Two"])
    #expect(try server.desk.runToEnd(["notifications", "dismiss", "--all"]).status == 0)
    #expect(try server.list().isEmpty)
  }

  /// A notification with a Snooze button whose card shows, and sway then
  /// stopped: an action invoked now waits for its activation token, which
  /// sway gives only once it goes on.
  static func snoozeWithTheTokenHeldBack(_ server: Server) throws -> UInt32 {
    let sent = try server.call(
      "Notify", ["'Clock'", "0", "''", "'Alarm'", "''", "['snooze', 'Snooze']", "{}", "0"])
    let number = sent.output.split(separator: " ").last?.filter(\.isNumber)
    let id = try #require(number.flatMap { UInt32($0) }, "\(sent.output) \(sent.errors)")
    let card = Self.card(
      app: "Clock", summary: "Alarm", body: "",
      actions: [NotificationAction(key: "snooze", label: "Snooze")], timeout: 0)
    try Self.expectCard(at: Self.restingBox(card), on: server.desk)
    server.desk.compositor.pause()
    do {
      let invoked = try server.desk.runToEnd(["notifications", "invoke", String(id), "snooze"])
      #expect(invoked.status == 0, "\(invoked.errors)")
    } catch {
      server.desk.compositor.resume()
      throw error
    }
    return id
  }

  @Test func anActionWaitingForItsTokenIsToldWhenTheOwnerStops() throws {
    let server = try Server()
    let id = try Self.snoozeWithTheTokenHeldBack(server)
    defer { server.desk.compositor.resume() }
    kill(server.daemon.pid, SIGTERM)
    #expect(server.daemon.wait(timeout: 20) == 0)
    #expect(
      try server.bus.signalsUntilClosed(id) == [
        "ActionInvoked(\(id), snooze)", "NotificationClosed(\(id), 2)",
      ])
  }

  @Test func anIDGivenAgainWhileItsActionWaitsForItsTokenHearsTheOldEndFirst() throws {
    let server = try Server()
    try server.bus.recordServer()
    let id = try Self.snoozeWithTheTokenHeldBack(server)
    defer { server.desk.compositor.resume() }
    let again = try server.call(
      "Notify", ["'Clock'", String(id), "''", "'Alarm again'", "''", "[]", "{}", "0"])
    server.desk.compositor.resume()
    #expect(again.output == "(uint32 \(id),)\n", "\(again.errors)")
    try Self.expectCard(
      at: Self.restingBox(Self.card(app: "Clock", summary: "Alarm again", body: "", timeout: 0)),
      on: server.desk)
    #expect(try server.list().map { $0["id"]?.doubleValue } == [Double(id)])
    // The application heard the old notification's end before the id it
    // asked for again, and nothing about the id since.
    let about = server.bus.serverMessages().filter { $0.arguments.first == String(id) }
    #expect(
      about.map(\.description) == [
        "return(\(id))", "ActionInvoked(\(id), snooze)", "NotificationClosed(\(id), 2)",
        "return(\(id))",
      ])
  }

  /// Sends notifications from Python's dbus: `count` of them, each made by
  /// the Python expression `call` (of `number`) to the server's `Notify`;
  /// returns the ids in order.
  static func notifyFromPython(_ server: Server, count: Int, _ call: String) throws -> [UInt32] {
    let python = try server.desk.runToEnd(
      Run(
        [
          "-c",
          """
          import dbus
          server = dbus.Interface(
              dbus.SessionBus().get_object(
                  'org.freedesktop.Notifications', '/org/freedesktop/Notifications'),
              'org.freedesktop.Notifications')
          for number in range(\(count)):
              print(\(call))
          """,
        ], program: "/usr/bin/python3"), timeout: 300)
    let ids = python.output.split(separator: "\n").compactMap { UInt32($0) }
    #expect(python.status == 0 && ids.count == count, "\(python.errors)")
    return ids
  }

  @Test func listPrintsHundredsOfTheLargestNotifications() throws {
    let server = try Server()
    // 480 of 69 KB each: within the 64 MiB the server holds.
    let ids = try Self.notifyFromPython(
      server, count: 480,
      "server.Notify('big', 0, '', '%d ' % number + 'S' * 4000, 'B' * 65000, [], {}, 0)")
    let listed = try server.list()
    #expect(listed.count == 480)
    #expect(Set(listed.compactMap { $0["id"]?.doubleValue }) == Set(ids.map(Double.init)))
    #expect(listed.allSatisfy { $0["body"]?.stringValue?.unicodeScalars.count == 4096 })
    #expect(server.daemon.isRunning)
  }

  @Test func theListsPagesAreOneListWhateverComesBetweenThem() throws {
    let server = try Server()
    // 200 that wait (4 KB bodies: about fifteen to a page).
    let ids = try Self.notifyFromPython(
      server, count: 200, "server.Notify('many', 0, '', '%d' % number, 'B' * 4000, [], {}, 0)")
    try waitUntil("all 200 listed") { try server.list().count == 200 }
    // The owner's socket, as a command reaches it.
    let directory = try #require(server.desk.environment["XDG_RUNTIME_DIR"]) + "/wl-toast"
    let socketPath = try #require(
      listDirectory(directory).first { $0.hasSuffix(".sock") }.map { directory + "/" + $0 })
    let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
    defer { close(fd) }
    #expect(withUnixAddress(socketPath) { connect(fd, $0, $1) } == 0)
    func page(from: Int) throws -> (ids: [Double], more: Bool) {
      let request = OwnerRequest.notifications(.list(from: from)).encoded + "\n"
      #expect(send(fd, request, request.utf8.count, 0) == request.utf8.count)
      var buffer = [UInt8](repeating: 0, count: 1 << 17)
      let count = recv(fd, &buffer, buffer.count, 0)
      let text = String(decoding: buffer[0..<max(0, count)], as: UTF8.self)
      guard case .listed(let objects, let more) = try OwnerReply(decoding: text) else {
        throw HarnessError("not a page: \(text)")
      }
      return (objects.compactMap { $0["id"]?.doubleValue }, more)
    }
    var listed = try page(from: 0)
    #expect(listed.more && !listed.ids.isEmpty)
    // Between the pages a critical one comes before those that wait, and one goes.
    _ = try server.notify(["-u", "critical", "-t", "0", "Urgent"])
    #expect(try server.call("CloseNotification", [String(ids[199])]).status == 0)
    while listed.more {
      let next = try page(from: listed.ids.count)
      listed = (listed.ids + next.ids, next.more)
    }
    #expect(listed.ids.count == 200 && Set(listed.ids) == Set(ids.map(Double.init)))
  }

  @Test func aListLineOfControlCharactersIsCutToOneReplyAndItsKeysKeptWhole() throws {
    let server = try Server()
    // Summary and body of U+0001 (six bytes each in JSON), 16 actions whose
    // keys and labels are 256 bytes of it: about 98 KB of JSON uncut.
    let ids = try Self.notifyFromPython(
      server, count: 1,
      """
      server.Notify('ctl', 0, '', '\\x01' * 4096, '\\x01' * 4096,
                          [part for n in range(16)
                           for part in ('%02d' % n + '\\x01' * 254, '\\x01' * 256)],
                          {}, 0)
      """)
    let listed = try server.list()
    #expect(listed.count == 1)
    let line = try #require(listed.first)
    #expect(line.serialized.utf8.count <= 60 * 1024)
    #expect(line["body"]?.stringValue == "…")
    guard case .object(let actions)? = line["actions"] else {
      Issue.record("no actions: \(line)")
      return
    }
    let control = String(repeating: "\u{1}", count: 254)
    #expect(actions.keys.sorted() == (0..<16).map { String(twoDigits: $0) + control })
    // A key as listed is the notification's own.
    let key = (0..<16).map { String(twoDigits: $0) + control }[3]
    let invoked = try server.desk.runToEnd(["notifications", "invoke", String(ids[0]), key])
    #expect(invoked.status == 0, "\(invoked.errors)")
    try server.bus.waitForSignal("NotificationClosed", [String(ids[0]), "2"])
  }

  @Test func dismissAllEndsEveryNotificationOnceWithoutShowingTheWaitingOnes() throws {
    let server = try Server()
    let ids = try Self.notifyFromPython(
      server, count: 480, "server.Notify('many', 0, '', 'n%d' % number, 'body', [], {}, 0)")
    try waitUntil("480 notifications, 5 shown", timeout: 60) {
      let listed = try server.list()
      return listed.count == 480 && listed.filter { $0["shown"]?.boolValue == true }.count == 5
    }
    let before = try server.surfacesMade()
    let dismissed = try server.desk.runToEnd(["notifications", "dismiss", "--all"])
    #expect(dismissed.status == 0, "\(dismissed.errors)")
    #expect(try server.list().isEmpty)
    #expect(try server.surfacesMade() == before, "no waiting one shown on the way")
    var closed: [BusSignal] = []
    try waitUntil("480 NotificationClosed (\(closed.count))", timeout: 60) {
      closed = server.bus.signals().filter { $0.member == "NotificationClosed" }
      return closed.count >= 480
    }
    #expect(closed.map(\.arguments.last) == Array(repeating: "2", count: 480))
    #expect(Set(closed.compactMap { $0.arguments.first.flatMap { UInt32($0) } }) == Set(ids))
    #expect(closed.count == 480, "each once")
  }

  @Test func atMostFiveCardsShowAndTheOthersWaitTheirTurn() throws {
    let server = try Server()
    var ids: [UInt32] = []
    for number in 1...7 { ids.append(try server.notify(["-t", "0", "Card \(number)"])) }
    var listed: [JSONValue] = []
    try waitUntil("7 notifications, 5 shown (\(listed))") {
      listed = try server.list()
      return listed.count == 7
    }
    #expect(listed.map { $0["shown"]?.boolValue } == [true, true, true, true, true, false, false])
    #expect(
      listed.map { $0["summary"]?.stringValue }
        == ["Card 5", "Card 4", "Card 3", "Card 2", "Card 1", "Card 6", "Card 7"])
    // A client that leaves while its notification waits: it waits on.
    let leaving = try server.desk.start(
      Run(["--wait", "-t", "0", "Card 8"], program: "notify-send"))
    try waitUntil("card 8 waiting") { try server.list().count == 8 }
    leaving.terminate()
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(ids[0])]).status == 0)
    try waitUntil("card 6 shown") {
      try server.list().first { $0["summary"]?.stringValue == "Card 6" }?["shown"]?.boolValue
        == true
    }
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(ids[1])]).status == 0)
    try waitUntil("card 7 shown, card 8 still waiting") {
      try server.list().map { $0["shown"]?.boolValue } == [true, true, true, true, true, false]
    }
    #expect(try server.desk.runToEnd(["notifications", "dismiss", "--all"]).status == 0)
    try server.bus.waitForSignal("NotificationClosed", ["8", "2"])
  }

  @Test func aCardPushedBelowTheOutputComesBackWhenTheCardsAboveItGo() throws {
    let server = try Server()
    // An output too short for five cards: the oldest is pushed wholly below
    // its edge, where the compositor sends it no frame callbacks.
    try server.desk.sway.swaymsg(["output", "HEADLESS-1", "mode", "1280x300"])
    let body = "Two lines of body\nfor a taller card"
    var ids: [UInt32] = []
    for number in 1...5 {
      ids.append(try server.notify(["-t", "0", "Card \(number)", body]))
      try waitUntil("card \(number) shown") {
        try server.list().filter { $0["shown"]?.boolValue == true }.count == number
      }
    }
    let oldest = Self.card(app: "notify-send", summary: "Card 1", body: body, timeout: 0)
    let layout = ToastLayout(toast: oldest, outputWidth: 1280, outputHeight: 300)
    #expect(4 * (layout.box.height + Design.stackGap) > 300, "card 1 starts below 300")
    for id in ids.dropFirst() {
      #expect(try server.desk.runToEnd(["notifications", "dismiss", String(id)]).status == 0)
    }
    try Self.expectCard(at: Self.restingBox(oldest), on: server.desk)
  }

  /// As dunst sorts by urgency: a critical notification that finds five
  /// cards of others takes the oldest one's place at once; that one waits,
  /// without a signal, and shows again when a card goes.
  @Test func aCriticalNotificationTakesTheOldestCardsPlace() throws {
    let server = try Server()
    var ids: [UInt32] = []
    for number in 1...5 { ids.append(try server.notify(["-t", "0", "Card \(number)"])) }
    _ = try server.notify(["-u", "critical", "Critical"])
    var listed: [JSONValue] = []
    try waitUntil("the critical card shown and card 1 waiting (\(listed))") {
      listed = try server.list()
      return listed.map { $0["shown"]?.boolValue } == [true, true, true, true, true, false]
    }
    #expect(
      listed.map { $0["summary"]?.stringValue }
        == ["Critical", "Card 5", "Card 4", "Card 3", "Card 2", "Card 1"])
    #expect(try server.desk.runToEnd(["notifications", "dismiss", String(ids[4])]).status == 0)
    try waitUntil("card 1 shown again") {
      try server.list().allSatisfy { $0["shown"]?.boolValue == true }
    }
    #expect(try NotificationHistoryTests.closedSignals(of: ids[0], server) == [], "not closed")
  }

  /// A resident notification stays when its actions are invoked: a click on
  /// its body (the default action) and one on its button each say
  /// ActionInvoked, and the card stays until CloseNotification.
  @Test func aResidentNotificationStaysWhenItsActionsAreInvoked() throws {
    let server = try Server()
    let sent = try server.call(
      "Notify",
      [
        "'Clock'", "0", "''", "'Alarm'", "''", "['default', 'Open', 'later', 'Later']",
        "{'resident': <true>}", "0",
      ])
    let number = sent.output.split(separator: " ").last?.filter(\.isNumber)
    let id = try #require(number.flatMap { UInt32($0) }, "\(sent.output) \(sent.errors)")
    let card = Self.card(
      app: "Clock", summary: "Alarm", body: "",
      actions: [NotificationAction(key: "later", label: "Later")], timeout: 0)
    let box = Self.restingBox(card)
    try Self.expectCard(at: box, on: server.desk)
    try server.desk.input.click(x: box.x + 20, y: box.y + box.height - 6)
    try server.bus.waitForSignal("ActionInvoked", [String(id), "default"])
    let later = Self.buttonCentre(0, of: card)
    try server.desk.input.click(x: later.x, y: later.y)
    try server.bus.waitForSignal("ActionInvoked", [String(id), "later"])
    try Self.expectCard(at: box, on: server.desk)
    #expect(try server.list().map { $0["id"]?.doubleValue } == [Double(id)])
    #expect(try server.call("CloseNotification", [String(id)]).status == 0)
    try Self.expectNoCard(on: server.desk)
    #expect(
      try NotificationHistoryTests.closedSignals(of: id, server) == [
        "NotificationClosed(\(id), 3)"
      ])
  }

  @Test func doNotDisturbHoldsNotificationsBackUntilItEnds() throws {
    let server = try Server()
    #expect(try server.desk.runToEnd(["dnd", "on"]).status == 0)
    let held = try server.notify(["-t", "0", "Held"])
    let critical = try server.notify(["-u", "critical", "Critical"])
    let transient = try server.notify(["-t", "0", "-e", "Transient"])
    var listed: [JSONValue] = []
    try waitUntil("the critical one shown, the other waiting (\(listed))") {
      listed = try server.list()
      return listed.map { $0["shown"]?.boolValue } == [true, false]
    }
    #expect(listed.map { $0["id"]?.doubleValue } == [Double(critical), Double(held)])
    try server.bus.waitForSignal("NotificationClosed", [String(transient), "4"])
    #expect(try server.desk.runToEnd(["dnd", "off"]).status == 0)
    try waitUntil("the held one shown") {
      try server.list().allSatisfy { $0["shown"]?.boolValue == true }
    }
    #expect(
      !server.bus.signals().contains {
        $0.member == "NotificationClosed" && $0.arguments.first == String(held)
      }, "held, not closed")
  }

  @Test func hostileCallsAreRefusedOrBoundedAndTheServerGoesOn() throws {
    let server = try Server()
    func notify(_ actions: String, _ hints: String) throws -> CommandResult {
      try server.call("Notify", ["hostile", "0", "''", "'s'", "'b'", actions, hints, "-1"])
    }
    func expectRefused(_ result: CommandResult, _ name: String) {
      #expect(result.status == 1, "refused")
      // A line of the server's, and gdbus's own: the introspected signature.
      #expect(
        result.errors.hasPrefix("Error: GDBus.Error:org.freedesktop.DBus.Error.\(name): "),
        "\(result.errors)")
    }
    // image-data whose length disagrees with its size, and a size of gigabytes.
    expectRefused(
      try notify("[]", "{'image-data': <(2, 2, 8, true, 8, 4, [byte 1, 2, 3])>}"), "InvalidArgs")
    let huge = try notify("[]", "{'image-data': <(65536, 65536, 262144, true, 8, 4, [byte 1])>}")
    #expect(
      huge.status == 1 && huge.errors.contains("org.freedesktop.DBus.Error."), "\(huge.errors)")
    // An odd-length actions array, and 10,000 actions.
    expectRefused(try notify("['a', 'A', 'b']", "{}"), "InvalidArgs")
    let many = "[" + Array(repeating: "'k', 'L'", count: 10_000).joined(separator: ", ") + "]"
    expectRefused(try notify(many, "{}"), "LimitsExceeded")
    // A wrong signature (dbus-send does not convert to the introspected types).
    let wrong = try server.client(
      "dbus-send",
      [
        "--session", "--print-reply", "--dest=org.freedesktop.Notifications",
        "/org/freedesktop/Notifications", "org.freedesktop.Notifications.Notify", "string:x",
      ])
    #expect(wrong.status == 1 && wrong.errors.contains("InvalidArgs"), "\(wrong.errors)")
    // From Python's dbus: a 1 MiB body and markup bombs are cut and shown,
    // never refused; 10,000 calls in a burst keep at most 1000.
    let python = try server.client(
      "/usr/bin/python3",
      [
        "-c",
        """
        import dbus
        bus = dbus.SessionBus()
        server = dbus.Interface(
            bus.get_object('org.freedesktop.Notifications', '/org/freedesktop/Notifications'),
            'org.freedesktop.Notifications')
        bodies = ['x' * (1 << 20), '<b><i>' * 5000 + 'deep' + '</i></b>' * 5000,
                  '<blink>&bogus; &#99999999; <a href="x">unclosed <', '<' * 100000]
        for body in bodies:
            print(server.Notify('bombs', 0, '', 'bomb', body, [], {}, 0) > 0)
        for number in range(10000):
            server.Notify('burst', 0, '', 'n%d' % number, 'body', [], {}, 0)
        print(server.GetServerInformation()[0])
        """,
      ],
      // 10,004 calls, one after the other: a bound for a loaded machine or
      // a sanitized build, not a measure of speed.
      timeout: 120)
    #expect(
      python.status == 0 && python.output == "True\nTrue\nTrue\nTrue\nwl-toast\n",
      "\(python.output) \(python.errors)")
    let listed = try server.list()
    #expect(listed.count == 1000, "the cap")
    // The cards on screen stay; the oldest waiting ones made room.
    #expect(listed.filter { $0["shown"]?.boolValue == true }.count == 5)
    #expect(listed.last?["summary"]?.stringValue == "n9999")
    // Bounded memory: far below what 10,000 notifications of 1 MiB would take.
    let resident = try #require(residentKiB(of: server.daemon.pid))
    #expect(resident < 200 * 1024, "\(resident) KiB")
    #expect(server.daemon.isRunning)
    #expect(try server.call("GetServerInformation").status == 0)
  }
}

extension String {
  /// A number of two digits: `03`.
  fileprivate init(twoDigits number: Int) { self = number < 10 ? "0\(number)" : "\(number)" }
}

/// The resident memory of a process, in KiB (`VmRSS`).
private func residentKiB(of pid: Int32) -> Int? {
  guard let data = readFile("/proc/\(pid)/status") else { return nil }
  let line = String(decoding: data, as: UTF8.self).split(separator: "\n").first {
    $0.hasPrefix("VmRSS:")
  }
  return line.flatMap { Int($0.split(separator: " ").dropFirst().first ?? "") }
}
