import Glibc
import Testing

@testable import ToastKit

/// The sound files the presenter leaves out before a toast shows: what
/// libcanberra would wait on for ever, or should not read.
struct SoundCheckTests {
  @Test func aNameIsNeverCheckedAndARegularFileIsPlayed() throws {
    #expect(SoundPlayer.problem(with: "message-new-instant") == nil)
    var template = Array("/tmp/wl-toast-sound-check-XXXXXX".utf8CString)
    let directory = String(cString: try #require(mkdtemp(&template)))
    defer {
      for name in ["fifo", "big", "small"] { unlink(directory + "/" + name) }
      rmdir(directory)
    }
    let small = open(directory + "/small", O_WRONLY | O_CREAT, 0o600)
    close(small)
    #expect(SoundPlayer.problem(with: directory + "/small") == nil)
    #expect(mkfifo(directory + "/fifo", 0o600) == 0)
    #expect(
      SoundPlayer.problem(with: directory + "/fifo") == "sound file \(directory)/fifo is a FIFO")
    #expect(SoundPlayer.problem(with: directory) == "sound file \(directory) is a directory")
    #expect(SoundPlayer.problem(with: "/dev/null") == "sound file /dev/null is a device")
    let big = open(directory + "/big", O_WRONLY | O_CREAT, 0o600)
    #expect(ftruncate(big, off_t(Toast.Limits.soundFileBytes) + 1) == 0)
    close(big)
    #expect(
      SoundPlayer.problem(with: directory + "/big")
        == "sound file \(directory)/big is larger than 16 MiB")
    #expect(
      SoundPlayer.problem(with: directory + "/missing")
        == "sound file \(directory)/missing cannot be read: No such file or directory")
  }
}
