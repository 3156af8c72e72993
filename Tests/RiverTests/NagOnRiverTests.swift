import CompositorCases
import Glibc
import TestSupport
import Testing

/// `wl-toast nag` on river: a bar bound to a key in the init, worked by keyboard.
@Suite(.serialized)
struct NagOnRiverTests {
  @Test func aNagBoundInTheInitAppearsAndEnterRunsItsAction() throws {
    let marker = "/tmp/wl-toast-river-nag-\(getpid())"
    unlink(marker)
    defer { unlink(marker) }
    let command =
      "\(builtProduct("wl-toast")) nag --keyboard exclusive -t warning -m 'Run it?'"
      + " -B 'Run' 'touch \(marker)'"
    let desk = try Desk<HeadlessRiver>(
      extraInit: "riverctl map normal Super N spawn \"\(command)\"")
    try desk.input.press(keysym: 0x6e, modifiers: ["Mod4"])  // Super+N
    let orange = RGB(0xff, 0xa8, 0x00)
    try desk.screenshot(
      "the warning bar across the top; river's log ends with:\n\(desk.river.logTail())",
      timeout: 10
    ) { shot in
      shot.boundingBox(of: orange, tolerance: 2).map { $0.x == 0 && $0.width == 1280 } ?? false
    }
    // river gives the keyboard to exclusive layer surfaces only (never on
    // demand, not even on a click: its Cursor.zig), hence --keyboard exclusive.
    // The focus starts on the dismiss button: Tab to Run, Enter runs it.
    try desk.input.press(keysym: 0xff09)
    try desk.input.press(keysym: 0xff0d)
    try waitUntil("the action to run", timeout: 10) { access(marker, F_OK) == 0 }
  }
}
