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
    let desk = try Desk()
    let arguments = [
      "--config", examplesDirectory + "/config", "--preset", "volume", "--progress", "40", "Volume",
    ]
    let result = try desk.runToEnd(arguments)
    #expect(result.status == 0 && result.errors == "", "\(result.errors)")
    // The bottom of the box 80 pixels above the output's bottom, as the preset says.
    let bottom = try desk.screenshot("a box resting 80 px above the bottom") { shot in
      shot.boundingBox(of: HUDTests.boxColor, tolerance: 3).map { $0.y + $0.height } == 720 - 80
    }
    #expect(bottom.boundingBox(of: HUDTests.boxColor, tolerance: 3) != nil)
    #expect(try desk.status(tag: "volume")?.progress == 40, "the preset's tag")
  }

  @Test func aBrokenLineIsReportedAndTheRestLoads() throws {
    let desk = try Desk()
    let path = desk.sway.runtimeDirectory + "/broken-config"
    try writeFile(path, "[default]\ntimeout = soon\nposition = top\n")
    let result = try desk.runToEnd(["--config", path, "--no-animation", "Still here"])
    #expect(result.status == 0)
    #expect(
      result.errors == "wl-toast: \(path):2: timeout: expected seconds from 0 to 86400, or auto,"
        + " got 'soon'\n")
    try desk.screenshot("the HUD at the top, as the good line says") { shot in
      shot.boundingBox(of: HUDTests.boxColor, tolerance: 3)?.y == 10
    }
  }

  @Test func anUnknownPresetOrAMissingFileIsAUsageError() throws {
    let desk = try Desk()
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
