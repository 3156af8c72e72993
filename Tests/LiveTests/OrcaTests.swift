import TestSupport
import Testing

/// The real thing: Debian 12's Orca 43 speaking toasts, its speech written to
/// a file by speech-dispatcher's generic module (see ``Orca``).
@Suite(.serialized)
struct OrcaTests {
  @Test func orcaSaysTheToastsText() throws {
    let bus = try AccessibilityBus()
    let orca = try Orca(on: bus)
    let desk = try ScreenReaderTests.desk(on: bus)
    let result = try desk.runToEnd(["--progress", "40", "--timeout", "1", "Volume"])
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
  }
}
