import ToastModel

/// A yes/no value: true, false, yes, no, on, off, 1 or 0.
private func boolean(_ value: String) -> Bool? {
  switch value.lowercased() {
  case "true", "yes", "on", "1": true
  case "false", "no", "off", "0": false
  default: nil
  }
}

/// The items of well-formed entries (``Config/checked()`` reported the others).
/// An icon or sound path in the file that is relative (`icons/volume.svg`) is taken
/// from the file's directory, as the user who wrote it meant.
func configItems(
  _ entries: [Config.Entry], of config: Config?, source: Int, notifications: Bool = false
) -> [OptionItem] {
  entries.compactMap { entry in
    var entry = entry
    if entry.key == "icon" || entry.key == "sound", entry.value.contains("/"),
      !entry.value.hasPrefix("/"),
      let slash = config?.path.lastIndex(of: "/"), let path = config?.path
    {
      entry.value = String(path[...slash]) + entry.value
    }
    return try? item(for: entry, source: source, notifications: notifications)
  }
}

/// The option a configuration entry sets and what it says, checked by the
/// rules of the command line; the error says what is wrong. An entry of
/// `[notifications]` (`notifications`) may also set the server's keys.
private func item(
  for entry: Config.Entry, source: Int = 0, notifications: Bool = false
) throws(UsageError) -> OptionItem {
  guard let option = Option.forKey(entry.key, notifications: notifications) else {
    throw .unknownConfigKey(entry.key)
  }
  let input: OptionInput
  switch option.valueKind {
  case .optional where option.choices.contains(entry.value):
    input = .value(entry.value)  // follow = json
  case .none, .optional:
    guard let on = boolean(entry.value) else {
      throw .invalidChoice(entry.key, expected: "true or false", got: entry.value)
    }
    input = on ? .on : .off
  case .required:
    input = .value(entry.value)
  }
  // The value must pass the same checks as on the command line.
  var scratch = OptionValues()
  try option.apply(&scratch, input)
  return OptionItem(option: option, input: input, source: source)
}

extension Config {
  /// The configuration with every entry checked by the rules of the command
  /// line: a bad key or value moves to ``problems`` as `FILE:LINE: message`.
  package func checked() -> Config {
    var checked = self
    func keep(_ entries: [Entry], notifications: Bool = false, server: Bool = false) -> [Entry] {
      // A section's repeated key (`button`) adds up as the command line's
      // options do: one too many is a problem of its own line.
      var values = OptionValues()
      return entries.filter { entry in
        do throws(UsageError) {
          if let option = Option.forKey(entry.key, notifications: true),
            !option.scope.contains(.config)
          {
            // `history` belongs to every notification section, `max-history`
            // to [notifications] alone.
            let everyNotificationSection = option.scope.contains(.notificationRulesConfig)
            if everyNotificationSection ? !notifications : !server {
              let sections = everyNotificationSection ? " and criteria sections" : ""
              checked.problem(entry.line, "\(entry.key): a key of [notifications]\(sections) only")
              return false
            }
          }
          if notifications && !Config.isNotificationSetting(entry.key)
            && Option.forKey(entry.key) != nil
          {
            checked.problem(
              entry.line,
              "\(entry.key): not a setting of notifications' cards (those sections take a"
                + " toast's settings but button and markup)")
            return false
          }
          // `[notifications]`'s own keys are out of criteria sections by now.
          let item = try item(for: entry, notifications: notifications)
          if item.option.isRepeatable { try item.option.apply(&values, item.input) }
          return true
        } catch {
          if case .invalidValue(let invalid) = error {
            checked.problem(entry.line, "\(entry.key): \(invalid.reason)")
          } else {
            checked.problem(entry.line, error.message)
          }
          return false
        }
      }
    }
    checked.replaceEntries(
      defaults: keep(defaults), presets: presets.mapValues { keep($0) },
      notificationSections: notificationSections.map { section in
        var kept = section
        kept.entries = keep(
          section.entries, notifications: true, server: section.criteria == nil)
        return kept
      })
    checked.problems.sort { lineNumber($0) < lineNumber($1) }
    return checked
  }

  /// The line number in a `FILE:LINE: message` problem, for sorting.
  private func lineNumber(_ problem: String) -> Int {
    let rest = problem.dropFirst(path.count + 1)
    return Int(rest.prefix { $0.isNumber }) ?? 0
  }
}
