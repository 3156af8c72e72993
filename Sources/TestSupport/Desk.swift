import Glibc
import SystemSupport

/// A test compositor as a desk sees it: where clients connect, the
/// environment they run with, a directory for logs, and its first output on
/// screen (HeadlessSway, HeadlessRiver, HeadlessKWin).
package protocol TestCompositor: AnyObject {
  /// The absolute path of its Wayland socket.
  var socketPath: String { get }
  /// The environment a client of it runs with.
  var clientEnvironment: [String: String] { get }
  /// A directory of its own, removed when it stops (logs, scratch files).
  var runtimeDirectory: String { get }
  /// A screenshot of its first output, in device pixels.
  func screenshot() throws -> Image
  /// How long a wait for what it shows may take, in seconds (KWin on
  /// llvmpipe answers slowly).
  var patience: Double { get }
}

extension TestCompositor {
  /// Takes screenshots of the first output until `condition` holds for one and
  /// returns it; throws a `WaitTimeout` naming `expected` (what the screen
  /// should show) after `timeout` seconds.
  @discardableResult
  package func screenshot(
    _ expected: @autoclosure () -> String, timeout: Double? = nil,
    until condition: (Image) -> Bool
  ) throws -> Image {
    var found: Image?
    try waitUntil("a screenshot showing \(expected())", timeout: timeout ?? patience) {
      let shot = try screenshot()
      if condition(shot) { found = shot }
      return found != nil
    }
    return found!
  }
}

extension HeadlessSway: TestCompositor {
  /// Five seconds.
  package var patience: Double { 5 }

  /// The whole first output.
  package func screenshot() throws -> Image { try screenshot(x: 0) }
}

extension HeadlessRiver: TestCompositor {
  /// Five seconds.
  package var patience: Double { 5 }

  /// The whole first output.
  package func screenshot() throws -> Image { try screenshot(x: 0) }
}

extension HeadlessKWin: TestCompositor {
  /// Thirty seconds: KWin on llvmpipe answers slowly.
  package var patience: Double { 30 }
}

/// One test compositor with the input a user would have, and `wl-toast` run
/// against it as a user would: the one place that starts the command, reads
/// what it printed and asks it for a toast's status, for every compositor.
package final class TestDesk<Compositor: TestCompositor, Input> {
  /// The compositor.
  package let compositor: Compositor
  /// The pointer and keyboard.
  package let input: Input
  /// The environment `wl-toast` runs with: the compositor's clients', plus what a test adds.
  package var environment: [String: String]
  /// Clients that live as long as the desk (a desktop surface).
  package var fixtures: [AnyObject] = []

  /// A desk over a started compositor and its input.
  package init(_ compositor: Compositor, input: Input) {
    self.compositor = compositor
    self.input = input
    environment = compositor.clientEnvironment
  }

  /// A file name in the compositor's directory that no other call uses.
  private func scratch(_ prefix: String) -> String {
    compositor.runtimeDirectory + "/\(prefix)-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Starts `wl-toast` with arguments; its standard output and error go to
  /// `logPath` (by default a log in the compositor's directory).
  package func run(_ arguments: [String], logPath: String? = nil) throws -> ChildProcess {
    try ChildProcess(
      [builtProduct("wl-toast")] + arguments, environment: environment,
      logPath: logPath ?? compositor.runtimeDirectory + "/wl-toast.log")
  }

  /// Runs `wl-toast` to completion, with `stdin` as its standard input if
  /// given; its status, standard output and standard error.
  package func runToEnd(_ arguments: [String], stdin: String? = nil, timeout: Double? = nil) throws
    -> (status: Int32, output: String, errors: String)
  {
    let log = scratch("stderr")
    var redirections = "2> \"\(log)\""
    if let stdin {
      let input = scratch("stdin")
      try writeFile(input, stdin)
      redirections += " < \"\(input)\""
    }
    let command = ["sh", "-c", "exec \"$@\" \(redirections)", "sh", builtProduct("wl-toast")]
    let result = try runCommand(
      command + arguments, environment: environment,
      timeout: timeout ?? max(20, compositor.patience))
    let errors = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return (result.status, result.output, errors)
  }

  /// What `wl-toast status` prints for a tag, as one line without its
  /// newline; nil when no toast with the tag shows.
  package func statusLine(tag: String = "default") throws -> String? {
    let result = try runToEnd(["status", "--tag", tag])
    guard result.status == 0 else { return nil }
    return result.output.hasSuffix("\n") ? String(result.output.dropLast()) : result.output
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
