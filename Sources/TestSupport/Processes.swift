import Glibc
import SystemSupport

/// The names in a directory, without `.` and `..`; none when it cannot be read.
package func listDirectory(_ path: String) -> [String] {
  guard let handle = opendir(path) else { return [] }
  defer { closedir(handle) }
  var names: [String] = []
  while let entry = readdir(handle) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return names
}

/// The ids of the running processes.
package func listProcesses() -> [pid_t] {
  listDirectory("/proc").compactMap { pid_t($0) }
}

/// The numeric fields of `/proc/PID/status` (or of one thread's), by name.
package func statusFields(_ pid: pid_t, task: String? = nil) -> [Substring: Int] {
  let path = task.map { "/proc/\(pid)/task/\($0)/status" } ?? "/proc/\(pid)/status"
  guard let data = readFile(path) else { return [:] }
  var fields: [Substring: Int] = [:]
  for line in String(decoding: data, as: UTF8.self).split(separator: "\n") {
    guard let colon = line.firstIndex(of: ":") else { continue }
    let value = line[line.index(after: colon)...].split { $0 == " " || $0 == "\t" }.first
      .flatMap { Int($0) }
    if let value { fields[line[..<colon]] = value }
  }
  return fields
}

/// Whether the programs under test were built with ThreadSanitizer (`make
/// sanitize` builds and runs the tests with `WL_TOAST_SANITIZE=thread`). Its
/// runtime starts a thread of its own in a process when that process starts
/// its first thread (in an owner, Pango's fontconfig thread), and that
/// thread wakes every 100 ms until the process ends: counted with the
/// program's own, no process under it is ever idle.
package let underThreadSanitizer =
  getenv("WL_TOAST_SANITIZE").map { String(cString: $0) } == "thread"

/// Whether the programs under test were built with AddressSanitizer (`make
/// sanitize`'s `WL_TOAST_SANITIZE=address`). Its quarantine keeps freed
/// memory resident (up to 256 MiB), and its stacks of calls and frames grow
/// with the work done: a process's resident memory says nothing of its own
/// growth under it.
package let underAddressSanitizer =
  getenv("WL_TOAST_SANITIZE").map { String(cString: $0) } == "address"

/// Context switches of all the process's threads so far, voluntary and not: a
/// sleeping process that wakes up, for a timer or an event, switches at least
/// once. Nil when the process is gone. With `mainThreadOnly`, those of its
/// main thread only (see ``underThreadSanitizer``).
package func contextSwitches(_ pid: pid_t, mainThreadOnly: Bool = false) -> Int? {
  let tasks = mainThreadOnly ? [String(pid)] : listDirectory("/proc/\(pid)/task")
  guard !tasks.isEmpty, access("/proc/\(pid)/task/\(tasks[0])", F_OK) == 0 else { return nil }
  return tasks.reduce(0) { total, task in
    let fields = statusFields(pid, task: task)
    return total + (fields["voluntary_ctxt_switches"] ?? 0)
      + (fields["nonvoluntary_ctxt_switches"] ?? 0)
  }
}

/// The environment variable that marks every process of one test rig, also
/// those the rig's programs start themselves (a bus launcher's own bus, a
/// screen reader's speech server), which are not the test's children:
/// ``endRig(_:)`` finds them by it.
package let rigMarker = "WL_TOAST_TEST_RIG"

/// The processes marked as part of rig `name` or of a rig inside it
/// (`name/...`), by their environment.
package func rigProcesses(_ name: String) -> [pid_t] {
  let exact = Array("\(rigMarker)=\(name)".utf8)
  let nested = exact + [UInt8(ascii: "/")]
  return listProcesses().filter { pid in
    guard pid != getpid(), let environ = readFile("/proc/\(pid)/environ") else { return false }
    return environ.split(separator: 0).contains { entry in
      entry.elementsEqual(exact) || entry.starts(with: nested)
    }
  }
}

/// Ends `processes`, the last started first, then every other process of rig
/// `name` (what they started themselves; see ``endRig(_:)``).
package func endRig(_ name: String, startedWith processes: [ChildProcess]) {
  for process in processes.reversed() { process.terminate() }
  endRig(name)
}

/// Ends every process of rig `name` (see ``rigProcesses(_:)``): SIGTERM, then
/// SIGKILL for any still there after two seconds, and waits until none is left
/// (an ended child of the test's that no one has collected yet counts as gone).
package func endRig(_ name: String) {
  var remaining = rigProcesses(name)
  guard !remaining.isEmpty else { return }
  for pid in remaining { kill(pid, SIGTERM) }
  for signal in [SIGKILL, 0] {
    let deadline = now() + 2
    while !remaining.isEmpty && now() < deadline {
      pause(for: .milliseconds(10))
      remaining = remaining.filter { kill($0, 0) == 0 && !isZombie($0) }
    }
    if signal != 0 { for pid in remaining { kill(pid, signal) } }
  }
}

/// Whether `pid` has ended and waits for its parent to collect its status.
private func isZombie(_ pid: pid_t) -> Bool {
  guard let data = readFile("/proc/\(pid)/stat"),
    let close = data.lastIndex(of: UInt8(ascii: ")")), close + 2 < data.count
  else { return true }
  return data[close + 2] == UInt8(ascii: "Z")
}
