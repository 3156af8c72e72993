import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// A toast answered for a program: the activation token (xdg_activation_v1)
/// its button gets before the toast's end is reported, and the keyboard a key
/// binding hands a toast that never takes it by itself (`focus(tag:)`), with
/// what a screen reader hears and does of it; on sway 1.7.
@Suite(.serialized)
struct ActivationTests {
  static let asking: Toast = {
    var toast = Toast("Deleted 3 files", timeout: 0)
    toast.buttons = ["Undo", "Keep"]
    toast.isAnimated = false
    return toast
  }()

  /// The same toast, as a notification card has it: no keyboard of its own.
  static let keyless: Toast = {
    var toast = asking
    toast.keyboard = .never
    return toast
  }()

  /// Shows `toast` with `tag` and runs the presenter's loop until its first
  /// frame is on screen (committed, and handled by sway).
  static func show(_ toast: Toast, tag: String, on presenter: ToastPresenter) throws {
    presenter.show(toast, tag: tag)
    try waitUntil("the toast drawn") {
      try presenter.dispatch(timeout: .milliseconds(20))
      return !presenter.drawnSurfaces(tag: tag).isEmpty
    }
    try presenter.roundtrip()
  }

  /// Runs the presenter's loop until no toast is left (failing after 10 s
  /// rather than waiting for ever), then handles what came meanwhile: how
  /// the last toast ended.
  static func runUntilHidden(_ presenter: ToastPresenter) throws -> ToastOutcome {
    try waitUntil("every toast gone", timeout: 10) {
      try presenter.dispatch(timeout: .milliseconds(20))
      return !presenter.isPresenting
    }
    return try presenter.runUntilHidden()
  }

  /// The middle of the toast's button `index`, as the pointer clicks it.
  static func middle(of index: Int) -> (x: Int, y: Int) {
    let button = Looks.button(index, of: asking)
    return (button.x + button.width / 2, button.y + button.height / 2)
  }

  /// Records, in order, the buttons chosen, the tokens asked for in
  /// ``ToastPresenter/onButton`` as they come, and the toasts' ends.
  final class Journal {
    var entries: [String] = []

    /// Makes `presenter` ask for a token at each button and write all down.
    init(_ presenter: ToastPresenter) {
      presenter.onButton = { [unowned self, unowned presenter] tag, button in
        entries.append("button \(button)")
        presenter.requestActivationToken(tag: tag) { [unowned self] token in
          entries.append(token.map { $0.isEmpty ? "empty token" : "token" } ?? "no token")
        }
        return .end
      }
      presenter.onCompletion = { [unowned self] _, outcome in entries.append("\(outcome)") }
    }
  }

  /// Records the toasts' ends as `tag outcome`, in order.
  final class Outcomes {
    var entries: [String] = []

    /// Makes `presenter` write down each toast's end.
    init(_ presenter: ToastPresenter) {
      presenter.onCompletion = { [unowned self] tag, outcome in entries.append("\(tag) \(outcome)")
      }
    }
  }

  @Test func aClickedButtonGetsAnActivationTokenBeforeTheToastsEndIsReported() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(
      display: desk.sway.socketPath, announcesToScreenReaders: false)
    let journal = Journal(presenter)
    try Self.show(Self.asking, tag: "asking", on: presenter)
    let keep = Self.middle(of: 1)
    try desk.input.click(x: keep.x, y: keep.y)
    // Without an exit animation the toast ends as the click is handled: its
    // end waits for the token.
    #expect(try Self.runUntilHidden(presenter) == .chose(button: 1))
    #expect(journal.entries == ["button 1", "token", "chose(button: 1)"])
  }

  @Test func aTokenIsNoneAtOnceWithoutAToastAndComesInTheToastsCompletion() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(
      display: desk.sway.socketPath, announcesToScreenReaders: false)
    var answers: [String?] = []
    presenter.requestActivationToken(tag: "none") { answers.append($0) }
    #expect(answers == [nil])
    // In onCompletion the toast's surface is still there: a token comes.
    presenter.onCompletion = { [unowned presenter] tag, _ in
      presenter.requestActivationToken(tag: tag) { answers.append($0) }
    }
    try Self.show(Self.asking, tag: "asking", on: presenter)
    let undo = Self.middle(of: 0)
    try desk.input.click(x: undo.x, y: undo.y)
    #expect(try Self.runUntilHidden(presenter) == .chose(button: 0))
    try waitUntil("the token asked for in onCompletion") {
      try presenter.dispatch(timeout: .milliseconds(20))
      return answers.count == 2
    }
    #expect(answers.last??.isEmpty == false, "\(answers)")
  }

  @Test func theCommandsToastsNeverBindXdgActivation() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.scratch("owner-log")
    desk.environment["WAYLAND_DEBUG"] = "1"
    desk.environment["WL_TOAST_OWNER_LOG"] = log
    // A plain toast, then one whose button is clicked: the owner shows both
    // and asks for no token, so it binds nothing for tokens.
    let plain = try desk.runToEnd(["--no-animation", "--timeout", "0.1", "--wait", "Plain"])
    #expect(plain.status == 0, "\(plain.errors)")
    let asking = try desk.run([
      "--button", "Undo", "--button", "Keep", "--no-animation", "--wait", "Deleted 3 files",
    ])
    defer { asking.terminate() }
    try desk.waitUntilDrawn()
    let keep = Self.middle(of: 1)
    try desk.input.click(x: keep.x, y: keep.y)
    #expect(asking.wait(timeout: desk.compositor.patience) == 11)
    let messages = (readFile(log) ?? []).split(separator: 0x0A).compactMap {
      WaylandDebugMessage(line: Substring(String(decoding: $0, as: UTF8.self)))
    }
    let activation = messages.filter { $0.arguments.contains("\"xdg_activation_v1\"") }
    #expect(
      activation.contains { !$0.isRequest && $0.name == "global" }, "sway offers xdg_activation_v1")
    #expect(
      !activation.contains { $0.isRequest && $0.name == "bind" }, "\(activation.map(\.arguments))")
    #expect(messages.contains { $0.isRequest && $0.name == "bind" }, "the owner's binds are logged")
  }

  @Test func focusGivesAKeylessToastTheKeyboardForTabAndEnter() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(
      display: desk.sway.socketPath, announcesToScreenReaders: false)
    let journal = Journal(presenter)
    #expect(!presenter.focus(tag: "card"), "nothing shows with that tag")
    try Self.show(Self.keyless, tag: "card", on: presenter)
    // Without the keyboard, Enter reaches nothing.
    try desk.input.press(keysym: 0xff0d)
    try presenter.roundtrip()
    #expect(presenter.isPresenting(tag: "card") && journal.entries.isEmpty)
    #expect(presenter.focus(tag: "card"))
    try presenter.roundtrip()
    try desk.input.press(keysym: 0xff09)  // Tab: the second button
    try desk.input.press(keysym: 0xff0d)  // Enter
    #expect(try Self.runUntilHidden(presenter) == .chose(button: 1))
    #expect(journal.entries == ["button 1", "token", "chose(button: 1)"])
  }

  @Test func focusMovesTheKeyboardFromOneToastToAnother() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(
      display: desk.sway.socketPath, announcesToScreenReaders: false)
    let outcomes = Outcomes(presenter)
    try Self.show(Self.keyless, tag: "first", on: presenter)
    try Self.show(Self.keyless, tag: "second", on: presenter)
    #expect(presenter.focus(tag: "first"))
    try presenter.roundtrip()
    #expect(presenter.focus(tag: "second"))
    try presenter.roundtrip()
    try desk.input.press(keysym: 0xff0d)  // Enter: the second's first button
    try presenter.roundtrip()
    #expect(outcomes.entries == ["second chose(button: 0)"])
    #expect(!presenter.focus(tag: "second"), "gone")
    #expect(presenter.focus(tag: "first"))
    try presenter.roundtrip()
    try desk.input.press(keysym: 0xff1b)  // Escape
    _ = try Self.runUntilHidden(presenter)
    #expect(outcomes.entries == ["second chose(button: 0)", "first dismissed"])
  }

  @Test func aFocusedToastGivesTheKeyboardBackAsItStartsToGo() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(
      display: desk.sway.socketPath, announcesToScreenReaders: false)
    let outcomes = Outcomes(presenter)
    var fading = Self.keyless
    fading.isAnimated = true
    try Self.show(fading, tag: "fading", on: presenter)
    #expect(presenter.focus(tag: "fading"))
    try presenter.roundtrip()
    // A toast of the top layer that wants the keyboard exclusively: sway
    // gives it to the overlay's exclusive one first.
    var waiting = Self.asking
    waiting.keyboard = .exclusive
    waiting.layer = .top
    try Self.show(waiting, tag: "waiting", on: presenter)
    // Escape reaches the focused toast: it starts to fade out and gives the
    // keyboard back (its change committed by the second round trip).
    try desk.input.press(keysym: 0xff1b)
    try presenter.roundtrip()
    try presenter.roundtrip()
    #expect(presenter.isPresenting(tag: "fading") && presenter.isPresenting(tag: "waiting"))
    // Enter reaches the other while the first still fades (its exit is drawn
    // only as the loop runs).
    try desk.input.press(keysym: 0xff0d)
    try presenter.roundtrip()
    #expect(outcomes.entries == ["waiting chose(button: 0)"])
    #expect(presenter.isPresenting(tag: "fading"), "still fading out")
    _ = try Self.runUntilHidden(presenter)
    #expect(outcomes.entries == ["waiting chose(button: 0)", "fading dismissed"])
  }

  @Test func aScreenReaderHearsTheFocusedButtonAndItsActionGetsAToken() throws {
    let bus = try AccessibilityBus(screenReader: true)
    let listener = try bus.listen(to: [
      "object:announcement", "object:state-changed:showing", "object:state-changed:focused",
    ])
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    let address = try #require(bus.clientEnvironment["DBUS_SESSION_BUS_ADDRESS"])
    presenter.announcer?.sessionAddress = { .init(address) }
    let journal = Journal(presenter)
    try Self.show(Self.keyless, tag: "card", on: presenter)
    try waitUntil("the message heard (heard: \(listener.heard()))", timeout: 20) {
      try presenter.dispatch(timeout: .milliseconds(20))
      return listener.spoken() == ["Deleted 3 files"]
    }
    #expect(listener.focusMoves().isEmpty, "no button has the focus without the keyboard")
    #expect(presenter.focus(tag: "card"))
    try waitUntil("Undo focused (heard: \(listener.heard()))") {
      try presenter.dispatch(timeout: .milliseconds(20))
      return listener.focusMoves() == ["+Undo"]
    }
    try desk.input.press(keysym: 0xff09)  // Tab
    try waitUntil("Keep focused (heard: \(listener.heard()))") {
      try presenter.dispatch(timeout: .milliseconds(20))
      return listener.focusMoves() == ["+Undo", "-Undo", "+Keep"]
    }
    // The screen reader presses Keep (DoAction): the path of a click, its
    // token included. The presenter answers the call while the script waits.
    var environment = currentEnvironment(
      without: ["DISPLAY", "WAYLAND_DISPLAY", "AT_SPI_BUS_ADDRESS"])
    environment.merge(bus.clientEnvironment) { $1 }
    environment["NO_AT_BRIDGE"] = "1"
    let pressing = try ChildProcess(
      [
        "/usr/bin/python3", repositoryDirectory + "/scripts/atspi-listener.py", "--do-action",
        "wl-toast", "Keep",
      ], environment: environment, logPath: desk.scratch("pressed"))
    defer { pressing.terminate() }
    try waitUntil("the screen reader's press to end", timeout: 20) {
      try presenter.dispatch(timeout: .milliseconds(20))
      return pressing.exitStatus != nil
    }
    #expect(pressing.exitStatus == 0, "the action was done")
    #expect(try Self.runUntilHidden(presenter) == .chose(button: 1))
    #expect(journal.entries == ["button 1", "token", "chose(button: 1)"])
  }
}
