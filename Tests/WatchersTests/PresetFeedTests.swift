import Testing
import ToastModel
import ToastProtocol
import Watchers

/// The looks a preset gives a watcher's toasts, the watcher's content kept.
@Suite("A watcher's preset")
struct PresetFeedTests {
  /// A feed that keeps what it is handed.
  final class Kept: ToastFeed {
    var shown: [(toast: Toast, tag: String)] = []
    var hidden: [String] = []
    func show(_ toast: Toast, tag: String) { shown.append((toast, tag)) }
    func hide(tag: String) { hidden.append(tag) }
  }

  static func volume() -> Toast {
    var toast = Toast("Volume 40%", style: .hud, timeout: 1.5)
    toast.progress = 0.4
    toast.icon = "audio-volume-medium-symbolic"
    toast.doNotDisturb = .show
    return toast
  }

  @Test func thePresetsLooksApplyAndTheWatchersContentStays() throws {
    let kept = Kept()
    let settings = try JSONValue.parse(
      """
      {"style": "banner", "position": "bottom", "timeout": 3, "text": "Sound", "progress": 0.9,
       "icon": "starred", "dnd": "suppress", "background": "#102030ff"}
      """)
    let feed = PresetFeed(kept, settings: settings)
    feed.show(Self.volume(), tag: "volume")
    let shown = try #require(kept.shown.first)
    #expect(shown.tag == "volume")
    #expect(shown.toast.style == .banner && shown.toast.position == .bottom)
    #expect(shown.toast.timeout == 3 && shown.toast.background != nil)
    #expect(shown.toast.text == "Volume 40%" && shown.toast.progress == 0.4)
    #expect(shown.toast.icon == "audio-volume-medium-symbolic" && shown.toast.doNotDisturb == .show)
    feed.hide(tag: "volume")
    #expect(kept.hidden == ["volume"])
  }

  @Test func withoutSettingsTheToastIsHandedOnAsItIs() throws {
    let kept = Kept()
    PresetFeed(kept, settings: nil).show(Self.volume(), tag: "volume")
    #expect(kept.shown.first?.toast == Self.volume())
  }

  @Test func settingsThatDoNotApplyLeaveTheToastAsItIs() throws {
    let kept = Kept()
    let feed = PresetFeed(kept, settings: try JSONValue.parse(#"{"position": "sideways"}"#))
    feed.show(Self.volume(), tag: "volume")
    #expect(kept.shown.first?.toast == Self.volume())
  }

  @Test func aLastingToastStaysLastingWhateverThePresetsTimeout() throws {
    let kept = Kept()
    var mode = Toast("resize", style: .banner, timeout: 0)
    mode.doNotDisturb = .show
    PresetFeed(kept, settings: try JSONValue.parse(#"{"timeout": 2}"#)).show(mode, tag: "sway-mode")
    #expect(kept.shown.first?.toast.timeout == .untilDismissed)
  }
}
