import SystemSupport
import Wayland

/// Pointer and keyboard input on KWin through `org_kde_kwin_fake_input` (KWin has
/// no wlroots virtual pointer or keyboard).
///
/// KWin's fake device lives as long as this connection: keep one for a whole
/// test, made before the client under test starts, so that the seat has its
/// pointer and keyboard from the first moment and keeps them. KWin honours the
/// requests only after `authenticate`, and only with
/// `KWIN_WAYLAND_NO_PERMISSION_CHECKS=1` (which ``HeadlessKWin`` sets) does it
/// advertise the global to any client.
package final class KWinFakeInput {
  /// Linux input codes (evdev) of keys, as `keyboard_key` takes them.
  package enum Key: UInt32, Sendable {
    /// KEY_ESC.
    case escape = 1
    /// KEY_TAB.
    case tab = 15
    /// KEY_ENTER.
    case enter = 28
    /// KEY_SPACE.
    case space = 57
  }

  private let display: Display
  private let registry: Registry
  private let fakeInput: OrgKdeKwinFakeInput

  /// Connects to KWin and authenticates; requires fake_input version 4 (keys).
  package init(socketPath: String) throws {
    display = try Display(name: socketPath)
    registry = try Registry(display: display)
    guard let global = registry.globals(of: OrgKdeKwinFakeInput.self).first else {
      throw HarnessError(
        "KWin does not advertise org_kde_kwin_fake_input (is KWIN_WAYLAND_NO_PERMISSION_CHECKS=1 set?)"
      )
    }
    guard global.version >= 4 else {
      throw HarnessError("KWin's org_kde_kwin_fake_input is version \(global.version), not 4")
    }
    fakeInput = registry.bind(global, as: OrgKdeKwinFakeInput.self)
    fakeInput.authenticate(application: "wl-toast tests", reason: "drive the toast under test")
    try display.roundtrip()
  }

  deinit {
    fakeInput.destroy()
    _ = try? display.roundtrip()
  }

  /// Moves the pointer to a point in KWin's logical coordinates.
  package func move(x: Double, y: Double) throws {
    try fakeInput.pointerMotionAbsolute(x: x, y: y)
    try display.roundtrip()
  }

  /// Moves the pointer to a point in logical coordinates and clicks a button there.
  package func click(x: Double, y: Double, button: VirtualInput.Button = .left) throws {
    try move(x: x, y: y)
    fakeInput.button(button.rawValue, state: 1)
    fakeInput.button(button.rawValue, state: 0)
    try display.roundtrip()
  }

  /// Touches a point in logical coordinates with one finger and lifts it
  /// (touch requests: fake_input version 2 and later).
  package func touch(x: Double, y: Double) throws {
    try fakeInput.touchDown(id: 0, x: x, y: y)
    try fakeInput.touchFrame()
    try fakeInput.touchUp(id: 0)
    try fakeInput.touchFrame()
    try display.roundtrip()
  }

  /// Puts one finger down at a point in logical coordinates, and leaves it
  /// there until ``liftFinger()``.
  package func putFinger(x: Double, y: Double) throws {
    try fakeInput.touchDown(id: 0, x: x, y: y)
    try fakeInput.touchFrame()
    try display.roundtrip()
  }

  /// Lifts the finger ``putFinger(x:y:)`` put down.
  package func liftFinger() throws {
    try fakeInput.touchUp(id: 0)
    try fakeInput.touchFrame()
    try display.roundtrip()
  }

  /// Presses and releases a key.
  package func press(_ key: Key) throws {
    try fakeInput.keyboardKey(button: key.rawValue, state: 1)
    try fakeInput.keyboardKey(button: key.rawValue, state: 0)
    try display.roundtrip()
  }
}
