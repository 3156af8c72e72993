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

/// The rules of ``Toast/Limits`` hold alike on the command line, the socket
/// and follow lines.
struct EveryPathTests {
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
