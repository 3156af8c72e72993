// wl-toast-bench: measures wl-toast on an embedded headless sway.
//
//   wl-toast-bench [PATH-TO-wl-toast] [RUNS]
//
// - first show: exec of a command with no owner running -> its first frame
//   committed by the new owner, and -> the command's exit;
// - update: exec of a command for a tag that is showing -> the owner's commit of
//   the new frame, and -> the command's exit; plus the update command's peak RSS.
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
let environment = sway.clientEnvironment.merging(["WL_TOAST_TRACE": trace]) { $1 }

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

func format(_ value: Double) -> String {
  let tenths = Int((value * 10).rounded())
  return "\(tenths / 10).\(abs(tenths % 10))"
}

// First show: no owner running each time.
var firstFrame: [Double] = []
var firstExit: [Double] = []
var firstRSS: [Double] = []
for index in 0..<min(runs, 20) {
  let before = frames().count
  let result = run([
    "--tag", "first", "--no-animation", "--linger", "0", "--timeout", "0.05", "First \(index)",
  ])
  firstFrame.append(milliseconds(result.start, frame(after: before)))
  firstExit.append(milliseconds(result.start, result.exit))
  firstRSS.append(Double(result.rss))
  // Let the owner finish and exit before the next round.
  wait(for: "the toast of round \(index) to end", timeout: 5) {
    (try? runCommand([tool, "status", "--tag", "first"], environment: environment).status) == 1
  }
}

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
sway.stop()

print("wl-toast-bench: \(tool)")
print(
  "first show (n=\(firstFrame.count)): exec -> first frame median \(format(median(firstFrame))) ms, p90 \(format(percentile(firstFrame, 0.9))) ms; exec -> exit median \(format(median(firstExit))) ms; command peak RSS median \(format(median(firstRSS) / 1024)) MiB"
)
print(
  "update (n=\(updateFrame.count)): exec -> owner's new frame median \(format(median(updateFrame))) ms, p90 \(format(percentile(updateFrame, 0.9))) ms; exec -> exit median \(format(median(updateExit))) ms; update command peak RSS median \(format(median(updateRSS) / 1024)) MiB, max \(format((updateRSS.max() ?? 0) / 1024)) MiB"
)
