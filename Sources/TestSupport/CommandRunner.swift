import Glibc

/// One run of a program as a test starts it: its arguments as bytes (invalid
/// UTF-8 included), its environment, working directory, umask and each
/// standard descriptor.
package struct Run: Sendable {
  /// The program, looked up in PATH (by default the built `wl-toast`).
  package var program: String
  /// The arguments after the program's name, as bytes (any but 0).
  package var arguments: [[UInt8]]
  /// The whole environment; nil for the runner's.
  package var environment: [String: String]?
  /// The working directory; nil for the test process's.
  package var directory: String?
  /// The umask; nil for the test process's.
  package var umask: mode_t?
  /// Standard input: /dev/null unless given.
  package var stdin: StandardStream
  /// Standard output: captured unless given.
  package var stdout: StandardStream
  /// Standard error: captured unless given.
  package var stderr: StandardStream
  /// Descriptors of this process the program gets, by its descriptor
  /// (`[3: listener]` hands a socket over as 3, as systemd does).
  package var descriptors: [Int32: Int32] = [:]
  /// The name of a variable set to the program's own process id (systemd's
  /// `LISTEN_PID`); nil for none.
  package var pidVariable: String?

  /// A run of `program` with arguments as bytes.
  package init(
    bytes arguments: [[UInt8]], program: String = builtProduct("wl-toast"),
    environment: [String: String]? = nil, directory: String? = nil, umask: mode_t? = nil,
    stdin: StandardStream = .null, stdout: StandardStream = .captured,
    stderr: StandardStream = .captured
  ) {
    self.program = program
    self.arguments = arguments
    self.environment = environment
    self.directory = directory
    self.umask = umask
    self.stdin = stdin
    self.stdout = stdout
    self.stderr = stderr
  }

  /// A run of `program` with arguments as UTF-8.
  package init(
    _ arguments: [String], program: String = builtProduct("wl-toast"),
    environment: [String: String]? = nil, directory: String? = nil, umask: mode_t? = nil,
    stdin: StandardStream = .null, stdout: StandardStream = .captured,
    stderr: StandardStream = .captured
  ) {
    self.init(
      bytes: arguments.map { Array($0.utf8) }, program: program, environment: environment,
      directory: directory, umask: umask, stdin: stdin, stdout: stdout, stderr: stderr)
  }
}

/// How a program run to its end ended, and what it printed (what was captured).
package struct CommandResult: Sendable {
  /// The exit status: the code, or 128 plus the signal.
  package var status: Int32
  /// Standard output's bytes.
  package var outputBytes: [UInt8]
  /// Standard error's bytes.
  package var errorBytes: [UInt8]

  /// Standard output as text.
  package var output: String { String(decoding: outputBytes, as: UTF8.self) }
  /// Standard error as text.
  package var errors: String { String(decoding: errorBytes, as: UTF8.self) }
}

/// Runs `wl-toast` (and the other built programs) as a user would: the one
/// way tests start the command. A desk has one for its compositor; one
/// without a compositor (``offscreen()``) serves `--render-png`.
package final class CommandRunner {
  /// The environment programs run with unless a run gives its own.
  package var environment: [String: String]
  /// Where logs and scratch files go.
  package let directory: String
  /// Whether the directory is this runner's, removed with it.
  private let ownsDirectory: Bool

  /// A runner with an environment, keeping its files in `directory`. No
  /// sound server is reachable from it (``SoundServer/absentEnvironment``):
  /// no test plays through the machine's own; a test with a
  /// ``SoundServer`` sets its ``SoundServer/clientEnvironment``.
  package init(environment: [String: String], directory: String) {
    self.environment = environment.merging(SoundServer.absentEnvironment) { $1 }
    self.directory = directory
    ownsDirectory = false
  }

  /// A runner for clients of `compositor`, keeping its files in the compositor's directory.
  package convenience init(on compositor: some TestCompositor) {
    self.init(environment: compositor.clientEnvironment, directory: compositor.runtimeDirectory)
  }

  /// A runner without a compositor: this process's environment without a
  /// display, a session bus, a configuration or a sound server, and a
  /// private directory of its own, removed with it.
  package init() throws {
    directory = try makeTemporaryDirectory(prefix: "wl-toast-runner")
    ownsDirectory = true
    environment = currentEnvironment(without: [
      "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR",
    ])
    environment["XDG_RUNTIME_DIR"] = directory
    environment.merge(SoundServer.absentEnvironment) { $1 }
  }

  deinit { if ownsDirectory { removeTree(directory) } }

  /// A file name in the runner's directory that no other call uses.
  package func scratch(_ prefix: String) -> String {
    directory + "/\(prefix)-\(UInt32.random(in: 0...UInt32.max))"
  }

  /// Starts a program as `run` says.
  package func start(_ run: Run) throws -> ChildProcess {
    var arguments = [Array(run.program.utf8)] + run.arguments
    if let name = run.pidVariable {
      // The id is known once the process runs: a shell sets the variable and
      // replaces itself with the program, which keeps the id.
      precondition(name.utf8.allSatisfy { $0 == 0x5f || isalnum(Int32($0)) != 0 })
      arguments =
        ["sh", "-c", "export \(name)=$$; exec \"$0\" \"$@\""].map { Array($0.utf8) }
        + arguments
    }
    return try ChildProcess(
      arguments, environment: run.environment ?? environment, directory: run.directory,
      umask: run.umask, stdin: run.stdin, stdout: run.stdout,
      stderr: run.stderr, descriptors: run.descriptors)
  }

  /// Starts `wl-toast` with arguments; its standard output and error go to
  /// `logPath` (by default `wl-toast.log` in the runner's directory).
  package func run(_ arguments: [String], logPath: String? = nil) throws -> ChildProcess {
    let log = StandardStream.file(logPath ?? directory + "/wl-toast.log")
    return try start(Run(arguments, stdout: log, stderr: log))
  }

  /// Runs a program as `run` says until it ends, up to `timeout`
  /// seconds (then it is stopped and the wait throws).
  package func runToEnd(_ run: Run, timeout: Double = 20) throws -> CommandResult {
    let child = try start(run)
    guard let status = child.wait(timeout: timeout) else {
      child.terminate()
      throw HarnessError("\(child.arguments.joined(separator: " ")) did not finish in \(timeout) s")
    }
    return CommandResult(
      status: status, outputBytes: child.captured(1), errorBytes: child.captured(2))
  }

  /// Runs `wl-toast` to completion, with `stdin` as its standard input if
  /// given; its status, standard output and standard error.
  package func runToEnd(_ arguments: [String], stdin: String? = nil, timeout: Double = 20) throws
    -> CommandResult
  {
    try runToEnd(
      Run(arguments, stdin: stdin.map { .bytes(Array($0.utf8)) } ?? .null),
      timeout: timeout)
  }
}
