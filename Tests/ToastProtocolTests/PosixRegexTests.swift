import SystemSupport
import Testing

/// POSIX extended regular expressions through Glibc, their cost bounded.
struct PosixRegexTests {
  func problem(_ pattern: String) -> String? {
    do {
      _ = try PosixRegex(pattern)
      return nil
    } catch {
      return error.message
    }
  }

  @Test func extendedSyntaxMatchesAnywhereInTheText() throws {
    let volume = try PosixRegex("^(Volume|Brightness) [0-9]+%$")
    #expect(volume.matches("Volume 40%"))
    #expect(volume.matches("Brightness 100%"))
    #expect(volume.matches("Volume: 40%") == false)
    #expect(volume.matches("Mute Volume 40%") == false, "anchored")
    #expect(try PosixRegex("now").matches("Playing now: a song"), "found anywhere")
    #expect(try PosixRegex("[[:digit:]]{3}").matches("code 1234"))
    #expect(try PosixRegex("").matches(""), "the empty pattern matches all")
    #expect(try PosixRegex("a|b") == PosixRegex("a|b"))
  }

  @Test func aRefusedPatternSaysWhy() {
    #expect(problem("(Volume") == "Unmatched ( or \\(")
    #expect(problem("[a-") == "Unmatched [, [^, [:, [., or [=")
    #expect(problem("a{2,1}") == "Invalid content of \\{\\}")
    #expect(problem(String(repeating: "a", count: 1025)) == "longer than 1024 bytes")
    #expect(problem(String(repeating: "a", count: 512)) == nil)
    #expect(problem("(a*)\\1") == "a back-reference (\\1), not in POSIX extended expressions")
    #expect(problem("[\\1]") == nil, "a backslash in brackets is itself")
    #expect(problem("(a{1,100}){1,100}") == "repetitions copying more than 512 atoms")
    #expect(problem("((a{1,9}){1,9}){1,9}") == "repetitions copying more than 512 atoms")
    #expect(problem("a{1,500}") == nil)
    #expect(problem("[0-9]{1,3}(\\.[0-9]{1,3}){3}") == nil)
  }

  @Test func aMatchReadsTheTextsFirst4096Bytes() throws {
    let end = try PosixRegex("b$")
    #expect(end.matches(String(repeating: "a", count: 4095) + "b"))
    #expect(end.matches(String(repeating: "a", count: 4096) + "b") == false)
    let accent = try PosixRegex("a$")
    #expect(
      accent.matches(String(repeating: "a", count: 4095) + "é"),
      "cut before a character that does not fit whole")
  }

  @Test func aQuadraticPatternOnALongTextEndsWithinFiveSeconds() throws {
    let pattern = try PosixRegex("(a|aa)*b")
    let start = ContinuousClock.now
    #expect(pattern.matches(String(repeating: "a", count: 65_536)) == false)
    // The whole text took 14 s here; its first 4096 bytes take milliseconds.
    #expect(ContinuousClock.now - start < .seconds(5))
  }
}
