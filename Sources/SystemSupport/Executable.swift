import Glibc

/// The target of the symbolic link at `path`, or nil when it cannot be read.
public func readLink(_ path: String) -> String? {
  var buffer = [CChar](repeating: 0, count: Int(PATH_MAX))
  let count = readlink(path, &buffer, buffer.count - 1)
  guard count > 0 else { return nil }
  return String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

/// The path of the running program (`/proc/self/exe`), or nil when it cannot be read.
public func executablePath() -> String? { readLink("/proc/self/exe") }

/// The path of the program `name` in the running program's directory (as
/// installed and as built), or `name` itself when that directory is unknown.
public func programBesideExecutable(_ name: String) -> String {
  guard let path = executablePath(), let slash = path.lastIndex(of: "/") else { return name }
  return String(path[...slash]) + name
}

/// Replaces this process with `arguments[0]`; returns only when that failed.
public func execProgram(_ arguments: [String]) {
  let argv = arguments.map { strdup($0) } + [nil]
  execv(arguments[0], argv)
  for pointer in argv { free(pointer) }
}

/// Makes sure descriptors 0, 1 and 2 are open (on /dev/null if need be), so
/// that no socket or pipe of ours ever lands on them.
public func reserveStandardDescriptors() {
  while true {
    let fd = open("/dev/null", O_RDWR)
    if fd < 0 { return }
    if fd > 2 {
      close(fd)
      return
    }
  }
}

/// Writes one line to standard error.
public func printError(_ message: String) {
  let bytes = Array((message + "\n").utf8)
  _ = write(2, bytes, bytes.count)
}

/// The process's environment, by name.
public func processEnvironment() -> [String: String] {
  var environment: [String: String] = [:]
  var entry = environ
  while let pointer = entry.pointee {
    let pair = String(cString: pointer)
    if let equals = pair.firstIndex(of: "=") {
      environment[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
    }
    entry += 1
  }
  return environment
}
