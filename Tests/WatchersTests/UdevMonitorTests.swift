import Glibc
import Testing

@testable import Watchers

/// libudev opened with dlopen: what a user reads when it cannot be, and a
/// monitor that never blocks the watch's loop.
@Suite struct UdevMonitorTests {
  /// The line `body` throws, or nil.
  static func line(_ body: () throws(WatchError) -> UdevMonitor) -> String? {
    do throws(WatchError) {
      _ = try body()
      return nil
    } catch {
      return error.description
    }
  }

  @Test func aMissingLibraryIsOneLineNamingIt() throws {
    let line = try #require(
      Self.line { () throws(WatchError) in
        try UdevMonitor(libraryName: "libudev.so.0-missing")
      })
    #expect(line.hasPrefix("watch backlight: libudev.so.0-missing: cannot open shared object file"))
    #expect(line.hasSuffix("(Debian's package libudev1)"))
    #expect(!line.contains("\n"))
  }

  @Test func aLibraryWithoutUdevsFunctionsIsOneLine() {
    #expect(
      Self.line { () throws(WatchError) in
        try UdevMonitor(libraryName: "libc.so.6")
      }
        == "watch backlight: libc.so.6 lacks udev_new")
  }

  @Test func receivingWithNothingPendingReturnsAtOnce() throws {
    let monitor = try UdevMonitor()
    #expect(monitor.fileDescriptor >= 0)
    // Not blocking, or a wrong wake-up would hang the watch.
    try #require(fcntl(monitor.fileDescriptor, F_GETFL) & O_NONBLOCK != 0)
    #expect(monitor.receive().isEmpty)
  }
}
