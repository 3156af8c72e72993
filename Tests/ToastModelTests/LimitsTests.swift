import Testing
import ToastModel

/// The library's side of ``Toast/Limits``: what `normalized()` and `truncated`
/// make of values out of range.
struct LimitsTests {
  @Test func theLibraryClampsToTheLimits() {
    var toast = Toast("x", timeout: -3)
    toast.progress = 7
    toast.offset = .init(x: 50_000, y: -50_000)
    toast.font = "   "
    let normalized = toast.normalized()
    #expect(normalized.timeout == 0)
    #expect(normalized.progress == 2, "200 %: full, and full again in the second colour")
    #expect(normalized.offset == .init(x: 10_000, y: -10_000))
    #expect(normalized.font == nil)
    toast.margin = -4
    toast.output = .named("two words")
    #expect(toast.normalized().margin == 0)
    #expect(toast.normalized().output == .automatic, "an impossible name: the compositor's choice")
    toast.margin = 20_000
    toast.output = .named("DP-1")
    #expect(toast.normalized().margin == Toast.Limits.margin.upperBound)
    #expect(toast.normalized().output == .named("DP-1"))
    toast.timeout = Toast.Timeout(seconds: .nan)
    toast.progress = .nan
    #expect(toast.normalized().timeout == .standard && toast.normalized().progress == nil)
    #expect(Toast("fine", timeout: 3).normalized() == Toast("fine", timeout: 3))
    #expect(Toast.Timeout.after(.seconds(-1)).normalized() == .untilDismissed)
    #expect(Toast.Timeout.after(.zero).normalized() == .untilDismissed)
    #expect(Toast.Timeout.after(.seconds(100_000)).normalized() == .after(.seconds(86_400)))
    #expect(Toast.Timeout(seconds: .infinity) == .after(.seconds(86_400)))
  }

  @Test func anIdleThresholdIsZeroOrAtLeastASecond() {
    var toast = Toast("away")
    for (given, kept) in [(0.001, 1.0), (0.5, 1), (0, 0), (-3, 0), (1.5, 1.5), (1e9, 86_400)] {
      toast.idleThreshold = given
      #expect(toast.normalized().idleThreshold == kept, "\(given)")
    }
    toast.idleThreshold = .nan
    #expect(toast.normalized().idleThreshold == nil)
  }

  @Test func oneTruncation() {
    let long = String(repeating: "x", count: 10_000)
    let cut = Toast.truncated(long)
    #expect(cut.unicodeScalars.count == Toast.Limits.textLength)
    #expect(cut.hasSuffix("…"))
    #expect(Toast.truncated("short") == "short")
    let exact = String(repeating: "x", count: Toast.Limits.textLength)
    #expect(Toast.truncated(exact) == exact)
    // The library shows what normalized() gives.
    #expect(Toast(long).normalized().text == cut)
    // Another limit (a button's label), an accented letter kept whole.
    #expect(Toast.truncated("ab\u{65}\u{301}cd", limit: 4) == "ab…")
    #expect(Toast.truncated("abe\u{301}d", limit: 5) == "abe\u{301}d")
  }
}

/// The checks that answer ASCII without the standard library's Unicode tables
/// agree with those tables, for every ASCII scalar and character and for the
/// scalars beyond that they hand on.
struct ASCIIFastPathTests {
  @Test func controlsSeparatorsAndBlanksAgreeWithUnicode() {
    let beyond: [UInt32] = [0x80, 0x85, 0x9F, 0xA0, 0xAD, 0x1680, 0x2000, 0x200B, 0x2028, 0x2029]
    for value in Array(0..<0x80) + beyond {
      let scalar = Unicode.Scalar(value)!
      let category = scalar.properties.generalCategory
      #expect(Toast.isControl(scalar) == (category == .control), "U+\(value)")
      #expect(
        Toast.breaksLine(scalar)
          == [.control, .lineSeparator, .paragraphSeparator].contains(category), "U+\(value)")
      let character = Character(scalar)
      #expect(Toast.isBlank(character) == character.isWhitespace, "U+\(value)")
    }
    #expect(Toast.isBlank("\r\n") == Character("\r\n").isWhitespace)
    #expect(Toast.isBlank("e\u{301}") == Character("e\u{301}").isWhitespace)
  }

  @Test func namesTakeThePrintableASCIIScalarsAndNoOthers() throws {
    for value in UInt8(0)..<0x80 {
      let name = "a" + String(UnicodeScalar(value))
      let printable = (0x21...0x7E).contains(value)
      #expect(((try? Toast.checkedTag(name)) != nil) == printable, "U+\(value)")
    }
  }
}
