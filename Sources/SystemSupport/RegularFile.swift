import Glibc

/// Why a file could not be read.
public enum FileReadError: Error, CustomStringConvertible {
  /// open or read failed with this errno.
  case system(Int32)
  /// Not a regular file.
  case notAFile
  /// Larger than the limit, in bytes.
  case tooLarge(limit: Int)

  /// The reason, in a few words.
  public var description: String {
    switch self {
    case .system(let code): String(cString: strerror(code))
    case .notAFile: "not a regular file"
    case .tooLarge(let limit): "larger than \(limit >> 20) MiB"
    }
  }
}

/// The bytes of a regular file of at most `limit` bytes (only its first
/// `prefix` bytes when given), and its `stat`. Nothing but a regular file is
/// opened (a device's open may act), and it is opened without blocking, so
/// that a FIFO put there meanwhile cannot stall the caller.
public func readRegularFile(_ path: String, limit: Int, prefix: Int? = nil) -> Result<
  (bytes: [UInt8], status: stat), FileReadError
> {
  var info = stat()
  guard stat(path, &info) == 0 else { return .failure(.system(errno)) }
  guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
  let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
  guard fd >= 0 else { return .failure(.system(errno)) }
  defer { close(fd) }
  guard fstat(fd, &info) == 0 else { return .failure(.system(errno)) }
  guard info.st_mode & S_IFMT == S_IFREG else { return .failure(.notAFile) }
  guard info.st_size <= limit else { return .failure(.tooLarge(limit: limit)) }
  var bytes = [UInt8](repeating: 0, count: min(Int(info.st_size), prefix ?? Int.max))
  var total = 0
  while total < bytes.count {
    let count = bytes[total...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    if count < 0 && errno == EINTR { continue }
    guard count >= 0 else { return .failure(.system(errno)) }
    if count == 0 { break }
    total += count
  }
  return .success((Array(bytes[..<total]), info))
}

/// Writes `line` and a line feed to `fd` whole; false when a write fails (a
/// full disk, a closed pipe).
public func writeLine(_ line: String, to fd: Int32) -> Bool {
  let bytes = Array((line + "\n").utf8)
  var written = 0
  while written < bytes.count {
    let count = bytes[written...].withUnsafeBytes { raw in
      retryingOnInterrupt { write(fd, raw.baseAddress, raw.count) }
    }
    guard count > 0 else { return false }
    written += count
  }
  return true
}
