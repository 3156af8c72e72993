import SystemSupport
import ToastModel

/// What a criteria section of the configuration file asks of a
/// notification, as mako's do (mako(5) CRITERIA): `[app-name=Firefox]`,
/// `[urgency=critical]`, `[summary~="^Volume"]`, `[actionable]`, several
/// separated by spaces (`[app-name=Spotify summary~="^Now"]`). A value is
/// written as mako writes it: in double quotes when it holds spaces
/// (`[app-name="Google Chrome"]`), a backslash taking the next character as
/// it is (`[app-name=Google\ Chrome]`, `\"`, `\\`). A notification matches
/// when it meets every criterion given (``Key`` says what each asks).
///
/// Here, beside the file's other rules, because the light command checks the
/// file without linking the notification server (Notifications matches
/// criteria against its requests).
package struct NotificationCriteria: Equatable, Sendable {
  /// A criterion's key, as sections write it (mako's, in mako's order).
  package enum Key: String, CaseIterable, Sendable {
    /// `app-name=NAME`: `Notify`'s `app_name`, exactly.
    case appName = "app-name"
    /// `app-icon=ICON`: the `image-path` hint when given, else `Notify`'s
    /// `app_icon`, exactly (as mako, whose `app_icon` the hint replaces).
    case appIcon = "app-icon"
    /// `summary=TEXT`: the summary, exactly.
    case summary
    /// `summary~=REGEX`: a POSIX extended regular expression found in the summary.
    case summaryPattern = "summary~"
    /// `body=TEXT`: the body's text without its markup, exactly.
    case body
    /// `body~=REGEX`: a POSIX extended regular expression found in the
    /// body's text without its markup.
    case bodyPattern = "body~"
    /// `urgency=low|normal|critical`: the `urgency` hint.
    case urgency
    /// `category=NAME`: the `category` hint, exactly.
    case category
    /// `desktop-entry=NAME`: the `desktop-entry` hint, exactly.
    case desktopEntry = "desktop-entry"
    /// `actionable` (or `=1`, `=true`; `!actionable`, `=0`, `=false`): whether
    /// the notification has any action, `default` included.
    case actionable
    /// `expiring` (a flag, as `actionable`): whether its `expire_timeout` is
    /// other than 0 (-1, the server's default, expires).
    case expiring

    /// What the key's value is.
    package var kind: Kind {
      switch self {
      case .summaryPattern, .bodyPattern: .pattern
      case .urgency: .urgency
      case .actionable, .expiring: .flag
      case .appName, .appIcon, .summary, .body, .category, .desktopEntry: .text
      }
    }

    /// The kinds of values keys take.
    package enum Kind: Sendable {
      /// A text the notification's must equal.
      case text
      /// A regular expression (``PosixRegex``) found in the notification's text.
      case pattern
      /// `low`, `normal` or `critical`.
      case urgency
      /// A flag, written bare (`actionable`, `!actionable`) or `=1`, `=0`,
      /// `=true`, `=false`.
      case flag
    }
  }

  /// What a criterion asks.
  package enum Test: Equatable, Sendable {
    /// The notification's text equals this one (case included).
    case equals(String)
    /// The expression matches somewhere in the notification's text.
    case matches(PosixRegex)
    /// The notification has this urgency.
    case urgency(Toast.Urgency)
    /// The notification's flag is this.
    case flag(Bool)
  }

  /// The criteria given, by key.
  package private(set) var tests: [Key: Test]

  /// Criteria; nil ones ask nothing.
  package init(
    appName: String? = nil, appIcon: String? = nil, summary: String? = nil,
    summaryPattern: PosixRegex? = nil, body: String? = nil, bodyPattern: PosixRegex? = nil,
    urgency: Toast.Urgency? = nil, category: String? = nil, desktopEntry: String? = nil,
    actionable: Bool? = nil, expiring: Bool? = nil
  ) {
    var tests: [Key: Test] = [:]
    tests[.appName] = appName.map(Test.equals)
    tests[.appIcon] = appIcon.map(Test.equals)
    tests[.summary] = summary.map(Test.equals)
    tests[.summaryPattern] = summaryPattern.map(Test.matches)
    tests[.body] = body.map(Test.equals)
    tests[.bodyPattern] = bodyPattern.map(Test.matches)
    tests[.urgency] = urgency.map(Test.urgency)
    tests[.category] = category.map(Test.equals)
    tests[.desktopEntry] = desktopEntry.map(Test.equals)
    tests[.actionable] = actionable.map(Test.flag)
    tests[.expiring] = expiring.map(Test.flag)
    self.tests = tests
  }

  /// The criteria of a section's name (between the brackets); nil when it
  /// names none or is malformed (``init(parsing:)`` says why).
  package init?(section: String) {
    guard let criteria = try? NotificationCriteria(parsing: section) else { return nil }
    self = criteria
  }

  /// The keys of the criteria, as sections write them.
  package static let keys = Key.allCases.map(\.rawValue)

  /// Whether a section's name (between the brackets) is meant as criteria:
  /// it holds a `=`, or starts with a flag's key (`actionable`, `!expiring`).
  package static func isCriteria(_ section: String) -> Bool {
    if section.contains("=") { return true }
    let first = section.split(whereSeparator: { $0 == " " || $0 == "\t" }).first ?? ""
    let key = Key(rawValue: String(first.drop { $0 == "!" }))
    return key?.kind == .flag
  }

  /// The criteria of a section's name (between the brackets): words
  /// separated by spaces, `KEY=VALUE` or a flag's bare key (``Key``), each
  /// key at most once; quotes and backslashes as mako reads them. A
  /// regular expression is compiled here (``PosixRegex``).
  package init(parsing section: String) throws(Problem) {
    tests = [:]
    let words = try Self.words(of: section)
    guard !words.isEmpty else { throw Problem("expected KEY=VALUE criteria") }
    for word in words {
      let (name, value) = Self.keyAndValue(of: word)
      guard let key = Key(rawValue: name) else {
        throw Problem("unknown criterion \(Toast.quoted(name)) (expected \(listed(Self.keys)))")
      }
      guard tests[key] == nil else { throw Problem("\(name): given twice") }
      tests[key] = try Self.test(of: key, value)
    }
  }

  /// A word's key and its value: `KEY=VALUE`'s (the first `=` ends the
  /// key), else a flag's: `true` for `KEY`, `false` for `!KEY`; nil for
  /// none (a bare key).
  private static func keyAndValue(of word: String) -> (String, String?) {
    if let equals = word.firstIndex(of: "=") {
      return (String(word[..<equals]), String(word[word.index(after: equals)...]))
    }
    if word.hasPrefix("!") { return (String(word.dropFirst()), "false") }
    return (word, nil)
  }

  /// The test a key's value asks; a flag's bare key asks true.
  private static func test(of key: Key, _ value: String?) throws(Problem) -> Test {
    if key.kind == .flag {
      switch value?.lowercased() {
      case nil, "true", "1": return .flag(true)
      case "false", "0": return .flag(false)
      case let other?:
        throw Problem("\(key.rawValue): expected true, false, 1 or 0, got \(Toast.quoted(other))")
      }
    }
    guard let value else { throw Problem("\(key.rawValue): expected \(key.rawValue)=VALUE") }
    switch key.kind {
    case .urgency:
      guard let urgency = Toast.Urgency(rawValue: value) else {
        throw Problem("urgency: expected low, normal or critical, got \(Toast.quoted(value))")
      }
      return .urgency(urgency)
    case .pattern:
      do throws(PosixRegex.Problem) {
        return .matches(try PosixRegex(value))
      } catch {
        throw Problem("\(key.rawValue): \(Toast.quoted(value)): \(error.message)")
      }
    case .text, .flag: return .equals(value)
    }
  }

  /// A section's name cut into words as mako cuts it: spaces (and tabs)
  /// separate them, but not in double quotes; a backslash takes the next
  /// character as it is, in quotes too; the quotes and those backslashes
  /// are not kept.
  private static func words(of section: String) throws(Problem) -> [String] {
    var words: [String] = []
    var word = ""
    var started = false
    var quoted = false
    var escaped = false
    for character in section {
      if escaped {
        word.append(character)
        escaped = false
      } else if character == "\\" {
        escaped = true
        started = true
      } else if character == "\"" {
        quoted.toggle()
        started = true
      } else if !quoted, character == " " || character == "\t" {
        if started || !word.isEmpty { words.append(word) }
        word = ""
        started = false
      } else {
        word.append(character)
        started = true
      }
    }
    if escaped { throw Problem("a backslash ends the criteria") }
    if quoted { throw Problem("a quoted value ends with '\"'") }
    if started || !word.isEmpty { words.append(word) }
    return words
  }

  /// The criteria as a section's name writes them, in the order of ``keys``:
  /// values with spaces, quotes or backslashes (or none) quoted, flags bare:
  /// `app-name="Google Chrome" urgency=critical !actionable`.
  package var section: String {
    var words: [String] = []
    for key in Key.allCases {
      switch tests[key] {
      case nil: continue
      case .equals(let value)?: words.append(key.rawValue + "=" + Self.written(value))
      case .matches(let regex)?: words.append(key.rawValue + "=" + Self.written(regex.pattern))
      case .urgency(let urgency)?: words.append(key.rawValue + "=" + urgency.rawValue)
      case .flag(let flag)?: words.append((flag ? "" : "!") + key.rawValue)
      }
    }
    return listed(words, separator: " ", last: " ")
  }

  /// A value as a section writes it: bare, or quoted with `"` and `\`
  /// escaped when it is empty or holds a space, a tab, a quote or a backslash.
  private static func written(_ value: String) -> String {
    guard value.isEmpty || value.contains(where: { " \t\"\\".contains($0) }) else { return value }
    var text = "\""
    for character in value {
      if character == "\"" || character == "\\" { text.append("\\") }
      text.append(character)
    }
    return text + "\""
  }

  /// What a notification offers criteria: the values ``Key`` names.
  package struct Subject: Sendable {
    /// `app_name`.
    package var appName: String
    /// The `image-path` hint when given, else `app_icon`.
    package var appIcon: String
    /// The summary.
    package var summary: String
    /// The body's text without its markup.
    package var body: String
    /// The urgency.
    package var urgency: Toast.Urgency
    /// The `category` hint.
    package var category: String?
    /// The `desktop-entry` hint.
    package var desktopEntry: String?
    /// Whether it has any action.
    package var actionable: Bool
    /// Whether its `expire_timeout` is other than 0.
    package var expiring: Bool

    /// A subject of these values.
    package init(
      appName: String = "", appIcon: String = "", summary: String = "", body: String = "",
      urgency: Toast.Urgency = .normal, category: String? = nil, desktopEntry: String? = nil,
      actionable: Bool = false, expiring: Bool = true
    ) {
      self.appName = appName
      self.appIcon = appIcon
      self.summary = summary
      self.body = body
      self.urgency = urgency
      self.category = category
      self.desktopEntry = desktopEntry
      self.actionable = actionable
      self.expiring = expiring
    }

    /// The text a key's criterion reads; nil for none.
    func text(_ key: Key) -> String? {
      switch key {
      case .appName: appName
      case .appIcon: appIcon
      case .summary, .summaryPattern: summary
      case .body, .bodyPattern: body
      case .category: category
      case .desktopEntry: desktopEntry
      case .urgency, .actionable, .expiring: nil
      }
    }

    /// The flag a key's criterion reads; nil for a key of no flag.
    func flag(_ key: Key) -> Bool? {
      switch key {
      case .actionable: actionable
      case .expiring: expiring
      default: nil
      }
    }
  }

  /// Whether a notification with these values meets every criterion given.
  package func matches(_ subject: Subject) -> Bool {
    tests.allSatisfy { key, test in
      switch test {
      case .equals(let value): subject.text(key) == value
      case .matches(let regex): subject.text(key).map(regex.matches) ?? false
      case .urgency(let urgency): subject.urgency == urgency
      case .flag(let flag): subject.flag(key) == flag
      }
    }
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
  /// The section's `history` (mako's): whether the notifications it applies
  /// to go into the history when they end (false keeps them out); nil when
  /// the section does not say.
  package var keepsHistory: Bool?

  /// The values `max-history` may take: 0 keeps none.
  package static let historyLimits = 0...100

  /// A rule applying `settings` to the notifications `criteria` match.
  package init(
    criteria: NotificationCriteria?, settings: JSONValue, maxHistory: Int? = nil,
    keepsHistory: Bool? = nil
  ) {
    self.criteria = criteria
    self.settings = settings
    self.maxHistory = maxHistory
    self.keepsHistory = keepsHistory
  }
}

extension NotificationRule {
  /// The rule as JSON, for a process that did not read the file (the
  /// owner): `{"criteria":"app-name=Firefox","settings":{…}}`, without
  /// `criteria` for `[notifications]`; the criteria as a section's name
  /// writes them (``NotificationCriteria/section``); `max-history` and
  /// `history` when set.
  package var json: JSONValue {
    var object: [String: JSONValue] = ["settings": settings]
    if let criteria { object["criteria"] = .string(criteria.section) }
    if let maxHistory { object["max-history"] = .number(Double(maxHistory)) }
    if let keepsHistory { object["history"] = .bool(keepsHistory) }
    return .object(object)
  }

  /// The rule of its ``json``: the criteria read as a section's name, the
  /// settings checked by applying them to a toast, `max-history` (only without
  /// criteria) within ``historyLimits``, `history` a boolean; throws naming
  /// what is wrong.
  package init(json: JSONValue) throws(MessageError) {
    guard case .object(let members) = json else {
      throw .notAMessage("a notification rule: expected a JSON object")
    }
    for key in members.keys.sorted()
    where !["criteria", "settings", "max-history", "history"].contains(key) {
      throw .unknownField(key)
    }
    if let written = members["history"] {
      guard case .bool(let keeps) = written else {
        throw .badField("history", expected: "true or false")
      }
      keepsHistory = keeps
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
