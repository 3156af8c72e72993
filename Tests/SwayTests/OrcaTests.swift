import TestSupport
import Testing

/// The real thing: Debian 12's Orca 43 speaking toasts, its speech written to
/// a file by speech-dispatcher's generic module (see ``Orca``).
@Suite(.serialized)
struct OrcaTests {
  @Test func orcaSaysTheToastsText() throws {
    let bus = try AccessibilityBus()
    let orca = try Orca(on: bus)
    let desk = try deskOnBus(bus)
    // Until hidden: Orca asks the toast's accessible object for its role and
    // name before it speaks, however long that takes on a loaded machine.
    let result = try desk.runToEnd(["--progress", "40", "--timeout", "0", "Volume"])
    #expect(result.status == 0, "\(result.errors)")
    try waitUntil(
      "Orca to speak the toast (spoken: \(orca.spoken()))\n\(orca.debugTail())", timeout: 20
    ) {
      orca.spoken().contains { $0.contains("Volume, 40 percent") }
    }
    // Orca 43 presents a notification as its role and name.
    #expect(
      orca.spoken().contains { $0.hasPrefix("notification Volume, 40 percent") },
      "\(orca.spoken())")
    #expect(try desk.runToEnd(["hide"]).status == 0)
  }

  @Test func orcaSaysTheMessageThenTheFocusedButtonAsTabMoves() throws {
    let bus = try AccessibilityBus()
    let orca = try Orca(on: bus)
    let desk = try deskOnBus(bus)
    // On demand (the default with buttons): sway gives the new toast the keyboard.
    let command = try desk.run([
      "--button", "Undo", "--button", "Keep", "--wait", "--print-outcome", "Deleted 3 files",
    ])
    defer { command.terminate() }
    func said(_ text: String) -> Int? { orca.spoken().firstIndex { $0.hasPrefix(text) } }
    try waitUntil(
      "Orca to say the focused button (spoken: \(orca.spoken()))\n\(orca.debugTail())",
      timeout: 20
    ) { said("Undo push button") != nil }
    // The message as for any toast, then the button the focus starts on.
    let message = try #require(said("notification Deleted 3 files"), "\(orca.spoken())")
    #expect(message < said("Undo push button")!, "\(orca.spoken())")
    try desk.input.press(keysym: 0xff09)  // Tab
    try waitUntil(
      "Orca to say Keep (spoken: \(orca.spoken()))\n\(orca.debugTail())", timeout: 20
    ) { said("Keep push button") != nil }
    #expect(
      orca.spoken().filter { $0.contains("Deleted 3 files") }.count == 1,
      "the message once: \(orca.spoken())")
  }
}
