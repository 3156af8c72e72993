// wl-toast-owner: the background process that shows a display's toasts, started
// by the first `wl-toast` for a display (which hands over the socket it won
// and then talks to the owner through it like every later command), and the
// `wl-toast watch sway` and `wl-toast watch river` loops. Not meant to be run by
// hand: its command line is ToastProtocol's OwnerLaunch, which the command writes.
import CSystem
import Glibc
import SystemSupport
import ToastKit
import ToastModel
import ToastOwner
import ToastProtocol
import ToastRendering

// One malloc arena for all threads, set before any starts. The font set-up's
// threads (TextBlock.startFontSetUp's, Pango's FcInit) would each get an arena
// of their own, which stays mapped with its free pages after they end: the main
// thread never allocates there. In the main arena what they free is reused.
_ = wlt_single_malloc_arena()
signal(SIGPIPE, SIG_IGN)
// The command starts the owner with 0, 1 and 2 on /dev/null. For benchmarks and
// debugging, WL_TOAST_OWNER_LOG names a file that gets its standard error instead
// (appended; with WAYLAND_DEBUG=1, libwayland's log of every message, as
// `make bench` reads it). Unset, nothing changes.
if let path = getenv("WL_TOAST_OWNER_LOG") {
  let log = open(path, O_WRONLY | O_APPEND | O_CREAT, 0o600)
  if log >= 0 {
    dup2(log, 2)
    if log != 2 { close(log) }
  }
}
let arguments = Array(CommandLine.arguments.dropFirst())

let launch: OwnerLaunch
do throws(OwnerLaunchError) {
  launch = try OwnerLaunch(arguments: arguments)
} catch {
  printError("wl-toast-owner: \(error)")
  exit(ExitCode.usage)
}

switch launch {
case .serve(let numbers, let linger):
  guard Rendezvous.Listener.isListeningSocket(numbers.fd) else {
    printError("wl-toast-owner: serve: descriptor \(numbers.fd) is not a listening socket")
    exit(ExitCode.error)
  }
  serve(Rendezvous.Listener(adopting: numbers), linger: linger)
case .activated:
  // Socket activation (wl-toast@.socket): systemd listens and hands the socket over.
  guard let listener = activatedListener() else {
    printError(
      "wl-toast-owner: activated: expected one listening sequential-packet socket from systemd"
        + " (LISTEN_FDS=1, LISTEN_PID of this process)")
    exit(ExitCode.error)
  }
  serve(listener, linger: nil)
case .render(let request, let toast):
  // wl-toast --render-png: no compositor.
  exit(renderPreview(request, toast))
case .watch(.sway(let options)):
  exit(runSwayWatch(options))
case .watch(.river(let options)):
  exit(runRiverWatch(options))
case .nag(let arguments):
  exit(runNag(arguments))
}

/// Serves toasts on `listener` until the last is gone and `linger` seconds
/// have passed (never, for nil), or the compositor goes away.
func serve(_ listener: consuming Rendezvous.Listener, linger: Double?) -> Never {
  let rendezvous: Rendezvous
  do {
    rendezvous = try Rendezvous()
  } catch {
    refuseClients(of: listener) { _ in .failed(error.description) }
    exit(ExitCode.error)
  }
  let status: Int32
  do {
    // The owner (its presenter, its toasts) is released before the process
    // exits, also with toasts still on screen when the compositor went away:
    // `exit(owner.run())` kept them alive to the end, and LeakSanitizer reported
    // the weak-reference side table of such a toast (Swift keeps its address
    // encoded in the object's reference count, where no leak checker finds it).
    let presenter = try ToastPresenter()
    status = Owner(presenter: presenter, rendezvous: rendezvous, listener: listener, linger: linger)
      .run()
  } catch {
    // No compositor, or one without layer-shell: every command waiting hears
    // why, unless its content was wrong in the first place (a usage error).
    refuseClients(of: listener) { text in
      if case .show(_, let toast, _, _)? = try? OwnerRequest(decoding: text),
        let problem = Owner.problem(with: toast)
      {
        return .refused(problem)
      }
      return .failed(error.description)
    }
    rendezvous.retire(listener)
    exit(ExitCode.error)
  }
  exit(status)
}

/// The listening socket systemd passes as descriptor 3 (`LISTEN_FDS=1` for this
/// process), made non-blocking; nil when there is none of the right kind. The
/// socket file is systemd's: the owner leaves it (inode 0 matches no file).
func activatedListener() -> Rendezvous.Listener? {
  let fd: Int32 = 3
  defer {
    unsetenv("LISTEN_PID")
    unsetenv("LISTEN_FDS")
    unsetenv("LISTEN_FDNAMES")
  }
  guard let pid = getenv("LISTEN_PID").flatMap({ pid_t(String(cString: $0)) }), pid == getpid(),
    getenv("LISTEN_FDS").map({ String(cString: $0) }) == "1"
  else { return nil }
  guard Rendezvous.Listener.isListeningSocket(fd) else { return nil }
  _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  return Rendezvous.Listener(socket: FileDescriptor(fd), inode: 0, lock: nil)
}

/// Draws `toast` as `request` asks into a PNG file; returns the exit status.
func renderPreview(_ request: RenderRequest, _ toast: Toast) -> Int32 {
  let (path, scale, width, height) = (
    request.path, request.scale, request.outputWidth, request.outputHeight
  )
  if let problem = Owner.problem(with: toast) {
    printError("wl-toast: \(problem)")
    return ExitCode.usage
  }
  var shown = toast.normalized()
  // An icon that cannot be shown: one line, and the preview is drawn without it.
  if let problem = shown.iconProblem(scale: scale) {
    printError("wl-toast: \(problem)")
    shown.icon = nil
  }
  let image = OffscreenImage.render(
    shown, outputWidth: width, outputHeight: height, scale: scale)
  guard image.writePNG(to: path) else {
    printError("wl-toast: cannot write \(path): \(Errno.current)")
    return ExitCode.error
  }
  return ExitCode.success
}
