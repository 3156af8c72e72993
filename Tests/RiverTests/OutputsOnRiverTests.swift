import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// `--output` on a river with two outputs. river cannot add an output while it
/// runs (no `create_output` as in sway, and wlr-randr only changes existing
/// ones), so the headless backend makes both at start (`WLR_HEADLESS_OUTPUTS=2`).
@Suite(.serialized)
struct OutputsOnRiverTests {
  @Test func aNamedOutputGetsTheToastAndAllPutsItOnEach() throws {
    let desk = try RiverDesk(outputs: 2)
    let box = Looks.hudBox(Toast("Two"))
    func boxes() throws -> (one: Box?, two: Box?) {
      (
        try desk.river.screenshot(output: "HEADLESS-1").boundingBox(
          of: Looks.hudColor(HeadlessRiver.self), tolerance: 3),
        try desk.river.screenshot(output: "HEADLESS-2").boundingBox(
          of: Looks.hudColor(HeadlessRiver.self), tolerance: 3)
      )
    }
    var seen: (one: Box?, two: Box?) = (nil, nil)
    let named = try desk.runToEnd([
      "--output", "HEADLESS-2", "--no-animation", "--timeout", "0", "Two",
    ])
    #expect(named.status == 0, "\(named.errors)")
    try waitUntil("the box on HEADLESS-2 at \(box), none on HEADLESS-1 (last: \(seen))") {
      seen = try boxes()
      return seen.one == nil && seen.two == box
    }
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("no box on either output (last: \(seen))") {
      seen = try boxes()
      return seen.one == nil && seen.two == nil
    }
    let all = try desk.runToEnd(["--output", "all", "--no-animation", "--timeout", "0", "Two"])
    #expect(all.status == 0, "\(all.errors)")
    try waitUntil("the box on both outputs at \(box) (last: \(seen))") {
      seen = try boxes()
      return seen.one == box && seen.two == box
    }
  }

  @Test func anUnknownOutputIsAUsageErrorNamingBothOutputs() throws {
    let desk = try RiverDesk(outputs: 2)
    let result = try desk.runToEnd(["--output", "DP-9", "--no-animation", "Lost"])
    #expect(result.status == 64)
    #expect(result.errors.hasPrefix("wl-toast: --output: no output named 'DP-9' (outputs: "))
    #expect(result.errors.contains("HEADLESS-1") && result.errors.contains("HEADLESS-2"))
  }
}
