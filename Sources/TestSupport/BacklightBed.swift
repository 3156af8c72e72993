import CSystem
import Glibc
import SystemSupport

/// Backlight devices of one test's own, in Debian's umockdev (its test bed,
/// as upower and GNOME's settings daemon test with it): the repository's
/// `scripts/backlight-bed.py` keeps a `UMockdev.Testbed` with the devices a
/// test adds, writes their attributes and sends their uevents.
///
/// A program sees the bed's devices, instead of the machine's, with
/// ``clientEnvironment`` (umockdev's preload library and the bed's
/// directory). The bed itself runs preloaded too: without it, its uevents
/// reach nobody. Its directory goes when it ends.
package final class BacklightBed {
  /// umockdev's preload library (Debian's package umockdev).
  package static let preload = "libumockdev-preload.so.0"
  /// The bed's directory: its sysfs.
  package let directory: String
  private let process: ChildProcess
  /// The write end of the script's standard input.
  private let commands: Int32
  private let log: String
  /// How many commands were sent.
  private var sent = 0

  /// What a program needs to see the bed's devices instead of the machine's.
  package var clientEnvironment: [String: String] {
    ["LD_PRELOAD": Self.preload, "UMOCKDEV_DIR": directory]
  }

  /// Starts an empty bed; its log goes in `logDirectory`.
  package init(logDirectory: String) throws {
    let log = logDirectory + "/backlight-bed-\(UInt32.random(in: 0...UInt32.max)).log"
    self.log = log
    var ends: [Int32] = [0, 0]
    guard wlt_pipe(&ends) == 0 else { throw HarnessError("pipe failed: \(Errno.current)") }
    var environment = currentEnvironment(without: [
      "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS",
    ])
    environment["LD_PRELOAD"] = Self.preload
    let process: ChildProcess
    do {
      process = try ChildProcess(
        ["/usr/bin/python3", Self.script].map { Array($0.utf8) }, environment: environment,
        stdin: .descriptor(ends[0]), stdout: .file(log), stderr: .file(log))
    } catch {
      close(ends[0])
      close(ends[1])
      throw error
    }
    close(ends[0])
    self.process = process
    commands = ends[1]
    var found: String?
    do {
      try waitUntil("umockdev's test bed to start", timeout: 20) {
        guard process.isRunning else {
          throw HarnessError(
            "the test bed exited (packages umockdev, gir1.2-umockdev-1.0):\n\(Self.tail(log))")
        }
        found = Self.lines(log).first { $0.hasPrefix("UMOCKDEV_DIR=") }
        return found != nil
      }
    } catch {
      close(ends[1])
      process.terminate()
      throw error
    }
    directory = String(found!.dropFirst("UMOCKDEV_DIR=".count))
  }

  deinit {
    // At the end of its input the script ends, and its directory goes.
    close(commands)
    if process.wait(timeout: 5) == nil { process.terminate() }
    removeTree(directory)
  }

  /// Adds a backlight device `name` with `attributes` (`brightness`,
  /// `max_brightness`), which sends its `add` uevent.
  package func add(_ name: String, _ attributes: KeyValuePairs<String, String>) throws {
    try send(["add", name] + attributes.flatMap { [$0.key, $0.value] })
  }

  /// Writes `value` to the attribute of device `name`, then sends its `change` uevent.
  package func set(_ name: String, _ attribute: String, _ value: String) throws {
    try send(["set", name, attribute, value])
  }

  /// Writes each of `values` in turn to the attribute of device `name`,
  /// each with its `change` uevent, as fast as it goes (a held key).
  package func burst(_ name: String, _ attribute: String, _ values: [String]) throws {
    try send(["burst", name, attribute] + values)
  }

  /// Writes `value` to the attribute of device `name`, with no uevent.
  package func setOnly(_ name: String, _ attribute: String, _ value: String) throws {
    try send(["setonly", name, attribute, value])
  }

  /// Sends the `remove` uevent of device `name` and removes it.
  package func remove(_ name: String) throws {
    try send(["remove", name])
  }

  /// Sends one command and waits until the script has carried it out.
  private func send(_ words: [String]) throws {
    precondition(words.allSatisfy { !$0.isEmpty && !$0.contains(where: \.isWhitespace) })
    guard process.isRunning else { throw HarnessError("the test bed exited:\n\(Self.tail(log))") }
    let line = Array((words.joined(separator: " ") + "\n").utf8)
    guard line.withUnsafeBytes({ write(commands, $0.baseAddress, $0.count) }) == line.count else {
      throw HarnessError("cannot write to the test bed")
    }
    sent += 1
    var answers: [String] = []
    // A wait for the harness's own script, not a measure of wl-toast: as
    // long as a loaded machine takes (a burst is 20 changes with their uevents).
    try waitUntil("the test bed to carry out '\(words.joined(separator: " "))'", timeout: 30) {
      answers = Self.lines(log).filter { $0.hasPrefix("done ") || $0.hasPrefix("error ") }
      return answers.count >= sent
    }
    guard answers[sent - 1].hasPrefix("done ") else {
      throw HarnessError("the test bed: \(answers[sent - 1])")
    }
  }

  private static func lines(_ path: String) -> [String] {
    guard let data = readFile(path) else { return [] }
    return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
  }

  private static func tail(_ path: String) -> String {
    readFile(path).map { String(decoding: $0.suffix(1500), as: UTF8.self) } ?? ""
  }

  /// The bed's script: `scripts/backlight-bed.py` in the repository.
  static let script = repositoryDirectory + "/scripts/backlight-bed.py"
}
