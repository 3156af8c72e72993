// wl-toast: show a toast on a Wayland compositor.
//
// Exit status: 0 the toast expired or was hidden (or was handed over, without
// --wait), 2 the user dismissed it, 3 a newer toast replaced it (--wait), 4
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
  case .dismissed: ExitCode.dismissed
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

  var current = toast
  var delivered = false
  var number = 0
  var reader = LineReader(fd: 0)
  while let line = reader.next() {
    number += 1
    do {
      try current.apply(followLine: line, format: format)
    } catch {
      printError("wl-toast: line \(number): \(error.description); skipped")
      continue
    }
    _ = deliver(current, wait: false)
    delivered = true
  }
  // End of input: the toast finishes its timeout.
  if options.wait {
    finish(deliver(current, wait: true))
  }
  if !delivered && !current.text.isEmpty { _ = deliver(current, wait: false) }
  exit(ExitCode.success)
}

/// Lines of a file descriptor, without their newline; invalid UTF-8 becomes U+FFFD.
struct LineReader {
  let fd: Int32
  var buffer: [UInt8] = []
  var atEnd = false

  mutating func next() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        var line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      if atEnd {
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = retryingOnInterrupt { read(fd, &chunk, chunk.count) }
      if count <= 0 {
        atEnd = true
      } else {
        buffer += chunk[0..<count]
        // A line longer than the message limit is cut rather than kept growing.
        if buffer.count > maximumMessageSize * 4 && buffer.firstIndex(of: 0x0A) == nil {
          buffer.append(0x0A)
        }
      }
    }
  }
}

/// The configuration file for a toast's command line: its problems are
/// reported (`FILE:LINE: message`) and its good lines kept. A `--config` file
/// that cannot be read is a usage error; the standard one is then skipped
/// with a warning.
func loadConfig(for arguments: [String]) -> Config? {
  // Subcommands take nothing from the file.
  if let first = arguments.first, isSubcommand(first) { return nil }
  let path: String
  let choice = configChoice(in: arguments)
  switch choice {
  case .none: return nil
  case .file(let chosen): path = chosen
  case .standard:
    guard let standard = Config.defaultPath else { return nil }
    path = standard
  }
  switch Config.load(path: path) {
  case .success(let config?):
    let checked = config.checked()
    for problem in checked.problems { printError("wl-toast: \(problem)") }
    return checked
  case .success(nil):
    guard case .file = choice else { return nil }
    printError("wl-toast: --config: cannot read \(path): \(Errno(rawValue: ENOENT))")
    exit(ExitCode.usage)
  case .failure(let error):
    if case .file = choice {
      printError("wl-toast: --config: \(error)")
      exit(ExitCode.usage)
    }
    printError("wl-toast: \(error); going on without it")
    return nil
  }
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
let config = loadConfig(for: commandLine)
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
    case .status(let toast?, let pid, let surfaces, let drawn, let screenReaders):
      var report: [String: JSONValue] = [
        "tag": .string(tag), "toast": toast.json, "owner": .number(Double(pid)),
        "surfaces": .number(Double(surfaces)), "drawn": .array(drawn.map(\.json)),
      ]
      if let screenReaders { report["screen-readers"] = .string(screenReaders) }
      report["do-not-disturb"] = .string(doNotDisturb().rawValue)
      writeOutput(JSONValue.object(report).serialized)
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
case .success(.daemon):
  do {
    try makeClient().becomeResidentOwner()
  } catch {
    fail(error.description)
  }
case .success(.watch(let request)):
  // The watcher hands its toasts to the display's owner; it runs in the program
  // that links Wayland (river's status is a Wayland protocol), handed the
  // request as the owner's command line reads it.
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
