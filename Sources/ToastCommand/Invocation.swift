import ToastModel

/// How the command hands a toast over and what it waits for.
public struct ShowOptions: Equatable, Sendable {
  /// The tag: one toast per tag, updated in place by later commands.
  public var tag: String
  /// Stay until the toast is gone and exit with its outcome.
  public var wait: Bool
  /// Also print the outcome (`expired`, `hidden`, `dismissed`, `replaced`); implies ``wait``.
  public var printOutcome: Bool
  /// Read standard input, each line updating the toast, in this format; nil
  /// for no reading.
  public var follow: FollowFormat?
  /// How long an owner with no toast left stays, in seconds.
  public var linger: Double
  /// Draw the toast into a PNG file instead of showing it (`--render-png`).
  public var render: RenderRequest?

  /// The defaults: tag `default`, no waiting, no following, a one-second linger.
  public init(
    tag: String = Toast.defaultTag, wait: Bool = false, printOutcome: Bool = false,
    follow: FollowFormat? = nil,
    linger: Double = 1
  ) {
    self.tag = tag
    self.wait = wait
    self.printOutcome = printOutcome
    self.follow = follow
    self.linger = linger
  }
}

/// A preview drawn into a PNG file without a compositor (`--render-png`).
public struct RenderRequest: Equatable, Sendable {
  /// The PNG file to write.
  public var path: String
  /// Pixels per logical pixel (`--scale`, 1 to 4, fractions allowed).
  public var scale: Double
  /// The logical size of the output the toast is laid out for (`--size`).
  public var outputWidth: Int
  /// The logical size of the output the toast is laid out for (`--size`).
  public var outputHeight: Int

  /// A request with the defaults: scale 1, a 1280x720 output.
  public init(path: String, scale: Double = 1, outputWidth: Int = 1280, outputHeight: Int = 720) {
    self.path = path
    self.scale = scale
    self.outputWidth = outputWidth
    self.outputHeight = outputHeight
  }

  /// The scales a preview may be drawn at.
  public static let scales: ClosedRange<Double> = 1...4
  /// The output sizes a preview may be laid out for, each side.
  public static let sizes: ClosedRange<Int> = 64...16_384
}

/// How `--follow` reads the lines of standard input.
public enum FollowFormat: String, Equatable, Sendable, CaseIterable {
  /// Each line is the new message, even one that looks like JSON.
  case text
  /// Each line is a JSON object setting some of ``Toast/followFields``.
  case json
}

/// What a `wl-toast` command line asks for.
public enum Invocation: Equatable, Sendable {
  /// Show this toast (or update the one with the same tag).
  case show(Toast, ShowOptions)
  /// Hide the toast with a tag, at once or after some seconds (`wl-toast hide`).
  case hide(tag: String, after: Double?)
  /// Report whether a toast with a tag is showing (`wl-toast status`).
  case status(tag: String)
  /// Show sway's binding mode (and optionally workspace changes) as toasts (`wl-toast watch sway`).
  case watchSway(workspaces: Bool)
  /// Show river's mode (and optionally focused-tag changes and urgent tags) as
  /// toasts (`wl-toast watch river`); `tagNames` names tags by number (1 to 32).
  case watchRiver(focusedTags: Bool, urgent: Bool, tagNames: [Int: String])
  /// Become the display's resident owner, which never lingers out (`wl-toast daemon`).
  case daemon
  /// Print the completion script for a shell (`wl-toast completions bash`).
  case completions(Shell)
  /// Print the configuration file's preset names, one a line (for completions).
  case presets
  /// Print ``usageText`` and exit with ``ExitCode/success``.
  case help
  /// Print ``versionText`` and exit with ``ExitCode/success``.
  case version
}

/// The exit statuses of `wl-toast`.
public enum ExitCode {
  /// The toast expired or was hidden, or help or the version was printed.
  public static let success: Int32 = 0
  /// Something went wrong, such as no Wayland compositor to talk to.
  public static let error: Int32 = 1
  /// The user dismissed the toast (see `--dismiss tap`).
  public static let dismissed: Int32 = 2
  /// A newer toast with the same tag replaced it (with `--wait`).
  public static let replaced: Int32 = 3
  /// The command line was wrong (`EX_USAGE`).
  public static let usage: Int32 = 64
}

/// What `wl-toast --version` prints.
public let versionText = "wl-toast \(Toast.version)"
