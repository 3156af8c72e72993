import Glibc
import TestSupport
import Testing
import ToastKit

/// Outputs that go away under a toast.
@Suite(.serialized)
struct OutputTests {
  @Test func unpluggingTheOutputEndsItsToastAndTheNextShowsOnTheOtherOutput() throws {
    let outer = try HeadlessSway()
    // A sway with two outputs, each a window of the outer one.
    let nested = try HeadlessSway(nestedIn: outer, outputs: 2)
    let environment = nested.clientEnvironment
    let log = "/tmp/wl-toast-unplug-\(getpid()).log"
    defer { unlink(log) }
    let waiting = try ChildProcess(
      [builtProduct("wl-toast"), "--wait", "--print-outcome", "--timeout", "0", "On WL-1"],
      environment: environment, logPath: log)
    func status() throws -> String? {
      let result = try runCommand(
        [builtProduct("wl-toast"), "status"], environment: environment)
      return result.status == 0 ? result.output : nil
    }
    try waitUntil("status to report the toast on WL-1") { try status() != nil }
    // The toast is on the focused output, WL-1: close its window.
    try outer.swaymsg(["[title=\"wlroots - WL-1\"]", "kill"])
    #expect(waiting.wait(timeout: 5) == 0, "the compositor closed the toast: outcome hidden")
    let output = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    #expect(output == "hidden\n")
    // The next toast shows on the output that is left.
    let next = try runCommand(
      [builtProduct("wl-toast"), "--timeout", "0", "On WL-2"], environment: environment)
    #expect(next.status == 0)
    #expect(try status()?.contains("On WL-2") == true)
  }
}
