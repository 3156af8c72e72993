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
