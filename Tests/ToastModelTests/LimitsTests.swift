import Testing
import ToastCommand
import ToastModel
import ToastProtocol

/// The reason a command line gives for a bad value, without the option's name.
private func commandLineReason(_ option: String, _ value: String) -> String? {
  guard case .failure(let error) = parseArguments([option, value, "x"]) else { return nil }
  let prefix = "\(option): "
  return error.message.hasPrefix(prefix) ? String(error.message.dropFirst(prefix.count)) : nil
}

/// The reason the socket protocol gives for a bad field of a shown toast.
private func socketReason(_ field: String, _ json: String) -> String? {
  let message = #"{"v":1,"op":"show","tag":"a","toast":{"\#(field)":\#(json)}}"#
  do {
    _ = try OwnerRequest(decoding: message)
    return nil
  } catch {
    return reason(error.description, field)
  }
}

/// The reason a `--follow` line gives for a bad field.
private func followReason(_ field: String, _ json: String) -> String? {
  var toast = Toast("kept")
  do {
    try toast.apply(followLine: #"{"\#(field)":\#(json)}"#, format: .json)
    return nil
  } catch {
    #expect(toast.text == "kept")
    return reason(error.description, field)
  }
}

private func reason(_ description: String, _ field: String) -> String? {
  let prefix = "\(field): "
  return description.hasPrefix(prefix) ? String(description.dropFirst(prefix.count)) : nil
}

/// The rules of ``Toast/Limits`` hold on every path a toast arrives by.
struct LimitsTests {
  @Test(arguments: [
    ("timeout", "-1", "-1", "expected seconds from 0 to 86400, or auto, got '-1'"),
    ("timeout", "86401", "86401", "expected seconds from 0 to 86400, or auto, got '86401'"),
    ("progress", "201", "201", "expected a percentage from 0 to 200, got '201'"),
    ("progress", "-0.5", "-0.5", "expected a percentage from 0 to 200, got '-0.5'"),
    ("style", "toast", #""toast""#, "expected hud, banner or bar, got 'toast'"),
    ("dismiss", "swipe", #""swipe""#, "expected tap or none, got 'swipe'"),
    ("background", "red", #""red""#, "expected #RRGGBB or #RRGGBBAA, got 'red'"),
    ("foreground", "#12345g", ##""#12345g""##, "expected #RRGGBB or #RRGGBBAA, got '#12345g'"),
    (
      "font", "  ", #""  ""#,
      "expected a font such as \"Sans Bold 15\" (at most 256 characters), got '  '"
    ),
    ("a11y", "loud", #""loud""#, "expected auto, on or off, got 'loud'"),
    (
      "say", " ", #"" ""#,
      "expected the text a screen reader says instead of the message (not blank), got ' '"
    ),
  ])
  func aBadValueGetsTheSameMessageOnEveryPath(
    _ field: String, _ argument: String, _ json: String, _ expected: String
  ) {
    #expect(commandLineReason("--\(field)", argument) == expected)
    #expect(socketReason(field, json) == expected)
    // Follow lines set content only; the rest they may not set at all.
    if Toast.followFields.contains(field) {
      #expect(followReason(field, json) == expected)
    } else {
      #expect(followReason(field, json)?.hasPrefix("cannot be set by a follow line") == true)
    }
  }

  @Test func offsetsAndLongFontsAreRefusedAlikeWhereverWritten() {
    let expectation = "expected X,Y (two whole numbers from -10000 to 10000), got "
    #expect(commandLineReason("--offset", "0,10001") == expectation + "'0,10001'")
    #expect(socketReason("offset", "[0,10001]") == expectation + "'[0,10001]'")
    #expect(socketReason("offset", "[0.5,1]") == expectation + "'[0.5,1]'")
    let font = String(repeating: "f", count: Toast.Limits.fontLength + 1)
    #expect(commandLineReason("--font", font)?.hasPrefix("expected a font") == true)
    #expect(socketReason("font", "\"\(font)\"")?.hasPrefix("expected a font") == true)
    #expect(commandLineReason("--font", String(font.dropFirst())) == nil)
  }

  @Test func tagsFollowOneRuleOnTheCommandLineAndTheSocket() throws {
    for tag in ["a b", "", "tab\there", String(repeating: "t", count: 65), "zero\u{200B}width"] {
      let expected =
        "expected 1 to 64 printable characters without spaces, got \(Toast.quoted(tag))"
      #expect(commandLineReason("--tag", tag) == expected)
      let message = #"{"v":1,"op":"status","tag":\#(JSONValue.string(tag).serialized)}"#
      #expect(throws: MessageError.invalidValue(.init(.tag, tag))) {
        try OwnerRequest(decoding: message)
      }
    }
    for tag in ["volume", "📢", "räume-2", String(repeating: "t", count: 64)] {
      #expect(commandLineReason("--tag", tag) == nil)
      let message = #"{"v":1,"op":"status","tag":\#(JSONValue.string(tag).serialized)}"#
      #expect(try OwnerRequest(decoding: message) == .status(tag: tag))
    }
  }

  @Test func hideDelaysAndLingerHaveTheirOwnRanges() {
    #expect(
      parseArguments(["hide", "--after", "86401"]).failure?.message
        == "--after: expected seconds from 0 to 86400, got '86401'")
    #expect(
      commandLineReason("--linger", "61") == "expected seconds from 0 to 60, got '61'")
    #expect(throws: MessageError.invalidValue(.init(.after, "86401"))) {
      try OwnerRequest(decoding: #"{"v":1,"op":"hide","tag":"a","after":86401}"#)
    }
  }

  @Test func oneTruncationForEveryPath() throws {
    let long = String(repeating: "x", count: 10_000)
    let cut = Toast.truncated(long)
    #expect(cut.unicodeScalars.count == Toast.Limits.textLength)
    #expect(cut.hasSuffix("…"))
    #expect(Toast.truncated("short") == "short")
    let exact = String(repeating: "x", count: Toast.Limits.textLength)
    #expect(Toast.truncated(exact) == exact)
    // The command line, the socket and follow lines all cut the same way.
    guard case .success(.show(let fromArguments, _)) = parseArguments([long]) else {
      Issue.record("refused a long message")
      return
    }
    #expect(fromArguments.text == cut)
    let request = OwnerRequest.show(tag: "a", toast: Toast(long), wait: false)
    guard case .show(_, let fromSocket, _, _) = try OwnerRequest(decoding: request.encoded) else {
      Issue.record("not a show request")
      return
    }
    #expect(fromSocket.text == cut)
    var followed = Toast("")
    try followed.apply(followLine: long)
    #expect(followed.text == cut)
    // The library shows what normalized() gives.
    #expect(Toast(long).normalized().text == cut)
  }

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

  @Test func theDefaultTagIsOneValue() {
    #expect(ShowOptions().tag == Toast.defaultTag)
    #expect(parseArguments(["status"]) == .success(.status(tag: Toast.defaultTag)))
    #expect(parseArguments(["hide"]) == .success(.hide(tag: Toast.defaultTag, after: nil)))
  }
}

extension Result {
  fileprivate var failure: Failure? {
    if case .failure(let error) = self { return error }
    return nil
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

  @Test func decimalsTakeASCIIDigitsOnly() {
    #expect(decimal("12.5") == 12.5)
    #expect(decimal("-.5") == -0.5)
    #expect(decimal("+2.") == 2)
    for other in ["١٢", "１２", "½", "1e3", "0x10", "", ".", "inf"] {
      #expect(decimal(other) == nil, "\(other)")
    }
  }
}
