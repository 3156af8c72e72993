import ToastModel
import ToastProtocol

/// Where an option may be given.
struct OptionScope: OptionSet, Sendable {
  let rawValue: UInt32

  /// The command line of a toast (`wl-toast [OPTIONS] MESSAGE...`).
  static let show = OptionScope(rawValue: 1 << 0)
  /// A key of the configuration file.
  static let config = OptionScope(rawValue: 1 << 1)
  /// `wl-toast hide`.
  static let hide = OptionScope(rawValue: 1 << 2)
  /// `wl-toast status`.
  static let status = OptionScope(rawValue: 1 << 3)
  /// `wl-toast watch sway`.
  static let watchSway = OptionScope(rawValue: 1 << 4)
  /// `wl-toast watch river`.
  static let watchRiver = OptionScope(rawValue: 1 << 5)
  /// `wl-toast daemon`.
  static let daemon = OptionScope(rawValue: 1 << 6)
  /// `wl-toast completions`.
  static let completions = OptionScope(rawValue: 1 << 7)
  /// `wl-toast presets`.
  static let presets = OptionScope(rawValue: 1 << 8)
  /// `wl-toast nag`, whose options are swaynag's (ToastNag reads them).
  static let nag = OptionScope(rawValue: 1 << 9)
  /// `wl-toast dnd`.
  static let dnd = OptionScope(rawValue: 1 << 10)
  /// `wl-toast notifications list`.
  static let notificationsList = OptionScope(rawValue: 1 << 11)
  /// `wl-toast notifications dismiss`.
  static let notificationsDismiss = OptionScope(rawValue: 1 << 12)
  /// `wl-toast notifications invoke`.
  static let notificationsInvoke = OptionScope(rawValue: 1 << 13)
  /// `wl-toast notifications focus`.
  static let notificationsFocus = OptionScope(rawValue: 1 << 14)
  /// `wl-toast watch audio`.
  static let watchAudio = OptionScope(rawValue: 1 << 15)
  /// `wl-toast watch media`.
  static let watchMedia = OptionScope(rawValue: 1 << 16)
  /// `wl-toast watch backlight`.
  static let watchBacklight = OptionScope(rawValue: 1 << 17)
  /// `wl-toast notifications history`.
  static let notificationsHistory = OptionScope(rawValue: 1 << 18)
  /// `wl-toast notifications restore`.
  static let notificationsRestore = OptionScope(rawValue: 1 << 19)
  /// A key of the configuration file's `[notifications]` section that sets
  /// the server rather than the cards (`max-history`): not of `[default]`,
  /// presets or criteria sections.
  static let notificationsConfig = OptionScope(rawValue: 1 << 20)
  /// A key of the configuration file's `[notifications]` and criteria
  /// sections that sets what the server does with the notifications a
  /// section applies to rather than their cards (`history`): not of
  /// `[default]` or presets.
  static let notificationRulesConfig = OptionScope(rawValue: 1 << 21)
  /// Every command line, not the file (`--help`, `--version`).
  static let everyCommand: OptionScope = [
    .show, .hide, .status, .watchSway, .watchRiver, .daemon, .completions, .presets, .dnd,
    .notificationsList, .notificationsDismiss, .notificationsInvoke, .notificationsFocus,
    .watchAudio, .watchMedia, .watchBacklight, .notificationsHistory, .notificationsRestore,
  ]
}

/// Whether an option takes a value.
enum OptionValue: Equatable, Sendable {
  /// None: a flag.
  case none
  /// One, named in `--help` (`SECONDS`), as the next argument or after `=`.
  case required(String)
  /// One after `=` only, or none (`--follow[=text|json]`).
  case optional(String)

  /// Whether an option takes a value, without its name (what the parser asks).
  enum Kind: Equatable, Sendable {
    /// None: a flag.
    case none
    /// One, as the next argument or after `=`.
    case required
    /// One after `=` only, or none.
    case optional
  }

  /// The kind, without the name.
  var kind: Kind {
    switch self {
    case .none: .none
    case .required: .required
    case .optional: .optional
    }
  }
}

/// What a command line or configuration file said of an option.
enum OptionInput: Equatable, Sendable {
  /// A flag given (or `KEY = true`).
  case on
  /// A flag turned off (`KEY = false` in the file).
  case off
  /// A value.
  case value(String)
}

/// What a command line or a configuration file's line said of one option.
/// (A struct, not a tuple: the lists of one kind of value the parser keeps
/// are one type whose metadata the runtime makes at the first one.)
struct OptionItem: Sendable {
  /// The option.
  let option: Option
  /// What was said of it.
  let input: OptionInput
  /// Where it was said, for precedence: a later source wins (a toast's
  /// command line: the file's `[default]` 0, the preset 1, the command line 2).
  var source = 0
}

/// What the options of one command line have set.
struct OptionValues: Sendable {
  /// The toast's settings.
  var toast = Toast("")
  /// How the command hands the toast over.
  var show = ShowOptions()
  /// `--after` of `wl-toast hide`.
  var hideDelay: Double?
  /// `--workspaces` of `wl-toast watch sway`.
  var workspaces = false
  /// `--keyboard-layout` of `wl-toast watch sway`.
  var keyboardLayout = false
  /// `--focused-tags` of `wl-toast watch river`.
  var focusedTags = false
  /// `--urgent` of `wl-toast watch river`.
  var urgent = false
  /// `--tag-names` of `wl-toast watch river`.
  var tagNames: [Int: String] = [:]
  /// `--notifications` of `wl-toast daemon`.
  var servesNotifications = false
  /// `--replace` of `wl-toast daemon`.
  var replacesServer = false
  /// `--max-history` of `wl-toast daemon`, `max-history` of `[notifications]`.
  var maxHistory: Int?
  /// `history` of `[notifications]` and criteria sections.
  var keepsHistory: Bool?
  /// `--all` of `wl-toast notifications dismiss`.
  var allNotifications = false
}

/// An option of `wl-toast`, declared once in ``Option/all``: the parser, the
/// configuration keys, `--help`, the man-page check and the completions read it.
struct Option: Sendable, Equatable {
  /// The name without its dashes: `--NAME` and, for an option of the file, its key.
  let name: String
  /// The one-letter form (`-h`), if any.
  let letter: Character?
  /// Whether it takes a value, and what the value stands for (made when
  /// asked for: the names of a setting's choices are made from its
  /// enumeration, see ``ToastField/choices``).
  var value: OptionValue {
    switch valueKind {
    case .none: .none
    case .required: .required(valueName())
    case .optional: .optional(valueName())
    }
  }
  /// Whether it takes a value: what the parser asks.
  let valueKind: OptionValue.Kind
  /// What the value stands for in `--help` and messages (`SECONDS`).
  let valueName: @Sendable () -> String
  /// One line for completion menus.
  let summary: String
  /// What `--help` prints beside it; nil for an option of a subcommand, which
  /// the synopsis shows.
  let helpText: @Sendable () -> String?
  /// The values it takes, when they are a short list.
  var choices: [String] { choiceList() }
  /// ``choices``, made when asked for.
  let choiceList: @Sendable () -> [String]
  /// Whether its value is a file's path.
  let takesPath: Bool
  /// Where it may be given.
  let scope: OptionScope
  /// Whether it may be given again, each time adding a value (``ToastField/isRepeatable``).
  var isRepeatable = false
  /// Records what was said of it; throws when the value is bad.
  let apply: @Sendable (inout OptionValues, OptionInput) throws(UsageError) -> Void

  /// `--NAME`.
  var flagName: String { "--" + name }

  /// What `--help` prints beside it (made when asked for); nil for an option
  /// of a subcommand, which the synopsis shows.
  var help: String? { helpText() }

  static func == (left: Option, right: Option) -> Bool { left.name == right.name }
}

extension Option {
  /// Every option: the toast's settings (``ToastField/all``), then the command's own.
  static let all: [Option] =
    fieldOptions + [
      Option(
        "tag", .required("NAME"), summary: "one toast per tag, updated in place",
        help: "one toast per tag: later commands update it in place",
        scope: [.show, .config, .hide, .status]
      ) { values, input throws(UsageError) in values.show.tag = try tag(input.text) },
      Option(
        "preset", .required("NAME"), summary: "a preset of the configuration file",
        help: "use [preset NAME] of the configuration file", scope: .show
      ) { _, _ in },  // read by the parser before the rest
      Option(
        "config", .required("PATH"), summary: "read this configuration file",
        help: "read PATH instead of ~/.config/wl-toast/config", takesPath: true, scope: .show
      ) { _, _ in },  // read before the parser (configChoice(in:))
      Option(
        "no-config", .none, summary: "read no configuration file",
        help: "read no configuration file (see man 5 wl-toast)", scope: .show
      ) { _, _ in },
      Option(
        "render-png", .required("FILE"), summary: "draw the toast into a PNG file",
        help: "draw the toast into a PNG file, with no compositor", takesPath: true, scope: .show
      ) { values, input throws(UsageError) in
        let path = input.text
        guard !path.isEmpty else {
          throw .invalidChoice("--render-png", expected: "the path of a PNG file", got: path)
        }
        values.show.render = values.show.render ?? RenderRequest(path: path)
        values.show.render?.path = path
      },
      Option(
        "scale", .required("N"), summary: "with --render-png: pixels per logical pixel",
        help: "with --render-png: pixels per logical pixel (1 to 4)", scope: .show
      ) { values, input throws(UsageError) in
        guard let scale = decimal(input.text), RenderRequest.scales.contains(scale) else {
          throw .invalidChoice("--scale", expected: "a number from 1 to 4", got: input.text)
        }
        values.show.render = values.show.render ?? RenderRequest(path: "")
        values.show.render?.scale = scale
      },
      Option(
        "size", .required("WxH"), summary: "with --render-png: the output's size WxH",
        help: "with --render-png: the output's size (1280x720)", scope: .show
      ) { values, input throws(UsageError) in
        let parts = input.text.split(separator: "x", omittingEmptySubsequences: false)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
          RenderRequest.sizes.contains(width), RenderRequest.sizes.contains(height)
        else {
          throw .invalidChoice("--size", expected: "WxH, each from 64 to 16384", got: input.text)
        }
        values.show.render = values.show.render ?? RenderRequest(path: "")
        values.show.render?.outputWidth = width
        values.show.render?.outputHeight = height
      },
      Option(
        "wait", .none, summary: "stay until the toast is gone",
        help: "stay until the toast is gone; exit with its outcome", scope: [.show, .config]
      ) { values, input in values.show.wait = input == .on },
      Option(
        "print-outcome", .none, summary: "print how the toast ended",
        help:
          "with --wait, print "
          + listed(
            ToastOutcome.names.map { $0 == "button" ? "button:LABEL" : $0 }, separator: ", ",
            last: " or "),
        scope: [.show, .config]
      ) { values, input in
        values.show.printOutcome = input == .on
        if input == .on { values.show.wait = true }
      },
      Option(
        "follow", .optional("text|json"), summary: "each line of standard input updates the toast",
        help:
          "read standard input: each line updates the toast;\ntext (default): the line is the"
          + " message;\njson: an object setting "
          + listed(ToastField.all.filter { $0.isFollowable }.map { $0.name }),
        choices: FollowFormat.allCases.map { $0.rawValue }, scope: [.show, .config]
      ) { values, input throws(UsageError) in
        switch input {
        case .on: values.show.follow = .text
        case .off: values.show.follow = nil
        case .value(let word):
          guard let format = FollowFormat(rawValue: word) else {
            throw .invalidChoice("--follow", expected: "text or json", got: word)
          }
          values.show.follow = format
        }
      },
      Option(
        "linger", .required("SECONDS"), summary: "keep the owner this long after its last toast",
        help: "keep the background owner this long after its last toast (0 to 60, default 1)",
        scope: [.show, .config]
      ) { values, input throws(UsageError) in
        values.show.linger = try seconds(input.text, of: .linger)
      },
      Option(
        "after", .required("SECONDS"), summary: "hide after SECONDS", scope: .hide
      ) { values, input throws(UsageError) in
        values.hideDelay = try seconds(input.text, of: .after)
      },
      Option(
        "workspaces", .none, summary: "also show workspace changes", scope: .watchSway
      ) { values, input in values.workspaces = input == .on },
      Option(
        "keyboard-layout", .none, summary: "also show the keyboard layout when it changes",
        scope: .watchSway
      ) { values, input in values.keyboardLayout = input == .on },
      Option(
        "focused-tags", .none, summary: "also show the tags focused after each change",
        scope: .watchRiver
      ) { values, input in values.focusedTags = input == .on },
      Option(
        "urgent", .none, summary: "also show tags that get an urgent window", scope: .watchRiver
      ) { values, input in values.urgent = input == .on },
      Option(
        "tag-names", .required("N=NAME,..."), summary: "names for tags: 1=web,2=code",
        scope: .watchRiver
      ) { values, input throws(UsageError) in values.tagNames = try tagNames(input.text) },
      Option(
        "notifications", .none,
        summary: "also serve applications' notifications (org.freedesktop.Notifications)",
        scope: .daemon
      ) { values, input in values.servesNotifications = input == .on },
      Option(
        "replace", .none, summary: "with --notifications, take the name from another server",
        scope: .daemon
      ) { values, input in values.replacesServer = input == .on },
      Option(
        "max-history", .required("N"),
        summary: "with --notifications, how many ended notifications restore can bring back"
          + " (\(NotificationRule.historyLimits.lowerBound) to"
          + " \(NotificationRule.historyLimits.upperBound), default 5)",
        scope: [.daemon, .notificationsConfig]
      ) { values, input throws(UsageError) in
        guard let count = Int(input.text), NotificationRule.historyLimits.contains(count) else {
          throw .invalidChoice(
            "max-history",
            expected: "a count from \(NotificationRule.historyLimits.lowerBound) to"
              + " \(NotificationRule.historyLimits.upperBound)", got: input.text)
        }
        values.maxHistory = count
      },
      Option(
        "all", .none, summary: "dismiss every notification", scope: .notificationsDismiss
      ) { values, input in values.allNotifications = input == .on },
      Option(
        "help", letter: "h", .none, summary: "print the help", help: "print this help and exit",
        scope: .everyCommand
      ) { _, _ in },  // found before the rest (helpOrVersion(in:))
      Option(
        "version", letter: "V", .none, summary: "print the version",
        help: "print the version and exit", scope: .everyCommand
      ) { _, _ in },
    ]

  /// The options of the toast's settings, in the order of ``ToastField/all``.
  /// (A loop: `filter` and `map` would copy each field twice more.)
  private static var fieldOptions: [Option] {
    var options: [Option] = []
    options.reserveCapacity(ToastField.all.count)
    for field in ToastField.all where field.isOption { options.append(Option(field: field)) }
    return options
  }

  /// The option with this name (without dashes). A search of the table, not
  /// a dictionary: a dictionary of our own types costs the command more at
  /// start (its metadata and conformances found at run time) than the search.
  static func named(_ name: some StringProtocol) -> Option? {
    all.first { $0.name == name }
  }

  /// The configuration file's keys that no command line takes, declared as
  /// options are (checked, applied and listed in ``configKeys`` the same
  /// way) but out of ``all``: no command line, help or completion offers
  /// them.
  static let configOnly: [Option] = [
    Option(
      "history", .none,
      summary: "false keeps the notifications the section applies to out of the history"
        + " (default true)",
      scope: .notificationRulesConfig
    ) { values, input in values.keepsHistory = input == .on }
  ]

  /// The option a configuration key sets, if any; `[notifications]`
  /// (`notifications`) also takes the server's keys (``OptionScope/notificationsConfig``,
  /// ``OptionScope/notificationRulesConfig``).
  static func forKey(_ key: String, notifications: Bool = false) -> Option? {
    (named(key) ?? configOnly.first { $0.name == key }).flatMap {
      $0.scope.contains(.config)
        || (notifications
          && !$0.scope.isDisjoint(with: [.notificationsConfig, .notificationRulesConfig]))
        ? $0 : nil
    }
  }

  /// An option declared with its parts.
  init(
    _ name: String, letter: Character? = nil, _ value: OptionValue, summary: String,
    help: @autoclosure @escaping @Sendable () -> String? = nil,
    choices: @autoclosure @escaping @Sendable () -> [String] = [],
    takesPath: Bool = false, scope: OptionScope,
    apply: @escaping @Sendable (inout OptionValues, OptionInput) throws(UsageError) -> Void
  ) {
    let valueName: String
    switch value {
    case .none: valueName = ""
    case .required(let name), .optional(let name): valueName = name
    }
    self.init(
      name, letter: letter, valueKind: value.kind, valueName: { valueName }, summary: summary,
      help: help, choices: choices, takesPath: takesPath, scope: scope, apply: apply)
  }

  /// An option declared with its parts, the name of its value made when asked for.
  init(
    _ name: String, letter: Character? = nil, valueKind: OptionValue.Kind,
    valueName: @escaping @Sendable () -> String, summary: String,
    help: @escaping @Sendable () -> String?,
    choices: @escaping @Sendable () -> [String],
    takesPath: Bool, scope: OptionScope,
    apply: @escaping @Sendable (inout OptionValues, OptionInput) throws(UsageError) -> Void
  ) {
    self.name = name
    self.letter = letter
    self.valueKind = valueKind
    self.valueName = valueName
    self.summary = summary
    self.helpText = help
    self.choiceList = choices
    self.takesPath = takesPath
    self.scope = scope
    self.apply = apply
  }

  /// The option of a toast's setting: on a toast's command line and in the file.
  init(field: ToastField) {
    // The parts the closures need, not the whole field.
    let setFlag = field.setFlag
    let parse = field.parse
    let help = field.helpText
    let apply: @Sendable (inout OptionValues, OptionInput) throws(UsageError) -> Void = {
      values, input throws(UsageError) in
      switch input {
      case .on, .off: setFlag?(&values.toast, input == .on)
      case .value(let word):
        guard let parse else { return }
        do throws(Toast.InvalidValue) {
          try parse(&values.toast, word)
        } catch {
          throw .invalidValue(error)
        }
      }
    }
    self.init(
      field.name, valueKind: field.takesValue ? .required : .none,
      valueName: field.valueNameText, summary: field.summary, help: { help() },
      choices: field.choiceList, takesPath: field.takesPath, scope: [.show, .config],
      apply: apply)
    isRepeatable = field.isRepeatable
  }
}

extension OptionInput {
  /// The value; empty for a flag (options with a value always get one).
  var text: String {
    if case .value(let text) = self { text } else { "" }
  }
}

/// The names of every configuration key, in the order of the options:
/// those of every section, then those of `[notifications]` alone, then those
/// no command line takes (``Option/configOnly``).
package var configKeys: [String] {
  Option.all.filter { $0.scope.contains(.config) }.map { $0.name }
    + Option.all.filter { $0.scope.contains(.notificationsConfig) }.map { $0.name }
    + Option.configOnly.map { $0.name }
}

// MARK: - Values of the command's own options

/// A tag, by the rule of ``Toast/checkedTag(_:)``.
func tag(_ value: String) throws(UsageError) -> String {
  do {
    return try Toast.checkedTag(value)
  } catch {
    throw .invalidValue(error)
  }
}

/// Seconds of `--linger` or `--after`, within their ``Toast/Limits``.
func seconds(_ value: String, of setting: Toast.InvalidValue.Setting) throws(UsageError)
  -> Double
{
  do {
    return try Toast.checkedSeconds(decimal(value), of: setting, written: value)
  } catch {
    throw .invalidValue(error)
  }
}

/// Parses `--tag-names`: `N=NAME` pairs separated by commas, each tag number
/// (1 to 32) at most once, each name by ``RiverWatchOptions/isTagName(_:)``.
func tagNames(_ value: String) throws(UsageError) -> [Int: String] {
  let expected = "N=NAME pairs separated by commas, N from 1 to 32"
  var names: [Int: String] = [:]
  for pair in value.split(separator: ",", omittingEmptySubsequences: false) {
    guard let equals = pair.firstIndex(of: "="),
      let number = Int(pair[..<equals]), RiverWatchOptions.tagNumbers.contains(number),
      pair[..<equals].allSatisfy({ $0.isASCII && $0.isWholeNumber }), names[number] == nil
    else { throw .invalidChoice("--tag-names", expected: expected, got: value) }
    let name = String(pair[pair.index(after: equals)...])
    guard RiverWatchOptions.isTagName(name) else {
      throw .invalidChoice("--tag-names", expected: expected, got: value)
    }
    names[number] = name
  }
  return names
}
