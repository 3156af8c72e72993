// The table of `wl-toast nag`'s options, apart from the rest of ToastNag: the
// command reads it for its completion scripts without linking the nag's
// parser, types and configuration reader (the static command's --version
// took 476 KiB more peak memory with them).

/// swaynag's options, in its table's order (which error messages list them in).
package enum NagOption: String, CaseIterable, Sendable {
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
  package var letter: Unicode.Scalar? {
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
  package var takesValue: Bool {
    switch self {
    case .debug, .help, .detailedMessage, .version: false
    default: true
    }
  }

  /// Whether the option adds a button, whose action is the next word.
  package var isButton: Bool {
    switch self {
    case .button, .buttonNoTerminal, .buttonDismiss, .buttonDismissNoTerminal: true
    default: false
    }
  }

  /// The option as `--long`.
  package var long: String { "--" + rawValue }

  /// The option of a short letter.
  package static func lettered(_ letter: Unicode.Scalar) -> NagOption? {
    allCases.first { $0.letter == letter }
  }

  /// The options a long name given on the command line stands for, as
  /// getopt_long finds them: the one of exactly that name, else every option
  /// the name begins (one is a match, more are ambiguous, none unknown).
  package static func matching(_ name: String) -> [NagOption] {
    if let exact = allCases.first(where: { $0.rawValue.utf8.elementsEqual(name.utf8) }) {
      return [exact]
    }
    return allCases.filter { $0.rawValue.utf8.starts(with: name.utf8) }
  }
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
