import ToastModel

/// A command line that `wl-toast` cannot run; always ``ExitCode/usage``.
package enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An option no command has, and the subcommand it was given to, if any.
  case unknownOption(String, command: String?)
  /// A value given to an option that takes none.
  case valueForFlag(String, value: String)
  /// An option at the end of the line without its value, and what the value stands for.
  case missingValue(String, expected: String)
  /// An option's value outside the setting's limits.
  case invalidValue(Toast.InvalidValue)
  /// An option of another subcommand: the option and where it belongs.
  case misplacedOption(String, belongsTo: String)
  /// An option that the subcommand does not take.
  case notApplicable(String, command: String)
  /// A word the subcommand does not take.
  case unexpectedArgument(String, command: String)
  /// A subcommand's first word (`watch`, `notifications`) followed by none
  /// of its targets: the word, the targets, what was given.
  case unknownTarget(command: String, expected: [String], got: String)
  /// A target given twice (`watch audio audio`).
  case repeatedTarget(command: String, String)
  /// A word the subcommand needs and did not get: what it stands for.
  case missingOperand(String, command: String)
  /// An option given without the option it needs (`--replace` without `--notifications`).
  case optionNeedsOption(String, String)
  /// No message, and neither a spinner nor a progress bar.
  case missingMessage
  /// `--dim` without `--modal`.
  case dimWithoutModal
  /// `--scale` or `--size` without `--render-png`.
  case renderOptionWithoutFile
  /// An option's value that is none of its choices: the option, the choices, the value.
  case invalidChoice(String, expected: String, got: String)
  /// `--preset` names no preset of the configuration file (or there is none).
  case unknownPreset(String, among: [String], file: String?)
  /// A configuration key that is no option.
  case unknownConfigKey(String)

  /// What is wrong, without the program name, such as
  /// `--timeout: expected seconds from 0 to 86400, or auto, got '-1'`.
  package var message: String {
    switch self {
    case .unknownOption(let name, let command):
      "\(command.map { "\($0): " } ?? "")unknown option \(Toast.quoted(name))"
    case .valueForFlag(let option, let value):
      "\(option): takes no value, got \(Toast.quoted(value))"
    case .missingValue(let option, let expected): "\(option): missing value (\(expected))"
    case .invalidValue(let invalid): "--\(invalid.setting.rawValue): \(invalid.reason)"
    case .misplacedOption(let option, let place): "\(option) belongs to '\(place)'"
    case .notApplicable(let option, let command): "\(command): \(option) does not apply here"
    case .unexpectedArgument(let word, let command):
      "\(command): unexpected argument \(Toast.quoted(word))"
    case .unknownTarget(let command, let targets, let word):
      "\(command): expected \(listed(targets.map { Toast.quoted($0) })),"
        + " got \(Toast.quoted(word))"
    case .repeatedTarget(let command, let word): "\(command): \(Toast.quoted(word)) given twice"
    case .missingOperand(let what, let command): "\(command): missing \(what)"
    case .optionNeedsOption(let option, let needed): "\(option) needs \(needed)"
    case .missingMessage: "missing MESSAGE (needed unless --spinner or --progress is given)"
    case .dimWithoutModal: "--dim needs --modal"
    case .renderOptionWithoutFile: "--scale and --size need --render-png"
    case .invalidChoice(let option, let expected, let value):
      "\(option): expected \(expected), got \(Toast.quoted(value))"
    case .unknownPreset(let name, let names, let file):
      if let file {
        "--preset: no preset \(Toast.quoted(name)) in \(file) (presets: "
          + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")"
      } else {
        "--preset: no preset \(Toast.quoted(name)): there is no configuration file"
      }
    case .unknownConfigKey(let key): "unknown key \(Toast.quoted(key))"
    }
  }

  /// One line for standard error: `wl-toast: ` and the message.
  package var description: String { "wl-toast: \(message)" }
}
