import Glibc
import SystemSupport

/// An accessibility bus launcher that says a screen reader is on and never
/// gives the bus's address: `scripts/mute-launcher.py` on an
/// ``AccessibilityBus``'s session bus, owning `org.a11y.Bus` in place of
/// at-spi2-core's launcher (``AccessibilityBus/startMuteLauncher()``).
package final class MuteLauncher {
  /// The script's process.
  package let process: ChildProcess
  private let log: String

  init(answersStatus: Bool, environment: [String: String], directory: String) throws {
    log = directory + "/mute-launcher.log"
    process = try ChildProcess(
      ["/usr/bin/python3", repositoryDirectory + "/scripts/mute-launcher.py"]
        + (answersStatus ? [] : ["mute-status"]),
      environment: environment, logPath: log)
  }

  deinit { process.terminate() }

  /// How many times it was asked for the address (`GetAddress`).
  package var addressAsked: Int { lines(equalTo: "GetAddress") }
  /// How many times it was asked for `org.a11y.Status` (`GetAll`).
  package var statusAsked: Int { lines(equalTo: "GetAll") }

  /// Lets go of `org.a11y.Bus` and stays connected, and waits until it has.
  package func release() throws {
    try signal(SIGUSR1, then: "released")
  }

  /// Sends `PropertiesChanged` of `org.a11y.Status` (its flags, unchanged),
  /// and waits until it has.
  package func sayStatusChanged() throws {
    try signal(SIGUSR2, then: "changed")
  }

  /// Sends 1,000 `PropertiesChanged` of `org.a11y.Status` that invalidate
  /// `IsEnabled`, and waits until it has.
  package func floodStatusChanges() throws {
    try signal(SIGHUP, then: "flooded")
  }

  private func signal(_ number: Int32, then word: String) throws {
    let before = lines(equalTo: word)
    guard kill(process.pid, number) == 0 else {
      throw HarnessError("cannot signal the mute launcher: \(Errno.current)")
    }
    try waitUntil("the mute launcher to print \(word)", timeout: 20) {
      guard process.isRunning else { throw HarnessError("the mute launcher exited") }
      return lines(equalTo: word) > before
    }
  }

  private func lines(equalTo word: String) -> Int {
    let text = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return text.split(separator: "\n").filter { $0 == word }.count
  }
}
