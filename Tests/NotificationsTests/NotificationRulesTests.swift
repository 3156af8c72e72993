import Notifications
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
        == NotificationCriteria(desktopEntry: "org.gnome.Evolution", summary: ""))
    let criteria = try NotificationCriteria(parsing: "urgency=low app-name=\"a b\"")
    #expect(criteria.section == "app-name=\"a b\" urgency=low")
    #expect(NotificationCriteria(section: criteria.section) == criteria, "read back")
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
        == "unknown criterion 'colour' (expected app-name, urgency, category, desktop-entry or"
        + " summary)")
    #expect(problem("urgency=high") == "urgency: expected low, normal or critical, got 'high'")
    #expect(problem("app-name=a app-name=b") == "app-name: given twice")
    #expect(problem("firefox") == "expected KEY=VALUE, got 'firefox'")
    #expect(problem("app-name=\"open") == "app-name: a quoted value ends with '\"'")
    #expect(problem("app-name=\"a\"b") == "app-name: a space goes between criteria")
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

  @Test func aRuleThatCannotApplyIsSkippedWhole() {
    let rules = [
      NotificationRule(
        criteria: nil, settings: .object(["timeout": .number(3), "layer": .string("sky")]))
    ]
    let toast = NotificationCard.toast(for: NotificationRequest(), rules: rules)
    #expect(toast.timeout == .standard && toast.layer == .overlay)
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
    #expect(problem(#"{"criteria":"a=b"}"#) == "settings: expected an object of a toast's fields")
    #expect(problem(#"{"settings":{"layer":"sky"}}"#)?.hasPrefix("layer: expected") == true)
    #expect(
      problem(#"{"settings":{},"criteria":"urgency=high"}"#)
        == "criteria: expected criteria such as app-name=NAME (urgency: expected low, normal or"
        + " critical, got 'high')")
  }
}
