import Notifications
import SystemSupport
import Testing
import ToastModel

/// Criteria sections read and matched; rules applied to the card in order.
struct NotificationRulesTests {
  @Test func criteriaAreReadAsMakoWritesThem() throws {
    #expect(
      NotificationCriteria(section: "app-name=Firefox urgency=critical")
        == NotificationCriteria(appName: "Firefox", urgency: .critical))
    #expect(
      NotificationCriteria(section: "app-name=\"Google Chrome\"  category=im.received")
        == NotificationCriteria(appName: "Google Chrome", category: "im.received"))
    #expect(
      NotificationCriteria(section: "desktop-entry=org.gnome.Evolution summary=\"\"")
        == NotificationCriteria(summary: "", desktopEntry: "org.gnome.Evolution"))
    let criteria = try NotificationCriteria(parsing: "urgency=low app-name=\"a b\"")
    #expect(criteria.section == "app-name=\"a b\" urgency=low")
    #expect(NotificationCriteria(section: criteria.section) == criteria, "read back")
  }

  @Test func quotesAndBackslashesAreReadAsMakoReadsThem() throws {
    #expect(
      NotificationCriteria(section: #"app-name=Google\ Chrome"#)
        == NotificationCriteria(appName: "Google Chrome"))
    #expect(
      NotificationCriteria(section: #""app-name=Google Chrome""#)
        == NotificationCriteria(appName: "Google Chrome"), "quotes anywhere in the word")
    #expect(
      NotificationCriteria(section: #"summary="say \"hi\" \\o/""#)
        == NotificationCriteria(summary: #"say "hi" \o/"#))
    #expect(
      NotificationCriteria(section: #"summary~="1\\.5""#)
        == NotificationCriteria(summaryPattern: try PosixRegex(#"1\.5"#)),
      "a regular expression's backslash is written twice, as in mako")
    let criteria = try NotificationCriteria(
      parsing: #"body~="^a \"b\"" app-icon="" !expiring actionable=1"#)
    #expect(criteria.section == #"app-icon="" body~="^a \"b\"" actionable !expiring"#)
    #expect(NotificationCriteria(section: criteria.section) == criteria, "read back")
  }

  @Test func flagsAreBareOrTrueFalseOneOrZero() {
    for section in ["actionable", "actionable=1", "actionable=true", "actionable=TRUE"] {
      #expect(NotificationCriteria(section: section) == NotificationCriteria(actionable: true))
    }
    for section in ["!actionable", "actionable=0", "actionable=false"] {
      #expect(NotificationCriteria(section: section) == NotificationCriteria(actionable: false))
    }
    #expect(NotificationCriteria(section: "expiring") == NotificationCriteria(expiring: true))
    #expect(NotificationCriteria.isCriteria("actionable"))
    #expect(NotificationCriteria.isCriteria("!expiring urgency=low"))
    #expect(NotificationCriteria.isCriteria("default") == false)
    #expect(NotificationCriteria.isCriteria("preset actionable") == false)
  }

  @Test func malformedCriteriaSayWhy() {
    func problem(_ section: String) -> String? {
      do {
        _ = try NotificationCriteria(parsing: section)
        return nil
      } catch {
        return error.message
      }
    }
    #expect(
      problem("colour=red")
        == "unknown criterion 'colour' (expected app-name, app-icon, summary, summary~, body,"
        + " body~, urgency, category, desktop-entry, actionable or expiring)")
    #expect(problem("urgency=high") == "urgency: expected low, normal or critical, got 'high'")
    #expect(problem("app-name=a app-name=b") == "app-name: given twice")
    #expect(problem("firefox")?.hasPrefix("unknown criterion 'firefox' (expected") == true)
    #expect(problem("app-name") == "app-name: expected app-name=VALUE")
    #expect(problem("actionable=yes") == "actionable: expected true, false, 1 or 0, got 'yes'")
    #expect(problem("app-name=\"open") == "a quoted value ends with '\"'")
    #expect(problem("app-name=open\\") == "a backslash ends the criteria")
    #expect(problem("summary~=\"(Volume\"") == "summary~: '(Volume': Unmatched ( or \\(")
    #expect(
      problem("body~=(a*)\\\\1")
        == "body~: '(a*)\\1': a back-reference (\\1), not in POSIX extended expressions")
    #expect(problem("  ") == "expected KEY=VALUE criteria")
    #expect(NotificationCriteria(section: "preset x") == nil)
  }

  @Test func everyCriterionGivenMustMatch() throws {
    var hints = NotificationHints()
    hints.urgency = .critical
    hints.category = "email.arrived"
    hints.desktopEntry = "thunderbird"
    let mail = NotificationRequest(appName: "Thunderbird", summary: "New mail", hints: hints)
    #expect(NotificationCriteria(appName: "Thunderbird").matches(mail))
    #expect(NotificationCriteria(appName: "thunderbird").matches(mail) == false, "case counts")
    #expect(NotificationCriteria(appName: "Thunderbird", urgency: .critical).matches(mail))
    #expect(NotificationCriteria(appName: "Thunderbird", urgency: .low).matches(mail) == false)
    #expect(NotificationCriteria(category: "email.arrived").matches(mail))
    #expect(NotificationCriteria(desktopEntry: "thunderbird").matches(mail))
    #expect(NotificationCriteria(summary: "New mail").matches(mail))
    #expect(NotificationCriteria(category: "im").matches(mail) == false)
    #expect(
      NotificationCriteria(category: "x").matches(NotificationRequest()) == false,
      "a category asked of a notification without one")
  }

  @Test func eachNewCriterionReadsWhatMakoReads() throws {
    var hints = NotificationHints()
    hints.imagePath = "/usr/share/icons/spotify.png"
    let song = NotificationRequest(
      appName: "Spotify", appIcon: "spotify-client", summary: "Now playing",
      body: "<b>Song</b> &amp; artist", actions: [NotificationAction(key: "default", label: "")],
      hints: hints, expireTimeout: 0)
    let plain = NotificationRequest(appIcon: "mail", summary: "Volume 40%", body: "muted")
    #expect(NotificationCriteria(appIcon: "/usr/share/icons/spotify.png").matches(song))
    #expect(
      NotificationCriteria(appIcon: "spotify-client").matches(song) == false,
      "image-path replaces app_icon")
    #expect(NotificationCriteria(appIcon: "mail").matches(plain))
    #expect(NotificationCriteria(body: "Song & artist").matches(song), "the text without markup")
    #expect(NotificationCriteria(body: "<b>Song</b> &amp; artist").matches(song) == false)
    #expect(NotificationCriteria(bodyPattern: try PosixRegex("^Song & a")).matches(song))
    #expect(NotificationCriteria(bodyPattern: try PosixRegex("<b>")).matches(song) == false)
    #expect(NotificationCriteria(summaryPattern: try PosixRegex("^Volume")).matches(plain))
    #expect(NotificationCriteria(summaryPattern: try PosixRegex("^Volume")).matches(song) == false)
    #expect(NotificationCriteria(actionable: true).matches(song), "default is an action")
    #expect(NotificationCriteria(actionable: false).matches(plain))
    #expect(NotificationCriteria(actionable: true).matches(plain) == false)
    #expect(NotificationCriteria(expiring: false).matches(song), "expire_timeout 0")
    #expect(NotificationCriteria(expiring: true).matches(plain), "-1, the server's default")
  }

  @Test func aNotificationMustMeetEveryCriterionOfASection() throws {
    let criteria = try NotificationCriteria(parsing: #"app-name=Spotify summary~="^Now""#)
    #expect(
      criteria.matches(NotificationRequest(appName: "Spotify", summary: "Now playing")))
    #expect(
      criteria.matches(NotificationRequest(appName: "mpv", summary: "Now playing")) == false)
    #expect(
      criteria.matches(NotificationRequest(appName: "Spotify", summary: "Paused")) == false)
  }

  @Test func rulesApplyInOrderOnlyWhereTheyMatch() throws {
    let rules = [
      NotificationRule(
        criteria: nil,
        settings: .object(["timeout": .number(8), "position": .string("top-left")])),
      NotificationRule(
        criteria: NotificationCriteria(appName: "Firefox"),
        settings: .object(["timeout": .number(2), "background": .string("#ff0000")])),
      NotificationRule(
        criteria: NotificationCriteria(urgency: .critical),
        settings: .object(["background": .string("#0000ff")])),
    ]
    let other = NotificationCard.toast(for: NotificationRequest(appName: "mpv"), rules: rules)
    #expect(other.timeout == 8 && other.position == .topLeft && other.background == nil)
    let firefox = NotificationCard.toast(
      for: NotificationRequest(appName: "Firefox"), rules: rules)
    #expect(firefox.timeout == 2 && firefox.position == .topLeft)
    #expect(firefox.background == Toast.Color(hex: "#ff0000"))
    var hints = NotificationHints()
    hints.urgency = .critical
    let both = NotificationCard.toast(
      for: NotificationRequest(appName: "Firefox", hints: hints), rules: rules)
    #expect(both.background == Toast.Color(hex: "#0000ff"), "the later section wins")
    #expect(both.timeout == 2, "a rule's timeout wins over critical's until dismissed")
  }

  @Test func theLastMatchingRuleThatSaysDecidesTheHistory() {
    let rules = [
      NotificationRule(criteria: nil, settings: .object([:]), keepsHistory: false),
      NotificationRule(
        criteria: NotificationCriteria(appName: "Thunderbird"), settings: .object([:]),
        keepsHistory: true),
      NotificationRule(
        criteria: NotificationCriteria(urgency: .critical),
        settings: .object(["background": .string("#0000ff")])),
    ]
    func keeps(_ app: String, urgency: Toast.Urgency = .normal) -> Bool {
      var hints = NotificationHints()
      hints.urgency = urgency
      return NotificationCard.card(
        for: NotificationRequest(appName: app, hints: hints), rules: rules
      ).keepsHistory
    }
    #expect(!keeps("Spotify"))
    #expect(keeps("Thunderbird"))
    #expect(keeps("Thunderbird", urgency: .critical), "a rule without history changes nothing")
    #expect(NotificationCard.card(for: NotificationRequest(), rules: []).keepsHistory)
  }

  @Test func aRuleThatCannotApplyIsSkippedWhole() {
    let rules = [
      NotificationRule(
        criteria: nil, settings: .object(["timeout": .number(3), "layer": .string("sky")]),
        keepsHistory: false)
    ]
    let card = NotificationCard.card(for: NotificationRequest(), rules: rules)
    #expect(card.toast.timeout == .standard && card.toast.layer == .overlay)
    #expect(card.keepsHistory, "its history too")
  }
}

/// Rules as JSON, for a process that did not read the file.
struct NotificationRuleJSONTests {
  @Test func aRuleReadsBackFromItsJSON() throws {
    let rules = [
      NotificationRule(criteria: nil, settings: .object(["timeout": .number(8)])),
      NotificationRule(
        criteria: NotificationCriteria(appName: "Google Chrome", urgency: .critical),
        settings: .object(["background": .string("#ff0000ff"), "no-animation": .bool(true)])),
    ]
    for rule in rules {
      let text = rule.json.serialized
      #expect(try NotificationRule(json: JSONValue.parse(text)) == rule, "\(text)")
    }
    #expect(
      rules[1].json.serialized
        == #"{"criteria":"app-name=\"Google Chrome\" urgency=critical","settings":"#
        + ##"{"background":"#ff0000ff","no-animation":true}}"##)
  }

  @Test func aBrokenRuleSaysWhatIsWrong() {
    func problem(_ text: String) -> String? {
      do {
        _ = try NotificationRule(json: JSONValue.parse(text))
        return nil
      } catch {
        return "\(error)"
      }
    }
    #expect(problem("[]") == "a notification rule: expected a JSON object")
    #expect(problem(#"{"settings":{},"x":1}"#) == "unknown field 'x'")
    #expect(problem(#"{"settings":{},"history":0}"#) == "history: expected true or false")
    #expect(problem(#"{"criteria":"a=b"}"#) == "settings: expected an object of a toast's fields")
    #expect(problem(#"{"settings":{"layer":"sky"}}"#)?.hasPrefix("layer: expected") == true)
    #expect(
      problem(#"{"settings":{},"criteria":"urgency=high"}"#)
        == "criteria: expected criteria such as app-name=NAME (urgency: expected low, normal or"
        + " critical, got 'high')")
  }
}

extension NotificationCriteria {
  /// Whether `request` meets every criterion given, as the server asks it.
  fileprivate func matches(_ request: NotificationRequest) -> Bool {
    matches(Subject(request))
  }
}
