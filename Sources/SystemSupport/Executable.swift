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
