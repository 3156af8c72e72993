// wl-toast-bench: measures wl-toast on an embedded headless sway.
//
//   wl-toast-bench [PATH-TO-wl-toast] [RUNS]
//
// - first show: exec of a command with no owner running -> its first frame
//   committed by the new owner, and -> the command's exit;
// - update: exec of a command for a tag that is showing -> the owner's commit of
//   the new frame, and -> the command's exit; plus the update command's peak RSS.
// - screen readers: the first show again with a session bus and an accessibility
//   bus but no screen reader on, and with one on (a libatspi listener); the
//   first frame -> the announcement heard; the owner's CPU time per update
//   announced, against the same updates with no screen reader.
// Frame times come from the owner's WL_TOAST_TRACE file (monotonic clock).
import Glibc
import SystemSupport
import TestSupport
import Wayland

/// The headless sway once it runs, for `fail` to stop.
nonisolated(unsafe) var started: HeadlessSway?

/// Ends the benchmark with one line.
func fail(_ message: String) -> Never {
  started?.stop()
  print("wl-toast-bench: \(message)")
  exit(1)
}

let arguments = CommandLine.arguments
let tool = arguments.count > 1 ? arguments[1] : builtProduct("wl-toast")
let runs = arguments.count > 2 ? Int(arguments[2]) ?? 50 : 50

let sway: HeadlessSway
do {
  sway = try HeadlessSway()
} catch {
  fail("\(error)")
}
started = sway
let trace = sway.runtimeDirectory + "/trace"
nonisolated(unsafe) var environment = sway.clientEnvironment.merging(["WL_TOAST_TRACE": trace]) {
  $1
}
// The baseline has no session bus at all.
environment.removeValue(forKey: "DBUS_SESSION_BUS_ADDRESS")
environment.removeValue(forKey: "XDG_RUNTIME_DIR")

/// The frame times recorded so far.
func frames() -> [UInt64] {
  guard let data = readFile(trace) else { return [] }
  return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap {
    $0.split(separator: " ").first.flatMap { UInt64($0) }
  }
}

/// Runs wl-toast; returns (start, exit) monotonic times in ns and peak RSS in KiB.
func run(_ extra: [String]) -> (start: UInt64, exit: UInt64, rss: Int) {
  let start = MonotonicTime.now.nanoseconds
  let child: ChildProcess
  do {
    child = try ChildProcess([tool] + extra, environment: environment)
  } catch {
    fail("\(error)")
  }
  guard let status = child.wait(timeout: 10) else { fail("wl-toast \(extra) did not finish") }
  let end = MonotonicTime.now.nanoseconds
  guard status == 0 else { fail("wl-toast \(extra) exited with status \(status)") }
  return (start, end, child.peakMemoryKiB)
}

/// Waits for `condition`; a timeout ends the benchmark with a line naming what was awaited.
func wait(for awaited: String, timeout: Double, _ condition: () -> Bool) {
  do {
    try waitUntil(awaited, timeout: timeout, condition)
  } catch {
    fail("\(error)")
  }
}

/// Waits for the first frame after `count` frames and returns its time.
func frame(after count: Int) -> UInt64 {
  var result: UInt64?
  wait(for: "the owner to commit frame \(count + 1)", timeout: 10) {
    let all = frames()
    if all.count > count { result = all[count] }
    return result != nil
  }
  guard let result else { fail("no frame was committed") }
  return result
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[sorted.count / 2]
}

func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  return sorted.isEmpty ? 0 : sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]
}

func milliseconds(_ from: UInt64, _ to: UInt64) -> Double { Double(Int64(to) - Int64(from)) / 1e6 }

func format3(_ value: Double) -> String {
  let thousandths = Int((value * 1000).rounded())
  let fraction = String(abs(thousandths % 1000))
  return "\(thousandths / 1000)." + String(repeating: "0", count: 3 - fraction.count) + fraction
}

func format(_ value: Double) -> String {
  let tenths = Int((value * 10).rounded())
  return "\(tenths / 10).\(abs(tenths % 10))"
}

/// First shows, no owner running each time: exec -> first frame and -> exit
/// (ms), and the command's peak RSS (KiB).
func firstShows(_ count: Int) -> (frame: [Double], exit: [Double], rss: [Double]) {
  var shows: (frame: [Double], exit: [Double], rss: [Double]) = ([], [], [])
  for index in 0..<count {
    let before = frames().count
    let result = run([
      "--tag", "first", "--no-animation", "--linger", "0", "--timeout", "0.05", "First \(index)",
    ])
    shows.frame.append(milliseconds(result.start, frame(after: before)))
    shows.exit.append(milliseconds(result.start, result.exit))
    shows.rss.append(Double(result.rss))
    // Let the owner finish and exit before the next round.
    wait(for: "the toast of round \(index) to end", timeout: 5) {
      (try? runCommand([tool, "status", "--tag", "first"], environment: environment).status) == 1
    }
  }
  return shows
}

print("wl-toast-bench: \(tool)")
let (firstFrame, firstExit, firstRSS) = firstShows(min(runs, 20))
print(
  "first show (n=\(firstFrame.count)): exec -> first frame median \(format(median(firstFrame))) ms, p90 \(format(percentile(firstFrame, 0.9))) ms; exec -> exit median \(format(median(firstExit))) ms; command peak RSS median \(format(median(firstRSS) / 1024)) MiB"
)

// Updates: one owner showing, then `runs` updates.
_ = run(["--tag", "bench", "--no-animation", "--timeout", "0", "Volume 0%"])
_ = frame(after: 0)
var updateFrame: [Double] = []
var updateExit: [Double] = []
var updateRSS: [Double] = []
for index in 1...runs {
  let before = frames().count
  let result = run([
    "--tag", "bench", "--no-animation", "--timeout", "0", "--progress", "\(index % 101)",
    "Volume \(index)%",
  ])
  updateFrame.append(milliseconds(result.start, frame(after: before)))
  updateExit.append(milliseconds(result.start, result.exit))
  updateRSS.append(Double(result.rss))
}
endOwner(tag: "bench")
print(
  "update (n=\(updateFrame.count)): exec -> owner's new frame median \(format(median(updateFrame))) ms, p90 \(format(percentile(updateFrame, 0.9))) ms; exec -> exit median \(format(median(updateExit))) ms; update command peak RSS median \(format(median(updateRSS) / 1024)) MiB, max \(format((updateRSS.max() ?? 0) / 1024)) MiB"
)
/// The whole number that follows `key` in `text` (a JSON line), if any.
func number(after key: String, in text: String) -> UInt64? {
  let parts = text.split(separator: key, maxSplits: 1, omittingEmptySubsequences: false)
  guard parts.count == 2 else { return nil }
  return UInt64(parts[1].drop { $0 == " " }.prefix { $0.isNumber })
}

/// The owner's process id, from `wl-toast status --tag TAG`.
func ownerPID(tag: String) -> Int32 {
  guard let result = try? runCommand([tool, "status", "--tag", tag], environment: environment)
  else { fail("no owner shows tag \(tag)") }
  guard let pid = number(after: "\"owner\":", in: result.output).flatMap({ Int32(exactly: $0) })
  else { fail("no owner in \(result.output)") }
  return pid
}

/// The CPU time all threads of `pid` have used, in nanoseconds (schedstat).
func cpuTime(of pid: Int32) -> UInt64 {
  let tasks = "/proc/\(pid)/task"
  guard let directory = opendir(tasks) else { return 0 }
  defer { closedir(directory) }
  var total: UInt64 = 0
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
    }
    guard Int32(name) != nil, let data = readFile("\(tasks)/\(name)/schedstat") else { continue }
    total +=
      String(decoding: data, as: UTF8.self).split(separator: " ").first.flatMap {
        UInt64($0)
      } ?? 0
  }
  return total
}

/// The times (monotonic ns) a listener heard its events.
func heardTimes(_ listener: AtspiListener) -> [UInt64] {
  listener.lines().compactMap { number(after: "\"t\": ", in: $0) }
}

/// The owner's CPU time per update (ms): `count` updates spaced so that each
/// is announced on its own (past the merge interval), each waited for
/// through its frame and, with a listener, its announcement.
func cpuPerUpdate(tag: String, count: Int, listener: AtspiListener?) -> Double {
  _ = run(["--tag", tag, "--no-animation", "--timeout", "0", "Volume 0%"])
  let pid = ownerPID(tag: tag)
  let heardBefore = listener.map { heardTimes($0).count } ?? 0
  if let listener {
    wait(for: "the first announcement", timeout: 10) { heardTimes(listener).count > heardBefore }
  }
  let start = cpuTime(of: pid)
  for index in 1...count {
    let before = frames().count
    let heard = listener.map { heardTimes($0).count } ?? 0
    let spaced = MonotonicTime.now + .milliseconds(200)
    _ = run(["--tag", tag, "--no-animation", "--timeout", "0", "--progress", "\(index)", "Volume"])
    _ = frame(after: before)
    if let listener {
      wait(for: "announcement \(index)", timeout: 10) { heardTimes(listener).count > heard }
    }
    // Past the merge interval, so that the next update is announced at once.
    wait(for: "200 ms to pass", timeout: 5) { MonotonicTime.now >= spaced }
  }
  let used = cpuTime(of: pid) - start
  endOwner(tag: tag)
  return Double(used) / 1e6 / Double(count)
}

/// Hides the toast with `tag` and waits for its owner to exit (after its
/// linger), so that the next command starts a new one.
func endOwner(tag: String) {
  let pid = ownerPID(tag: tag)
  _ = run(["hide", "--tag", tag])
  wait(for: "the owner of \(tag) to exit", timeout: 10) { kill(pid, 0) != 0 }
}

// Screen readers: a session bus and an accessibility bus, no screen reader on.
let accessibility: AccessibilityBus
do {
  accessibility = try AccessibilityBus(screenReader: false)
} catch {
  fail("\(error)")
}
environment.merge(accessibility.clientEnvironment) { $1 }
let quiet = firstShows(min(runs, 20))
let quietCPU = cpuPerUpdate(tag: "quiet-cost", count: 20, listener: nil)
print(
  "first show, session bus and accessibility bus, no screen reader (n=\(quiet.frame.count)): exec -> first frame median \(format(median(quiet.frame))) ms, p90 \(format(percentile(quiet.frame, 0.9))) ms; exec -> exit median \(format(median(quiet.exit))) ms"
)

// A screen reader on, listening for announcements.
do {
  try accessibility.setScreenReader(true)
} catch {
  fail("\(error)")
}
let listener: AtspiListener
do {
  listener = try accessibility.listen(to: ["object:announcement"])
} catch {
  fail("\(error)")
}
var heardAfterFrame: [Double] = []
var reader: (frame: [Double], exit: [Double], rss: [Double]) = ([], [], [])
for _ in 0..<min(runs, 20) {
  let heard = heardTimes(listener).count
  let before = frames().count
  let one = firstShows(1)
  reader.frame += one.frame
  reader.exit += one.exit
  let shown = frames()[before]
  wait(for: "the announcement of a first toast", timeout: 10) {
    heardTimes(listener).count > heard
  }
  heardAfterFrame.append(milliseconds(shown, heardTimes(listener)[heard]))
}
let readerCPU = cpuPerUpdate(tag: "reader-cost", count: 20, listener: listener)
listener.stop()
accessibility.stop()
sway.stop()
print(
  "first show, screen reader on (n=\(reader.frame.count)): exec -> first frame median \(format(median(reader.frame))) ms, p90 \(format(percentile(reader.frame, 0.9))) ms; exec -> exit median \(format(median(reader.exit))) ms; first frame -> announcement heard median \(format(median(heardAfterFrame))) ms, p90 \(format(percentile(heardAfterFrame, 0.9))) ms"
)
print(
  "owner CPU per update (n=20 each): no screen reader \(format3(quietCPU)) ms; announced to a listener \(format3(readerCPU)) ms"
)
