import Glibc
import SystemSupport
import ToastModel

/// One test compositor with the input a user would have, and `wl-toast` run
/// against it as a user would: the one place that starts the command, reads
/// what it printed and asks it for a toast's status, for every compositor.
package final class Desk<Compositor: TestCompositor> {
  /// The compositor.
  package let compositor: Compositor
  /// The pointer and keyboard.
  package let input: Compositor.Input
  /// What runs `wl-toast` on the desk, in the compositor's directory.
  package let runner: CommandRunner
  /// Clients and services that live as long as the desk (a desktop surface).
  package var fixtures: [AnyObject] = []

  /// A desk over a started compositor and its input.
  package init(_ compositor: Compositor, input: Compositor.Input) {
    self.compositor = compositor
    self.input = input
    runner = CommandRunner(
      environment: compositor.clientEnvironment, directory: compositor.runtimeDirectory)
  }

  /// The environment `wl-toast` runs with: the compositor's clients', plus what a test adds.
  package var environment: [String: String] {
    get { runner.environment }
    set { runner.environment = newValue }
  }

  /// The centre of the first output, in logical pixels.
  package var center: (x: Int, y: Int) {
    (compositor.logicalSize.width / 2, compositor.logicalSize.height / 2)
  }

  /// A file name in the compositor's directory that no other call uses.
  package func scratch(_ prefix: String) -> String { runner.scratch(prefix) }

  /// Starts a program as `run` says (see ``CommandRunner/start(_:)``).
  package func start(_ run: Run) throws -> ChildProcess {
    try runner.start(run)
  }

  /// Starts `wl-toast` with arguments; its standard output and error go to
  /// `logPath` (by default a log in the compositor's directory).
  package func run(_ arguments: [String], logPath: String? = nil) throws -> ChildProcess {
    try runner.run(arguments, logPath: logPath)
  }

  /// Runs a program as `run` says to completion (by default within the
  /// compositor's patience, at least 20 s).
  package func runToEnd(_ run: Run, timeout: Double? = nil) throws -> CommandResult {
    try runner.runToEnd(run, timeout: timeout ?? max(20, compositor.patience))
  }

  /// Runs `wl-toast` to completion, with `stdin` as its standard input if
  /// given; its status, standard output and standard error.
  package func runToEnd(_ arguments: [String], stdin: String? = nil, timeout: Double? = nil) throws
    -> CommandResult
  {
    try runner.runToEnd(arguments, stdin: stdin, timeout: timeout ?? max(20, compositor.patience))
  }

  /// What `wl-toast status` prints for a tag, as one line without its
  /// newline; nil when no toast with the tag shows.
  package func statusLine(tag: String = "default") throws -> String? {
    let result = try runToEnd(["status", "--tag", tag])
    guard result.status == 0 else { return nil }
    return result.output.hasSuffix("\n") ? String(result.output.dropLast()) : result.output
  }

  /// What `wl-toast status` says of a tag; nil when no toast with it shows.
  package func status(tag: String = "default") throws -> ToastStatus? {
    try statusLine(tag: tag).map(ToastStatus.init(line:))
  }

  /// Waits until the owner has committed a frame of the toast with `tag`, by
  /// `wl-toast status`'s `drawn` list (no screenshot: for tests that need the
  /// toast on screen, not its pixels); returns how its surfaces are drawn.
  @discardableResult
  package func waitUntilDrawn(tag: String = "default", timeout: Double? = nil) throws
    -> [DrawnSurface]
  {
    var drawn: [DrawnSurface] = []
    try waitUntil(
      "a frame of the toast '\(tag)' (status: \(drawn))", timeout: timeout ?? compositor.patience
    ) {
      drawn = try status(tag: tag)?.drawn ?? []
      return drawn.contains { $0.frames >= 1 }
    }
    return drawn
  }

  /// The wl-toast owner processes serving this compositor.
  package func ownerProcesses() -> [Int32] {
    let tool = builtProduct("wl-toast-owner")
    var owners: [Int32] = []
    for entry in listProcesses() {
      guard let environment = readFile("/proc/\(entry)/environ"),
        let exe = readLink("/proc/\(entry)/exe"), exe == tool
      else { continue }
      let variables = environment.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      if variables.contains("WAYLAND_DISPLAY=\(compositor.socketPath)") { owners.append(entry) }
    }
    return owners
  }

  /// Takes screenshots of the first output until `condition` holds for one
  /// (see ``TestCompositor/screenshot(_:timeout:until:)``).
  @discardableResult
  package func screenshot(
    _ expected: @autoclosure () -> String, timeout: Double? = nil,
    until condition: (Image) -> Bool
  ) throws -> Image {
    try compositor.screenshot(expected(), timeout: timeout, until: condition)
  }
}
