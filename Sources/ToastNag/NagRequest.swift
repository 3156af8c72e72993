import ToastModel

/// What `wl-toast nag` shows: swaynag's bar, as
/// ``parseNag(_:environment:readStandardInput:readFile:)`` reads it from the
/// command line, the configuration file and standard input.
public struct NagRequest: Equatable, Sendable {
  /// The edge of the output the bar is anchored to (`-e`, `--edge`).
  public enum Edge: String, Equatable, Sendable, CaseIterable {
    /// Along the top edge (swaynag's default).
    case top
    /// Along the bottom edge.
    case bottom
  }

  /// The layer-shell layer the bar is drawn in (`-y`, `--layer`).
  public enum Layer: String, Equatable, Sendable, CaseIterable {
    /// Above everything, fullscreen windows included.
    case overlay
    /// Above windows, below fullscreen windows (swaynag's default).
    case top
    /// Below windows, above the wallpaper.
    case bottom
    /// The wallpaper's layer.
    case background
  }

  /// The message (`-m`).
  public var message: String
  /// The detailed message read from standard input (`-l`); nil for none, and
  /// then the bar has no details button.
  public var details: String?
  /// The label of the button that shows and hides ``details`` (`-L`).
  public var detailsButton = "Toggle details"
  /// The label of the dismiss button (`-s`), the bar's rightmost.
  public var dismissButton = "X"
  /// The buttons of `-b`, `-B`, `-z` and `-Z`, in the order given (the
  /// configuration file's first); neither the dismiss nor the details button.
  public var buttons: [NagButton] = []
  /// The edge the bar is anchored to.
  public var edge = Edge.top
  /// The layer the bar is drawn in.
  public var layer = Layer.top
  /// A Pango font description (swaynag's `pango:` prefix removed).
  public var font = "Monospace 10"
  /// The name of the output to show the bar on (`-o`); nil for the compositor's choice.
  public var output: String?
  /// The chosen type's name, as the types list spells it (`-t WARNING` gives `warning`).
  public var typeName = "error"
  /// Whether `-d` was given.
  public var debug = false
  /// The colours and sizes: the defaults, the configuration file's global
  /// part, the chosen type and the command line's options, merged as swaynag merges them.
  public var look: Toast.BarLook
  /// What went wrong without stopping the bar (an unreadable configuration
  /// file), one line each, for standard error.
  public var warnings: [String] = []

  /// Creates a request; every other setting has swaynag's default.
  public init(message: String, look: Toast.BarLook) {
    self.message = message
    self.look = look
  }
}

/// A button of the bar with a shell command to run when pressed.
public struct NagButton: Equatable, Sendable {
  /// The label.
  public var label: String
  /// The command, for `sh -c`.
  public var action: String
  /// Whether the command runs inside `$TERMINAL` (when set): `-b` and `-z`,
  /// as swaynag's manual and usage say (its code does it for `-b` alone).
  public var inTerminal = false
  /// Whether pressing the button also dismisses the bar (`-z`, `-Z`).
  public var dismisses = false

  /// Creates a button that runs its command directly and leaves the bar, as `-B` gives.
  public init(label: String, action: String) {
    self.label = label
    self.action = action
  }
}

/// What a `wl-toast nag` command line asks for.
public enum NagInvocation: Equatable, Sendable {
  /// Show this bar.
  case show(NagRequest)
  /// Print ``nagUsage`` on standard output and exit with status 0 (`-h`).
  case help
  /// Print ``nagVersion`` on standard output and exit with status 0 (`-v`).
  case version
}

/// Why a `wl-toast nag` command line, configuration file or standard input
/// was refused.
public struct NagError: Error, Equatable, Sendable, CustomStringConvertible {
  /// What is wrong, on one line, without the program's name.
  public var message: String
  /// The status to exit with: ``failureStatus`` where swaynag exits with
  /// EXIT_FAILURE, ``usageStatus`` for the rest.
  public var exitStatus: Int32

  /// The status where swaynag itself fails (a button without its action, an
  /// invalid edge or layer, an unknown type, no message, a missing bracket).
  public static let failureStatus: Int32 = 1
  /// The status of a command line or value refused (EX_USAGE).
  public static let usageStatus: Int32 = 64

  /// Creates an error.
  public init(_ message: String, exitStatus: Int32) {
    self.message = message
    self.exitStatus = exitStatus
  }

  /// The message.
  public var description: String { message }
}
