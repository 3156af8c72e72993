// wl-toast: show a toast on a Wayland compositor.
//
// Exit status: 0 the toast expired or was hidden (or was handed over, without
// --wait), 2 the user dismissed it (or clicked a card's body), 3 a newer toast replaced it (--wait), 4
// do-not-disturb or a fullscreen window kept it from showing (--wait), 10 to
// 17 the user chose the first to eighth button (--button, --wait), 1 an
// error (one line on standard error), 64 a usage error.
import Glibc
import SystemSupport
import ToastCommand
import ToastModel

/// The exit status of a toast's outcome.
func status(of outcome: ToastOutcome) -> Int32 {
  switch outcome {
  case .expired, .hidden: ExitCode.success
  case .dismissed, .activated: ExitCode.dismissed
  case .replaced: ExitCode.replaced
  case .suppressed: ExitCode.suppressed
  case .chose(let button): ExitCode.firstButton + Int32(button)
  }
}

/// Writes a line to standard output; a write that fails (a full disk, a closed
/// pipe) is an error, not a silent success.
func writeOutput(_ line: String) {
  guard writeLine(line, to: 1) else { fail("cannot write to standard output: \(Errno.current)") }
}

func fail(_ message: String) -> Never {
  printError("wl-toast: \(message)")
  exit(ExitCode.error)
}

func makeRendezvous() -> Rendezvous {
  do {
    return try Rendezvous()
  } catch {
    fail(error.description)
  }
}

func makeClient(linger: Double = 1, rendezvous: Rendezvous = makeRendezvous()) -> Client {
  Client(rendezvous: rendezvous, linger: linger)
}

/// Do-not-disturb's state; a state file that is not the user's own is an error.
func doNotDisturb(_ rendezvous: Rendezvous = makeRendezvous()) -> DoNotDisturb {
  do {
    return try DoNotDisturbState(rendezvous).read()
  } catch {
    fail(error.description)
  }
}

/// Shows one toast, or with --follow one per line of standard input.
func show(_ toast: Toast, _ options: ShowOptions) -> Never {
  let rendezvous = makeRendezvous()
  let client = makeClient(linger: options.linger, rendezvous: rendezvous)
  func deliver(_ toast: Toast, wait: Bool) -> Client.Result {
    do {
      return try client.show(toast, tag: options.tag, wait: wait)
    } catch {
      printError("wl-toast: \(error.description)")
      exit(error.exitCode)
    }
  }
  func finish(_ result: Client.Result) -> Never {
    guard case .outcome(let outcome) = result else { exit(ExitCode.success) }
    if options.printOutcome {
      if case .chose(let button) = outcome, toast.buttons.indices.contains(button) {
        writeOutput("button:" + toast.buttons[button])
      } else {
        writeOutput(outcome.name)
      }
    }
    exit(status(of: outcome))
  }
  // Do-not-disturb holds the toast back here, before any owner is asked (or
  // started); a --follow command still reads its input to the end, so that
  // the program writing it is not cut off.
  if doNotDisturb(rendezvous).silences(toast) {
    if options.follow != nil {
      var reader = LineReader(fd: 0)
      while reader.next() != nil {}
    }
    finish(options.wait ? .outcome(.suppressed) : .accepted)
  }
  guard let format = options.follow else { finish(deliver(toast, wait: options.wait)) }
  var reader = LineReader(fd: 0)
  finish(
    follow(
      toast, format: format, wait: options.wait, reader: &reader, deliver: deliver,
      skipped: { printError("wl-toast: \($0)") }))
}

extension String {
  /// The string without its last newline, for ``writeOutput(_:)``, which adds one.
  var trimmingTrailingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}

signal(SIGPIPE, SIG_IGN)
reserveStandardDescriptors()
let commandLine = Array(CommandLine.arguments.dropFirst())
// A global (main's top level), never destroyed: destroying a temporary
// `Config?` would have the runtime make its type's metadata.
let config: Config?
do throws(ConfigError) {
  config = try loadConfig(for: commandLine)
} catch {
  // -h and -V win over every other argument, a --config that cannot be read too.
  switch parseArguments(commandLine) {
  case .success(.help), .success(.version): config = nil
  default:
    printError("wl-toast: --config: \(error)")
    exit(ExitCode.usage)
  }
}
switch parseArguments(commandLine, config: config) {
case .failure(let error):
  printError("\(error)")
  printError("Try 'wl-toast --help' for more information.")
  exit(ExitCode.usage)
case .success(.help):
  writeOutput(usageText)
case .success(.version):
  writeOutput(versionText)
case .success(.show(let toast, let options)):
  if let render = options.render {
    // Drawing needs Pango and Cairo: the owner program draws, with no compositor.
    let program = ownerProgram()
    execProgram([program] + OwnerLaunch.render(render, toast).arguments)
    fail("cannot start \(program): \(Errno.current)")
  }
  show(toast, options)
case .success(.hide(let tag, let after)):
  do {
    let reply = try makeClient().request(.hide(tag: tag, after: after))
    if case .failed(let reason) = reply { fail(reason) }
  } catch {
    fail(error.description)
  }
case .success(.status(let tag)):
  do {
    switch try makeClient().request(.status(tag: tag)) {
    case .status(let toast?, let pid, let surfaces, let drawn, let screenReaders, let sound):
      var report: [String: JSONValue] = [
        "tag": .string(tag), "toast": toast.json, "owner": .number(Double(pid)),
        "surfaces": .number(Double(surfaces)), "drawn": .array(drawn.map(\.json)),
      ]
      if let screenReaders { report["screen-readers"] = .string(screenReaders) }
      // A loop, not merge(_:uniquingKeysWith:): a closure in this file's top
      // level is the main actor's, and its executor check would link the
      // concurrency runtime and libdispatch into this static command.
      for (key, value) in sound?.members ?? [:] { report[key] = value }
      report["do-not-disturb"] = .string(doNotDisturb().rawValue)
      writeOutput(JSONValue.object(report).serialized)
    case .status(nil, let pid, _, _, _, let sound?):
      // No toast shows with the tag: why its last one's sound failed, if it did.
      var report: [String: JSONValue] = ["tag": .string(tag), "owner": .number(Double(pid))]
      for (key, value) in sound.members { report[key] = value }
      writeOutput(JSONValue.object(report).serialized)
      exit(ExitCode.error)
    case .failed(let reason):
      fail(reason)
    default:
      exit(ExitCode.error)
    }
  } catch {
    fail(error.description)
  }
case .success(.doNotDisturb(let change)):
  // The state file alone: owners watch it, so every display's hears of a change.
  let state = DoNotDisturbState(makeRendezvous())
  do {
    // A change reads and writes under a lock: changes made at once follow one another.
    let current: DoNotDisturb
    if let change {
      current = try state.change { change.applied(to: $0) }
    } else {
      current = try state.read()
    }
    writeOutput(current.rawValue)
  } catch {
    fail(error.description)
  }
case .success(.completions(let shell)):
  writeOutput(completionScript(for: shell).trimmingTrailingNewline)
case .success(.presets):
  // For completions: quiet, whatever the file holds.
  if let path = Config.defaultPath, case .success(let config?) = Config.load(path: path) {
    for name in config.presetNames { writeOutput(name) }
  }
case .success(.daemon(let notifications, let replace, let maxHistory)):
  do {
    // With --notifications, an owner already serving the display takes the
    // bus name and stays: this command then exits 0.
    // The owner does not read the file: the rules go with the request.
    var rules = config?.notificationRules() ?? []
    // `--max-history` after the file's rules: the command line wins. (No
    // closure here: top-level code's would be the main actor's.)
    if let maxHistory {
      rules.append(NotificationRule(criteria: nil, settings: .object([:]), maxHistory: maxHistory))
    }
    try makeClient().becomeResidentOwner(
      notifications: notifications
        ? .serve(replace: replace, rules: JSONValue.array(rules.map(\.json))) : nil)
  } catch {
    fail(error.description)
  }
case .success(.notifications(let request)):
  let noOwner = "no owner serves this display's notifications (see wl-toast daemon --notifications)"
  do {
    if let history = request.listsHistory {
      guard let notifications = try makeClient().listNotifications(history: history) else {
        fail(noOwner)
      }
      for notification in notifications { writeOutput(notification.serialized) }
    } else {
      guard let reply = try makeClient().request(.notifications(request)) else { fail(noOwner) }
      _ = try reply.checked()
    }
  } catch {
    fail(error.description)
  }
case .success(.watch(var request)):
  // The watcher hands its toasts to the display's owner; it runs in the program
  // that links Wayland (river's status is a Wayland protocol), handed the
  // request as the owner's command line reads it, with the looks the
  // configuration gives its toasts (the owner does not read the file).
  request.presets = config?.watchPresets(request.targets.map(\.presetName)) ?? [:]
  let program = ownerProgram()
  execProgram([program] + OwnerLaunch.watch(request).arguments)
  fail("cannot start \(program): \(Errno.current)")
case .success(.nag(let arguments)):
  // The bar draws in this very process (exec keeps its id, standard input and
  // sway's WAYLAND_SOCKET): the program that links Wayland reads swaynag's
  // command line.
  let program = ownerProgram()
  execProgram([program] + OwnerLaunch.nag(arguments).arguments)
  fail("cannot start \(program): \(Errno.current)")
}
