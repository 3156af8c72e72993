import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// The report: the Markdown table, its notes, the machine, and the JSON.

@MainActor func report() {

  stopEverything()

  /// The rows in order: key, title, unit, decimals.
  let rows: [(String, String, String, Int)] = [
    ("first", "first toast, nothing running: exec → frame with content", "ms", 1),
    ("first-start", "… of which exec → get_registry (process start)", "ms", 2),
    ("first-roundtrips", "… get_registry → first configure", "ms", 2),
    ("first-draw", "… configure → frame committed", "ms", 2),
    ("first-trace", "first toast by wl-toast's own frame trace (check)", "ms", 1),
    ("first-quiet", "first toast without WAYLAND_DEBUG, by the frame trace", "ms", 1),
    ("first-a11y", "… the same beside an accessibility bus, no screen reader on", "ms", 1),
    ("first-reader", "… the same with a screen reader on", "ms", 1),
    ("announced", "… first frame → the screen reader hears the announcement", "ms", 1),
    ("cpu-update-silent", "owner's CPU per update, no screen reader", "ms", 2),
    ("cpu-update-announced", "owner's CPU per update, announced to a screen reader", "ms", 2),
    ("nag-first", "a bar: wl-toast nag -m beside swaynag -m, exec → frame", "ms", 1),
    ("first-exit", "first toast: exec → command exits", "ms", 1),
    ("resident", "first toast, owner/daemon already running", "ms", 1),
    ("resident-exit", "… exec → command exits", "ms", 1),
    ("update", "update of a showing toast: exec → new frame", "ms", 1),
    ("update-reached", "… of which exec → the showing process's first commit", "ms", 2),
    ("update-exit", "update: exec → command exits", "ms", 1),
    ("rss-showing", "peak RSS of the showing process", "MiB", 1),
    ("rss-update", "peak RSS of an update command", "MiB", 1),
    ("frame-spinner-1", "render per frame, HUD spinner, scale 1", "ms", 2),
    ("frame-spinner-2", "render per frame, HUD spinner, scale 2", "ms", 2),
    ("frame-countdown-2", "render per frame, HUD countdown line, scale 2", "ms", 2),
    ("frame-banner", "render per frame, banner slide", "ms", 2),
    ("commits-per-frame", "commits per frame callback (all frames above)", "count", 0),
    ("wakeups", "wake-ups while static (context switches in 2 s)", "count", 0),
    ("wakeups-idle", "wake-ups of a resident owner, nothing shown (2 s)", "count", 0),
    ("version", "--version: exec → exit", "ms", 1),
    ("size-showing", "binary size, showing program", "KiB", 0),
    ("stripped-showing", "… stripped", "KiB", 0),
    ("libraries-showing", "shared libraries (ldd), showing program", "count", 0),
    ("size-update", "binary size, update command", "KiB", 0),
    ("stripped-update", "… stripped", "KiB", 0),
    ("libraries-update", "shared libraries (ldd), update command", "count", 0),
  ]
  /// The rows of the notification server beside mako, in order.
  let serverRows: [(String, String, String, Int)] = [
    ("notify-new", "notify-send → the new card's first frame, server resident", "ms", 1),
    (
      "notify-new-client", "… of which exec → its Notify call on the bus (notify-send's part)",
      "ms", 2
    ),
    ("notify-new-server", "… and that call → the frame (the server's part)", "ms", 2),
    ("notify-new-exit", "… notify-send exec → exit (its reply)", "ms", 1),
    ("notify-update", "notify-send --replace-id → the card's new frame", "ms", 1),
    ("notify-update-reached", "… of which exec → the server's first commit", "ms", 2),
    (
      "notify-update-server", "… its Notify call on the bus → the frame (the server's part)", "ms",
      2
    ),
    ("notify-update-exit", "… notify-send exec → exit", "ms", 1),
    ("notify-rss-start", "server's peak RSS once on the bus, before any card", "MiB", 1),
    ("notify-rss-1", "server's peak RSS, 1 notification showing", "MiB", 1),
    ("notify-rss-10", "server's peak RSS, 10 notifications sent", "MiB", 1),
    ("notify-rss-growth", "… growth from 1 to 10 (per round)", "MiB", 2),
    ("notify-surfaces-10", "surfaces on screen with the 10", "count", 0),
    ("notify-wakeups-static", "wake-ups with the 10 static (2 s)", "count", 0),
    ("notify-wakeups-idle", "wake-ups with every card gone (2 s)", "count", 0),
  ]
  /// The rows of `watch audio` beside the key binding it replaces, in order.
  let watcherRows: [(String, String, String, Int)] = [
    ("watch-audio", "pactl set-sink-volume exec → the volume HUD's new frame", "ms", 1),
    ("watch-audio-cpu", "the watcher's CPU per volume change", "ms", 3),
    ("watch-audio-wakeups", "the watcher's wake-ups while nothing changes (2 s)", "count", 0),
    ("watch-audio-rss", "the watcher's peak RSS", "MiB", 1),
  ]
  @MainActor func collected(_ rows: [(String, String, String, Int)]) -> [Figure] {
    rows.map { key, title, unit, decimals in
      var figure = Figure(key, title, unit: unit, decimals: decimals)
      figure.samples = figures[key]?.samples ?? [:]
      return figure
    }
  }
  let ordered = collected(rows)
  let serverFigures = collected(serverRows)
  let watcherFigures = collected(watcherRows)
  let watcherNotes = [
    "watch audio: wl-toast watch audio following a PulseAudio server of its own (two null "
      + "sinks); the wl-toast column execs pactl set-sink-volume of the default sink, the "
      + "other column a key binding's glue, sh -c \"pactl set-sink-volume OTHER N% && "
      + "v=$(pactl get-sink-volume OTHER | …) && wl-toast --tag volume --progress $v …\" on "
      + "the second sink, which the watcher does not follow; both to the same owner's frame "
      + "(its WAYLAND_DEBUG log). CPU per change: the watcher's threads' schedstat over 50 "
      + "changes 20 ms apart; wake-ups: its context switches in 2 s, nothing changing."
  ]

  let serverNotes = [
    "The notification server: wl-toast daemon --notifications (its process becomes the "
      + "owner) beside mako 1.7, one after the other on the same private bus with D-Bus "
      + "activation off; each round starts each server, waits until it owns "
      + "org.freedesktop.Notifications, shows and dismisses one notification (warm), then "
      + "measures, then stops it and waits until the name is free.",
    "Every notification is notify-send --print-id --expire-time=0 (stays until dismissed "
      + "on both); the new card and its update are timed with nothing else showing, the "
      + "update 0.4 s after the card (past wl-toast's 0.2 s fade-in, whose first frame is "
      + "the one timed for a new card).",
    "10 notifications sent: wl-toast and mako at their defaults show 5 cards and hold 5 "
      + "(wl-toast in 5 surfaces, mako in 1); \"mako, 10 visible\" is mako with "
      + "max-visible=10 in its configuration, all 10 drawn. Peak RSS is VmHWM 0.2 s after "
      + "the update (1) and 0.6 s after the tenth notify-send (10).",
    "The server's part: from the Notify call as a bus monitor (dbus-monitor --profile on the "
      + "same bus, realtime clock) read it to the server's frame; the monitor reads each "
      + "message as the server does, so the same delay is in both servers' figures.",
    "Wake-ups: context switches of the server (all threads) in 2 s, in the first "
      + "\(windows) rounds: with the 10 static, then 0.5 s after every card is dismissed.",
  ]

  /// The issue's budgets for the notification server, from the medians above.
  @MainActor func serverBudgets() -> [String] {
    func median(_ key: String, _ tool: String) -> Double? {
      serverFigures.first { $0.key == key }?.summary(tool)?.median
    }
    var lines: [String] = []
    for (text, key, budget) in [
      ("new card's first frame ÷ mako's", "notify-new", 0.8),
      ("update by replaces_id ÷ mako's", "notify-update", 0.8),
      ("peak RSS with 10 notifications ÷ mako's (both at their defaults)", "notify-rss-10", 1.2),
    ] {
      guard let ours = median(key, "wl-toast"), let theirs = median(key, "mako"), theirs > 0
      else { continue }
      let ratio = ours / theirs
      lines.append(
        "issue 29: \(text): \(fixed(ratio, 2))× (budget ≤ \(fixed(budget, 1)): "
          + "\(ratio <= budget ? "met" : "not met"))")
    }
    if let ours = median("notify-rss-growth", "wl-toast"),
      let theirs = median("notify-rss-growth", "mako")
    {
      let tenVisible = median("notify-rss-growth", "mako, 10 visible").map {
        "; mako with 10 visible \(fixed($0, 2)) MiB"
      }
      lines.append(
        "issue 29: peak RSS growth from 1 to 10 notifications: \(fixed(ours, 2)) MiB against "
          + "mako's \(fixed(theirs, 2)) MiB\(tenVisible ?? "") (budget no more than mako's: "
          + "\(ours <= theirs ? "met" : "not met"))")
    }
    // What the server can change: its part, and what notify-send leaves it.
    if let ours = median("notify-new-server", "wl-toast"),
      let theirs = median("notify-new-server", "mako"),
      let oursUpdate = median("notify-update-server", "wl-toast"),
      let theirsUpdate = median("notify-update-server", "mako"),
      let client = median("notify-new-client", "mako"), let whole = median("notify-new", "mako"),
      theirs > 0, theirsUpdate > 0, whole > 0
    {
      lines.append(
        "issue 29, the server's part alone (Notify call on the bus → frame) ÷ mako's: new card "
          + "\(fixed(ours / theirs, 2))× (\(fixed(ours, 2)) against \(fixed(theirs, 2)) ms), "
          + "update \(fixed(oursUpdate / theirsUpdate, 2))× (\(fixed(oursUpdate, 2)) against "
          + "\(fixed(theirsUpdate, 2)) ms); notify-send's own part before its call is "
          + "\(fixed(client, 2)) ms, \(fixed(client / whole, 2)) × mako's whole new card: "
          + "a server taking no time at all would be at that ratio")
    }
    // notify-send's floor: its own part (the shorter of its medians beside
    // either server at its defaults), against mako's whole new card.
    let clients = ["wl-toast", "mako"].compactMap { median("notify-new-client", $0) }
    if let client = clients.min(), let whole = median("notify-new", "mako"), whole > 0 {
      let floor = client / whole
      lines.append(
        "issue 29, notify-send's floor: its exec → Notify call, \(fixed(client, 2)) ms (the "
          + "shorter median beside wl-toast or mako), is \(fixed(floor, 2)) × mako's whole new "
          + "card (\(fixed(whole, 2)) ms): a server that took no time at all would be at "
          + "\(fixed(floor, 2))×, so the end-to-end budget 0.8 is "
          + (floor > 0.8 ? "out of any server's reach" : "within a server's reach"))
    }
    if let idle = serverFigures.first(where: { $0.key == "notify-wakeups-idle" })?.summary(
      "wl-toast")
    {
      lines.append(
        "issue 29: server's wake-ups with every card gone: at most \(fixed(idle.maximum, 0)) "
          + "in 2 s (budget 0: \(idle.maximum == 0 ? "met" : "not met"))")
    }
    return lines
  }

  let notes = [
    "wl-toast: the showing process is wl-toast-owner, the update command is wl-toast; "
      + "frames from the owner's WAYLAND_DEBUG log (WL_TOAST_OWNER_LOG); already running = "
      + "a wl-toast daemon (resident owner) waiting with nothing shown.",
    "wob: first toast = exec of wob with a value waiting on its standard input; "
      + "update = a value written to its standard input (no process started: write → frame).",
    "swaynag: first toast = exec of swaynag -m; it has no update.",
    "mako: first toast = notify-send with no mako running, the bus starting mako (D-Bus "
      + "activation); already running = notify-send to a running mako with nothing shown; "
      + "update = notify-send --replace-id; its update command and --version are notify-send's.",
    "Screen readers: wl-toast's rows beside an accessibility bus use at-spi2-core's bus "
      + "launcher and registry on a private session bus; the screen reader is a libatspi "
      + "listener (python3-gi) registered for object:announcement; CPU per update is the "
      + "owner's threads' schedstat over the updates, spaced 0.2 s apart.",
    "Every frame time: exec (read right before posix_spawn) → the first wl_surface.commit "
      + "after a wl_surface.attach in the client's WAYLAND_DEBUG log, realtime clock.",
  ]

  /// The ratios the speed budgets are stated in (issue 10's, as issue 22
  /// calibrated them), from the medians above.
  @MainActor func issueRatios() -> [String] {
    func median(_ key: String, _ tool: String) -> Double? {
      ordered.first { $0.key == key }?.summary(tool)?.median
    }
    // Each ratio: its words, our figure (key, tool), what it is divided by
    // (another figure, or a fixed amount), and its budget.
    let ratios: [(String, (String, String), (String, String)?, Double?, String)] = [
      (
        "issue 22: first toast ÷ swaynag's first toast", ("first", "wl-toast"),
        ("first", "swaynag"), nil, "≤ 0.9"
      ),
      (
        "issue 22: update ÷ wob's first toast (cold start)", ("update", "wl-toast"),
        ("first", "wob"), nil, "≤ 1.0"
      ),
      (
        "issue 22: first toast with a resident owner ÷ wob's first toast",
        ("resident", "wl-toast"), ("first", "wob"), nil, "≤ 1.0"
      ),
      (
        "issue 22: nag's first frame ÷ swaynag's", ("nag-first", "wl-toast"),
        ("nag-first", "swaynag"), nil, "≤ 1.0"
      ),
      (
        "issue 22: owner's peak RSS ÷ swaynag's", ("rss-showing", "wl-toast"),
        ("rss-showing", "swaynag"), nil, "≤ 1.2"
      ),
      (
        "issue 10: update command's peak RSS ÷ 4 MiB", ("rss-update", "wl-toast"), nil, 4,
        "≤ 1.0"
      ),
      (
        "issue 22: owner's CPU per update ÷ 0.4 ms", ("cpu-update-silent", "wl-toast"), nil,
        0.4, "≤ 1.0"
      ),
      (
        "issue 22: owner's CPU per update, announced to a screen reader ÷ 0.5 ms",
        ("cpu-update-announced", "wl-toast"), nil, 0.5, "≤ 1.0"
      ),
      (
        "issue 10: HUD frame at scale 2 ÷ 2 ms", ("frame-spinner-2", "wl-toast"), nil, 2,
        "≤ 1.0"
      ),
      (
        "issue 30: countdown frame at scale 2 ÷ 2 ms", ("frame-countdown-2", "wl-toast"), nil, 2,
        "≤ 1.0"
      ),
      (
        "issue 12: first toast beside an accessibility bus, no screen reader ÷ without one",
        ("first-a11y", "wl-toast"), ("first-quiet", "wl-toast"), nil,
        "no start-up cost: within the noise of 1.0"
      ),
      (
        "issue 12: first toast with a screen reader on ÷ without one",
        ("first-reader", "wl-toast"), ("first-quiet", "wl-toast"), nil,
        "none; the announcement follows the first frame"
      ),
    ]
    var lines: [String] = []
    for (text, ours, divisor, amount, budget) in ratios {
      guard let ours = median(ours.0, ours.1),
        let theirs = divisor.flatMap({ median($0.0, $0.1) }) ?? amount, theirs > 0
      else { continue }
      lines.append("\(text): \(fixed(ours / theirs, 2))× (budget \(budget))")
    }
    return lines
  }

  // How many frame callbacks the frame rows rest on.
  let perFrame = figures["commits-per-frame"]?.samples["wl-toast"] ?? []
  let framesCounted =
    "commits per frame callback: \(perFrame.count) callbacks followed by another, "
    + "\(perFrame.filter { $0 == 1 }.count) of them with exactly one commit; frames timed: "
    + ["frame-spinner-1", "frame-spinner-2", "frame-countdown-2", "frame-banner"].map {
      "\($0) \(figures[$0]?.samples["wl-toast"]?.count ?? 0)"
    }.joined(separator: ", ")

  // The owner's trace against its WAYLAND_DEBUG log, round by round.
  var agreement = "no trace"
  if let debug = figures["first"]?.samples["wl-toast"],
    let trace = figures["first-trace"]?.samples["wl-toast"], debug.count == trace.count,
    !debug.isEmpty
  {
    let differences = zip(trace, debug).map { $0 - $1 }
    let summary = Summary(differences)
    agreement =
      "WL_TOAST_TRACE − WAYLAND_DEBUG commit: median \(fixed(summary.median * 1000, 0)) µs, "
      + "\(fixed(summary.minimum * 1000, 0)) to \(fixed(summary.maximum * 1000, 0)) µs"
  }

  /// The first line of a file, for the machine's description.
  @MainActor func field(_ path: String, _ name: String) -> String {
    guard let data = readFile(path) else { return "?" }
    for line in String(decoding: data, as: UTF8.self).split(separator: "\n")
    where line.hasPrefix(name) {
      if let separator = line.firstIndex(where: { $0 == ":" || $0 == "=" }) {
        return String(
          line[line.index(after: separator)...].drop { $0 == " " || $0 == "\t" || $0 == "\"" }
            .prefix { $0 != "\"" })
      }
    }
    return "?"
  }
  var system = utsname()
  uname(&system)
  let kernel = withUnsafeBytes(of: system.release) { raw in
    String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
  }
  var context: [(String, String)] = [
    ("cpu", field("/proc/cpuinfo", "model name")),
    ("cores", String(sysconf(Int32(_SC_NPROCESSORS_ONLN)))),
    ("memory", field("/proc/meminfo", "MemTotal")),
    ("kernel", kernel),
    ("os", field("/etc/os-release", "PRETTY_NAME")),
    ("binaries", directory),
    ("trace-agreement", agreement),
    ("load-average-before", loadBefore),
    ("load-average-after", loadAverage()),
  ]
  for package in ["sway", "libwayland-client0", "wob", "mako-notifier", "libnotify-bin"] {
    let version = try? runCommand(
      ["dpkg-query", "-W", "-f", "${Version}", package], environment: currentEnvironment())
    context.append((package, version?.output ?? "?"))
  }

  print("")
  print(table(ordered))
  print("")
  for note in notes { print("- " + note) }
  print("- " + agreement + ".")
  print("- " + framesCounted)
  for line in issueRatios() { print("- " + line) }
  print("")
  print("The notification server beside mako:")
  print("")
  print(table(serverFigures, tools: serverNames, peers: serverPeers))
  print("")
  for note in serverNotes { print("- " + note) }
  for line in serverBudgets() { print("- " + line) }
  print("")
  print("watch audio beside the key binding it replaces:")
  print("")
  print(table(watcherFigures, tools: watcherNames, peers: Array(watcherNames.dropFirst())))
  print("")
  for note in watcherNotes { print("- " + note) }
  print("- Machine: " + context.prefix(5).map { "\($0.0) \($0.1)" }.joined(separator: "; "))
  print("- Load average (1, 5, 15 min) before: \(loadBefore); after: \(loadAverage())")
  if let jsonPath {
    let text = json(
      ordered, rounds: rounds, context: context,
      notes: notes + [agreement, framesCounted] + issueRatios() + serverNotes + serverBudgets()
        + watcherNotes,
      sections: [
        ("notification-server", serverNames, serverPeers, serverFigures),
        ("watch-audio", watcherNames, Array(watcherNames.dropFirst()), watcherFigures),
      ])
    let slash = jsonPath.lastIndex(of: "/").map { String(jsonPath[..<$0]) }
    if let slash, !slash.isEmpty {
      _ = try? runCommand(["mkdir", "-p", slash], environment: currentEnvironment())
    }
    must("writing \(jsonPath)") { try writeFile(jsonPath, text) }
    print("JSON: \(jsonPath)")
  }

}
