import Glibc
import Wayland

/// A headless river of its own for one test: private runtime directory, pixman
/// renderer, one or more 1280x720 outputs side by side, no input devices.
///
/// river is not in Debian 12: `make river` builds it from a source archive
/// into a cache directory, and `make test-river` names that directory in
/// `WL_TOAST_RIVER_BIN`. Without it, river, riverctl and rivertile are looked
/// up in PATH. river runs as root when the tests do (it has no objection).
package final class HeadlessRiver: CapturedCompositor {
  /// The runtime directory river uses (its socket and the log live here).
  package let runtimeDirectory: String
  /// The absolute path of the Wayland socket.
  package let socketPath: String
  /// The directory holding river, riverctl and rivertile.
  package let programDirectory: String
  /// The size of each output in pixels.
  package let outputWidth: Int
  /// The size of each output in pixels.
  package let outputHeight: Int
  /// The outputs' names, left to right: HEADLESS-1 at x 0, HEADLESS-2 at x 1280, …
  package let outputNames: [String]
  /// Seconds from starting river until its init had run and riverctl answered.
  package let startupSeconds: Double
  /// The background colour of the outputs.
  package static let background = RGB(0x20, 0x40, 0x80)

  private let process: ChildProcess
  private var stopped = false

  /// The directory of river's programs: `WL_TOAST_RIVER_BIN`, or the one in PATH
  /// that holds river; throws a message saying how to get river otherwise.
  package static func findPrograms() throws -> String {
    if let directory = getenv("WL_TOAST_RIVER_BIN").map({ String(cString: $0) }),
      !directory.isEmpty
    {
      guard access(directory + "/river", X_OK) == 0, access(directory + "/riverctl", X_OK) == 0
      else {
        throw HarnessError("WL_TOAST_RIVER_BIN=\(directory) holds no river and riverctl")
      }
      return directory
    }
    let path = getenv("PATH").map { String(cString: $0) } ?? ""
    for directory in path.split(separator: ":").map(String.init)
    where access(directory + "/river", X_OK) == 0 && access(directory + "/riverctl", X_OK) == 0 {
      return directory
    }
    throw HarnessError(
      "no river to test on: run `make test-river` (it builds river from the archive in"
        + " RIVER_SRC and sets WL_TOAST_RIVER_BIN), or put river and riverctl in PATH")
  }

  /// Starts river and waits until its init has run and `riverctl` answers.
  ///
  /// `extraInit` is shell code appended to the init (after the background
  /// colour; the init stops at the first command that fails, and river is not
  /// ready then); `environment` adds or replaces variables of river (and so of
  /// the init and of what key bindings spawn; river's programs come first in PATH). With `outputs` above one the
  /// headless backend makes that many outputs at start (`WLR_HEADLESS_OUTPUTS`):
  /// river cannot add one later. They are placed left to right with wlr-randr.
  package init(
    outputs: Int = 1, extraInit: String = "", environment extra: [String: String] = [:]
  ) throws {
    programDirectory = try Self.findPrograms()
    outputWidth = 1280
    outputHeight = 720
    outputNames = (1...max(outputs, 1)).map { "HEADLESS-\($0)" }
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-river")
    runtimeDirectory = directory
    chmod(directory, 0o700)
    let initPath = directory + "/init"
    let marker = directory + "/init-done"
    // The init runs to its end before river is ready: the marker says it did
    // (a command of it that fails stops it there, and river never gets ready).
    try writeFile(
      initPath,
      """
      #!/bin/sh
      set -e
      riverctl background-color 0x204080
      riverctl border-width 0
      \(extraInit)
      touch '\(marker)'

      """, mode: 0o755)
    var environment = headlessCompositorEnvironment(directory: directory)
    environment["WLR_HEADLESS_OUTPUTS"] = String(outputNames.count)
    environment.merge(extra) { $1 }
    environment["PATH"] = programDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let start = now()
    let process = try ChildProcess(
      [programDirectory + "/river", "-c", initPath], environment: environment,
      logPath: directory + "/river.log")
    self.process = process

    var wayland: String?
    var failure: String?
    let riverctl = programDirectory + "/riverctl"
    do {
      try waitUntil(
        wayland == nil ? "its Wayland socket" : "its init to finish and riverctl to answer",
        timeout: 15
      ) {
        guard process.isRunning else { return true }
        wayland = listDirectory(directory).first {
          $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock")
        }.map { directory + "/" + $0 }
        guard let wayland, access(marker, F_OK) == 0 else { return false }
        var client = currentEnvironment()
        client["WAYLAND_DISPLAY"] = wayland
        return try runCommand(
          [riverctl, "border-width", "0"], environment: client
        )
        .status == 0
      }
      if let status = process.exitStatus { failure = "it exited with status \(status)" }
    } catch {
      failure = "\(error)"
    }
    guard failure == nil, let wayland else {
      process.terminate()
      let tail =
        readFile(directory + "/river.log").map { String(decoding: $0.suffix(2000), as: UTF8.self) }
        ?? ""
      removeTree(directory)
      throw HarnessError(
        "headless river did not start: \(failure ?? "no socket"); its log ends with:\n\(tail)")
    }
    socketPath = wayland
    startupSeconds = now() - start
    if outputNames.count > 1 {
      // The headless backend's outputs come in no set order: place them left to right.
      var arguments = ["wlr-randr"]
      for (index, name) in outputNames.enumerated() {
        arguments += ["--output", name, "--pos", "\(index * outputWidth),0"]
      }
      let result = try runCommand(arguments, environment: clientEnvironment)
      guard result.status == 0 else {
        throw HarnessError("\(arguments.joined(separator: " ")) failed: \(result.output)")
      }
    }
  }

  deinit { stop() }

  /// Runs `riverctl` with arguments against this river and returns its output.
  @discardableResult
  package func riverctl(_ arguments: [String]) throws -> String {
    try runTool([programDirectory + "/riverctl"] + arguments, environment: clientEnvironment)
  }

  /// The environment for a client of this river (its programs first in PATH).
  package var clientEnvironment: [String: String] {
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = socketPath
    environment.removeValue(forKey: "SWAYSOCK")
    environment["PATH"] = programDirectory + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    return environment
  }

  /// A screenshot of one output, by name.
  package func screenshot(output name: String) throws -> Image {
    guard let index = outputNames.firstIndex(of: name) else {
      throw HarnessError("no output \(name): river has \(outputNames)")
    }
    return try screenshot(x: index * outputWidth, y: 0, width: outputWidth, height: outputHeight)
  }

  /// Stops river and removes its runtime directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    process.terminate()
    removeTree(runtimeDirectory)
  }

  /// The last `bytes` of river's log (its standard output and error, and those
  /// of its init and of what key bindings spawn), for failure messages.
  package func logTail(_ bytes: Int = 2000) -> String {
    readFile(runtimeDirectory + "/river.log").map {
      String(decoding: $0.suffix(bytes), as: UTF8.self)
    } ?? ""
  }

  /// Whether river is still running.
  package var isRunning: Bool { !stopped && process.isRunning }
}
