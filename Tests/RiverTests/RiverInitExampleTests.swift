import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// Examples/river-init, sourced into the test river's init and used through
/// its key bindings.
@Suite(.serialized)
struct RiverInitExampleTests {
  @Test func theVolumeKeyShowsTheVolumeAndSuperF11ShowsTheMode() throws {
    let rig = try ExampleWatchRig()
    let desk = try Desk<HeadlessRiver>(
      extraInit: ". '\(examplesDirectory)/river-init'",
      environment: rig.environment.merging(["PATH": examplePATH(rig.bin)]) { $1 })
    // The key the init maps in normal mode: XF86AudioRaiseVolume; the
    // watcher the init started shows the level it set.
    try expectTheWatchersVolumeHUD(
      rig.server, color: Looks.hudColor(HeadlessRiver.self),
      log: "; river's log ends with:\n\(desk.river.logTail())"
    ) { () throws in
      try desk.input.press(keysym: 0x1008_ff13)
    } screenshot: { box in
      try desk.river.screenshot(x: box.x, y: box.y, width: box.width, height: box.height)
    }
    var seen: Box?
    // Super+F11 enters passthrough; the watcher the init started shows it until
    // Super+F11 again (a mapping of the passthrough mode) leaves it.
    let banner = Looks.restingPill("passthrough")
    try desk.input.press(keysym: 0xffc8, modifiers: ["Mod4"])  // F11
    try desk.screenshot("the banner 'passthrough' at \(banner) (last seen: \(lastSeen(seen)))") {
      seen = $0.pillBox
      return seen == banner
    }
    // Super+F11 again (mapped in passthrough) returns to normal.
    try desk.input.press(keysym: 0xffc8, modifiers: ["Mod4"])
    try desk.screenshot("the passthrough banner gone") { $0.pillBox == nil }
  }
}
