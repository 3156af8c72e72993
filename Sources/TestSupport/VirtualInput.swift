import CWaylandClient
import CXkbCommon
import Glibc
import SystemSupport
import Wayland

/// One virtual pointer and one virtual keyboard, kept alive for a whole test so
/// that the seat keeps its capabilities and clicks and keys arrive reliably.
///
/// Made with the project's own generated bindings on a connection of its own.
package final class VirtualInput {
  /// Linux input codes of pointer buttons.
  package enum Button: UInt32, Sendable {
    /// The left button (BTN_LEFT).
    case left = 0x110
    /// The right button (BTN_RIGHT).
    case right = 0x111
  }

  private let display: Display
  private let registry: Registry
  private let seat: WlSeat
  private let pointerManager: ZwlrVirtualPointerManagerV1
  private let keyboardManager: ZwpVirtualKeyboardManagerV1
  private let pointer: ZwlrVirtualPointerV1
  private let keyboard: ZwpVirtualKeyboardV1
  private let keymap: OpaquePointer
  private let context: OpaquePointer
  private let width: UInt32
  private let height: UInt32

  /// Connects to a compositor and creates the devices; `width` and `height` are
  /// the extent of absolute motion (the output's size in logical pixels).
  /// The keyboard's keymap has `layouts` (xkb names, `us,de`; nil: the
  /// default), as a real keyboard configured with them would: sway switches
  /// between them (`xkb_switch_layout`) and names them.
  package init(socketPath: String, width: Int, height: Int, layouts: String? = nil) throws {
    display = try Display(name: socketPath)
    registry = try Registry(display: display)
    seat = try registry.bind(WlSeat.self)
    pointerManager = try registry.bind(ZwlrVirtualPointerManagerV1.self)
    keyboardManager = try registry.bind(ZwpVirtualKeyboardManagerV1.self)
    pointer = pointerManager.createVirtualPointer(seat: seat)
    keyboard = keyboardManager.createVirtualKeyboard(seat: seat)
    self.width = UInt32(width)
    self.height = UInt32(height)

    guard let context = xkb_context_new(XKB_CONTEXT_NO_FLAGS) else {
      throw HarnessError("xkb_context_new failed")
    }
    self.context = context
    let layout = layouts.map { strdup($0) } ?? nil
    defer { free(layout) }
    var names = xkb_rule_names(
      rules: nil, model: nil, layout: UnsafePointer(layout), variant: nil, options: nil)
    guard let keymap = xkb_keymap_new_from_names(context, &names, XKB_KEYMAP_COMPILE_NO_FLAGS)
    else {
      xkb_context_unref(context)
      throw HarnessError("cannot compile the default xkb keymap")
    }
    self.keymap = keymap
    guard let text = xkb_keymap_get_as_string(keymap, XKB_KEYMAP_FORMAT_TEXT_V1) else {
      throw HarnessError("cannot serialise the xkb keymap")
    }
    defer { free(text) }
    let size = strlen(text) + 1
    let fd = wlt_create_shm_file(Int64(size))
    guard fd >= 0 else { throw HarnessError("cannot create the keymap file") }
    defer { close(fd) }
    _ = write(fd, text, size)
    keyboard.keymap(format: 1, fd: fd, size: UInt32(size))  // 1 = XKB_V1
    try display.roundtrip()
  }

  deinit {
    pointer.destroy()
    keyboard.destroy()
    _ = try? display.roundtrip()
    xkb_keymap_unref(keymap)
    xkb_context_unref(context)
  }

  private var time: UInt32 {
    UInt32(truncatingIfNeeded: MonotonicTime.now.nanoseconds / 1_000_000)
  }

  /// Moves the pointer to a point in output pixels.
  package func move(x: Int, y: Int) throws {
    pointer.motionAbsolute(
      time: time, x: UInt32(max(0, x)), y: UInt32(max(0, y)), xExtent: width, yExtent: height)
    pointer.frame()
    try display.roundtrip()
  }

  /// Moves the pointer to a point and clicks a button there.
  package func click(x: Int, y: Int, button: Button = .left) throws {
    try hold(x: x, y: y, button: button)
    try release(button)
  }

  /// Moves the pointer to a point and holds a button down there, until ``release(_:)``.
  package func hold(x: Int, y: Int, button: Button = .left) throws {
    try move(x: x, y: y)
    pointer.button(time: time, button: button.rawValue, state: .pressed)
    pointer.frame()
    try display.roundtrip()
  }

  /// Lets a held button go where the pointer is.
  package func release(_ button: Button = .left) throws {
    pointer.button(time: time, button: button.rawValue, state: .released)
    pointer.frame()
    try display.roundtrip()
  }

  /// Presses and releases the key that produces `keysym` (an XKB keysym such as 0xff1b, Escape),
  /// with the named modifiers held (XKB names such as "Mod4" for Super, "Shift", "Control").
  package func press(keysym: UInt32, modifiers: [String] = []) throws {
    guard let code = keycode(for: keysym) else {
      throw HarnessError("no key produces keysym 0x\(String(keysym, radix: 16))")
    }
    var mask: UInt32 = 0
    for name in modifiers {
      let index = xkb_keymap_mod_get_index(keymap, name)
      guard index != XKB_MOD_INVALID else { throw HarnessError("no modifier named \(name)") }
      mask |= 1 << index
    }
    keyboard.modifiers(modsDepressed: mask, modsLatched: 0, modsLocked: 0, group: 0)
    keyboard.key(time: time, key: code - 8, state: 1)
    keyboard.key(time: time, key: code - 8, state: 0)
    if mask != 0 {
      keyboard.modifiers(modsDepressed: 0, modsLatched: 0, modsLocked: 0, group: 0)
    }
    try display.roundtrip()
  }

  private func keycode(for keysym: UInt32) -> UInt32? {
    let minimum = xkb_keymap_min_keycode(keymap)
    let maximum = xkb_keymap_max_keycode(keymap)
    for code in minimum...maximum {
      var symbols: UnsafePointer<xkb_keysym_t>?
      let count = xkb_keymap_key_get_syms_by_level(keymap, code, 0, 0, &symbols)
      if let symbols, count > 0, (0..<Int(count)).contains(where: { symbols[$0] == keysym }) {
        return code
      }
    }
    return nil
  }
}
