import ToastModel

/// How the command hands a toast over and what it waits for.
package struct ShowOptions: Equatable, Sendable {
  /// The tag: one toast per tag, updated in place by later commands.
  package var tag = Toast.defaultTag
  /// Stay until the toast is gone and exit with its outcome.
  package var wait = false
  /// Also print the outcome (`expired`, `hidden`, `dismissed`, `replaced`,
  /// `button:LABEL`); implies ``wait``.
  package var printOutcome = false
  /// Read standard input, each line updating the toast, in this format; nil
  /// for no reading.
  package var follow: FollowFormat?
  /// How long an owner with no toast left stays, in seconds.
  package var linger = 1.0
  /// Draw the toast into a PNG file instead of showing it (`--render-png`).
  package var render: RenderRequest?

  /// The defaults (tag `default`, no waiting, a one-second linger), reading
  /// standard input as `follow` says.
  package init(follow: FollowFormat? = nil) {
    self.follow = follow
  }
}

/// What a `wl-toast` command line asks for.
package enum Invocation: Equatable, Sendable {
  /// Show this toast (or update the one with the same tag).
  case show(Toast, ShowOptions)
  /// Hide the toast with a tag, at once or after some seconds (`wl-toast hide`).
  case hide(tag: String, after: Double?)
  /// Report whether a toast with a tag is showing (`wl-toast status`).
  case status(tag: String)
  /// Show a compositor's modes (and what else the request asks) as toasts
  /// (`wl-toast watch sway`, `wl-toast watch river`).
  case watch(WatchRequest)
  /// Print do-not-disturb's state, after changing it as asked (`wl-toast dnd
  /// on|off|toggle`); nil only prints it.
  case doNotDisturb(DoNotDisturbChange?)
  /// Become the display's resident owner, which never lingers out (`wl-toast
  /// daemon`); with `notifications`, one that also serves applications'
  /// notifications, taking the bus name from another server with `replace`,
  /// keeping `maxHistory` ended ones for restore when given (`--max-history`).
  case daemon(notifications: Bool, replace: Bool, maxHistory: Int? = nil)
  /// Ask the owner's notification server (`wl-toast notifications
  /// list|history|restore|dismiss|invoke|focus`).
  case notifications(NotificationsRequest)
  /// Print the completion script for a shell (`wl-toast completions bash`).
  case completions(Shell)
  /// Print the configuration file's preset names, one a line (for completions).
  case presets
  /// Show swaynag's bar with swaynag's command line, in the program that
  /// draws (`wl-toast nag`, as sway's `swaynag_command`).
  case nag([String])
  /// Print ``usageText`` and exit with ``ExitCode/success``.
  case help
  /// Print ``versionText`` and exit with ``ExitCode/success``.
  case version
}

/// What `wl-toast dnd` does to do-not-disturb before printing it.
package enum DoNotDisturbChange: String, Equatable, Sendable, CaseIterable {
  /// Turns it on.
  case on
  /// Turns it off.
  case off
  /// Turns it on when off, off when on.
  case toggle

  /// The state after the change, from the state before.
  package func applied(to state: DoNotDisturb) -> DoNotDisturb {
    switch self {
    case .on: .on
    case .off: .off
    case .toggle: state.toggled
    }
  }
}

/// What `wl-toast --version` prints.
package let versionText = "wl-toast \(Toast.version)"
