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
    let bin = try exampleBinDirectory()
    defer { removeTree(bin) }
    let desk = try Desk<HeadlessRiver>(
      extraInit: ". '\(examplesDirectory)/river-init'", environment: ["PATH": examplePATH(bin)])
    var toast = Toast("Volume 55%")
    toast.progress = 0.55
    let box = Looks.hudBox(toast)
    // The key the init maps in normal mode: XF86AudioRaiseVolume.
    try desk.input.press(keysym: 0x1008_ff13)
    var seen: Box?
    // The binding starts a shell, the stand-in pactl, wl-toast and its owner: allow for a
    // slow machine.
    try desk.screenshot(
      "a HUD for 'Volume 55%' with a bar at \(box) (last seen: \(lastSeen(seen)));"
        + " river's log ends with:\n\(desk.river.logTail())", timeout: 10
    ) {
      seen = $0.boundingBox(of: Looks.hudColor(HeadlessRiver.self), tolerance: 3)
      return seen == box
    }
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
