import Glibc

/// The names in a directory, without `.` and `..`; none when it cannot be read.
public func listDirectory(_ path: String) -> [String] {
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
public func listProcesses() -> [pid_t] {
  listDirectory("/proc").compactMap { pid_t($0) }
}

/// The numeric fields of `/proc/PID/status` (or of one thread's), by name.
public func statusFields(_ pid: pid_t, task: String? = nil) -> [Substring: Int] {
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

/// Context switches of all the process's threads so far, voluntary and not: a
/// sleeping process that wakes up, for a timer or an event, switches at least
/// once. Nil when the process is gone.
public func contextSwitches(_ pid: pid_t) -> Int? {
  let tasks = listDirectory("/proc/\(pid)/task")
  guard !tasks.isEmpty else { return nil }
  return tasks.reduce(0) { total, task in
    let fields = statusFields(pid, task: task)
    return total + (fields["voluntary_ctxt_switches"] ?? 0)
      + (fields["nonvoluntary_ctxt_switches"] ?? 0)
  }
}
