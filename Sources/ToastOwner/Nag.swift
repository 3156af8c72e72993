import Glibc
import SystemSupport
import ToastKit
import ToastModel
import ToastNag
import ToastRendering

/// `wl-toast nag`: swaynag's bar, drawn in this process (which sway started,
/// handing it `WAYLAND_SOCKET`): no owner, no socket, no tag. Reads
/// swaynag's command line (ToastNag) with options of wl-toast's own,
/// `--keyboard exclusive|on-demand|none`, `--no-animation` and
/// `--render-png FILE [--scale N]` (the bar drawn into a PNG file, with no
/// compositor); runs the buttons' actions as swaynag does; returns the exit
/// status.
///
/// The status is 0 when the bar was dismissed or the compositor closed the
/// connection (sway does on reload), 1 on an error swaynag exits 1 for (and
/// on SIGTERM, as swaynag), 64 on a command line it refuses.
package func runNag(_ arguments: [String]) -> Int32 {
  var keyboard = Toast.Keyboard.onDemand
  var animated = true
  var render: (path: String, scale: Double)?
  // wl-toast's own options come first (`wl-toast nag --keyboard exclusive -m …`):
  // after them every word is swaynag's, an option's value included.
  var index = 0
  while index < arguments.count {
    let word = arguments[index]
    if word == "--no-animation" {
      animated = false
      index += 1
    } else if word == "--render-png" || word == "--scale" || word == "--keyboard" {
      guard index + 1 < arguments.count else {
        return nagFailure("option \(word) needs a value", status: NagError.usageStatus)
      }
      let value = arguments[index + 1]
      index += 2
      switch word {
      case "--scale":
        guard let scale = Double(value), (1...4).contains(scale) else {
          return nagFailure(
            "--scale: expected a number from 1 to 4, got \(Toast.quoted(value))",
            status: NagError.usageStatus)
        }
        render = (render?.path ?? "", scale)
      case "--render-png":
        guard !value.isEmpty else {
          return nagFailure(
            "--render-png: expected a PNG file's path", status: NagError.usageStatus)
        }
        render = (value, render?.scale ?? 1)
      default:
        guard let mode = Toast.Keyboard(rawValue: value) else {
          return nagFailure(
            "--keyboard: expected exclusive, on-demand or none, got \(Toast.quoted(value))",
            status: NagError.usageStatus)
        }
        keyboard = mode
      }
    } else {
      break
    }
  }
  let swaynagArguments = Array(arguments[index...])
  let parsed = parseNag(
    swaynagArguments, environment: processEnvironment(),
    readStandardInput: { readStandardInput(atMost: Toast.Limits.detailsLength + 1) },
    readFile: readWholeFile)
  switch parsed {
  case .failure(let error):
    return nagFailure(error.message, status: error.exitStatus)
  case .success(.help):
    _ = writeLine(nagUsage, to: 1)
    return 0
  case .success(.version):
    _ = writeLine(nagVersion, to: 1)
    return 0
  case .success(.show(let request)):
    for warning in request.warnings { printError("wl-toast nag: \(warning)") }
    if let render {
      guard !render.path.isEmpty else {
        return nagFailure("--scale needs --render-png FILE", status: NagError.usageStatus)
      }
      let toast = nagToast(request, keyboard: keyboard, animated: false)
      guard OffscreenImage.render(toast, scale: render.scale).writePNG(to: render.path) else {
        return nagFailure("cannot write \(Toast.quoted(render.path, cutAfter: nil))", status: 1)
      }
      return 0
    }
    return showNag(request, keyboard: keyboard, animated: animated)
  }
}

/// The bar a request asks for: the dismiss button first, then the request's
/// buttons, then (with details) the details button the bar adds.
package func nagToast(_ request: NagRequest, keyboard: Toast.Keyboard, animated: Bool) -> Toast {
  var toast = Toast(request.message, style: .bar, timeout: .untilDismissed)
  toast.font = request.font
  toast.buttons = [request.dismissButton] + request.buttons.map(\.label)
  toast.details = request.details
  toast.detailsButton = request.detailsButton
  toast.bar = request.look
  toast.position = request.edge == .bottom ? .bottom : .top
  toast.layer =
    switch request.layer {
    case .overlay: .overlay
    case .top: .top
    case .bottom: .bottom
    case .background: .background
    }
  toast.output = request.output.map { .named($0) } ?? .automatic
  toast.keyboard = keyboard
  toast.isAnimated = animated
  return toast
}

private func showNag(_ request: NagRequest, keyboard: Toast.Keyboard, animated: Bool) -> Int32 {
  // A name no output can have (empty, with a space, too long) is no output's,
  // as an unknown one is: swaynag says "Output '' not found".
  if let name = request.output, (try? Toast.checkedOutputName(name)) == nil {
    return nagFailure("no output named \(Toast.quoted(name))", status: NagError.failureStatus)
  }
  let presenter: ToastPresenter
  do {
    // No name: libwayland takes WAYLAND_SOCKET (sway's) or WAYLAND_DISPLAY.
    presenter = try ToastPresenter(display: nil)
  } catch {
    return nagFailure(error.description, status: NagError.failureStatus)
  }
  var failure: String?
  presenter.onFailure = { _, reason in failure = reason.description }
  presenter.onButton = { _, index in
    // The first is the dismiss button: it ends the bar.
    guard index > 0, index - 1 < request.buttons.count else { return .end }
    let button = request.buttons[index - 1]
    if let problem = runAction(button, debug: request.debug) {
      printError("wl-toast nag: \(problem)")
    }
    return button.dismisses ? .end : .stay
  }
  presenter.show(nagToast(request, keyboard: keyboard, animated: animated))
  let outcome: ToastOutcome
  do {
    outcome = try presenter.runUntilHidden()
  } catch {
    // The compositor closed the connection (sway does on reload): swaynag ends quietly.
    if request.debug { printError("wl-toast nag: \(error.description)") }
    return 0
  }
  if let failure { return nagFailure(failure, status: NagError.failureStatus) }
  // SIGTERM hides the bar: swaynag exits 1 then.
  return outcome == .hidden ? NagError.failureStatus : 0
}

/// Runs a button's action as swaynag does: `sh -c ACTION`, or for `-b`/`-z`
/// with `$TERMINAL` set, `$TERMINAL -e SCRIPT` (a script that removes itself,
/// then runs the action); in a session of its own, reparented to init, without
/// the bar's Wayland socket, its signals as a new program expects them.
/// Returns why it could not start, if it could not.
func runAction(_ button: NagButton, debug: Bool) -> String? {
  var command = button.action
  var script: String?
  if button.inTerminal, let terminal = getenv("TERMINAL").map({ String(cString: $0) }),
    !terminal.isEmpty
  {
    var template = Array("/tmp/wl-toast-nagXXXXXX".utf8CString)
    let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
    guard fd >= 0 else { return "cannot write the action's script: \(Errno.current)" }
    let path = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    let text = Array("#!/bin/sh\nrm \(path)\n\(button.action)".utf8)
    let written = text.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
    fchmod(fd, 0o700)
    close(fd)
    guard written == text.count else {
      unlink(path)
      return "cannot write the action's script"
    }
    script = path
    command = "\(terminal) -e \(path)"
  } else if button.inTerminal && debug {
    printError("wl-toast nag: $TERMINAL not found. Running directly")
  }
  // Everything the children need, made before the fork: after it only calls
  // that are safe in a child of a process with threads (setsid, sigprocmask,
  // signal, execve, _exit).
  let words: [String] = ["sh", "-c", command]
  let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
  let variables = processEnvironment().filter { $0.key != "WAYLAND_SOCKET" }.map { "\($0)=\($1)" }
  let envp: [UnsafeMutablePointer<CChar>?] = variables.map { strdup($0) } + [nil]
  defer { for pointer in argv + envp { free(pointer) } }
  var none = sigset_t()
  sigemptyset(&none)
  let child = fork()
  if child < 0 {
    if let script { unlink(script) }
    return "cannot start \(Toast.quoted(button.action)): \(Errno.current)"
  }
  if child == 0 {
    // The child of the child runs the action; the child ends at once, so
    // that init, not the bar, reaps it.
    let grandchild = fork()
    if grandchild == 0 {
      setsid()
      sigprocmask(SIG_SETMASK, &none, nil)
      signal(SIGPIPE, SIG_DFL)
      execve("/bin/sh", argv, envp)
      _exit(127)
    }
    _exit(grandchild < 0 ? 1 : 0)
  }
  var status: Int32 = 0
  _ = retryingOnInterrupt { waitpid(child, &status, 0) }
  guard status == 0 else {
    if let script { unlink(script) }
    return "cannot start \(Toast.quoted(button.action)): no process for it"
  }
  return nil
}

/// One line on standard error, prefixed; returns `status`.
private func nagFailure(_ message: String, status: Int32) -> Int32 {
  printError("wl-toast nag: \(message)")
  return status
}

/// Standard input to its end, or its first `limit` bytes when longer (the
/// parser refuses those).
private func readStandardInput(atMost limit: Int) -> [UInt8] {
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65_536)
  while bytes.count < limit {
    let count = chunk.withUnsafeMutableBytes { raw in
      retryingOnInterrupt { read(0, raw.baseAddress, raw.count) }
    }
    guard count > 0 else { break }
    bytes += chunk[..<count]
  }
  return Array(bytes.prefix(limit))
}

/// A file's bytes, or nil when it cannot be read (a regular file of at most 1 MiB).
private func readWholeFile(_ path: String) -> [UInt8]? {
  try? readRegularFile(path, limit: 1 << 20).get().bytes
}
