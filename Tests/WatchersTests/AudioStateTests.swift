import Testing
import ToastModel

@testable import Watchers

/// The sound server's snapshots turned into toasts: what shows and what is
/// only a baseline.
struct AudioStateTests {
  typealias Device = AudioSnapshot.Device

  static let speakers = Device(
    name: "speakers", displayName: "Speakers", percent: 50, isMuted: false)
  static let headphones = Device(
    name: "headphones", displayName: "Headphones", percent: 30, isMuted: false)
  static let mic = Device(name: "mic", displayName: "Microphone", percent: 100, isMuted: false)

  /// A state whose baseline is `snapshot`.
  static func state(_ snapshot: AudioSnapshot) -> AudioState {
    var state = AudioState()
    #expect(state.update(snapshot) == nil)
    return state
  }

  static func with(_ device: Device, percent: Int? = nil, muted: Bool? = nil) -> Device {
    var changed = device
    if let percent { changed.percent = percent }
    if let muted { changed.isMuted = muted }
    return changed
  }

  @Test func theFirstSnapshotShowsNothing() {
    var state = AudioState()
    #expect(state.update(AudioSnapshot(sink: Self.speakers, source: Self.mic)) == nil)
  }

  @Test func aVolumeChangeShowsTheVolumeHUD() throws {
    var state = Self.state(AudioSnapshot(sink: Self.speakers))
    let shown = state.update(AudioSnapshot(sink: Self.with(Self.speakers, percent: 40)))
    let toast = try #require(shown)
    #expect(toast.text == "Volume 40%")
    #expect(toast.style == .hud)
    #expect(toast.progress == 0.4)
    #expect(toast.icon == "audio-volume-medium-symbolic")
    #expect(toast.timeout == .watcherHUD)
  }

  @Test func theSameStateAgainShowsNothing() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers, source: Self.mic))
    #expect(state.update(AudioSnapshot(sink: Self.speakers, source: Self.mic)) == nil)
  }

  @Test func aboveAHundredPercentTheBarOverflowsUpToTwoHundred() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers))
    let loud = state.update(AudioSnapshot(sink: Self.with(Self.speakers, percent: 130)))
    #expect(loud?.text == "Volume 130%")
    #expect(loud?.progress == 1.3)
    #expect(loud?.icon == "audio-volume-high-symbolic")
    let louder = state.update(AudioSnapshot(sink: Self.with(Self.speakers, percent: 250)))
    #expect(louder?.text == "Volume 250%")
    #expect(louder?.progress == 2)
  }

  @Test func theIconFollowsTheLevel() {
    let expected: [(Int, Bool, String)] = [
      (0, false, "audio-volume-muted-symbolic"), (1, false, "audio-volume-low-symbolic"),
      (33, false, "audio-volume-low-symbolic"), (34, false, "audio-volume-medium-symbolic"),
      (66, false, "audio-volume-medium-symbolic"), (67, false, "audio-volume-high-symbolic"),
      (150, false, "audio-volume-high-symbolic"), (80, true, "audio-volume-muted-symbolic"),
    ]
    for (percent, muted, icon) in expected {
      #expect(
        AudioState.volumeIcon(percent: percent, isMuted: muted) == icon, "\(percent) \(muted)")
    }
  }

  @Test func muteShowsMutedWithTheMutedIconAndUnmuteTheVolume() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers))
    let muted = state.update(AudioSnapshot(sink: Self.with(Self.speakers, muted: true)))
    #expect(muted?.text == "Muted")
    #expect(muted?.icon == "audio-volume-muted-symbolic")
    #expect(muted?.progress == 0.5)
    let unmuted = state.update(AudioSnapshot(sink: Self.speakers))
    #expect(unmuted?.text == "Volume 50%")
    #expect(unmuted?.icon == "audio-volume-medium-symbolic")
  }

  @Test func anotherDefaultOutputIsNamedByItsDescription() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers))
    let toast = state.update(AudioSnapshot(sink: Self.headphones))
    #expect(toast?.text == "Headphones")
    #expect(toast?.progress == 0.3)
    #expect(toast?.icon == "audio-volume-low-symbolic")
    var nameless = Self.headphones
    nameless.displayName = ""
    nameless.name = "usb-headset"
    #expect(state.update(AudioSnapshot(sink: nameless))?.text == "usb-headset")
  }

  @Test func theFirstRealOutputAfterNoneOrAPlaceholderIsABaseline() {
    // PipeWire names `@DEFAULT_SINK@` until its session manager picks one: no device then.
    #expect(AudioState.isPlaceholder("@DEFAULT_SINK@"))
    #expect(AudioState.isPlaceholder(""))
    #expect(!AudioState.isPlaceholder("speakers"))
    var state = Self.state(AudioSnapshot(sink: nil))
    #expect(state.update(AudioSnapshot(sink: Self.speakers)) == nil)
    #expect(
      state.update(AudioSnapshot(sink: Self.with(Self.speakers, percent: 60)))?.text == "Volume 60%"
    )
    // The output gone and back: a baseline again, not a device change.
    #expect(state.update(AudioSnapshot(sink: nil)) == nil)
    #expect(state.update(AudioSnapshot(sink: Self.headphones)) == nil)
  }

  @Test func theInputsMuteShowsTheMicrophoneIcons() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers, source: Self.mic))
    let muted = state.update(
      AudioSnapshot(sink: Self.speakers, source: Self.with(Self.mic, muted: true)))
    #expect(muted?.text == "Microphone muted")
    #expect(muted?.icon == "microphone-sensitivity-muted-symbolic")
    #expect(muted?.progress == nil)
    let on = state.update(AudioSnapshot(sink: Self.speakers, source: Self.mic))
    #expect(on?.text == "Microphone on")
    #expect(on?.icon == "microphone-sensitivity-high-symbolic")
    // Its volume is not shown.
    #expect(
      state.update(AudioSnapshot(sink: Self.speakers, source: Self.with(Self.mic, percent: 20)))
        == nil)
  }

  @Test func aMonitorSourceIsNoMicrophone() {
    let monitor = Device(
      name: "speakers.monitor", displayName: "Monitor of Speakers", percent: 100, isMuted: false,
      isMonitor: true)
    var state = Self.state(AudioSnapshot(sink: Self.speakers, source: monitor))
    #expect(
      state.update(AudioSnapshot(sink: Self.speakers, source: Self.with(monitor, muted: true)))
        == nil)
  }

  @Test func anotherDefaultInputIsABaseline() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers, source: Self.mic))
    var other = Self.with(Self.mic, muted: true)
    other.name = "usb-mic"
    #expect(state.update(AudioSnapshot(sink: Self.speakers, source: other)) == nil)
  }

  @Test func afterAResetTheNextSnapshotIsABaseline() {
    var state = Self.state(AudioSnapshot(sink: Self.speakers))
    state.reset()
    #expect(state.update(AudioSnapshot(sink: Self.with(Self.headphones, percent: 90))) == nil)
    #expect(
      state.update(AudioSnapshot(sink: Self.with(Self.headphones, percent: 91)))?.text
        == "Volume 91%")
  }

  @Test func percentIsRoundedAsPactlPrintsIt() {
    // pa_volume_t: 65536 is 100 %.
    #expect(AudioState.percent(ofVolume: 0) == 0)
    #expect(AudioState.percent(ofVolume: 65536) == 100)
    #expect(AudioState.percent(ofVolume: 26214) == 40)  // pactl's 40 %
    #expect(AudioState.percent(ofVolume: 85197) == 130)
    #expect(AudioState.percent(ofVolume: 327) == 0)  // 0.499 %
    #expect(AudioState.percent(ofVolume: 328) == 1)  // 0.5005 %
    #expect(AudioState.percent(ofVolume: UInt32.max) == 6_553_600)  // no overflow
  }
}
