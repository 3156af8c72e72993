import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// A toast's buttons on sway as a user sees and works them: the focus ring
/// the keyboard moves, the pressed fill under a held pointer, and the library's
/// outcome. (The click, Tab, Enter and Escape cases run on every compositor:
/// SharedCases.)
@Suite(.serialized)
struct ButtonTests {
  static let asking: Toast = {
    var toast = Toast("Deleted 3 files", timeout: 0)
    toast.buttons = ["Undo", "Keep"]
    toast.isAnimated = false
    return toast
  }()

  /// The red channel of a button's left edge (where the ring is) and of its
  /// fill next to it, on screen.
  static func looks(of index: Int, in shot: Image) -> (edge: UInt8, fill: UInt8) {
    let button = Looks.button(index, of: asking)
    let y = button.y + button.height / 2
    return (shot.pixel(x: button.x, y: y).red, shot.pixel(x: button.x + 4, y: y).red)
  }

  @Test func theFocusRingShowsOnTheFirstButtonAndTabMovesIt() throws {
    let desk = try Desk<HeadlessSway>()
    // On demand (the default with buttons): sway gives the new surface the keyboard.
    let command = try desk.run([
      "--button", "Undo", "--button", "Keep", "--no-animation", "--wait", "Deleted 3 files",
    ])
    defer { command.terminate() }
    var seen = (undo: (edge: UInt8(0), fill: UInt8(0)), keep: (edge: UInt8(0), fill: UInt8(0)))
    try desk.screenshot("a ring around Undo, none around Keep (last: \(seen))") { shot in
      seen = (Self.looks(of: 0, in: shot), Self.looks(of: 1, in: shot))
      return seen.undo.edge > 200 && seen.keep.edge < 150
    }
    try desk.input.press(keysym: 0xff09)  // Tab
    try desk.screenshot("the ring around Keep, none around Undo (last: \(seen))") { shot in
      seen = (Self.looks(of: 0, in: shot), Self.looks(of: 1, in: shot))
      return seen.keep.edge > 200 && seen.undo.edge < 150
    }
    try desk.input.press(keysym: 0xff09, modifiers: ["Shift"])  // Shift+Tab: back to Undo
    try desk.input.press(keysym: 0xff0d)  // Enter
    #expect(command.wait(timeout: 5) == 10, "Undo is the first button")
  }

  @Test func aHeldPointerShowsTheButtonPressedAndReleasingElsewhereChoosesNothing() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--button", "Undo", "--button", "Keep", "--keyboard", "none", "--no-animation", "--wait",
      "Deleted 3 files",
    ])
    defer { command.terminate() }
    let undo = Looks.button(0, of: Self.asking)
    let box = Looks.hudBox(Self.asking)
    var idle = Self.looks(
      of: 0,
      in: try desk.screenshot("the HUD at \(box)") {
        $0.boundingBox(of: Looks.hudColor(HeadlessSway.self), tolerance: 3) == box
      })
    #expect(idle.edge < 150, "no ring without the keyboard")
    try desk.input.hold(x: undo.x + undo.width / 2, y: undo.y + undo.height / 2)
    try desk.screenshot("Undo filled more while held (idle: \(idle))") { shot in
      Int(Self.looks(of: 0, in: shot).fill) > Int(idle.fill) + 20
    }
    // Away from the buttons, inside the box: released there, nothing is chosen.
    try desk.input.move(x: box.x + 4, y: box.y + 4)
    try desk.input.release()
    idle = Self.looks(
      of: 0,
      in: try desk.screenshot("Undo no longer pressed") { shot in
        Int(Self.looks(of: 0, in: shot).fill) <= Int(idle.fill) + 2
      })
    #expect(command.exitStatus == nil, "the toast still waits for its answer")
    #expect(try desk.status()?.text == "Deleted 3 files")
  }

  @Test func theLibraryReportsTheChosenButton() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    presenter.show(Self.asking)
    let box = Looks.hudBox(Self.asking)
    try waitUntil("the HUD with buttons at \(box)") {
      try presenter.dispatch(timeout: .milliseconds(20))
      return try desk.sway.screenshot().boundingBox(
        of: Looks.hudColor(HeadlessSway.self), tolerance: 3) == box
    }
    let keep = Looks.button(1, of: Self.asking)
    try desk.input.click(x: keep.x + keep.width / 2, y: keep.y + keep.height / 2)
    #expect(try presenter.runUntilHidden() == .chose(button: 1))
    #expect(outcomes == [.chose(button: 1)])
  }
}
