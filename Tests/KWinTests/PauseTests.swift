import CompositorCases
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// Timeouts that wait for the person on KWin 5.27: idleness through
/// ext_idle_notifier_v1, and a finger resting on a toast.
@Suite(.serialized)
struct PauseTests {
  @Test func idleHoldsATimeoutUntilAKeyPress() throws {
    try PauseCases.idleHoldsATimeout(on: HeadlessKWin.self, through: .standard)
  }

  /// A finger held on the box of a `--button Keep --timeout 1.5` toast,
  /// outside its button, holds it 4 s; it goes 1.5 s (plus the margin)
  /// after the finger lifts, and the lift chose nothing (`expired`).
  ///
  /// The finger goes down on the toast shown first with a long timeout,
  /// which the 1.5 s one then updates in place: a finger cannot be put on a
  /// toast before it shows, and a loaded machine may take longer than 1.5 s
  /// from its first frame to the touch.
  @Test func aFingerOnTheBoxHoldsItsTimeout() throws {
    let desk = try HeadlessKWin.desk(outputs: 1)
    var toast = Toast("Hold")
    toast.buttons = ["Keep"]
    let box = Looks.hudBox(toast)
    let options = ["--button", "Keep", "--no-animation"]
    let first = try desk.runToEnd(options + ["--timeout", "30", "Hold"])
    #expect(first.status == 0, "\(first.errors)")
    // On screen, so KWin has taken the toast's input region: a finger put
    // down before would touch what lies under it.
    try waitUntil("the toast on screen", timeout: desk.compositor.patience) {
      try PauseCases.showsHUD(desk)
    }
    // Inside the box, above the button row.
    try desk.input.putFinger(x: Double(box.x + 8), y: Double(box.y + 8))
    let log = desk.scratch("held") + ".log"
    let command = try desk.run(
      ["--wait", "--print-outcome"] + options + ["--timeout", "1.5", "Hold"], logPath: log)
    defer { command.terminate() }
    // The held window starts once the owner has the 1.5 s timeout, so the
    // finger is what holds it (the 30 s one could not run out in 4 s).
    try waitUntil("the owner to take the 1.5 s update", timeout: desk.compositor.patience) {
      try desk.status()?.json["toast"]?["timeout"]?.doubleValue == 1.5
    }
    try PauseCases.expectHUDStays(desk, until: now() + 4, "held under the finger")
    let lifted = now()
    try desk.input.liftFinger()
    try PauseCases.expectHUDGoes(desk, timeout: 1.5, since: lifted, "after the finger lifted")
    #expect(command.wait(timeout: desk.compositor.patience) == 0)
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "expired\n")
  }

  /// Lifting a finger that rested on a `--dismiss tap` toast is a tap: it is dismissed.
  @Test func liftingARestingFingerTapsTheToastAway() throws {
    let desk = try HeadlessKWin.desk(outputs: 1)
    let log = desk.scratch("tapped") + ".log"
    let command = try desk.run(
      [
        "--wait", "--print-outcome", "--dismiss", "tap", "--timeout", "30", "--no-animation", "Tap",
      ],
      logPath: log)
    defer { command.terminate() }
    try desk.waitUntilDrawn()
    try desk.input.putFinger(x: Double(desk.center.x), y: Double(desk.center.y))
    try PauseCases.expectHUDStays(desk, until: now() + 1, "under the finger")
    try desk.input.liftFinger()
    #expect(command.wait(timeout: desk.compositor.patience) == 2)
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "dismissed\n")
  }
}
