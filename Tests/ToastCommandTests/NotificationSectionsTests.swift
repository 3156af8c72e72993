import SystemSupport
import Testing
import ToastModel

@testable import ToastCommand

/// The configuration's `[notifications]` and criteria sections: read in
/// order, checked, and made into rules for notifications' cards.
struct NotificationSectionsTests {
  static let text = """
    [default]
    timeout = 3
    [app-name=Firefox urgency=critical]
    background = #ff0000
    [notifications]
    timeout = 10
    position = top-left
    no-animation = true
    [category=email.arrived]
    icon = icons/mail.svg
    [app-name="Google Chrome"]
    [notifications]
    margin = 30
    """

  @Test func sectionsAreReadInTheFilesOrder() {
    let config = Config(text: Self.text, path: "/home/me/.config/wl-toast/config").checked()
    #expect(config.problems == [])
    #expect(config.defaults.map(\.key) == ["timeout"], "[default] keeps its own")
    #expect(
      config.notificationSections.map(\.criteria) == [
        NotificationCriteria(appName: "Firefox", urgency: .critical), nil,
        NotificationCriteria(category: "email.arrived"),
        NotificationCriteria(appName: "Google Chrome"), nil,
      ])
    #expect(config.notificationSections.map(\.line) == [3, 5, 9, 11, 12])
    #expect(
      config.notificationSections[1].entries.map(\.key) == ["timeout", "position", "no-animation"])
  }

  @Test func rulesPutNotificationsFirstAndSetOnlyTheirFields() {
    let config = Config(text: Self.text, path: "/home/me/.config/wl-toast/config").checked()
    #expect(
      config.notificationRules() == [
        NotificationRule(
          criteria: nil,
          settings: .object([
            "timeout": .number(10), "position": .string("top-left"), "no-animation": .bool(true),
          ])),
        NotificationRule(criteria: nil, settings: .object(["margin": .number(30)])),
        NotificationRule(
          criteria: NotificationCriteria(appName: "Firefox", urgency: .critical),
          settings: .object(["background": .string("#ff0000ff")])),
        NotificationRule(
          criteria: NotificationCriteria(category: "email.arrived"),
          settings: .object(["icon": .string("/home/me/.config/wl-toast/icons/mail.svg")])),
      ], "a section that sets nothing gives no rule; a relative icon is the file's directory's")
  }

  @Test func aRulesSettingsApplyToAToast() throws {
    let config = Config(text: "[notifications]\nstyle = hud\ntimeout = auto\n", path: "c").checked()
    let rule = try #require(config.notificationRules().first)
    var toast = Toast("x", style: .card)
    try toast.apply(rule.settings)
    #expect(toast.style == .hud && toast.timeout == .automatic, "a default's value is written too")
  }

  @Test func watchPresetsAreTheDefaultsWithEachPresetOverThem() {
    let text = """
      [default]
      position = top
      margin = 20
      [preset volume]
      position = bottom
      tag = other
      button = OK
      [preset media]
      """
    let config = Config(text: text, path: "c").checked()
    #expect(
      config.watchPresets(["volume", "media", "sway-mode"]) == [
        "volume": .object(["position": .string("bottom"), "margin": .number(20)]),
        "media": .object(["position": .string("top"), "margin": .number(20)]),
        "sway-mode": .object(["position": .string("top"), "margin": .number(20)]),
      ], "a preset's line wins over [default]'s; neither tag nor button is a look")
    #expect(Config(text: "[preset volume]\n", path: "c").checked().watchPresets(["volume"]) == [:])
  }

  @Test func problemsAreReportedWithTheirLines() {
    let text = """
      [notifications]
      timeout = soon
      button = Snooze
      markup = true
      tag = volume
      wait = true
      colour = red
      [app-name=Firefox urgency=high]
      timeout = 1
      [colour=red]
      [app-name=mpv]
      margin = 5
      """
    let config = Config(text: text, path: "c").checked()
    let notSetting =
      "not a setting of notifications' cards (those sections take a toast's settings but"
      + " button and markup)"
    #expect(
      config.problems == [
        "c:2: timeout: expected seconds from 0 to 86400, or auto, got 'soon'",
        "c:3: button: \(notSetting)",
        "c:4: markup: \(notSetting)",
        "c:5: tag: \(notSetting)",
        "c:6: wait: \(notSetting)",
        "c:7: unknown key 'colour'",
        "c:8: section '[app-name=Firefox urgency=high]': urgency: expected low, normal or"
          + " critical, got 'high'",
        "c:10: section '[colour=red]': unknown criterion 'colour' (expected app-name, app-icon,"
          + " summary, summary~, body, body~, urgency, category, desktop-entry, actionable or"
          + " expiring)",
      ])
    #expect(
      config.notificationRules() == [
        NotificationRule(
          criteria: NotificationCriteria(appName: "mpv"),
          settings: .object(["margin": .number(5)]))
      ], "the lines after a broken header are skipped with it; the next header starts a section")
  }

  @Test func aBadRegularExpressionIsOneLineNamingTheFileAndLine() throws {
    let text = """
      [summary~="(Volume"]
      timeout = 1
      background = #ff0000
      [actionable]
      timeout = 0
      [!expiring app-name=Spotify summary~="^Now"]
      margin = 5
      """
    let config = Config(text: text, path: "/c").checked()
    #expect(
      config.problems == [
        "/c:1: section '[summary~=\"(Volume\"]': summary~: '(Volume': Unmatched ( or \\("
      ])
    #expect(
      config.notificationRules().compactMap(\.criteria) == [
        NotificationCriteria(actionable: true),
        NotificationCriteria(
          appName: "Spotify", summaryPattern: try PosixRegex("^Now"), expiring: false),
      ], "a bare flag is a criteria section")
  }

  @Test func maxHistoryIsAKeyOfNotificationsOnlyAndGoesWithItsRule() {
    let text = """
      [default]
      max-history = 3
      [app-name=mpv]
      max-history = 0
      [notifications]
      max-history = 101
      max-history = 2
      [notifications]
      max-history = 0
      """
    let config = Config(text: text, path: "c").checked()
    #expect(
      config.problems == [
        "c:2: max-history: a key of [notifications] only",
        "c:4: max-history: a key of [notifications] only",
        "c:6: max-history: expected a count from 0 to 100, got '101'",
      ])
    #expect(
      config.notificationRules() == [
        NotificationRule(criteria: nil, settings: .object([:]), maxHistory: 2),
        NotificationRule(criteria: nil, settings: .object([:]), maxHistory: 0),
      ], "a rule that sets only max-history")
    let rule = NotificationRule(criteria: nil, settings: .object([:]), maxHistory: 7)
    #expect((try? NotificationRule(json: rule.json)) == rule)
  }
}

extension NotificationSectionsTests {
  @Test func historyIsAKeyOfNotificationSectionsAndGoesWithItsRule() throws {
    let text = """
      [default]
      history = false
      [preset volume]
      history = false
      [app-name=Spotify]
      history = false
      [notifications]
      history = maybe
      [urgency=critical]
      history = true
      background = #a00000
      """
    let config = Config(text: text, path: "c").checked()
    #expect(
      config.problems == [
        "c:2: history: a key of [notifications] and criteria sections only",
        "c:4: history: a key of [notifications] and criteria sections only",
        "c:8: history: expected true or false, got 'maybe'",
      ])
    let rules = config.notificationRules()
    #expect(rules.map(\.keepsHistory) == [false, true])
    #expect(
      rules.map(\.criteria) == [
        NotificationCriteria(appName: "Spotify"), NotificationCriteria(urgency: .critical),
      ])
    #expect(rules.first?.settings == .object([:]), "a rule that sets only history")
    for rule in rules { #expect(try NotificationRule(json: rule.json) == rule) }
    #expect(configKeys.contains("history"))
    guard case .failure(let error) = parseArguments(["--history", "Hi"]) else {
      Issue.record("--history on a toast's command line")
      return
    }
    #expect(error == .unknownOption("--history", command: nil), "a key of the file only")
  }
}
