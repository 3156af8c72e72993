// wl-toast-rig: the test harness's headless sway (and, with --screen-reader, a
// private desktop where a screen reader is on and a listener hears
// announcements), started exactly as the tests start theirs (TestSupport), for
// the scripts that drive wl-toast from the shell (`make leaks`, `make soak`).
//
//   wl-toast-rig ENV-FILE [--screen-reader]
//
// Once everything is up it writes `export NAME='VALUE'` lines to ENV-FILE (the
// environment a client of the rig runs with) and then the line `# ready`. On
// SIGUSR1 it kills the accessibility bus's daemon, as a crash would, and
// appends `# crashed`. On SIGTERM or SIGINT it stops everything and exits 0.
import Glibc
import SystemSupport
import TestSupport

func fail(_ message: String) -> Never {
  printError("wl-toast-rig: \(message)")
  exit(1)
}

func append(_ path: String, _ text: String) {
  let fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
  guard fd >= 0 else { fail("cannot write \(path): \(Errno.current)") }
  let bytes = Array(text.utf8)
  guard write(fd, bytes, bytes.count) == bytes.count else { fail("cannot write \(path)") }
  close(fd)
}

/// A value in single quotes for the shell.
func quoted(_ value: String) -> String { "'" + value.replacing("'", with: "'\\''") + "'" }

let arguments = Array(CommandLine.arguments.dropFirst())
guard let envFile = arguments.first, arguments.count <= 2,
  arguments.count == 1 || arguments[1] == "--screen-reader"
else { fail("usage: wl-toast-rig ENV-FILE [--screen-reader]") }
let withScreenReader = arguments.count == 2

// The signals the rig answers, taken before any child starts (children get the
// default mask from TestSupport's spawn).
var signals = sigset_t()
sigemptyset(&signals)
for signal in [SIGTERM, SIGINT, SIGUSR1] { sigaddset(&signals, signal) }
pthread_sigmask(SIG_BLOCK, &signals, nil)

let sway: HeadlessSway
do {
  sway = try HeadlessSway()
} catch {
  fail("cannot start a headless sway: \(error)")
}
// wl-toast's socket directory: private to this rig, whatever else runs here.
let clientRuntime = sway.runtimeDirectory + "-client"
guard mkdir(clientRuntime, 0o700) == 0 else { fail("cannot make \(clientRuntime)") }
var environment = [
  "WAYLAND_DISPLAY": sway.socketPath, "XDG_RUNTIME_DIR": clientRuntime,
  "WL_TOAST_RIG_SWAY_LOG": sway.runtimeDirectory + "/sway.log",
]

var desktop: AccessibilityBus?
var listener: AtspiListener?
if withScreenReader {
  do {
    let bus = try AccessibilityBus(screenReader: true)
    desktop = bus
    listener = try bus.listen(to: ["object:announcement"])
    environment.merge(bus.clientEnvironment) { $1 }
    environment["WL_TOAST_RIG_ACCESSIBILITY_BUS"] = bus.accessibilityAddress
    environment["WL_TOAST_RIG_HEARD"] = listener?.path
  } catch {
    sway.stop()
    fail("cannot start the screen reader's desktop: \(error)")
  }
}

@MainActor func stopAll() {
  listener?.stop()
  desktop?.stop()
  sway.stop()
  rmdir(clientRuntime)
}

let exports = environment.sorted { $0.key < $1.key }.map {
  "export \($0.key)=\(quoted($0.value))\n"
}
append(envFile, exports.joined() + "# ready\n")

while true {
  var signal: Int32 = 0
  guard sigwait(&signals, &signal) == 0 else { continue }
  if signal == SIGUSR1 {
    do {
      try desktop?.crashAccessibilityBus()
      append(envFile, "# crashed\n")
    } catch {
      append(envFile, "# not crashed: \(error)\n")
    }
    continue
  }
  stopAll()
  exit(0)
}
