import ToastModel

/// swaynag's options, in its table's order (which error messages list them in).
enum NagOption: String, CaseIterable {
  case button
  case buttonNoTerminal = "button-no-terminal"
  case buttonDismiss = "button-dismiss"
  case buttonDismissNoTerminal = "button-dismiss-no-terminal"
  case config
  case debug
  case edge
  case layer
  case font
  case help
  case detailedMessage = "detailed-message"
  case detailedButton = "detailed-button"
  case message
  case output
  case dismissButton = "dismiss-button"
  case type
  case version
  case background
  case border
  case borderBottom = "border-bottom"
  case buttonBackground = "button-background"
  case text
  case buttonText = "button-text"
  case borderBottomSize = "border-bottom-size"
  case messagePadding = "message-padding"
  case detailsBorderSize = "details-border-size"
  case detailsBackground = "details-background"
  case buttonBorderSize = "button-border-size"
  case buttonGap = "button-gap"
  case buttonDismissGap = "button-dismiss-gap"
  case buttonMarginRight = "button-margin-right"
  case buttonPadding = "button-padding"

  /// The short option's letter, for those that have one.
  var letter: Unicode.Scalar? {
    switch self {
    case .button: "b"
    case .buttonNoTerminal: "B"
    case .buttonDismiss: "z"
    case .buttonDismissNoTerminal: "Z"
    case .config: "c"
    case .debug: "d"
    case .edge: "e"
    case .layer: "y"
    case .font: "f"
    case .help: "h"
    case .detailedMessage: "l"
    case .detailedButton: "L"
    case .message: "m"
    case .output: "o"
    case .dismissButton: "s"
    case .type: "t"
    case .version: "v"
    default: nil
    }
  }

  /// Whether the option takes a value (getopt's required_argument); none
  /// takes an optional one.
  var takesValue: Bool {
    switch self {
    case .debug, .help, .detailedMessage, .version: false
    default: true
    }
  }

  /// Whether the option adds a button, whose action is the next word.
  var isButton: Bool {
    switch self {
    case .button, .buttonNoTerminal, .buttonDismiss, .buttonDismissNoTerminal: true
    default: false
    }
  }

  /// The option as `--long`.
  var long: String { "--" + rawValue }

  /// The option of a short letter.
  static func lettered(_ letter: Unicode.Scalar) -> NagOption? {
    allCases.first { $0.letter == letter }
  }

  /// The options a long name given on the command line stands for, as
  /// getopt_long finds them: the one of exactly that name, else every option
  /// the name begins (one is a match, more are ambiguous, none unknown).
  static func matching(_ name: String) -> [NagOption] {
    if let exact = allCases.first(where: { $0.rawValue.utf8.elementsEqual(name.utf8) }) {
      return [exact]
    }
    return allCases.filter { $0.rawValue.utf8.starts(with: name.utf8) }
  }
}

/// One option met on a command line or configuration line, with its value
/// and, for a button, its action (nil when the words ran out).
struct NagOccurrence: Equatable {
  var option: NagOption
  var value: String?
  var action: String?
}

/// The options of a command line in order, up to the first the scan refused.
struct NagScan: Equatable {
  /// The options before the failure.
  var occurrences: [NagOccurrence] = []
  /// Why the scan stopped early: an unknown or ambiguous option, a value
  /// missing or not expected; nil when every word was read.
  var failure: NagError?
}

/// Reads words as glibc's getopt_long reads them for swaynag's option string
/// `b:B:z:Z:c:de:y:f:hlL:m:o:s:t:v` and long options: `-mTEXT` and
/// `-m TEXT`, `--message=TEXT` and `--message TEXT`, clustered flags (`-dl`),
/// unambiguous prefixes of long names, `--` to end the options, and words
/// that are not options skipped (GNU permutation) unless `inOrder` (the
/// environment's POSIXLY_CORRECT), which stops at the first. A button's
/// action is the word after its label whatever it is (swaynag's `optind++`).
func scanNagOptions(_ words: [String], inOrder: Bool) -> NagScan {
  var scan = NagScan()
  var index = 0

  /// The next word as a value, or the failure of its absence.
  func takeValue(for option: NagOption, written: String) -> String? {
    guard index < words.count else {
      scan.failure = NagError(
        "option \(written) needs a value", exitStatus: NagError.usageStatus)
      return nil
    }
    index += 1
    return words[index - 1]
  }

  /// Records an option, taking a button's action from the next word.
  func record(_ option: NagOption, value: String?) {
    var action: String?
    if option.isButton, index < words.count {
      action = words[index]
      index += 1
    }
    scan.occurrences.append(NagOccurrence(option: option, value: value, action: action))
  }

  while index < words.count, scan.failure == nil {
    // Bytes decide, as in getopt: a combining mark after '-' or '=' is no
    // part of it.
    let word = words[index]
    let scalars = word.unicodeScalars
    if scalars.elementsEqual("--".unicodeScalars) { break }
    guard scalars.first == "-", scalars.count > 1 else {
      if inOrder { break }
      index += 1
      continue
    }
    index += 1
    if scalars.starts(with: "--".unicodeScalars) {
      let body = scalars.dropFirst(2)
      let name = String(String.UnicodeScalarView(body.prefix { $0 != "=" }))
      let equals = body.firstIndex(of: "=")
      let attached = equals.map {
        String(String.UnicodeScalarView(body[scalars.index(after: $0)...]))
      }
      let candidates = NagOption.matching(name)
      guard let option = candidates.first else {
        scan.failure = NagError(
          "unknown option \(Toast.quoted("--" + name))", exitStatus: NagError.usageStatus)
        break
      }
      guard candidates.count == 1 else {
        let names = candidates.map(\.long)
        scan.failure = NagError(
          "ambiguous option \(Toast.quoted("--" + name)) (could be "
            + names.dropLast().joined(separator: ", ") + " or \(names.last!))",
          exitStatus: NagError.usageStatus)
        break
      }
      if !option.takesValue {
        guard attached == nil else {
          scan.failure = NagError(
            "option \(option.long) takes no value", exitStatus: NagError.usageStatus)
          break
        }
        record(option, value: nil)
      } else if let value = attached ?? takeValue(for: option, written: option.long) {
        record(option, value: value)
      }
      continue
    }
    // A cluster of short options: flags, then at most one option with a value.
    let letters = Array(scalars.dropFirst())
    for (position, letter) in letters.enumerated() {
      guard let option = NagOption.lettered(letter) else {
        scan.failure = NagError(
          "unknown option \(Toast.quoted("-" + String(letter)))",
          exitStatus: NagError.usageStatus)
        break
      }
      guard option.takesValue else {
        record(option, value: nil)
        continue
      }
      var rest = String.UnicodeScalarView()
      rest.append(contentsOf: letters[(position + 1)...])
      if !rest.isEmpty {
        record(option, value: String(rest))
      } else if let value = takeValue(for: option, written: "-" + String(letter)) {
        record(option, value: value)
      }
      break
    }
  }
  return scan
}

/// An option of `wl-toast nag`, as its help, manual and completions name it.
public struct NagOptionInfo: Equatable, Sendable {
  /// The long name without its dashes (`message`).
  public let name: String
  /// The short option's letter (`m`), for those that have one.
  public let letter: Character?
  /// Whether it takes a value (a button takes two words: TEXT and ACTION).
  public let takesValue: Bool
  /// The values it takes, when they are a short list.
  public let choices: [String]
}

/// Every option of `wl-toast nag`: swaynag's, in its table's order, then
/// wl-toast's own (`--keyboard`, `--no-animation`, `--render-png`, `--scale`,
/// read by the owner).
public let nagOptions: [NagOptionInfo] =
  NagOption.allCases.map { option in
    let choices: [String] =
      switch option {
      case .edge: ["top", "bottom"]
      case .layer: ["overlay", "top", "bottom", "background"]
      case .type: ["error", "warning"]
      default: []
      }
    return NagOptionInfo(
      name: option.rawValue, letter: option.letter.map(Character.init),
      takesValue: option.takesValue, choices: choices)
  } + [
    NagOptionInfo(
      name: "keyboard", letter: nil, takesValue: true, choices: ["exclusive", "on-demand", "none"]),
    NagOptionInfo(name: "no-animation", letter: nil, takesValue: false, choices: []),
    NagOptionInfo(name: "render-png", letter: nil, takesValue: true, choices: []),
    NagOptionInfo(name: "scale", letter: nil, takesValue: true, choices: []),
  ]
