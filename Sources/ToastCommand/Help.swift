import ToastModel

/// What `wl-toast --help` prints: the synopsis of each subcommand, every
/// option of a toast's command line (from ``Option/all``) and the exit statuses.
package var usageText: String {
  let synopses = Subcommand.all.map { "       wl-toast " + $0.synopsis }
  let options = Option.all.filter { $0.help != nil && $0.scope.contains(.show) }
  return """
    Usage: wl-toast [OPTIONS] MESSAGE...
    \(synopses.joined(separator: "\n"))

    Show MESSAGE in a toast on a Wayland compositor with layer-shell (sway, river,
    Hyprland). The words of MESSAGE are joined with single spaces; a message of
    more than \(Toast.Limits.textLength) characters (Unicode scalars) is cut and ends in "…". MESSAGE
    may be left out when --spinner or --progress is given.

    Options:
    \(options.map(helpEntry).joined(separator: "\n"))

    A value follows its option as the next argument (--timeout 3) or after '='
    (--timeout=3), and may start with '-' (--offset -20,30). Options may come
    anywhere before '--'; every argument after '--' is part of MESSAGE. A toast
    stays 2 s (hud), 0.5 s (banner, bar) or 10 s (card) unless --timeout says
    otherwise; one with buttons stays until one is chosen.

    The first command for a tag shows the toast from a background owner and
    returns once its first frame is on screen; later ones hand their content to
    that owner and return at once. 'hide' exits 0 even when nothing showed;
    'status' prints the toast as JSON and exits 0, or exits 1 when none shows.
    'daemon' runs the display's owner in the foreground and keeps it after its
    last toast, so every toast starts warm (exec wl-toast daemon in a sway or
    river config); it fails when an owner already runs. With --notifications it
    also serves applications' notifications (org.freedesktop.Notifications) as
    cards; an owner already running is asked to, and the command exits 0. It
    fails (status 1, naming the other server) when another owns the name,
    unless --replace takes it from one that allows that; --max-history N keeps
    N ended notifications for restore (5 by default).
    'notifications list' prints one JSON object a line (id, app, summary, body,
    urgency, actions, tag, category); 'history' lists those that expired or
    were dismissed, newest first, and 'restore' shows the newest of them again;
    'dismiss ID|--all' dismisses, 'invoke ID [ACTION]' invokes an action (the
    default one when none is named), 'focus' hands the keyboard to the newest
    notification with actions.
    'watch river' shows river's mode as a banner while it is not normal; with
    --focused-tags also the tags focused after each change ("Tag 2", "Tags 1+3",
    or names from --tag-names 1=web,2=code), with --urgent a tag that gets an
    urgent view. It runs until river exits.
    'watch audio' shows the volume HUD on every change of the sound server's
    default output, whoever made it; 'watch media' the playing track of MPRIS
    players; 'watch backlight' the brightness. One process may follow several:
    wl-toast watch audio media backlight sway. Each takes the looks of its
    preset in the configuration file (volume, media, brightness, sway-mode,
    river-mode).
    'dnd' prints do-not-disturb's state (on or off) after 'on', 'off' or
    'toggle' sets it; while it is on, toasts other than --urgency critical are
    not shown (exit 0, or 4 with --wait), and those on screen go. It lasts
    until turned off or the session ends.
    To show the word "hide" itself, write: wl-toast -- hide

    Exit status:
      0   the toast expired or was hidden (or: handed over, without --wait)
      1   an error, such as no Wayland compositor
      2   the user dismissed the toast
      3   a newer toast with the same tag replaced it (with --wait)
      4   do-not-disturb or a fullscreen window kept it from showing (with --wait)
      10  the user chose the first button (11 the second, ... 17 the eighth)
      64  a usage error
    """
}

/// The width of `--help`'s lines.
private let helpWidth = 80
/// Where the text of an option starts in `--help`.
private let helpColumn = 28

/// An option's lines in `--help`: `  --timeout SECONDS|auto    hide after…`,
/// wrapped at ``helpWidth``; a newline in the option's help starts a new line.
private func helpEntry(_ option: Option) -> String {
  var left = "  " + (option.letter.map { "-\($0), " } ?? "") + option.flagName
  switch option.value {
  case .none: break
  case .required(let value): left += " " + (value.contains(" ") ? "\"\(value)\"" : value)
  case .optional(let value): left = "  \(option.flagName)[=\(value)]"
  }
  var lines: [String] = []
  for paragraph in (option.help ?? option.summary).split(separator: "\n") {
    var line = ""
    for word in paragraph.split(separator: " ") {
      if !line.isEmpty && helpColumn + line.count + 1 + word.count > helpWidth {
        lines.append(line)
        line = ""
      }
      line += (line.isEmpty ? "" : " ") + word
    }
    lines.append(line)
  }
  let indent = String(repeating: " ", count: helpColumn)
  let first =
    left.count + 2 <= helpColumn
    ? left + String(repeating: " ", count: helpColumn - left.count) + lines[0]
    : left + "\n" + indent + lines[0]
  return ([first] + lines.dropFirst().map { indent + $0 }).joined(separator: "\n")
}
