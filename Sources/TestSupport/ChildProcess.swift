import CSystem
import Glibc
import SystemSupport

/// A failure of the test harness, with a message that says what to fix.
package struct HarnessError: Error, CustomStringConvertible {
  /// What went wrong.
  package var description: String

  /// Creates an error with a message.
  package init(_ description: String) { self.description = description }
}

/// A child process started with `posix_spawn`, with an empty signal mask and
/// default signal handlers (a test runner's worker threads block signals, and a
/// child would inherit that).
package final class ChildProcess {
  /// The process id.
  package let pid: pid_t
  /// The command line, for messages.
  package let arguments: [String]
  private var status: Int32?
  /// The peak resident memory in KiB, once the process has ended.
  package private(set) var peakMemoryKiB = 0

  /// Starts `arguments[0]` (looked up in PATH) with the given environment; its
  /// standard output and error go to `logPath` (or are inherited when nil),
  /// its standard input is /dev/null, and no other descriptor of this process
  /// is passed on.
  ///
  /// `descriptors` maps descriptors of the child to descriptors of this
  /// process that it gets there (`[3: listener]` hands a socket over as 3).
  package init(
    _ arguments: [String], environment: [String: String], logPath: String? = nil,
    stdoutFD: Int32? = nil, descriptors: [Int32: Int32] = [:]
  ) throws {
    self.arguments = arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    if let logPath {
      posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
      posix_spawn_file_actions_adddup2(&actions, 1, 2)
    }
    if let stdoutFD { posix_spawn_file_actions_adddup2(&actions, stdoutFD, 1) }
    for (child, parent) in descriptors.sorted(by: { $0.key < $1.key }) {
      posix_spawn_file_actions_adddup2(&actions, parent, child)
    }
    // Nothing else of this process's: a daemon that outlives its test must not
    // keep its descriptors open (a lock a build holds, a pipe a runner reads).
    wlt_spawn_close_from(&actions, (descriptors.keys.max() ?? 2) + 1)
    pid = try spawnProcess(arguments, environment: environment, actions: &actions)
  }

  deinit { terminate() }

  /// The exit status once the process has ended: the exit code, or 128 plus the signal.
  package var exitStatus: Int32? {
    if status == nil {
      var raw: Int32 = 0
      var usage = rusage()
      let result = wait4(pid, &raw, WNOHANG, &usage)
      if result == pid {
        status = Self.decode(raw)
        peakMemoryKiB = usage.ru_maxrss
      } else if result < 0 && errno == ECHILD {
        status = -1  // reaped elsewhere: gone, status unknown
      }
    }
    return status
  }

  /// Whether the process is still running.
  package var isRunning: Bool { exitStatus == nil }

  /// Waits up to `timeout` seconds for the process to end; nil when it is still running.
  @discardableResult
  package func wait(timeout: Double) -> Int32? {
    let deadline = now() + timeout
    while exitStatus == nil && now() < deadline { pause(for: .milliseconds(2)) }
    return exitStatus
  }

  /// Sends SIGTERM, and SIGKILL if the process has not ended within two seconds.
  package func terminate() {
    guard isRunning else { return }
    kill(pid, SIGTERM)
    if wait(timeout: 2) == nil {
      kill(pid, SIGKILL)
      wait(timeout: 2)
    }
  }

  private static func decode(_ raw: Int32) -> Int32 {
    let signal = raw & 0x7f
    return signal == 0 ? (raw >> 8) & 0xff : 128 + signal
  }
}

/// Starts `arguments[0]` (looked up in PATH) with `environment` and the
/// descriptors `actions` set up, with an empty signal mask and default signal
/// handlers (a test runner's worker threads block signals, and a child would
/// inherit that); `justBefore` runs right before the spawn (a benchmark reads
/// its clocks there).
package func spawnProcess(
  _ arguments: [String], environment: [String: String],
  actions: inout posix_spawn_file_actions_t, justBefore: () -> Void = {}
) throws -> pid_t {
  var attributes = posix_spawnattr_t()
  posix_spawnattr_init(&attributes)
  defer { posix_spawnattr_destroy(&attributes) }
  var empty = sigset_t()
  sigemptyset(&empty)
  var all = sigset_t()
  sigfillset(&all)
  posix_spawnattr_setsigmask(&attributes, &empty)
  posix_spawnattr_setsigdefault(&attributes, &all)
  posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
  let argv = arguments.map { strdup($0) } + [nil]
  let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
  defer {
    for pointer in argv + envp { free(pointer) }
  }
  var pid: pid_t = 0
  justBefore()
  let result = posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, envp)
  guard result == 0 else {
    throw HarnessError("cannot start \(arguments[0]): \(Errno(rawValue: result))")
  }
  return pid
}

/// Runs a command to completion and returns its exit status and standard output.
package func runCommand(
  _ arguments: [String], environment: [String: String], timeout: Double = 20
) throws -> (status: Int32, output: String) {
  var fds: [Int32] = [0, 0]
  guard wlt_pipe(&fds) == 0 else { throw HarnessError("pipe failed") }
  let child: ChildProcess
  do {
    child = try ChildProcess(arguments, environment: environment, stdoutFD: fds[1])
  } catch {
    close(fds[0])
    close(fds[1])
    throw error
  }
  close(fds[1])
  var output: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 65536)
  let deadline = now() + timeout
  var pfd = pollfd(fd: fds[0], events: Int16(POLLIN), revents: 0)
  while now() < deadline {
    let remaining = Int32(max(1, (deadline - now()) * 1000))
    if poll(&pfd, 1, remaining) <= 0 { continue }
    let count = read(fds[0], &buffer, buffer.count)
    if count <= 0 { break }
    output.append(contentsOf: buffer[0..<count])
  }
  close(fds[0])
  guard let status = child.wait(timeout: max(0.1, deadline - now())) else {
    child.terminate()
    throw HarnessError("\(arguments.joined(separator: " ")) did not finish in \(timeout) s")
  }
  return (status, String(decoding: output, as: UTF8.self))
}

/// Seconds on the monotonic clock.
package func now() -> Double { MonotonicTime.now.seconds }

/// A wait that gave up: what it waited for, and for how long.
package struct WaitTimeout: Error, CustomStringConvertible {
  /// What was awaited, as the words that follow "waiting for" ("the HUD to be on screen").
  package var awaited: String
  /// How many seconds the wait lasted.
  package var seconds: Double

  /// One line: "gave up after 5 s waiting for the HUD to be on screen".
  package var description: String {
    let whole = seconds.rounded()
    let shown = whole == seconds && abs(whole) < 1e15 ? String(Int(whole)) : String(seconds)
    return "gave up after \(shown) s waiting for \(awaited)"
  }
}

/// Checks `condition` until it holds; throws `WaitTimeout` naming `awaited` (the words
/// after "waiting for", evaluated only on timeout, so they can tell what was last seen)
/// when `timeout` seconds pass first. Errors thrown by `condition` end the wait.
package func waitUntil(
  _ awaited: @autoclosure () -> String, timeout: Double = 5, _ condition: () throws -> Bool
) throws {
  let deadline = now() + timeout
  // From 2 ms, doubling up to 32 ms: a quick answer is seen at once, and a slow
  // one does not keep a core busy (many conditions start a process).
  var interval = 2
  while true {
    if try condition() { return }
    let remaining = deadline - now()
    if remaining <= 0 { throw WaitTimeout(awaited: awaited(), seconds: timeout) }
    pause(for: .milliseconds(min(interval, max(1, Int(remaining * 1000)))))
    interval = min(interval * 2, 32)
  }
}

/// Runs a compositor's tool (`swaymsg`, `riverctl`) to completion and returns
/// its output; a status other than 0 throws, naming the command and what it said.
package func runTool(_ arguments: [String], environment: [String: String]) throws -> String {
  let result = try runCommand(arguments, environment: environment)
  guard result.status == 0 else {
    let name = arguments[0].split(separator: "/").last.map(String.init) ?? arguments[0]
    throw HarnessError(
      "\(name) \(arguments.dropFirst().joined(separator: " ")) failed: \(result.output)")
  }
  return result.output
}

/// What a wait last saw, for its message: the value, or "nothing".
package func lastSeen<Value>(_ value: Value?) -> String { value.map { "\($0)" } ?? "nothing" }

/// This process's environment without `keys` (the caller's displays and buses,
/// which a test's own compositor or bus must not inherit).
package func currentEnvironment(without keys: [String]) -> [String: String] {
  var environment = currentEnvironment()
  for key in keys { environment.removeValue(forKey: key) }
  return environment
}

/// The current environment as a dictionary.
package func currentEnvironment() -> [String: String] { processEnvironment() }

/// Reads a whole file, or nil when it cannot be read.
package func readFile(_ path: String) -> [UInt8]? {
  let fd = open(path, O_RDONLY | O_CLOEXEC)
  guard fd >= 0 else { return nil }
  defer { close(fd) }
  var data: [UInt8] = []
  var buffer = [UInt8](repeating: 0, count: 1 << 16)
  while true {
    let count = read(fd, &buffer, buffer.count)
    if count <= 0 { break }
    data.append(contentsOf: buffer[0..<count])
  }
  return data
}

/// Writes a whole file.
package func writeFile(_ path: String, _ text: String, mode: mode_t = 0o644) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode)
  guard fd >= 0 else {
    throw HarnessError("cannot write \(path): \(Errno.current)")
  }
  defer { close(fd) }
  let bytes = Array(text.utf8)
  guard write(fd, bytes, bytes.count) == bytes.count else {
    throw HarnessError("short write to \(path)")
  }
}

/// Makes a fresh private directory under /tmp.
package func makeTemporaryDirectory(prefix: String) throws -> String {
  var template = Array("/tmp/\(prefix)-XXXXXX".utf8CString)
  guard let path = mkdtemp(&template) else { throw HarnessError("mkdtemp failed") }
  return String(cString: path)
}

/// Removes a directory tree (best effort).
package func removeTree(_ path: String) {
  guard path.hasPrefix("/tmp/") else { return }
  _ = try? runCommand(["rm", "-rf", path], environment: currentEnvironment())
}

/// The path of an executable built next to the running test binary, such as `wl-toast`.
package func builtProduct(_ name: String) -> String {
  var directory = executablePath() ?? ""
  // The test binary may sit inside a bundle directory (name.xctest/...).
  while let slash = directory.lastIndex(of: "/") {
    directory = String(directory[..<slash])
    if access(directory + "/" + name, X_OK) == 0 { return directory + "/" + name }
    if directory.isEmpty { break }
  }
  return name
}
