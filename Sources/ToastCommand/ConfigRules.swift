import ToastModel
import ToastProtocol

extension Config {
  /// Whether `key` may be set in a `[notifications]` or criteria section: a
  /// toast's setting, but not `button` (a notification's buttons are its
  /// actions) nor `markup` (a card's text is always markup).
  static func isNotificationSetting(_ key: String) -> Bool {
    key != "button" && key != "markup" && ToastField.named(key)?.isOption == true
  }

  /// The notification sections as rules, in the order they apply:
  /// `[notifications]` first, then the criteria sections in the file's order
  /// (a later one wins where two set the same field). A rule's settings are
  /// the fields its section sets, checked and applied as options (as
  /// `[default]`'s are, a relative icon path taken from the file's
  /// directory), written as the socket protocol's JSON; a section that sets
  /// nothing gives no rule. `[notifications]`'s `max-history` and any
  /// section's `history` go with its rule (``NotificationRule/maxHistory``,
  /// ``NotificationRule/keepsHistory``). Read a ``checked()`` configuration:
  /// its bad lines are gone and reported.
  package func notificationRules() -> [NotificationRule] {
    let ordered =
      notificationSections.filter { $0.criteria == nil }
      + notificationSections.filter { $0.criteria != nil }
    return ordered.compactMap { section in
      let settings = settings(of: section.entries)
      let server = serverValues(of: section.entries)
      let maxHistory = section.criteria == nil ? server.maxHistory : nil
      guard settings != nil || maxHistory != nil || server.keepsHistory != nil else { return nil }
      return NotificationRule(
        criteria: section.criteria, settings: settings ?? .object([:]), maxHistory: maxHistory,
        keepsHistory: server.keepsHistory)
    }
  }

  /// The server's keys that `entries` set (`max-history`, `history`; the
  /// last line's of each).
  private func serverValues(of entries: [Entry]) -> OptionValues {
    var values = OptionValues()
    for item in configItems(entries, of: self, source: 0, notifications: true)
    where !item.option.scope.isDisjoint(with: [.notificationsConfig, .notificationRulesConfig]) {
      try? item.option.apply(&values, item.input)
    }
    return values
  }

  /// The looks of `wl-toast watch`'s toasts, by preset name, for the presets
  /// `names` (`volume`, `sway-mode`): `[default]`'s settings, then the
  /// preset's over them, checked and written as a notification rule's are
  /// (``notificationRules()``); a name whose sections set nothing is left out.
  package func watchPresets(_ names: [String]) -> [String: JSONValue] {
    var presets: [String: JSONValue] = [:]
    for name in names {
      presets[name] = settings(of: defaults + (self.presets[name] ?? []))
    }
    return presets
  }

  /// The toast's settings that `entries` set, as the socket protocol's JSON
  /// (only the fields set; a later line wins); nil when they set none.
  private func settings(of entries: [Entry]) -> JSONValue? {
    var values = OptionValues()
    var settings: [String: JSONValue] = [:]
    for item in configItems(
      entries.filter { Config.isNotificationSetting($0.key) }, of: self, source: 0)
    {
      guard (try? item.option.apply(&values, item.input)) != nil,
        let field = ToastField.named(item.option.name)
      else { continue }
      settings[field.name] = field.encode(values.toast)
    }
    return settings.isEmpty ? nil : .object(settings)
  }
}
