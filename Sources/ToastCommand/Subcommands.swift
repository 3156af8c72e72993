import ToastModel

/// A subcommand of `wl-toast`, declared once: the parser, `--help`'s
/// synopsis, the completions and the command's choice of configuration read
/// ``all``. Its options are those of ``Option/all`` whose scope has ``scope``.
struct Subcommand: Sendable {
  /// Its words: `hide`, or `watch sway`.
  let words: [String]
  /// The scope of its options.
  let scope: OptionScope
  /// The word it takes after its options, as the synopsis writes it (`bash|zsh|fish`).
  let operand: String?
  /// Whether it hands its arguments over unread, for another program to read
  /// (`nag`: swaynag's command line, `-h` included).
  var passesArguments = false
  /// Whether it is a target that may be given with others of its first word,
  /// each once, in one process (`watch audio media sway`): their invocations
  /// are merged (``merged(_:_:)``).
  var combinesTargets = false
  /// How many words it takes after its options, when it takes an ``operand``
  /// (`notifications invoke ID [ACTION]`: 2).
  var maximumOperands = 1
  /// The invocation from its options' values and its other words.
  let make: @Sendable (OptionValues, [String]) throws(UsageError) -> Invocation

  /// `watch sway`.
  var name: String { words.joined(separator: " ") }

  /// Its options, in the order of ``Option/all``, without `--help` and `--version`.
  var options: [Option] {
    Option.all.filter { $0.scope.contains(scope) && $0.scope != .everyCommand }
  }

  /// `hide [--tag NAME] [--after SECONDS]`.
  var synopsis: String {
    let parts =
      [name]
      + options.map { option in
        switch option.value {
        case .none: "[\(option.flagName)]"
        case .required(let value), .optional(let value): "[\(option.flagName) \(value)]"
        }
      } + (operand.map { [$0] } ?? [])
    return parts.joined(separator: " ")
  }
}

extension Subcommand {
  /// Every subcommand; a first argument that names none starts a toast's command line.
  static let all: [Subcommand] = [
    Subcommand(words: ["hide"], scope: .hide, operand: nil) { values, _ in
      .hide(tag: values.show.tag, after: values.hideDelay)
    },
    Subcommand(words: ["status"], scope: .status, operand: nil) { values, _ in
      .status(tag: values.show.tag)
    },
    Subcommand(
      words: ["watch", "audio"], scope: .watchAudio, operand: nil,
      combinesTargets: true
    ) { _, _ in .watch(WatchRequest(targets: [.audio])) },
    Subcommand(
      words: ["watch", "media"], scope: .watchMedia, operand: nil,
      combinesTargets: true
    ) { _, _ in .watch(WatchRequest(targets: [.media])) },
    Subcommand(
      words: ["watch", "backlight"], scope: .watchBacklight, operand: nil,
      combinesTargets: true
    ) { _, _ in .watch(WatchRequest(targets: [.backlight])) },
    Subcommand(
      words: ["watch", "sway"], scope: .watchSway, operand: nil,
      combinesTargets: true
    ) { values, _ in
      .watch(
        .sway(
          SwayWatchOptions(workspaces: values.workspaces, keyboardLayout: values.keyboardLayout)))
    },
    Subcommand(
      words: ["watch", "river"], scope: .watchRiver, operand: nil,
      combinesTargets: true
    ) { values, _ in
      .watch(
        .river(
          RiverWatchOptions(
            focusedTags: values.focusedTags, urgent: values.urgent, tagNames: values.tagNames)))
    },
    Subcommand(
      words: ["dnd"], scope: .dnd,
      operand: "["
        + listed(DoNotDisturbChange.allCases.map(\.rawValue), separator: "|", last: "|") + "]"
    ) { _, words throws(UsageError) in
      guard let word = words.first else { return .doNotDisturb(nil) }
      guard let change = DoNotDisturbChange(rawValue: word) else {
        throw .invalidChoice(
          "dnd", expected: listed(DoNotDisturbChange.allCases.map(\.rawValue)), got: word)
      }
      return .doNotDisturb(change)
    },
    Subcommand(words: ["daemon"], scope: .daemon, operand: nil) {
      values, _ throws(UsageError) in
      if values.replacesServer && !values.servesNotifications {
        throw .optionNeedsOption("--replace", "--notifications")
      }
      if values.maxHistory != nil && !values.servesNotifications {
        throw .optionNeedsOption("--max-history", "--notifications")
      }
      return .daemon(
        notifications: values.servesNotifications, replace: values.replacesServer,
        maxHistory: values.maxHistory)
    },
    Subcommand(
      words: ["notifications", "list"], scope: .notificationsList, operand: nil
    ) { _, _ in .notifications(.list()) },
    Subcommand(
      words: ["notifications", "history"], scope: .notificationsHistory, operand: nil
    ) { _, _ in .notifications(.history()) },
    Subcommand(
      words: ["notifications", "restore"], scope: .notificationsRestore, operand: nil
    ) { _, _ in .notifications(.restore) },
    Subcommand(
      words: ["notifications", "dismiss"], scope: .notificationsDismiss, operand: "[ID]"
    ) { values, words throws(UsageError) in
      let command = "notifications dismiss"
      if values.allNotifications {
        if let word = words.first { throw .unexpectedArgument(word, command: command) }
        return .notifications(.dismiss(id: nil))
      }
      guard let word = words.first else { throw .missingOperand("ID or --all", command: command) }
      return .notifications(.dismiss(id: try notificationID(word, command: command)))
    },
    Subcommand(
      words: ["notifications", "invoke"], scope: .notificationsInvoke, operand: "ID [ACTION]",
      maximumOperands: 2
    ) { _, words throws(UsageError) in
      let command = "notifications invoke"
      guard let word = words.first else { throw .missingOperand("ID", command: command) }
      return .notifications(
        .invoke(id: try notificationID(word, command: command), action: words.dropFirst().first))
    },
    Subcommand(
      words: ["notifications", "focus"], scope: .notificationsFocus, operand: nil
    ) { _, _ in .notifications(.focus) },
    Subcommand(
      words: ["completions"], scope: .completions,
      operand: listed(Shell.allCases.map { $0.rawValue }, separator: "|", last: "|")
    ) { _, words throws(UsageError) in
      guard let word = words.first, let shell = Shell(rawValue: word) else {
        throw .invalidChoice(
          "completions", expected: listed(Shell.allCases.map { $0.rawValue }),
          got: words.first ?? "")
      }
      return .completions(shell)
    },
    Subcommand(words: ["presets"], scope: .presets, operand: nil) { _, _ in
      .presets
    },
    Subcommand(
      words: ["nag"], scope: .nag, operand: "[SWAYNAG-OPTIONS...]",
      passesArguments: true, make: { _, words in .nag(words) }),
  ]

  /// The subcommand that hands over the arguments after `first`, if it is one.
  static func passingArguments(_ first: String) -> Subcommand? {
    all.first { $0.passesArguments && $0.words == [first] }
  }

  /// The first words of the subcommands (`hide`, `watch`, …), each once, in order.
  static let firstWords: [String] = {
    var seen: [String] = []
    for subcommand in all where !seen.contains(subcommand.words[0]) {
      seen.append(subcommand.words[0])
    }
    return seen
  }()

  /// The subcommand `option` belongs to, for a message, when a toast's command line has it.
  static func owning(_ option: Option) -> Subcommand? {
    all.first { option.scope.contains($0.scope) }
  }
}

/// Whether the first argument names a subcommand (which reads no
/// configuration file, but ``readsConfiguration(_:)``).
package func isSubcommand(_ word: String) -> Bool { Subcommand.firstWords.contains(word) }

/// Whether a subcommand's command line reads the configuration file:
/// `daemon --notifications`, for the notification rules, and `watch`, for
/// the looks of its toasts (`[default]` and the watchers' presets).
func readsConfiguration(_ arguments: [String]) -> Bool {
  (arguments.first == "daemon" && arguments.contains("--notifications"))
    || arguments.first == "watch"
}

/// A notification's id as a command line writes it: 1 to 4294967295.
private func notificationID(_ word: String, command: String) throws(UsageError) -> UInt32 {
  guard let id = UInt32(word), id > 0 else {
    throw .invalidChoice(command, expected: "a notification id (1 to \(UInt32.max))", got: word)
  }
  return id
}

/// Parses the arguments after a subcommand's first word (`first`): its
/// options (only its own), its target (`watch sway`) and its operand.
func parseSubcommand(_ first: String, _ arguments: [String]) throws(UsageError) -> Invocation {
  let candidates = Subcommand.all.filter { $0.words[0] == first }
  let scope = candidates.reduce(OptionScope()) { $0.union($1.scope) }
  var given: [OptionItem] = []
  let words = try scan(arguments, command: first) { (option, input) throws(UsageError) in
    guard option.scope.contains(.everyCommand) || !option.scope.isDisjoint(with: scope) else {
      throw .notApplicable(option.flagName, command: first)
    }
    given.append(OptionItem(option: option, input: input))
  }
  // One subcommand, or a target named by the first word (`watch sway`).
  let targets = candidates.filter { $0.words.count > 1 }
  let subcommand: Subcommand
  var operands = words
  if targets.isEmpty {
    subcommand = candidates[0]
  } else {
    guard let target = targets.first(where: { $0.words[1] == words.first }) else {
      throw .unknownTarget(
        command: first, expected: targets.map { $0.words[1] }, got: words.first ?? "")
    }
    subcommand = target
    operands.removeFirst()
    // Targets that combine take the next words that name others (`watch audio media`).
    var chosen = [target]
    while target.combinesTargets, let word = operands.first,
      let next = targets.first(where: { $0.combinesTargets && $0.words[1] == word })
    {
      guard !chosen.contains(where: { $0.words == next.words }) else {
        throw .repeatedTarget(command: first, word)
      }
      chosen.append(next)
      operands.removeFirst()
    }
    // The first option (in argument order) that none of these targets takes.
    if let item = given.first(where: { item in
      !chosen.contains { item.option.scope.contains($0.scope) }
    }) {
      throw .notApplicable(
        item.option.flagName,
        command: "\(first) " + chosen.map { $0.words[1] }.joined(separator: " "))
    }
    if chosen.count > 1 {
      var values = OptionValues()
      for item in given { try item.option.apply(&values, item.input) }
      if let word = operands.first { throw .unexpectedArgument(word, command: first) }
      var invocation = try chosen[0].make(values, [])
      for next in chosen.dropFirst() {
        invocation = merged(invocation, try next.make(values, []))
      }
      return invocation
    }
  }
  var values = OptionValues()
  for item in given { try item.option.apply(&values, item.input) }
  let maximum = subcommand.operand == nil ? 0 : subcommand.maximumOperands
  if operands.count > maximum {
    throw .unexpectedArgument(operands[maximum], command: first)
  }
  return try subcommand.make(values, operands)
}

/// Two invocations of targets that combine as one: their watch requests' targets, in order.
private func merged(_ first: Invocation, _ second: Invocation) -> Invocation {
  guard case .watch(var request) = first, case .watch(let other) = second else { return first }
  request.targets += other.targets
  return .watch(request)
}
