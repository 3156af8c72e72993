/// The exit statuses of `wl-toast`.
package enum ExitCode {
  /// The toast expired or was hidden, or help or the version was printed.
  package static let success: Int32 = 0
  /// Something went wrong, such as no Wayland compositor to talk to.
  package static let error: Int32 = 1
  /// The user dismissed the toast (see `--dismiss tap`), or clicked or
  /// tapped a card's body (the outcome `activated`, which `--print-outcome`
  /// tells apart).
  package static let dismissed: Int32 = 2
  /// A newer toast with the same tag replaced it (with `--wait`).
  package static let replaced: Int32 = 3
  /// Do-not-disturb or a fullscreen window kept the toast from showing (with `--wait`).
  package static let suppressed: Int32 = 4
  /// The user chose the toast's first button (`--button`); the second is
  /// one more, and so on up to 17 for the eighth.
  package static let firstButton: Int32 = 10
  /// The command line was wrong (`EX_USAGE`).
  package static let usage: Int32 = 64
}
