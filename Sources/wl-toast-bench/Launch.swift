import CSystem
import Glibc
import SystemSupport
import TestSupport

/// A process the benchmark started, with the clocks read just before `posix_spawn`.
struct Launched {
  let pid: pid_t
  let arguments: [String]
  /// The realtime clock as libwayland stamps its debug log.
  let stamp: UInt32
  /// The monotonic clock in nanoseconds (WL_TOAST_TRACE's clock).
  let monotonic: UInt64
  private(set) var status: Int32?

  /// Starts `arguments[0]` with `environment`. Standard input is `stdinFD` or
  /// /dev/null; standard output and error go to `stdoutPath` and `stderrPath` (or
  /// /dev/null). The clocks are read last, right before the spawn.
  init(
    _ arguments: [String], environment: [String: String], stdinFD: Int32? = nil,
    stdoutPath: String? = nil, stderrPath: String? = nil
  ) throws {
    self.arguments = arguments
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    if let stdinFD {
      posix_spawn_file_actions_adddup2(&actions, stdinFD, 0)
    } else {
      posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    }
    let append = O_WRONLY | O_CREAT | O_APPEND
    posix_spawn_file_actions_addopen(&actions, 1, stdoutPath ?? "/dev/null", append, 0o644)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath ?? "/dev/null", append, 0o644)
    wlt_spawn_close_from(&actions, 3)
    var stamp: UInt32 = 0
    var monotonic: UInt64 = 0
    pid = try spawnProcess(arguments, environment: environment, actions: &actions) {
      stamp = WaylandDebugClock.now()
      monotonic = MonotonicTime.now.nanoseconds
    }
    self.stamp = stamp
    self.monotonic = monotonic
  }

  /// Waits (blocking, so that the benchmark takes no CPU meanwhile) up to
  /// `timeout` seconds for the process to end; returns its exit status, or nil.
  /// `exited` is the monotonic time of the return, in nanoseconds.
  mutating func wait(timeout: UInt32 = 10) -> (status: Int32, exited: UInt64)? {
    if let status { return (status, 0) }
    installAlarmHandler()
    alarm(timeout)
    defer { alarm(0) }
    var raw: Int32 = 0
    while true {
      let result = wait4(pid, &raw, 0, nil)
      let exited = MonotonicTime.now.nanoseconds
      if result == pid {
        let signal = raw & 0x7f
        let status = signal == 0 ? (raw >> 8) & 0xff : 128 + signal
        self.status = status
        return (status, exited)
      }
      // EINTR: the alarm went off (the timeout); anything else: not our child any more.
      return nil
    }
  }

  /// Stops the process (SIGTERM, then SIGKILL) and reaps it.
  mutating func stop() {
    guard status == nil else { return }
    kill(pid, SIGTERM)
    if wait(timeout: 3) == nil {
      kill(pid, SIGKILL)
      _ = wait(timeout: 3)
    }
  }
}

/// A SIGALRM handler that does nothing, installed without SA_RESTART, so that an
/// alarm interrupts a blocking `wait4`.
private func installAlarmHandler() {
  var action = sigaction()
  action.__sigaction_handler.sa_handler = { _ in }
  sigemptyset(&action.sa_mask)
  action.sa_flags = 0
  sigaction(SIGALRM, &action, nil)
}

/// A pipe whose ends are closed on exec; `Launched` dups the read end onto a child's input.
func makePipe() throws -> (read: Int32, write: Int32) {
  var fds: [Int32] = [0, 0]
  guard wlt_pipe(&fds) == 0 else { throw HarnessError("pipe failed: \(Errno.current)") }
  return (fds[0], fds[1])
}

/// Writes all of `text` to `fd`.
func writeAll(_ fd: Int32, _ text: String) {
  let bytes = Array(text.utf8)
  _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}

// MARK: - /proc

/// The process's peak resident set size in KiB (VmHWM): its own address space since
/// exec, so whatever its parent had does not count.
func peakResidentKiB(_ pid: pid_t) -> Int? { statusFields(pid)["VmHWM"] }

/// Whether a process is gone (or a zombie nobody reaped yet).
func isGone(_ pid: pid_t) -> Bool {
  guard let data = readFile("/proc/\(pid)/stat") else { return true }
  // "PID (comm) STATE ...": the state follows the last parenthesis.
  let text = String(decoding: data, as: UTF8.self)
  guard let close = text.lastIndex(of: ")") else { return true }
  return text[close...].dropFirst().trimmingPrefix(" ").first == "Z"
}

/// The processes whose command name (`comm`) is `name` and whose environment holds `entry`.
func processes(named name: String, withEnvironment entry: String) -> [pid_t] {
  listDirectory("/proc").compactMap { pid_t($0) }.filter { pid in
    guard let comm = readFile("/proc/\(pid)/comm"),
      String(decoding: comm, as: UTF8.self) == name + "\n",
      let environment = readFile("/proc/\(pid)/environ")
    else { return false }
    return environment.split(separator: 0).contains { $0.elementsEqual(entry.utf8) }
  }
}

/// The peak RSS in KiB of `arguments` run under `/usr/bin/time`: the measured
/// process is forked by the small `time`, not spawned from this large benchmark,
/// whose memory would otherwise count (posix_spawn shares it until exec).
func peakResidentKiBUnderTime(
  _ arguments: [String], environment: [String: String], scratch: String
) throws -> Int {
  let output = scratch + "/time.out"
  let result = try runCommand(
    ["/usr/bin/time", "-f", "%M", "-o", output] + arguments, environment: environment)
  guard result.status == 0 else {
    throw HarnessError("\(arguments.joined(separator: " ")) exited with status \(result.status)")
  }
  guard let data = readFile(output),
    let kib = Int(String(decoding: data, as: UTF8.self).split(separator: "\n").last ?? "")
  else { throw HarnessError("/usr/bin/time gave no peak RSS for \(arguments[0])") }
  return kib
}
