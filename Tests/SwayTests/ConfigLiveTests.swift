import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastRendering

/// The configuration file, read by the real command.
@Suite(.serialized)
struct ConfigLiveTests {
  @Test func aPresetFromTheExampleConfigPlacesTheToast() throws {
    let desk = try Desk<HeadlessSway>()
    // The preset's own timeout (1 s) is replaced by 0 on the command line (the
    // command line wins over a preset), so the toast stays for the screenshot
    // on any machine; the test hides it.
    let arguments = [
      "--config", examplesDirectory + "/config", "--preset", "volume", "--timeout", "0",
      "--progress", "40", "Volume",
    ]
    let result = try desk.runToEnd(arguments)
    #expect(result.status == 0 && result.errors == "", "\(result.errors)")
    // The preset's toast: its icon and progress, centred across, the bottom of
    // its box 80 pixels above the output's bottom.
    var toast = Toast("Volume")
    toast.progress = 0.4
    toast.icon = "audio-volume-high-symbolic"
    toast.iconTheme = "Adwaita"
    let centred = Looks.hudBox(toast)
    let expected = Box(
      x: centred.x, y: 720 - 80 - centred.height, width: centred.width, height: centred.height)
    var seen: Box?
    try desk.screenshot("the preset's box at \(expected) (last seen: \(lastSeen(seen)))") { shot in
      seen = shot.boundingBox(of: hudColor, tolerance: 3)
      return seen == expected
    }
    #expect(try desk.status(tag: "volume")?.progress == 40, "the preset's tag")
    #expect(try desk.runToEnd(["hide", "--tag", "volume"]).status == 0)
    try waitUntil("the toast to be hidden") { try desk.status(tag: "volume") == nil }
  }

  @Test func aBrokenLineIsReportedAndTheRestLoads() throws {
    let desk = try Desk<HeadlessSway>()
    let path = desk.sway.runtimeDirectory + "/broken-config"
    try writeFile(path, "[default]\ntimeout = soon\nposition = top\n")
    let result = try desk.runToEnd(["--config", path, "--no-animation", "Still here"])
    #expect(result.status == 0)
    #expect(
      result.errors == "wl-toast: \(path):2: timeout: expected seconds from 0 to 86400, or auto,"
        + " got 'soon'\n")
    try desk.screenshot("the HUD at the top, as the good line says") { shot in
      shot.boundingBox(of: hudColor, tolerance: 3)?.y == 10
    }
  }

  @Test func anUnknownPresetOrAMissingFileIsAUsageError() throws {
    let desk = try Desk<HeadlessSway>()
    let unknown = try desk.runToEnd([
      "--config", examplesDirectory + "/config", "--preset", "volumn", "Hi",
    ])
    #expect(unknown.status == 64)
    #expect(
      unknown.errors.hasPrefix(
        "wl-toast: --preset: no preset 'volumn' in \(examplesDirectory)/config (presets: ask,"
          + " brightness, job, mode, mute, volume)\n"))
    let missing = try desk.runToEnd(["--config", "/nonexistent/config", "Hi"])
    #expect(missing.status == 64)
    #expect(
      missing.errors
        == "wl-toast: --config: cannot read /nonexistent/config: No such file or directory\n")
  }
}
