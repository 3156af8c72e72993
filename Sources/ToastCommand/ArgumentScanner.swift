/// One argument of a command line, as the scanner sees it.
enum Token {
  /// A known option, with the value given after `=`, if any.
  case option(Option, inlineValue: String?)
  /// Something that starts with `-` but is no option.
  case unknown(String)
  /// `--`.
  case endOfOptions
  /// A word of the message (or of a subcommand).
  case word(String)
}

/// What one argument is: an option of ``Option/all`` (by `--NAME`,
/// `--NAME=VALUE` or its letter), something else with a dash, `--`, or a word.
func classify(_ argument: String) -> Token {
  if argument == "--" { return .endOfOptions }
  if argument.hasPrefix("--") {
    let name: Substring
    var value: String?
    // The `=` found among the bytes, and the text cut there as bytes: a
    // search or a cut by characters would break the text into grapheme
    // clusters first, and a mark that combines with the `=` would go with it.
    let bytes = argument.utf8
    if let equals = bytes.firstIndex(of: UInt8(ascii: "=")) {
      name = Substring(bytes[..<equals])
      value = String(Substring(bytes[bytes.index(after: equals)...]))
    } else {
      name = Substring(argument)
    }
    guard let option = Option.named(name.dropFirst(2)) else {
      return .unknown(String(name))
    }
    return .option(option, inlineValue: value)
  }
  if argument.count == 2, argument.first == "-",
    let option = Option.all.first(where: { $0.letter == argument.last })
  {
    return .option(option, inlineValue: nil)
  }
  if argument.hasPrefix("-") && argument != "-" { return .unknown(argument) }
  return .word(argument)
}

/// Walks the arguments in order: hands each option and what was said of it
/// to `handle`, returns the other words. `command` names a subcommand in
/// messages.
func scan(
  _ arguments: [String], command: String?,
  _ handle: (Option, OptionInput) throws(UsageError) -> Void
) throws(UsageError) -> [String] {
  var words: [String] = []
  var index = arguments.startIndex
  while index < arguments.endIndex {
    let argument = arguments[index]
    index += 1
    switch classify(argument) {
    case .endOfOptions:
      words += arguments[index...]
      index = arguments.endIndex
    case .word(let word):
      words.append(word)
    case .unknown(let name):
      throw .unknownOption(name, command: command)
    case .option(let option, let inlineValue):
      switch (option.valueKind, inlineValue) {
      case (.none, let value?):
        throw .valueForFlag(option.flagName, value: value)
      case (.none, nil), (.optional, nil):
        try handle(option, .on)
      case (.optional, let value?), (.required, let value?):
        try handle(option, .value(value))
      case (.required, nil):
        guard index < arguments.endIndex else {
          throw .missingValue(option.flagName, expected: option.valueName())
        }
        try handle(option, .value(arguments[index]))
        index += 1
      }
    }
  }
  return words
}

/// Visits the options of `arguments` in order, each with the value given
/// after `=` and the index of its argument, skipping the values of options
/// that take one (`--font --help` sets the font) and stopping at `--` or when
/// `visit` returns false.
private func visitOptions(
  in arguments: [String], _ visit: (Option, _ inlineValue: String?, _ index: Int) -> Bool
) {
  var index = arguments.startIndex
  while index < arguments.endIndex {
    switch classify(arguments[index]) {
    case .endOfOptions:
      return
    case .option(let option, let inlineValue):
      guard visit(option, inlineValue, index) else { return }
      if inlineValue == nil, option.valueKind == .required { index += 1 }
    case .unknown, .word:
      break
    }
    index += 1
  }
}

/// The first `--help` or `--version` among the options.
func helpOrVersion(in arguments: [String]) -> Invocation? {
  var found: Invocation?
  visitOptions(in: arguments) { option, inlineValue, _ in
    guard inlineValue == nil else { return true }
    switch option.name {
    case "help": found = .help
    case "version": found = .version
    default: return true
    }
    return false
  }
  return found
}

/// Whether the command line asks for no file, another file or the default one.
package enum ConfigChoice: Equatable, Sendable {
  /// `--no-config`.
  case none
  /// `--config PATH`.
  case file(String)
  /// Neither: ``Config/defaultPath``.
  case standard
}

/// The configuration file the arguments ask for (the last `--config` or
/// `--no-config` wins), found before the rest is parsed.
package func configChoice(in arguments: [String]) -> ConfigChoice {
  var choice = ConfigChoice.standard
  visitOptions(in: arguments) { option, inlineValue, index in
    switch (option.name, inlineValue) {
    case ("no-config", _): choice = .none
    case ("config", let path?): choice = .file(path)
    case ("config", nil) where index + 1 < arguments.endIndex:
      choice = .file(arguments[index + 1])
    default: break
    }
    return true
  }
  return choice
}
