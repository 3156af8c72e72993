import Testing
import ToastModel
import ToastNag

/// The error of a command line (with "Hi" as the message unless it gives one).
private func failure(_ arguments: [String], stdin: [UInt8] = []) -> NagError? {
  nag(arguments, stdin: stdin).error
}

/// Every refusal: its one-line message and its exit status.
@Suite struct NagErrorTests {
  @Test(arguments: [
    // swaynag's own failures (EXIT_FAILURE).
    (["-m", "Hi", "-b", "Run"], "missing action for button 'Run'", 1),
    (["-m", "Hi", "--button-dismiss-no-terminal=Run"], "missing action for button 'Run'", 1),
    (["-m", "Hi", "-e", "left"], "invalid edge: 'left' (expected top or bottom)", 1),
    (["-m", "Hi", "-e", "Top"], "invalid edge: 'Top' (expected top or bottom)", 1),
    (
      ["-m", "Hi", "-y", "below"],
      "invalid layer: 'below' (expected overlay, top, bottom or background)", 1
    ),
    (["-m", "Hi", "-t", "nope"], "unknown type 'nope'", 1),
    (["-m", "Hi", "-t", "a\nb"], "unknown type 'a\\nb'", 1),
    ([], "no message given: use --message or -m", 1),
    (["-d", "-l", "word"], "no message given: use --message or -m", 1),
    // Command lines refused (64).
    (["-m", "Hi", "-x"], "unknown option '-x'", 64),
    (["-m", "Hi", "-dx"], "unknown option '-x'", 64),
    (["-m", "Hi", "--nope"], "unknown option '--nope'", 64),
    (["-m", "Hi", "-\u{301}"], "unknown option '-\u{301}'", 64),
    (["-m", "Hi", "--nope=1"], "unknown option '--nope'", 64),
    (["--mess", "Hi"], "ambiguous option '--mess' (could be --message or --message-padding)", 64),
    (
      ["-m", "Hi", "--border-b=1"],
      "ambiguous option '--border-b' (could be --border-bottom or --border-bottom-size)", 64
    ),
    (["-m"], "option -m needs a value", 64),
    (["--message"], "option --message needs a value", 64),
    (["-m", "Hi", "--out"], "option --output needs a value", 64),
    (["-m", "Hi", "-b"], "option -b needs a value", 64),
    (["-m", "Hi", "--debug=1"], "option --debug takes no value", 64),
    (["-m", "Hi", "--help="], "option --help takes no value", 64),
  ])
  func refusals(_ arguments: [String], _ message: String, _ status: Int32) {
    #expect(failure(arguments) == NagError(message, exitStatus: status))
  }

  @Test(arguments: [
    ("--background", "red"), ("--text", "##000000"), ("--border", "12345"),
    ("--button-text", "0x123456"), ("--border-bottom", "1234567"), ("--button-background", ""),
    ("--details-background", "12345G"), ("--background", " 123456"),
    ("--background", "１２３４５６"),
  ])
  func badColours(_ option: String, _ value: String) {
    #expect(
      failure(["-m", "Hi", option, value])
        == NagError(
          "invalid \(option) colour \(Toast.quoted(value)) (expected RRGGBB or RRGGBBAA, with an"
            + " optional '#')", exitStatus: 64))
  }

  @Test func goodColours() throws {
    let request = try #require(
      nag(["-m", "Hi", "--background", "#00FF00", "--text=00ff0080", "--border", "AbCdEf"])
        .request)
    #expect(request.look.background == Toast.Color(red: 0, green: 1, blue: 0))
    #expect(request.look.text == color("00FF0080"))
    #expect(request.look.border == color("ABCDEF"))
  }

  @Test(arguments: [
    "300", "201", "-1", "010", "00", "1.5", "", " 5", "5px", "0x10", "+5", "99999999999999999999",
  ])
  func badSizes(_ value: String) {
    #expect(
      failure(["-m", "Hi", "--button-gap", value])
        == NagError(
          "invalid --button-gap size \(Toast.quoted(value)) (expected a decimal whole number"
            + " from 0 to 200, without leading zeros)", exitStatus: 64))
  }

  @Test func goodSizes() throws {
    let request = try #require(
      nag([
        "-m", "Hi", "--border-bottom-size", "0", "--message-padding", "200",
        "--details-border-size", "7", "--button-border-size=1", "--button-gap", "10",
        "--button-dismiss-gap", "4", "--button-margin-right", "5", "--button-padding", "6",
      ]).request)
    let look = request.look
    #expect(
      [
        look.borderBottomSize, look.messagePadding, look.detailsBorderSize,
        look.buttonBorderSize, look.buttonGap, look.buttonDismissGap, look.buttonMarginRight,
        look.buttonPadding,
      ] == [0, 200, 7, 1, 10, 4, 5, 6])
  }

  @Test(arguments: ["", "   ", "a\nb", String(repeating: "é", count: 65), "tab\there"])
  func badLabels(_ label: String) {
    let reason =
      "\(Toast.quoted(label)) (expected 1 to 64 characters on one line, not blank)"
    #expect(
      failure(["-m", "Hi", "-b", label, "x"])
        == NagError("invalid button label \(reason)", exitStatus: 64))
    #expect(
      failure(["-m", "Hi", "-s", label])
        == NagError("invalid dismiss button label \(reason)", exitStatus: 64))
    #expect(
      failure(["-m", "Hi", "-L", label])
        == NagError("invalid details button label \(reason)", exitStatus: 64))
  }

  @Test func longestLabel() throws {
    let label = String(repeating: "é", count: 64)
    #expect(
      try #require(nag(["-m", "Hi", "-b", label, "x"]).request).buttons.map(\.label) == [label])
  }

  /// `count` buttons B1, B2…
  private func buttons(_ count: Int) -> [String] {
    (0..<count).flatMap { ["-B", "B\($0 + 1)", "true"] }
  }

  @Test func theBarHoldsEightButtons() throws {
    // The dismiss button and seven.
    #expect(try #require(nag(["-m", "Hi"] + buttons(7)).request).buttons.count == 7)
    #expect(
      failure(["-m", "Hi"] + buttons(8))
        == NagError(
          "too many buttons: the bar holds 8 with the dismiss and details buttons, and 'B8' is"
            + " number 9", exitStatus: 64))
    // With details, the details button counts.
    let stdin = Array("details".utf8)
    #expect(nag(["-m", "Hi", "-l"] + buttons(6), stdin: stdin).request?.buttons.count == 6)
    #expect(
      failure(["-m", "Hi", "-l", "-L", "More"] + buttons(7), stdin: stdin)
        == NagError(
          "too many buttons: the bar holds 8 with the dismiss and details buttons, and 'More' is"
            + " number 9", exitStatus: 64))
    // Details that turn out empty add no button.
    #expect(nag(["-m", "Hi", "-l"] + buttons(7), stdin: []).request?.buttons.count == 7)
  }

  @Test func detailsThatAreNotUTF8ShowReplacementCharacters() {
    #expect(nag(["-m", "Hi", "-l"], stdin: [0x61, 0xFF, 0x0A]).request?.details == "a\u{FFFD}")
    #expect(nag(["-m", "Hi", "-l"], stdin: [0xC3]).request?.details == "\u{FFFD}")
  }

  @Test func detailsHaveALimit() throws {
    let limit = Toast.Limits.detailsLength
    let longest = [UInt8](repeating: UInt8(ascii: "a"), count: limit)
    #expect(
      try #require(nag(["-m", "Hi", "-l"], stdin: longest).request).details?.utf8.count == limit)
    // Trailing newlines are removed from details within the limit.
    let newlines = longest[10...] + [UInt8](repeating: 0x0A, count: 10)
    let trimmed = nag(["-m", "Hi", "-l"], stdin: Array(newlines)).request?.details
    #expect(trimmed?.utf8.count == limit - 10)
    let tooLong = NagError(
      "the detailed message on standard input is longer than \(limit) bytes", exitStatus: 64)
    #expect(failure(["-m", "Hi", "-l"], stdin: longest + [UInt8(ascii: "a")]) == tooLong)
  }

  @Test func whatIsReadPastTheLimitIsNeverCutOff() {
    // The command reads one byte past the limit: whatever that byte is, the
    // input is too long (a newline or a NUL there hid the rest of the details).
    let limit = Toast.Limits.detailsLength
    let longest = [UInt8](repeating: UInt8(ascii: "a"), count: limit)
    let tooLong = NagError(
      "the detailed message on standard input is longer than \(limit) bytes", exitStatus: 64)
    #expect(failure(["-m", "Hi", "-l"], stdin: longest + [0x0A]) == tooLong)
    #expect(failure(["-m", "Hi", "-l"], stdin: longest + [0x00]) == tooLong)
    #expect(failure(["-m", "Hi", "-l"], stdin: [UInt8](repeating: 0, count: limit + 1)) == tooLong)
  }

  @Test func theFirstReadingsErrorsComeFirst() {
    // An unknown option (first reading) before an invalid edge (second).
    #expect(failure(["-e", "left", "-x", "-m", "Hi"])?.message == "unknown option '-x'")
    // The second reading stops at its first error.
    #expect(
      failure(["-e", "left", "-t", "nope", "-m", "Hi"])?.message.hasPrefix("invalid edge") == true)
    #expect(failure(["-t", "nope", "-e", "left", "-m", "Hi"])?.message == "unknown type 'nope'")
    // A bad label comes before a missing message.
    #expect(failure(["-s", ""])?.message.hasPrefix("invalid dismiss button label") == true)
  }

  @Test func errorsAreOneLine() {
    let errors = [
      failure(["-m", "Hi", "-e", "a\nb"]), failure(["-m", "Hi", "--background", "\n"]),
      failure(["-m", "Hi", "-b", "a\u{2028}b", "x"]), failure(["-m", "Hi", "--a\nb"]),
      failure(["-m", "Hi", "-\n"]),
      failure(["-m", "Hi", "-t", String(repeating: "t\n", count: 99)]),
    ]
    for error in errors {
      let message = error?.message ?? ""
      #expect(error != nil)
      #expect(!message.contains { $0.isNewline }, "\(message)")
      #expect(error?.description == message)
    }
  }
}
