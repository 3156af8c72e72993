import ToastModel

/// What a criteria section of the configuration file asks of a
/// notification, in mako's spirit: `[app-name=Firefox]`, `[urgency=critical]`,
/// `[category=email.arrived]`, several separated by spaces
/// (`[app-name=Firefox urgency=critical]`), a value with spaces in double
/// quotes (`[app-name="Google Chrome"]`). A notification matches when every
/// criterion given equals its own value exactly (case included).
///
/// Here, beside the file's other rules, because the light command checks the
/// file without linking the notification server (Notifications matches
/// criteria against its requests).
package struct NotificationCriteria: Equatable, Sendable {
  /// The application's name (`Notify`'s `app_name`), or nil for any.
  package var appName: String?
  /// The urgency (the `urgency` hint), or nil for any.
  package var urgency: Toast.Urgency?
  /// The `category` hint, or nil for any.
  package var category: String?
  /// The `desktop-entry` hint, or nil for any.
  package var desktopEntry: String?
  /// The summary, or nil for any.
  package var summary: String?

  /// Criteria; nil ones ask nothing.
  package init(
    appName: String? = nil, urgency: Toast.Urgency? = nil, category: String? = nil,
    desktopEntry: String? = nil, summary: String? = nil
  ) {
    self.appName = appName
    self.urgency = urgency
    self.category = category
    self.desktopEntry = desktopEntry
    self.summary = summary
  }

  /// The criteria of a section's name (between the brackets); nil when it
  /// names none or is malformed (``init(parsing:)`` says why).
  package init?(section: String) {
    guard let criteria = try? NotificationCriteria(parsing: section) else { return nil }
    self = criteria
  }

  /// The keys of the criteria, as sections write them.
  package static let keys = ["app-name", "urgency", "category", "desktop-entry", "summary"]

  /// The criteria of a section's name (between the brackets):
  /// `KEY=VALUE` words separated by spaces, each key of ``keys`` at most
  /// once, a value in double quotes when it holds spaces.
  package init(parsing section: String) throws(Problem) {
    var criteria = NotificationCriteria()
    var given: [String] = []
    var rest = Substring(section)
    while true {
      rest = rest.drop { $0 == " " || $0 == "\t" }
      if rest.isEmpty { break }
      guard let equals = rest.firstIndex(of: "="),
        !rest[..<equals].contains(where: { $0 == " " || $0 == "\t" })
      else {
        throw Problem("expected KEY=VALUE, got \(Toast.quoted(String(rest.prefix { $0 != " " })))")
      }
      let key = String(rest[..<equals])
      rest = rest[rest.index(after: equals)...]
      let value: String
      if rest.first == "\"" {
        let body = rest.dropFirst()
        guard let close = body.firstIndex(of: "\"") else {
          throw Problem("\(key): a quoted value ends with '\"'")
        }
        value = String(body[..<close])
        rest = body[body.index(after: close)...]
        guard rest.isEmpty || rest.first == " " || rest.first == "\t" else {
          throw Problem("\(key): a space goes between criteria")
        }
      } else {
        let end = rest.firstIndex { $0 == " " || $0 == "\t" } ?? rest.endIndex
        value = String(rest[..<end])
        rest = rest[end...]
      }
      guard Self.keys.contains(key) else {
        throw Problem(
          "unknown criterion \(Toast.quoted(key)) (expected \(listed(Self.keys)))")
      }
      guard !given.contains(key) else { throw Problem("\(key): given twice") }
      given.append(key)
      switch key {
      case "app-name": criteria.appName = value
      case "urgency":
        guard let urgency = Toast.Urgency(rawValue: value) else {
          throw Problem("urgency: expected low, normal or critical, got \(Toast.quoted(value))")
        }
        criteria.urgency = urgency
      case "category": criteria.category = value
      case "desktop-entry": criteria.desktopEntry = value
      default: criteria.summary = value
      }
    }
    guard !given.isEmpty else { throw Problem("expected KEY=VALUE criteria") }
    self = criteria
  }

  /// The criteria as a section's name writes them, in the order of ``keys``,
  /// values with spaces (or none) quoted: `app-name="Google Chrome" urgency=critical`.
  package var section: String {
    var words: [String] = []
    func add(_ key: String, _ value: String?) {
      guard let value else { return }
      let quoted = value.isEmpty || value.contains(where: { $0 == " " || $0 == "\t" })
      words.append(quoted ? "\(key)=\"\(value)\"" : "\(key)=\(value)")
    }
    add("app-name", appName)
    add("urgency", urgency?.rawValue)
    add("category", category)
    add("desktop-entry", desktopEntry)
    add("summary", summary)
    return listed(words, separator: " ", last: " ")
  }

  /// Whether a notification with these values meets every criterion given.
  package func matches(
    appName: String, summary: String, urgency: Toast.Urgency, category: String?,
    desktopEntry: String?
  ) -> Bool {
    (self.appName.map { $0 == appName } ?? true)
      && (self.urgency.map { $0 == urgency } ?? true)
      && (self.category.map { $0 == category } ?? true)
      && (self.desktopEntry.map { $0 == desktopEntry } ?? true)
      && (self.summary.map { $0 == summary } ?? true)
  }

  /// Why a section's name is no criteria: one line, without the file and line.
  package struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    package var message: String

    /// A problem saying `message`.
    package init(_ message: String) { self.message = message }

    /// ``message``.
    package var description: String { message }
  }
}

/// One section of the configuration file for notifications: the settings of
/// a toast that every matching notification's card takes.
package struct NotificationRule: Equatable, Sendable {
  /// Whom it applies to; nil for the `[notifications]` section, which
  /// applies to all.
  package var criteria: NotificationCriteria?
  /// A toast's fields as the socket protocol's JSON writes them
  /// (``Toast/apply(_:)`` applies them): only those the section sets.
  package var settings: JSONValue
  /// `[notifications]`'s `max-history`: how many notifications that ended
  /// by expiry or by the user the server keeps for `notifications restore`
  /// (within ``historyLimits``); nil when the section does not say.
  package var maxHistory: Int?

  /// The values `max-history` may take: 0 keeps none.
  package static let historyLimits = 0...100

  /// A rule applying `settings` to the notifications `criteria` match.
  package init(criteria: NotificationCriteria?, settings: JSONValue, maxHistory: Int? = nil) {
    self.criteria = criteria
    self.settings = settings
    self.maxHistory = maxHistory
  }
}

extension NotificationRule {
  /// The rule as JSON, for a process that did not read the file (the
  /// owner): `{"criteria":"app-name=Firefox","settings":{…}}`, without
  /// `criteria` for `[notifications]`; the criteria as a section's name
  /// writes them (``NotificationCriteria/section``); `max-history` when set.
  package var json: JSONValue {
    var object: [String: JSONValue] = ["settings": settings]
    if let criteria { object["criteria"] = .string(criteria.section) }
    if let maxHistory { object["max-history"] = .number(Double(maxHistory)) }
    return .object(object)
  }

  /// The rule of its ``json``: the criteria read as a section's name, the
  /// settings checked by applying them to a toast, `max-history` (only without
  /// criteria) within ``historyLimits``; throws naming what is wrong.
  package init(json: JSONValue) throws(MessageError) {
    guard case .object(let members) = json else {
      throw .notAMessage("a notification rule: expected a JSON object")
    }
    for key in members.keys.sorted() where !["criteria", "settings", "max-history"].contains(key) {
      throw .unknownField(key)
    }
    if let written = members["max-history"] {
      guard let count = written.doubleValue.flatMap({ Int(exactly: $0) }),
        Self.historyLimits.contains(count), members["criteria"] == nil
      else {
        throw .badField(
          "max-history",
          expected:
            "a count from 0 to \(Self.historyLimits.upperBound), in the rule without criteria")
      }
      maxHistory = count
    }
    guard let settings = members["settings"], case .object = settings else {
      throw .badField("settings", expected: "an object of a toast's fields")
    }
    var toast = Toast("")
    try toast.apply(settings)
    self.settings = settings
    guard let written = members["criteria"] else {
      criteria = nil
      return
    }
    guard let section = written.stringValue else {
      throw .badField("criteria", expected: "criteria such as app-name=NAME")
    }
    do {
      criteria = try NotificationCriteria(parsing: section)
    } catch {
      throw .badField("criteria", expected: "criteria such as app-name=NAME (\(error.message))")
    }
  }
}
