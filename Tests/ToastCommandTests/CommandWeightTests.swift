import Glibc
import TestSupport
import Testing

/// The `wl-toast` command stays a light static process: nothing in it calls
/// for the concurrency runtime, whose executor checks bring libdispatch with
/// them (a closure in its top-level code is the main actor's).
struct CommandWeightTests {
  /// The bytes of the built command.
  static func command() throws -> [UInt8] {
    let path = builtProduct("wl-toast")
    guard let file = fopen(path, "rb") else {
      Issue.record("cannot open \(path)")
      return []
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 1 << 16)
    while true {
      let count = fread(&chunk, 1, chunk.count, file)
      if count == 0 { break }
      bytes += chunk[..<count]
    }
    return bytes
  }

  @Test func theCommandLinksNoConcurrencyRuntime() throws {
    let bytes = try Self.command()
    #expect(bytes.count > 1 << 20, "the command's binary is read whole")
    for name in ["swift_task_isCurrentExecutor", "dispatch_queue_create"] {
      let needle = Array(name.utf8)
      let found = bytes.withUnsafeBufferPointer { buffer in
        var start = 0
        while let first = buffer[start...].firstIndex(of: needle[0]) {
          if first + needle.count > buffer.count { return false }
          if buffer[first..<(first + needle.count)].elementsEqual(needle) { return true }
          start = first + 1
        }
        return false
      }
      #expect(!found, "the command carries \(name)")
    }
  }
}
