// wl-toast-bench: wl-toast beside wob, swaynag and mako on one embedded headless
// sway, and wl-toast's notification server beside mako, in one run (`make bench`;
// `make bench-quick` for CI).
//
//   wl-toast-bench [--rounds N] [--json FILE] [--keep-logs] [BIN-DIR]
//
// BIN-DIR holds wl-toast and wl-toast-owner (default: beside this program). Each
// figure is measured in N rounds (default 20) after one warm-up round, the tools
// taking turns within a round (the first one changing from round to round).
//
// One method for every tool: exec -> the client's first `wl_surface.commit` after a
// `wl_surface.attach` (a frame with content), both on the realtime clock, the exec
// read right before posix_spawn and the commit from the client's WAYLAND_DEBUG=1
// log (libwayland 1.21 stamps each message with realtime microseconds modulo 2^32).
// For wl-toast that is the owner's log (WL_TOAST_OWNER_LOG gives it a file), and
// the owner's own frame trace (WL_TOAST_TRACE, monotonic clock) is compared with it.
import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// MARK: - Options

var rounds = 20
var jsonPath: String?
var keepLogs = false
var binDirectory: String?
var argumentList = CommandLine.arguments.dropFirst()
while let argument = argumentList.popFirst() {
  switch argument {
  case "--rounds":
    guard let value = argumentList.popFirst().flatMap({ Int($0) }), value >= 1 else {
      fail("--rounds wants a number of rounds (1 or more)")
    }
    rounds = value
  case "--json":
    guard let value = argumentList.popFirst() else { fail("--json wants a file") }
    jsonPath = value
  case "--keep-logs":
    keepLogs = true
  case "-h", "--help":
    print("usage: wl-toast-bench [--rounds N] [--json FILE] [--keep-logs] [BIN-DIR]")
    exit(0)
  default:
    guard !argument.hasPrefix("-"), binDirectory == nil else {
      fail("unknown argument \(argument)")
    }
    binDirectory = argument
  }
}
let directory =
  binDirectory
  ?? {
    let path = builtProduct("wl-toast")
    return path.contains("/") ? String(path[..<path.lastIndex(of: "/")!]) : "."
  }()

// MARK: - Set-up

let bench = must("setting up") { try Bench(binDirectory: directory) }
cleanups.append { bench.stop(keepLogs: keepLogs) }
if keepLogs { print("logs: \(bench.logs)") }
must("starting the session bus") { try bench.startBus() }
let wlToast = bench.wlToast
/// The load average, for the report: other work on the machine shows in the figures.
func loadAverage() -> String {
  readFile("/proc/loadavg").map {
    String(decoding: $0, as: UTF8.self).split(separator: " ").prefix(3).joined(separator: " ")
  } ?? "?"
}
let loadBefore = loadAverage()
let environment = bench.environment
let commandsLog = bench.log("commands.log")
print("wl-toast-bench: \(rounds) rounds on headless sway \(bench.sway.socketPath)")

/// The order of the tools in round `round`: each round starts with the next one.
@MainActor func rotated<T>(_ items: [T], _ round: Int) -> [T] {
  let shift = round % items.count
  return Array(items[shift...] + items[..<shift])
}

/// Runs `rounds` rounds after one warm-up (not recorded); `round` counts from 0.
@MainActor func inRounds(_ body: (_ round: Int, _ record: Bool) -> Void) {
  for round in -1..<rounds { body(max(round, 0), round >= 0) }
}

/// A number for file names, new at each call.
var serial = 0
@MainActor func nextSerial() -> Int {
  serial += 1
  return serial
}

var figures: [String: Figure] = [:]
@MainActor func record(_ key: String, _ tool: String, _ value: Double?) {
  guard let value else { return }
  figures[key, default: Figure(key, key, unit: "")].samples[tool, default: []].append(value)
}

/// How many 2 s windows each wake-up count takes (the static toast, the resident owner).
let windows = rounds >= 10 ? 3 : 1

// MARK: - The scenarios, in order (one file each)

let desktops = startDesktops()
measureFirstToasts(desktops)
measureUpdatesAndWakeUps()
measureOwnerCPU(desktops)
measureFrames()
measureResidentOwner()
measureAudioWatcher()
measureNotificationServers()
measureSizes()
report()
