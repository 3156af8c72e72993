import Testing
import ToastModel

@testable import Watchers

/// `watch backlight`'s state: levels to the brightness HUD, the baseline, and
/// one line for a device whose level cannot be read.
@Suite struct BacklightStateTests {
  typealias Reading = BacklightState.Reading
  static let panel = "/sys/devices/pci0000:00/0000:00:02.0/backlight/intel_backlight"
  static let other = "/sys/devices/platform/acpi_video0/backlight/acpi_video0"

  static func reading(_ brightness: String?, _ maximum: String?) -> Reading {
    Reading(brightness: brightness, maxBrightness: maximum)
  }

  static func shown(_ action: BacklightState.Action?) -> Toast? {
    if case .show(let toast) = action { toast } else { nil }
  }

  @Test func aChangeShowsTheBrightnessHUDAtItsPercentage() throws {
    var state = BacklightState()
    state.baseline(Self.panel, Self.reading("50\n", "100\n"))
    let toast = try #require(Self.shown(state.changed(Self.panel, Self.reading("30\n", "100\n"))))
    #expect(toast.text == "Brightness 30%")
    #expect(toast.progress == 0.3)
    #expect(toast.icon == "display-brightness-symbolic")
    #expect(toast.style == .hud)
    #expect(toast.timeout == .watcherHUD)
    #expect(BacklightState.tag == "brightness")
  }

  @Test(arguments: [
    ("0", "255", 0), ("1", "255", 0), ("2", "255", 1), ("128", "255", 50), ("7", "15", 47),
    ("255", "255", 100), ("300", "255", 100), ("1", "1", 100),
  ])
  func percentIsRoundedAndAtMost100(brightness: String, maximum: String, percent: Int) throws {
    let level = try BacklightState.level(Self.reading(brightness, maximum)).get()
    #expect(level.percent == percent)
    #expect(BacklightState.toast(level).progress == Double(percent) / 100)
  }

  @Test func theLevelAtStartShowsNothingAndOnlyChangesShow() {
    var state = BacklightState()
    state.baseline(Self.panel, Self.reading("50", "100"))
    #expect(state.changed(Self.panel, Self.reading("50", "100")) == nil, "the baseline again")
    #expect(
      Self.shown(state.changed(Self.panel, Self.reading("60", "100")))?.text == "Brightness 60%")
    #expect(state.changed(Self.panel, Self.reading("60", "100")) == nil, "an event with no change")
    #expect(
      Self.shown(state.changed(Self.panel, Self.reading("50", "100")))?.text == "Brightness 50%")
  }

  @Test func eachDeviceIsFollowedAndTheOneThatChangedShows() {
    var state = BacklightState()
    state.baseline(Self.panel, Self.reading("50", "100"))
    state.baseline(Self.other, Self.reading("5", "10"))
    #expect(
      Self.shown(state.changed(Self.other, Self.reading("2", "10")))?.text == "Brightness 20%")
    #expect(
      Self.shown(state.changed(Self.panel, Self.reading("90", "100")))?.text == "Brightness 90%")
    #expect(state.changed(Self.other, Self.reading("2", "10")) == nil)
  }

  @Test func aDeviceWithoutBaselineShowsItsFirstChange() {
    var state = BacklightState()
    #expect(
      Self.shown(state.changed(Self.panel, Self.reading("25", "100")))?.text == "Brightness 25%")
  }

  @Test(arguments: [
    (Reading(brightness: "7", maxBrightness: "0"), "max_brightness is 0"),
    (Reading(brightness: "7", maxBrightness: nil), "max_brightness is missing or unreadable"),
    (Reading(brightness: nil, maxBrightness: "100"), "brightness is missing or unreadable"),
    (
      Reading(brightness: "bright", maxBrightness: "100"), "brightness is not a number (\"bright\")"
    ),
    (Reading(brightness: "-3", maxBrightness: "100"), "brightness is not a number (\"-3\")"),
    (Reading(brightness: "", maxBrightness: "100"), "brightness is not a number (\"\")"),
    (Reading(brightness: "5", maxBrightness: "1e3"), "max_brightness is not a number (\"1e3\")"),
    (
      Reading(brightness: "99999999999999999999999", maxBrightness: "100"),
      "brightness is too large (\"99999999999999999999999\")"
    ),
    (
      Reading(brightness: "5\u{2028}6\u{85}", maxBrightness: "100"),
      "brightness is not a number (\"5\\u{2028}6\\u{0085}\")"
    ),
  ])
  func anUnreadableLevelIsOneLineOncePerDevice(reading: Reading, problem: String) {
    var state = BacklightState()
    state.baseline(Self.panel, Self.reading("50", "100"))
    let line = "watch backlight: intel_backlight: \(problem); its changes show once it can be read"
    #expect(state.changed(Self.panel, reading) == .report(line))
    #expect(state.changed(Self.panel, reading) == nil, "not once per event")
    #expect(
      state.changed(Self.other, reading)
        == .report("watch backlight: acpi_video0: \(problem); its changes show once it can be read")
    )
    // Readable again: its changes show, and a new break is told again.
    #expect(
      Self.shown(state.changed(Self.panel, Self.reading("40", "100")))?.text == "Brightness 40%")
    #expect(state.changed(Self.panel, reading) == .report(line))
  }

  @Test func aLineIsOneLineOfSensibleLength() throws {
    var state = BacklightState()
    let text = String(repeating: "x\n", count: 500)
    guard case .report(let line) = state.changed(Self.panel, Self.reading(text, "100")) else {
      Issue.record("no line")
      return
    }
    #expect(!line.contains("\n"))
    #expect(line.count < 200)
  }

  @Test func aRemovedDeviceIsNewWhenItComesBack() {
    var state = BacklightState()
    state.baseline(Self.panel, Self.reading("50", "0"))
    #expect(state.changed(Self.panel, Self.reading("51", "0")) != nil)
    state.removed(Self.panel)
    // Its trouble is told again, as a new device's.
    #expect(state.changed(Self.panel, Self.reading("52", "0")) != nil)
    state.removed(Self.panel)
    state.baseline(Self.panel, Self.reading("50", "100"))
    #expect(state.changed(Self.panel, Self.reading("50", "100")) == nil)
  }
}
