import Glibc
import SystemSupport
import ToastModel

/// `--follow`: each line that `reader` gives applied to `toast` in `format`
/// and handed over by `deliver` (without waiting). A line refused, or one
/// that would leave nothing to show (``ToastModel/Toast/showsSomething``), changes
/// nothing: `skipped` gets its one line (`line N: REASON; skipped`) and the
/// next is read.
///
/// At the end of input, with `wait`, the toast is handed over once more to
/// wait for its outcome, which is returned. Without it, a toast that no line
/// delivered is handed over as it is, and the result is
/// ``Client/Result/accepted``. A toast that no line delivered and that shows
/// nothing is not handed over at all (``Client/Result/accepted``).
package func follow(
  _ toast: Toast, format: FollowFormat, wait: Bool, reader: inout LineReader,
  deliver: (_ toast: Toast, _ wait: Bool) -> Client.Result, skipped: (String) -> Void
) -> Client.Result {
  var current = toast
  var delivered = false
  var number = 0
  while let line = reader.next() {
    number += 1
    var next = current
    do {
      try next.apply(followLine: line, format: format)
    } catch {
      skipped("line \(number): \(error.description); skipped")
      continue
    }
    guard next.showsSomething else {
      skipped("line \(number): a blank text without a spinner or progress; skipped")
      continue
    }
    current = next
    _ = deliver(current, false)
    delivered = true
  }
  // End of input: the toast finishes its timeout. One that no line
  // delivered and that has no text is never shown, waited for or not.
  guard delivered || current.showsSomething else { return .accepted }
  if wait {
    return deliver(current, true)
  }
  if !delivered { _ = deliver(current, false) }
  return .accepted
}

/// Lines of a file descriptor, without their newline (nor a carriage return
/// before it); invalid UTF-8 becomes U+FFFD. A last line without a newline
/// is a line. A line longer than four messages (``maximumMessageSize``) is
/// cut after the read that passed that size: the rest is the next line.
/// A read that fails ends the input.
package struct LineReader {
  /// The bytes of one read (at most 64 KiB) at the start of the array: their
  /// count, 0 at the end of input, negative on an error.
  private let read: (inout [UInt8]) -> Int
  private var buffer: [UInt8] = []
  private var atEnd = false

  /// Reads `fd`.
  package init(fd: Int32) {
    self.read = { chunk in retryingOnInterrupt { Glibc.read(fd, &chunk, chunk.count) } }
  }

  /// Reads with `read`, which fills the start of a 64 KiB array and returns
  /// the bytes' count (as `read(2)` does).
  package init(reading read: @escaping (inout [UInt8]) -> Int) {
    self.read = read
  }

  /// The next line; nil at the end of input.
  package mutating func next() -> String? {
    while true {
      if let newline = buffer.firstIndex(of: 0x0A) {
        var line = Array(buffer[..<newline])
        buffer.removeSubrange(...newline)
        if line.last == 0x0D { line.removeLast() }
        return String(decoding: line, as: UTF8.self)
      }
      if atEnd {
        guard !buffer.isEmpty else { return nil }
        defer { buffer.removeAll() }
        return String(decoding: buffer, as: UTF8.self)
      }
      var chunk = [UInt8](repeating: 0, count: 65_536)
      let count = read(&chunk)
      if count <= 0 {
        atEnd = true
      } else {
        buffer += chunk[0..<count]
        // A line longer than the message limit is cut rather than kept growing.
        if buffer.count > maximumMessageSize * 4 && buffer.firstIndex(of: 0x0A) == nil {
          buffer.append(0x0A)
        }
      }
    }
  }
}
