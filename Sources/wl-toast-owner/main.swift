// wl-toast-owner: the background process that shows a display's toasts, started
// by the first `wl-toast` for a display (which hands over the socket it won
// and then talks to the owner through it like every later command), and the
// `wl-toast watch` loop. Not meant to be run by
// hand: its command line is ToastProtocol's OwnerLaunch, which the command writes.
import CSystem
import Glibc
import SystemSupport
import ToastOwner
import ToastProtocol

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
case .serve(let numbers, let linger, let notifications):
  guard Rendezvous.Listener.isListeningSocket(numbers.fd) else {
    printError("wl-toast-owner: serve: descriptor \(numbers.fd) is not a listening socket")
    exit(ExitCode.error)
  }
  serve(Rendezvous.Listener(adopting: numbers), linger: linger, notifications: notifications)
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
case .watch(let request):
  exit(runWatch(request))
case .nag(let arguments):
  exit(runNag(arguments))
}
