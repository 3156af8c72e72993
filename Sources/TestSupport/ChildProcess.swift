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

/// Where one standard descriptor of a started program comes from or goes to.
package enum StandardStream: Sendable {
  /// /dev/null.
  case null
  /// A file: read for standard input; for output, created (0644) and appended to.
  case file(String)
  /// /dev/full: every write fails with ENOSPC.
  case devFull
  /// Not open: the program starts without the descriptor.
  case closed
  /// These bytes, then the end of the input (standard input only).
  case bytes([UInt8])
  /// Kept in memory and read back with ``ChildProcess/captured(_:)`` (output only).
  case captured
  /// A descriptor of this process, duplicated.
  case descriptor(Int32)
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
  /// The memory files of the captured standard output and error, by descriptor.
  private var captures: [Int32: Int32] = [:]

  /// Starts `arguments[0]` (looked up in PATH) with the given environment; its
  /// standard output and error go to `logPath` (or are inherited when nil),
  /// its standard input is /dev/null, and no other descriptor of this process
  /// is passed on.
  ///
  /// `descriptors` maps descriptors of the child to descriptors of this
  /// process that it gets there (`[3: listener]` hands a socket over as 3).
  package convenience init(
    _ arguments: [String], environment: [String: String], logPath: String? = nil,
    stdoutFD: Int32? = nil, descriptors: [Int32: Int32] = [:]
  ) throws {
    let output = logPath.map(StandardStream.file) ?? stdoutFD.map(StandardStream.descriptor)
    try self.init(
      arguments.map { Array($0.utf8) }, environment: environment,
      stdout: output ?? .descriptor(1), stderr: logPath.map(StandardStream.file) ?? .descriptor(2),
      descriptors: descriptors)
  }

  /// Starts `arguments[0]` (looked up in PATH; each argument as bytes, any but
  /// 0) with the environment, in `directory` (or this process's), with
  /// `umask` (or this process's), and each standard descriptor as given; no
  /// other descriptor of this process is passed on but `descriptors` (child's
  /// descriptor: this process's).
  package init(
    _ arguments: [[UInt8]], environment: [String: String], directory: String? = nil,
    umask mask: mode_t? = nil, stdin: StandardStream = .null,
    stdout: StandardStream = .descriptor(1),
    stderr: StandardStream = .descriptor(2), descriptors: [Int32: Int32] = [:]
  ) throws {
    self.arguments = arguments.map { String(decoding: $0, as: UTF8.self) }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    // Descriptors of this process that only the spawn needs (memory files of input).
    var spawnOnly: [Int32] = []
    defer { for fd in spawnOnly { close(fd) } }
    func memoryFile(_ bytes: [UInt8]) throws -> Int32 {
      let fd = wlt_memory_file("wl-toast-test")
      guard fd >= 0 else { throw HarnessError("memfd_create failed: \(Errno.current)") }
      guard bytes.isEmpty || write(fd, bytes, bytes.count) == bytes.count else {
        close(fd)
        throw HarnessError("cannot write a memory file: \(Errno.current)")
      }
      lseek(fd, 0, SEEK_SET)
      return fd
    }
    // A capture made before a failure is closed with it (no process to own it).
    do {
      // The child's descriptors must not be taken by this process's duplicates:
      // every source above 2 that a later action might close is a spawn-only one.
      for (fd, stream) in [(Int32(0), stdin), (1, stdout), (2, stderr)] {
        let writing = fd != 0
        switch stream {
        case .null:
          posix_spawn_file_actions_addopen(
            &actions, fd, "/dev/null", writing ? O_WRONLY : O_RDONLY, 0)
        case .file(let path):
          posix_spawn_file_actions_addopen(
            &actions, fd, path, writing ? O_WRONLY | O_CREAT | O_APPEND : O_RDONLY, 0o644)
        case .devFull:
          posix_spawn_file_actions_addopen(&actions, fd, "/dev/full", O_RDWR, 0)
        case .closed:
          posix_spawn_file_actions_addclose(&actions, fd)
        case .bytes(let bytes):
          precondition(!writing, "bytes are an input")
          let memory = try memoryFile(bytes)
          spawnOnly.append(memory)
          posix_spawn_file_actions_adddup2(&actions, memory, fd)
        case .captured:
          precondition(writing, "a capture is of an output")
          let memory = try memoryFile([])
          captures[fd] = memory
          posix_spawn_file_actions_adddup2(&actions, memory, fd)
        case .descriptor(let parent):
          posix_spawn_file_actions_adddup2(&actions, parent, fd)
        }
      }
      if let directory, wlt_spawn_chdir(&actions, directory) != 0 {
        throw HarnessError("cannot run in \(directory): \(Errno.current)")
      }
      for (child, parent) in descriptors.sorted(by: { $0.key < $1.key }) {
        posix_spawn_file_actions_adddup2(&actions, parent, child)
      }
      // Nothing else of this process's: a daemon that outlives its test must not
      // keep its descriptors open (a lock a build holds, a pipe a runner reads).
      wlt_spawn_close_from(&actions, (descriptors.keys.max() ?? 2) + 1)
      pid = try spawnProcess(arguments, environment: environment, umask: mask, actions: &actions)
    } catch {
      for fd in captures.values { close(fd) }
      throw error
    }
  }

  deinit {
    terminate()
    for fd in captures.values { close(fd) }
  }

  /// What the process wrote so far to a standard descriptor started as
  /// ``StandardStream/captured`` (1 or 2); empty for any other.
  package func captured(_ fd: Int32) -> [UInt8] {
    guard let memory = captures[fd] else { return [] }
    var data: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    var offset = 0
    while true {
      let count = pread(memory, &buffer, buffer.count, off_t(offset))
      if count <= 0 { break }
      data.append(contentsOf: buffer[0..<count])
      offset += count
    }
    return data
  }

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
  try spawnProcess(
    arguments.map { Array($0.utf8) }, environment: environment, umask: nil, actions: &actions,
    justBefore: justBefore)
}

/// ``spawnProcess(_:environment:actions:justBefore:)`` with the arguments as
/// bytes (any but 0) and, when `mask` is given, that umask in the child alone
/// (see `wlt_spawn_with_umask`: posix_spawn has no umask attribute).
package func spawnProcess(
  _ arguments: [[UInt8]], environment: [String: String], umask mask: mode_t?,
  actions: inout posix_spawn_file_actions_t, justBefore: () -> Void = {}
) throws -> pid_t {
  precondition(!arguments.isEmpty && arguments.allSatisfy { !$0.contains(0) })
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
  func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
    let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
    bytes.withUnsafeBytes { raw in
      for (index, byte) in raw.enumerated() { pointer[index] = CChar(bitPattern: byte) }
    }
    pointer[bytes.count] = 0
    return pointer
  }
  let argv = arguments.map(copy) + [nil]
  let envp = environment.map { copy(Array("\($0.key)=\($0.value)".utf8)) } + [nil]
  defer {
    for pointer in argv + envp { pointer?.deallocate() }
  }
  var pid: pid_t = 0
  justBefore()
  let result =
    if let mask {
      wlt_spawn_with_umask(&pid, argv[0]!, &actions, &attributes, argv, envp, mask)
    } else {
      posix_spawnp(&pid, argv[0]!, &actions, &attributes, argv, envp)
    }
  let name = String(decoding: arguments[0], as: UTF8.self)
  guard result == 0 else { throw HarnessError("cannot start \(name): \(Errno(rawValue: result))") }
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
  _ awaited: @autoclosure () -> String, timeout: Double = 20, _ condition: () throws -> Bool
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

/// Makes a fresh private directory under `parent` (a directory under /tmp).
package func makeTemporaryDirectory(prefix: String, in parent: String = "/tmp") throws -> String {
  var template = Array("\(parent)/\(prefix)-XXXXXX".utf8CString)
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
