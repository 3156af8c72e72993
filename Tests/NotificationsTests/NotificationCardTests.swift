import Bus
import CGio
import Notifications
import Testing
import ToastModel

/// The card a notification shows, for calls as common clients make them.
struct NotificationCardTests {
  @Test func notifySendCriticalStaysUntilDismissed() throws {
    // notify-send -u critical -a Backup "Disk full" "Only <b>2 GB</b> left on /home"
    let call = try request(
      appName: "Backup", summary: "Disk full", body: "Only <b>2 GB</b> left on /home",
      hints: [("urgency", byte(2)), ("sender-pid", g_variant_new_int64(4242))])
    let toast = NotificationCard.toast(for: call, rules: [])
    #expect(toast.style == .card && toast.isMarkup && toast.dismissal == .tap)
    #expect(toast.text == "<small>Backup</small>\n<b>Disk full</b>\nOnly <b>2 GB</b> left on /home")
    #expect(pangoError(toast.text) == nil)
    #expect(toast.urgency == .critical && toast.timeout == .untilDismissed)
    #expect(!DoNotDisturb.on.silences(toast), "critical shows through do-not-disturb")
    #expect(toast.accessibleText == "Backup: Disk full. Only 2 GB left on /home")
    #expect(toast.buttons.isEmpty && toast.progress == nil && toast.icon == nil)
  }

  @Test func aVolumeScriptGetsABarAndAStackTag() throws {
    // notify-send -h int:value:40 -h string:x-canonical-private-synchronous:volume -i audio-volume-medium Volume
    let call = try request(
      appName: "notify-send", appIcon: "audio-volume-medium", summary: "Volume",
      hints: [
        ("value", Variant.int32(40)),
        ("x-canonical-private-synchronous", Variant.string("volume")),
      ])
    let toast = NotificationCard.toast(for: call, rules: [])
    #expect(toast.progress == 0.4 && toast.icon == "audio-volume-medium")
    #expect(call.hints.stackTag == "volume")
    #expect(toast.text == "<small>notify-send</small>\n<b>Volume</b>")
    #expect(toast.timeout == .standard, "the card's own")
    #expect(DoNotDisturb.on.silences(toast), "a normal one waits out do-not-disturb")
    #expect(toast.accessibleText == "notify-send: Volume")
    let loud = try request(hints: [("value", Variant.int32(150))])
    #expect(NotificationCard.toast(for: loud, rules: []).normalized().progress == 1.5)
  }

  @Test func theSoundIsTheFilesElseTheNamesAndSuppressSoundSilencesIt() throws {
    func sound(_ hints: [(String, String)], suppress: Bool = false) throws -> (String?, Bool) {
      // Each call its own values: a request takes the floating references.
      let values = hints.map { ($0.0, Variant.string($0.1)) }
      let all = values + (suppress ? [("suppress-sound", Variant.boolean(true))] : [])
      let toast = NotificationCard.toast(for: try request(hints: all), rules: [])
      return (toast.sound, toast.soundOnUpdate)
    }
    let name = ("sound-name", "message-new-email")
    let file = ("sound-file", "file:///usr/share/sounds/a%20b.oga")
    #expect(try sound([name]) == ("message-new-email", true))
    #expect(try sound([name, file]) == ("/usr/share/sounds/a b.oga", true))
    #expect(try sound([name], suppress: true).0 == nil)
    #expect(try sound([]) == (nil, false))
    // Neither a name nor a path: no sound.
    #expect(try sound([("sound-name", "a/b")]).0 == nil)
    #expect(try sound([("sound-file", "relative.oga")]).0 == nil)
  }

  @Test func expireTimeoutIsMillisecondsZeroUntilDismissed() throws {
    #expect(NotificationCard.toast(for: try request(expireTimeout: 1500), rules: []).timeout == 1.5)
    #expect(
      NotificationCard.toast(for: try request(expireTimeout: 0), rules: []).timeout
        == .untilDismissed)
    let critical = try request(hints: [("urgency", byte(2))], expireTimeout: 4000)
    #expect(NotificationCard.toast(for: critical, rules: []).timeout == 4, "given: kept")
    #expect(
      NotificationCard.toast(for: try request(hints: [("urgency", byte(0))]), rules: []).timeout
        == .standard)
  }

  @Test func actionsButDefaultAreButtonsInOrder() throws {
    // notify-send -A default=Open -A snooze=Snooze -A dismiss=Dismiss "Meeting"
    let call = try request(
      summary: "Meeting",
      actions: ["default", "Open", "snooze", "Snooze", "dismiss", "Dismiss"])
    let toast = NotificationCard.toast(for: call, rules: [])
    #expect(toast.buttons == ["Snooze", "Dismiss"])
    #expect(toast.timeout == .standard, "the card's own: until answered, as toasts with buttons")
    #expect(
      NotificationCard.buttonActions(in: call).map(\.key) == ["snooze", "dismiss"])
    #expect(NotificationCard.defaultActionKey(in: call) == "default")
    #expect(NotificationCard.defaultActionKey(in: try request(actions: ["a", "A"])) == nil)
  }

  @Test func theDefaultActionsLabelIsTheCardsForScreenReaders() throws {
    let open = try request(actions: ["default", "Open", "snooze", "Snooze"])
    #expect(NotificationCard.toast(for: open, rules: []).defaultActionLabel == "Open")
    // A blank label (as libnotify's clients often give) is its key, as a button's.
    let blank = try request(actions: ["default", " "])
    #expect(NotificationCard.toast(for: blank, rules: []).defaultActionLabel == "default")
    let none = try request(actions: ["snooze", "Snooze"])
    #expect(NotificationCard.toast(for: none, rules: []).defaultActionLabel == nil)
  }

  @Test func labelsAreMadeFitForAButton() throws {
    let long = String(repeating: "x", count: 100)
    let call = try request(actions: [
      "a", "Two\nlines", "b", "", "c", "  ", "", "", "d", long,
      "e", "E", "f", "F", "g", "G", "h", "H", "i", "I", "j", "J",
    ])
    let buttons = NotificationCard.buttonActions(in: call)
    #expect(
      buttons.map(\.label).prefix(4) == ["Two lines", "b", "c", String(long.prefix(63)) + "…"])
    #expect(buttons.map(\.key).prefix(4) == ["a", "b", "c", "d"], "no button for blank and blank")
    #expect(buttons.count == Toast.Limits.buttonCount && buttons.last?.key == "h")
    #expect(
      NotificationCard.toast(for: call, rules: []).normalized().buttons == buttons.map(\.label))
  }

  @Test func theImageComesFromTheHintsElseTheAppIcon() throws {
    let pixel = imageData(
      width: 1, height: 1, rowstride: 4, hasAlpha: true, channels: 4, data: [9, 8, 7, 6])
    let withData = try request(appIcon: "firefox", hints: [("image-data", pixel)])
    let toast = NotificationCard.toast(for: withData, rules: [])
    #expect(toast.image?.rgba == [9, 8, 7, 6] && toast.icon == nil)
    let withPath = try request(appIcon: "file:///usr/share/pixmaps/a.png")
    #expect(NotificationCard.toast(for: withPath, rules: []).icon == "/usr/share/pixmaps/a.png")
    let relative = try request(appIcon: "pixmaps/a.png")
    #expect(NotificationCard.toast(for: relative, rules: []).icon == nil)
  }

  @Test func anyCallGivesValidMarkupWithinTheTextLimit() throws {
    let bomb = String(repeating: "<b>&", count: 20_000)
    let call = try request(
      appName: String(repeating: "<", count: 300), summary: String(repeating: "&", count: 4000),
      body: bomb)
    let toast = NotificationCard.toast(for: call, rules: [])
    #expect(toast.text.unicodeScalars.count <= Toast.Limits.textLength)
    #expect(toast.normalized().text == toast.text, "nothing left for normalized() to cut")
    #expect(pangoError(toast.text) == nil)
    let empty = NotificationCard.toast(for: try request(appName: "", summary: ""), rules: [])
    #expect(empty.text == "" && empty.accessibleText == nil)
  }
}
