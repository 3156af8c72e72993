import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastCommand

/// One event an AT-SPI listener heard, as libatspi gave it to the listener.
struct HeardEvent: Equatable {
  var type: String
  var detail1: Int
  /// The event's data: an announcement's text.
  var data: String?
  /// The source's name, role and application, read back from the sender.
  var name: String
  var role: String
  var app: String

  var isShowing: Bool { type == "object:state-changed:showing" && detail1 == 1 }
  var isHidden: Bool { type == "object:state-changed:showing" && detail1 == 0 }
  var isAnnouncement: Bool { type == "object:announcement" }
  /// `object:state-changed:focused`, on (detail1 1) or off.
  var isFocus: Bool { type == "object:state-changed:focused" }
}

extension AtspiListener {
  /// Every event heard so far.
  func heard() -> [HeardEvent] {
    lines().dropFirst().compactMap { line in
      guard let value = try? JSONValue.parse(line), let type = value["type"]?.stringValue else {
        return nil
      }
      return HeardEvent(
        type: type, detail1: Int(value["detail1"]?.doubleValue ?? 0),
        data: value["data"]?.stringValue, name: value["name"]?.stringValue ?? "",
        role: value["role"]?.stringValue ?? "", app: value["app"]?.stringValue ?? "")
    }
  }

  /// What was announced or shown, in order: the texts a screen reader speaks.
  func spoken() -> [String] {
    heard().compactMap { event in
      event.isAnnouncement ? event.data : event.isShowing ? event.name : nil
    }
  }

  /// The focus events heard, in order: the source's name, with "+" when it
  /// got the focus and "-" when it lost it ("+Undo", "-Undo", "+Keep").
  func focusMoves() -> [String] {
    heard().filter(\.isFocus).map { ($0.detail1 == 1 ? "+" : "-") + $0.name }
  }
}

/// What libatspi read of a button (or another object) it did the action of,
/// as a screen reader presses one (`scripts/atspi-listener.py --do-action`).
struct PressedButton {
  var name: String
  var role: String
  var states: [String]
  var index: Int
  var parent: String
  var parentRole: String
  var siblings: [String]
  /// Name, description and key binding of each action.
  var actions: [[String]]
  var done: Bool

  /// Does the first action of the push button named `name` under wl-toast on
  /// `bus`'s accessibility bus, through libatspi, or with `action` the action
  /// of that name of any object named `name`; throws when none is found.
  init(named name: String, action: String? = nil, on bus: AccessibilityBus) throws {
    var environment = currentEnvironment(
      without: ["DISPLAY", "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS"])
    environment.merge(bus.clientEnvironment) { $1 }
    environment["NO_AT_BRIDGE"] = "1"
    let script = repositoryDirectory + "/scripts/atspi-listener.py"
    let result = try runCommand(
      ["/usr/bin/python3", script, "--do-action", "wl-toast", name] + (action.map { [$0] } ?? []),
      environment: environment)
    let value = try JSONValue.parse(result.output)
    guard value["found"]?.boolValue == true else {
      throw HarnessError(
        "libatspi found no \(action.map { "object with the action \($0)" } ?? "push button")"
          + " named \(name): \(result.output)")
    }
    func strings(_ value: JSONValue?) -> [String] {
      guard case .array(let items)? = value else { return [] }
      return items.compactMap(\.stringValue)
    }
    self.name = value["name"]?.stringValue ?? ""
    role = value["role"]?.stringValue ?? ""
    states = strings(value["states"])
    index = Int(value["index"]?.doubleValue ?? -1)
    parent = value["parent"]?.stringValue ?? ""
    parentRole = value["parent_role"]?.stringValue ?? ""
    siblings = strings(value["siblings"])
    if case .array(let items)? = value["actions"] {
      actions = items.map(strings)
    } else {
      actions = []
    }
    done = value["done"]?.boolValue ?? false
  }
}

/// Screen readers hear every toast: AT-SPI on a private accessibility bus
/// (at-spi2-core's launcher and registry), heard by a libatspi listener as a
/// screen reader would hear it.
@Suite(.serialized)
struct ScreenReaderTests {
  @Test func anAnnouncementCarriesTheToastsTextAndItsProgress() throws {
    let bus = try AccessibilityBus(screenReader: true)
    // Registered for both events, as Orca 45 and later are: announcements win.
    let listener = try bus.listen(to: ["object:announcement", "object:state-changed:showing"])
    let desk = try deskOnBus(bus)
    // Until hidden: the listener asks the source for its name and role while
    // it shows, however long that takes on a loaded machine.
    let result = try desk.runToEnd(["--progress", "40", "--timeout", "0", "Volume"])
    #expect(result.status == 0, "\(result.errors)")
    try waitUntil("the announcement (heard: \(listener.heard()))") {
      listener.heard().contains { $0.isAnnouncement }
    }
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("showing off as the toast goes (heard: \(listener.heard()))") {
      listener.heard().contains { $0.isHidden }
    }
    let heard = listener.heard()
    let announcement = try #require(heard.first { $0.isAnnouncement })
    #expect(announcement.data == "Volume, 40 percent")
    #expect(announcement.name == "Volume, 40 percent", "the source's name is what it says")
    #expect(announcement.role == "notification" && announcement.app == "wl-toast")
    #expect(announcement.detail1 == 1, "polite")
    #expect(heard.filter { $0.isAnnouncement }.count == 1)
    #expect(!heard.contains { $0.isShowing }, "one event, never both: \(heard)")
    // A critical toast is said at once: an assertive announcement.
    let critical = try desk.runToEnd(["--urgency", "critical", "--timeout", "0", "Battery low"])
    #expect(critical.status == 0, "\(critical.errors)")
    try waitUntil("the critical toast's announcement (heard: \(listener.heard()))") {
      listener.heard().contains { $0.isAnnouncement && $0.data == "Battery low" }
    }
    let assertive = try #require(listener.heard().first { $0.data == "Battery low" })
    #expect(assertive.detail1 == 2, "assertive")
    #expect(try desk.runToEnd(["hide"]).status == 0)
  }

  @Test func aScreenReaderThatHearsOnlyShowingHearsTheNotification() throws {
    let bus = try AccessibilityBus(screenReader: true)
    // Orca 43 (Debian 12's) registers for showing, not for announcements.
    let listener = try bus.listen(to: ["object:state-changed:showing"])
    let desk = try deskOnBus(bus)
    #expect(
      try desk.runToEnd(["--markup", "--timeout", "0", "<b>Saved</b> &amp; sent"]).status == 0)
    // What is drawn is an emoji; what is said is --say.
    #expect(
      try desk.runToEnd(["--tag", "mute", "--say", "Volume muted", "--timeout", "0", "🔇"]).status
        == 0)
    try waitUntil("both notifications (heard: \(listener.heard()))") {
      listener.spoken() == ["Saved & sent", "Volume muted"]
    }
    let shown = listener.heard().filter { $0.isShowing }
    #expect(shown.allSatisfy { $0.role == "notification" && $0.app == "wl-toast" }, "\(shown)")
    #expect(try desk.runToEnd(["hide", "--tag", "mute"]).status == 0)
    try waitUntil("showing off for the hidden toast (heard: \(listener.heard()))") {
      listener.heard().contains { $0.isHidden && $0.name == "Volume muted" }
    }
    #expect(!listener.heard().contains { $0.isHidden && $0.name == "Saved & sent" })
  }

  @Test func aBurstOfUpdatesGivesAFewAnnouncementsEndingWithTheLastValue() throws {
    let bus = try AccessibilityBus(screenReader: true)
    let listener = try bus.listen(to: ["object:announcement"])
    let desk = try deskOnBus(bus)
    // A held volume key: ten updates of one tag, as fast as commands go.
    let started = MonotonicTime.now
    for step in 1...10 {
      let result = try desk.runToEnd([
        "--tag", "volume", "--timeout", "0", "--progress", String(step * 10), "Volume",
      ])
      #expect(result.status == 0, "\(result.errors)")
    }
    let burst = MonotonicTime.now - started
    try waitUntil("the last value (heard: \(listener.spoken()))") {
      listener.spoken().last == "Volume, 100 percent"
    }
    let spoken = listener.spoken()
    // At most one announcement per merge interval (ScreenReaderAnnouncer's
    // 150 ms) while the updates came, and the last value's after them. How many
    // intervals the burst spans depends on how fast the commands run (each
    // takes several times longer under AddressSanitizer), so the bound does too.
    let intervals = Int((burst / .milliseconds(150)).rounded(.up))
    #expect(spoken.count <= intervals + 1, "merged: \(spoken) in \(burst)")
    let values = spoken.compactMap { Int($0.dropFirst("Volume, ".count).prefix { $0.isNumber }) }
    #expect(values == values.sorted() && values.count == spoken.count, "in order: \(spoken)")
  }

  @Test func withoutAScreenReaderTheOwnerStaysOffTheAccessibilityBus() throws {
    let bus = try AccessibilityBus(screenReader: false)
    let listener = try bus.listen(to: ["object:announcement"])
    let desk = try deskOnBus(bus)
    #expect(try desk.runToEnd(["--tag", "quiet", "--timeout", "0", "Quiet"]).status == 0)
    let owner = try #require(try desk.status(tag: "quiet")?.owner)
    try waitUntil("the owner to learn that no screen reader is on") {
      try desk.status(tag: "quiet")?.screenReaders == "no-screen-reader"
    }
    #expect(try bus.sessionConnections(of: owner).count == 1, "it watches the session bus")
    #expect(try bus.accessibilityConnections(of: owner).isEmpty, "no accessibility connection")

    // A screen reader starts: the owner joins, and new toasts are heard.
    try bus.setScreenReader(true)
    try waitUntil("the owner on the accessibility bus") {
      try bus.accessibilityConnections(of: owner).count == 1
        && desk.status(tag: "quiet")?.screenReaders == "connected"
    }
    #expect(try desk.runToEnd(["--tag", "heard", "--timeout", "0", "Heard"]).status == 0)
    try waitUntil("the new toast announced (heard: \(listener.spoken()))") {
      listener.spoken() == ["Heard"]
    }

    // It stops: the owner leaves.
    try bus.setScreenReader(false)
    try waitUntil("the owner to leave the accessibility bus") {
      try bus.accessibilityConnections(of: owner).isEmpty
        && desk.status(tag: "quiet")?.screenReaders == "no-screen-reader"
    }
    #expect(listener.spoken() == ["Heard"], "a toast shown before the screen reader is not")
  }

  @Test func atSpiBusAddressIsTheBusToSpeakOn() throws {
    // The session bus says a screen reader is on; AT_SPI_BUS_ADDRESS names
    // another accessibility bus, where the screen reader is (as libatspi reads it).
    let session = try AccessibilityBus(screenReader: true)
    let elsewhere = try AccessibilityBus(screenReader: true)
    let unheard = try session.listen(to: ["object:announcement"])
    let heard = try elsewhere.listen(to: ["object:announcement"])
    let desk = try deskOnBus(session)
    desk.environment["AT_SPI_BUS_ADDRESS"] = elsewhere.accessibilityAddress
    #expect(try desk.runToEnd(["--timeout", "0", "Elsewhere"]).status == 0)
    try waitUntil("the announcement on the named bus (heard: \(heard.spoken()))") {
      heard.spoken() == ["Elsewhere"]
    }
    let owner = try #require(try desk.status()?.owner)
    #expect(try session.accessibilityConnections(of: owner).isEmpty)
    #expect(unheard.spoken().isEmpty)
  }

  @Test func aCrashedAccessibilityBusLeavesTheToastsAlone() throws {
    let bus = try AccessibilityBus(screenReader: true)
    let listener = try bus.listen(to: ["object:announcement"])
    let desk = try deskOnBus(bus)
    #expect(try desk.runToEnd(["--tag", "a", "--timeout", "0", "Before"]).status == 0)
    try waitUntil("the announcement (heard: \(listener.spoken()))") {
      listener.spoken() == ["Before"]
    }
    let owner = try #require(try desk.status(tag: "a")?.owner)
    try bus.crashAccessibilityBus()
    // The launcher may go with its bus (then org.a11y.Bus has no owner).
    let gone = ["failed", "no-screen-reader"]
    try waitUntil("the owner to notice the accessibility bus is gone") {
      try gone.contains(desk.status(tag: "a")?.screenReaders ?? "")
    }
    // The owner goes on showing toasts, and does not try the dead bus again.
    let result = try desk.runToEnd(["--tag", "b", "--timeout", "0", "After"])
    #expect(result.status == 0, "\(result.errors)")
    #expect(try desk.status(tag: "b")?.owner == owner)
    let state = try desk.status(tag: "b")?.screenReaders
    #expect(gone.contains(state ?? ""), "\(state ?? "none")")
    #expect(try desk.runToEnd(["hide", "--tag", "a"]).status == 0)
    try waitUntil("a to be hidden") { try desk.runToEnd(["status", "--tag", "a"]).status == 1 }
  }

  @Test func aSessionBusThatStartsLaterIsFoundByTheNextToast() throws {
    // The owner's session bus address names a link that leads nowhere yet.
    let link = try makeTemporaryDirectory(prefix: "wl-toast-late-bus")
    defer { removeTree(link) }
    let desk = try Desk<HeadlessSway>()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(link)/bus"
    #expect(try desk.runToEnd(["--tag", "early", "--timeout", "0", "Early"]).status == 0)
    try waitUntil("the owner to find no session bus") {
      try desk.status(tag: "early")?.screenReaders == "no-screen-reader"
    }
    let owner = try #require(try desk.status(tag: "early")?.owner)

    // The session starts, with a screen reader on.
    let bus = try AccessibilityBus(screenReader: true)
    let listener = try bus.listen(to: ["object:announcement"])
    #expect(symlink(bus.directory + "/bus", link + "/bus") == 0)
    var shown = 0
    try waitUntil("a later toast to find the bus (heard: \(listener.spoken()))", timeout: 10) {
      shown += 1
      _ = try desk.runToEnd(["--tag", "late", "--timeout", "0", "Late \(shown)"])
      return listener.spoken().contains { $0.hasPrefix("Late") }
    }
    #expect(try desk.status(tag: "late")?.owner == owner, "the same owner")
    #expect(!listener.spoken().contains("Early"), "shown before the screen reader: not spoken")
  }

  @Test(arguments: SilentBus.Mode.unanswering)
  func aSessionBusThatDoesNotAnswerIsNoSessionBusAfterTheLimit(_ mode: SilentBus.Mode) throws {
    let bus = try SilentBus(mode)
    let desk = try Desk<HeadlessSway>()
    desk.environment["DBUS_SESSION_BUS_ADDRESS"] = bus.address
    let shown = try desk.runToEnd(["--tag", "t", "--timeout", "0", "Shown"])
    #expect(shown.status == 0 && shown.errors.isEmpty, "\(shown.errors)")
    try waitUntil("the owner to give the bus up", timeout: 20) {
      try desk.status(tag: "t")?.screenReaders == "no-screen-reader"
    }
    try waitUntil("its connection closed") {
      bus.connections == 1 && bus.closedConnections == 1
    }
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Again"]).status == 0)
  }

  @Test func aLauncherThatNeverGivesTheAddressLeavesToastsShownAndTheNextLauncherHeard() throws {
    let bus = try AccessibilityBus(launcher: false)
    let mute = try bus.startMuteLauncher()
    let desk = try deskOnBus(bus)
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "First"]).status == 0)
    try waitUntil("the owner to ask the mute launcher for the address") {
      mute.addressAsked == 1
    }
    #expect(try desk.status(tag: "t")?.screenReaders == "connecting")
    let second = try desk.runToEnd(["--tag", "u", "--timeout", "0", "Second"])
    #expect(second.status == 0 && second.errors.isEmpty, "\(second.errors)")
    #expect(try desk.status(tag: "u")?.text == "Second")
    #expect(try !desk.waitUntilDrawn(tag: "u").isEmpty)
    // It lets go of the name, still connected and its call unanswered, and
    // at-spi2-core's launcher takes the name: heard well before the call's limit.
    try mute.release()
    try bus.startLauncher()
    let listener = try bus.listen(to: ["object:announcement"])
    try bus.setScreenReader(true)
    try waitUntil("the owner on the new accessibility bus", timeout: 15) {
      try desk.status(tag: "t")?.screenReaders == "connected"
    }
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Heard"]).status == 0)
    try waitUntil("the toast heard (heard: \(listener.spoken()))") {
      listener.spoken().contains("Heard")
    }
    #expect(mute.addressAsked == 1)
  }

  @Test func aScreenReaderComingAndGoingLeavesNoDescriptorBehind() throws {
    let bus = try AccessibilityBus(screenReader: false)
    let listener = try bus.listen(to: ["object:announcement"])
    let desk = try deskOnBus(bus)
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Start"]).status == 0)
    try waitUntil("the owner to learn that no screen reader is on") {
      try desk.status(tag: "t")?.screenReaders == "no-screen-reader"
    }
    let owner = try #require(try desk.status(tag: "t")?.owner)
    // Counted once the owner is quiet: a connection it is letting go of (a
    // bus it gave up on, closed in a later turn) is closed by then.
    try waitUntilSettled(owner)
    let before = Self.descriptors(of: owner)
    for round in 1...10 {
      try bus.setScreenReader(true)
      try waitUntil("the owner on the accessibility bus (round \(round))") {
        try desk.status(tag: "t")?.screenReaders == "connected"
      }
      #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Round \(round)"]).status == 0)
      try waitUntil("round \(round) heard (heard: \(listener.spoken()))") {
        listener.spoken().last == "Round \(round)"
      }
      try bus.setScreenReader(false)
      try waitUntil("the owner off the accessibility bus (round \(round))") {
        try desk.status(tag: "t")?.screenReaders == "no-screen-reader"
      }
    }
    try waitUntilSettled(owner)
    #expect(Self.descriptors(of: owner) == before, "no descriptor left behind")
    #expect(try desk.status(tag: "t")?.owner == owner)
  }

  /// The descriptors `owner` has open but its connections from commands: the
  /// `wl-toast status` that just answered may not have been closed yet (the
  /// owner closes its side when it reads the command's hang-up). Those are the
  /// accepted sockets of its rendezvous, `…/wl-toast…/DISPLAY.sock` in
  /// /proc/net/unix (an accepted socket shows its listener's path).
  static func descriptors(of owner: Int32) -> Int {
    let table = readFile("/proc/net/unix").map { String(decoding: $0, as: UTF8.self) } ?? ""
    var commands: Set<String> = []
    for line in table.split(separator: "\n").dropFirst() {
      // Num RefCount Protocol Flags Type St Inode Path; flags 00010000: listening.
      let fields = line.split(separator: " ")
      guard fields.count >= 8, fields[3] != "00010000", fields[7].contains("/wl-toast"),
        fields[7].hasSuffix(".sock")
      else { continue }
      commands.insert("socket:[\(fields[6])]")
    }
    return listDirectory("/proc/\(owner)/fd").filter { name in
      !commands.contains(readLink("/proc/\(owner)/fd/\(name)") ?? "")
    }.count
  }

  @Test func eachToastSaysWhetherItIsSpoken() throws {
    let bus = try AccessibilityBus(screenReader: false)
    let listener = try bus.listen(to: ["object:announcement"])
    let desk = try deskOnBus(bus)
    // --a11y on: spoken whenever the accessibility bus runs, flags or not.
    #expect(
      try desk.runToEnd([
        "--tag", "mute", "--a11y", "on", "--say", "Volume muted", "--timeout", "0", "🔇",
      ]).status == 0)
    try waitUntil("the toast that asked to be heard (heard: \(listener.spoken()))") {
      listener.spoken() == ["Volume muted"]
    }
    // --a11y off: never, even with a screen reader on.
    try bus.setScreenReader(true)
    #expect(
      try desk.runToEnd(["--tag", "a", "--a11y", "off", "--timeout", "0", "Silent"]).status == 0)
    #expect(try desk.runToEnd(["--tag", "b", "--timeout", "0", "Spoken"]).status == 0)
    try waitUntil("the default toast (heard: \(listener.spoken()))") {
      listener.spoken() == ["Volume muted", "Spoken"]
    }
  }

  @Test func aStaticToastWakesNothingWhileAScreenReaderListens() throws {
    let bus = try AccessibilityBus(screenReader: true)
    let listener = try bus.listen(to: ["object:announcement", "object:state-changed:showing"])
    let desk = try deskOnBus(bus)
    #expect(try desk.runToEnd(["--timeout", "0", "--no-animation", "Static"]).status == 0)
    try waitUntil("the announcement (heard: \(listener.spoken()))") {
      listener.spoken() == ["Static"]
    }
    let owner = try #require(try desk.status()?.owner)
    #expect(try bus.accessibilityConnections(of: owner).count == 1)
    try expectIdle(owner)
    // Both buses are served by the owner's own loop: no GDBus thread (and
    // under ThreadSanitizer, no thread beside the runtime's own).
    let threads = listDirectory("/proc/\(owner)/task").count
    #expect(threads == 1 || underThreadSanitizer && threads == 2, "one thread: \(threads)")
  }

  @Test func aToastsButtonsArePushButtonsTheFocusIsSaidAndTheActionChooses() throws {
    let bus = try AccessibilityBus(screenReader: true)
    // As Orca 45 and later register: announcements win, and focus is heard.
    let listener = try bus.listen(to: [
      "object:announcement", "object:state-changed:showing", "object:state-changed:focused",
    ])
    let desk = try deskOnBus(bus)
    let log = desk.compositor.runtimeDirectory + "/asking.log"
    // On demand (the default with buttons): sway gives the new toast the keyboard.
    let command = try desk.run(
      ["--button", "Undo", "--button", "Keep", "--wait", "--print-outcome", "Deleted 3 files"],
      logPath: log)
    defer { command.terminate() }
    try waitUntil("the message, then Undo focused (heard: \(listener.heard()))") {
      listener.focusMoves() == ["+Undo"]
    }
    #expect(listener.spoken() == ["Deleted 3 files"], "the message, as a toast without buttons")
    let heard = listener.heard()
    let announced = try #require(heard.firstIndex { $0.isAnnouncement })
    let focused = try #require(heard.firstIndex { $0.isFocus })
    #expect(announced < focused, "the message before the button: \(heard)")
    #expect(!heard.contains { $0.isShowing }, "one event for the message: \(heard)")
    #expect(heard[focused].role == "push button" && heard[focused].app == "wl-toast")

    try desk.input.press(keysym: 0xff09)  // Tab
    try waitUntil("Keep focused (heard: \(listener.heard()))") {
      listener.focusMoves() == ["+Undo", "-Undo", "+Keep"]
    }
    let keep = try #require(listener.heard().last { $0.isFocus })
    #expect(keep.role == "push button" && keep.name == "Keep" && keep.app == "wl-toast")

    // The screen reader presses Keep: the toast ends as a click on it ends it.
    let pressed = try PressedButton(named: "Keep", on: bus)
    #expect(pressed.done)
    #expect(pressed.role == "push button" && pressed.index == 1)
    #expect(pressed.parent == "Deleted 3 files" && pressed.parentRole == "notification")
    #expect(pressed.siblings == ["Undo", "Keep"])
    #expect(pressed.actions == [["click", "Activates the button", ""]])
    #expect(
      Set(["enabled", "sensitive", "showing", "visible", "focusable", "focused"]).isSubset(
        of: pressed.states), "\(pressed.states)")
    #expect(command.wait(timeout: 5) == 11, "the second button")
    let output = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    #expect(output.split(separator: "\n").contains("button:Keep"), "\(output)")
    try waitUntil("showing off as the toast goes (heard: \(listener.heard()))") {
      listener.heard().contains { $0.isHidden && $0.name == "Deleted 3 files" }
    }
  }

  @Test func aNagBarsButtonsAreHeardAndPressedAsTheMouseDoes() throws {
    let bus = try AccessibilityBus(screenReader: true)
    // As Orca 43 registers: showing, and focus.
    let listener = try bus.listen(to: [
      "object:state-changed:showing", "object:state-changed:focused",
    ])
    let desk = try deskOnBus(bus)
    let touched = desk.compositor.runtimeDirectory + "/touched"
    let nag = try desk.run(
      ["nag", "-m", "Exit sway?", "-B", "Touch", "touch \(touched)"],
      logPath: desk.compositor.runtimeDirectory + "/nag.log")
    defer { nag.terminate() }
    // The focus starts on the dismiss button, as the bar has it.
    try waitUntil("the message, then X focused (heard: \(listener.heard()))") {
      listener.spoken() == ["Exit sway?"] && listener.focusMoves() == ["+X"]
    }
    let heard = listener.heard()
    let shown = try #require(heard.firstIndex { $0.isShowing })
    let focused = try #require(heard.firstIndex { $0.isFocus })
    #expect(shown < focused && heard[shown].role == "notification", "\(heard)")
    #expect(heard[focused].role == "push button")

    // A button that stays: its action runs, and the bar with its buttons stays.
    let touch = try PressedButton(named: "Touch", on: bus)
    #expect(touch.done && touch.siblings == ["X", "Touch"] && touch.index == 1)
    try waitUntil("Touch's action to run") { access(touched, F_OK) == 0 }
    // The dismiss button: the bar ends as swaynag's does (exit 0).
    let dismiss = try PressedButton(named: "X", on: bus)
    #expect(dismiss.done && dismiss.states.contains("focused"), "\(dismiss.states)")
    #expect(nag.wait(timeout: 5) == 0)
  }
}
