import TestSupport
import Testing
import ToastModel

@testable import ToastCommand

/// The toast a command line shows, or nil when it asks for something else.
private func toast(_ arguments: [String]) -> Toast? {
  guard case .success(.show(let toast, _)) = parseArguments(arguments) else { return nil }
  return toast
}

/// The line a command line prints on standard error, or nil when it parses.
private func failure(_ arguments: [String]) -> String? {
  guard case .failure(let error) = parseArguments(arguments) else { return nil }
  return error.description
}

@Suite("Arguments")
struct ArgumentsTests {
  // MARK: Message

  @Test func aMessageAloneGivesTheDefaults() {
    #expect(parseArguments(["Saved"]) == .success(.show(Toast("Saved"), ShowOptions())))
  }

  @Test func wordsAreJoinedWithSingleSpaces() {
    #expect(toast(["Volume", "50%"])?.text == "Volume 50%")
    #expect(toast(["two  spaces", "kept"])?.text == "two  spaces kept")
    #expect(toast(["a", "", "b"])?.text == "a  b")
    #expect(toast(["ünïcødé", "🎉"])?.text == "ünïcødé 🎉")
  }

  @Test func optionsMayComeAfterWords() {
    let parsed = toast(["Volume", "--timeout", "3", "up", "--spinner"])
    #expect(parsed?.text == "Volume up")
    #expect(parsed?.timeout == 3)
    #expect(parsed?.showsSpinner == true)
  }

  @Test func aLoneDashIsAWord() {
    #expect(toast(["a", "-", "b"])?.text == "a - b")
  }

  @Test func doubleDashEndsOptions() {
    #expect(toast(["--", "--spinner", "-x", "--help"])?.text == "--spinner -x --help")
    #expect(toast(["Hi", "--", "there"])?.text == "Hi there")
    #expect(toast(["--", "--"])?.text == "--")
    let parsed = toast(["--spinner", "--", "-5", "°C"])
    #expect(parsed?.text == "-5 °C")
    #expect(parsed?.showsSpinner == true)
  }

  @Test func aMessageIsRequiredWithoutSpinnerOrProgress() {
    let missing = "wl-toast: missing MESSAGE (needed unless --spinner or --progress is given)"
    #expect(failure([]) == missing)
    #expect(failure([""]) == missing)
    #expect(failure(["  ", ""]) == missing)
    #expect(failure(["--"]) == missing)
    #expect(failure(["--timeout", "3"]) == missing)
    #expect(toast(["--spinner"])?.text == "")
    #expect(toast(["--progress", "40"])?.text == "")
    #expect(toast(["--progress=0"])?.text == "")
  }

  // MARK: Options

  @Test func everyOptionAtOnce() {
    // The toast with every field set that MessagesTests sends over the wire.
    let arguments = [
      "--style", "banner", "--timeout", "3", "--spinner", "--progress", "42", "--offset",
      "-20,35", "--dismiss", "tap", "--modal", "--dim", "--markup", "--no-animation", "--font",
      "Sans Bold 13", "--background", "#102030c0", "--foreground", "#ffeeddff", "--position",
      "bottom-left", "--margin", "24", "--output", "DP-1", "--layer", "top", "--icon",
      "audio-volume-high-symbolic", "--icon-theme", "Adwaita", "--sound", "message-new-instant",
      "--sound-on-update", "--grace", "0.3", "--min-show", "1", "--idle-threshold", "30",
      "--a11y", "on", "--say", "Copying photos", "--button", "Undo", "--button", "Keep “this”",
      "--keyboard", "exclusive", "Copying", "“photos”", "📷",
    ]
    #expect(
      parseArguments(arguments) == .success(.show(Toast.everyOption, ShowOptions())))
  }

  @Test(arguments: [
    ("--style", "banner"),
    ("--timeout", "3"),
    ("--progress", "50"),
    ("--offset", "-20,30"),
    ("--dismiss", "tap"),
    ("--font", "Monospace 12"),
    ("--background", "#336699"),
    ("--foreground", "#33669980"),
  ])
  func valueFollowsOrComesAfterEquals(_ option: String, _ value: String) throws {
    let separate = try #require(toast([option, value, "Hi"]))
    let joined = try #require(toast(["\(option)=\(value)", "Hi"]))
    #expect(separate == joined)
    #expect(separate != Toast("Hi"))
  }

  /// The value after `=` is the rest of the argument's bytes, even when it
  /// starts with a mark that would combine with the `=` into one character.
  @Test func anInlineValueKeepsACombiningMarkAtItsStart() {
    #expect(toast(["--say=\u{301}abc", "Hi"])?.accessibleText == "\u{301}abc")
    #expect(toast(["--font=\u{200D}Sans", "Hi"])?.font == "\u{200D}Sans")
    #expect(toast(["--say=abc", "Hi"])?.accessibleText == "abc")
  }

  @Test func style() {
    #expect(toast(["--style", "banner", "Hi"])?.style == .banner)
    #expect(toast(["--style=hud", "Hi"])?.style == .hud)
    #expect(toast(["--style", "banner", "--style", "hud", "Hi"])?.style == .hud)
  }

  @Test func timeout() {
    #expect(toast(["--timeout", "3", "Hi"])?.timeout == 3)
    #expect(toast(["--timeout", "0.25", "Hi"])?.timeout == 0.25)
    #expect(toast(["--timeout", ".5", "Hi"])?.timeout == 0.5)
    #expect(toast(["--timeout", "+2", "Hi"])?.timeout == 2)
    #expect(toast(["--timeout", "0", "Hi"])?.timeout == 0)
    #expect(toast(["--timeout", "-0", "Hi"])?.timeout == .untilDismissed)
    #expect(toast(["--timeout=86400", "Hi"])?.timeout == 86_400)
    #expect(toast(["Hi"])?.timeout == .standard)
  }

  @Test func progressIsAPercentage() {
    #expect(toast(["--progress", "50", "Hi"])?.progress == 0.5)
    #expect(toast(["--progress", "12.5", "Hi"])?.progress == 0.125)
    #expect(toast(["--progress", "0", "Hi"])?.progress == 0)
    #expect(toast(["--progress", "100", "Hi"])?.progress == 1)
    #expect(toast(["--progress=75%", "Hi"])?.progress == 0.75)
    #expect(toast(["Hi"])?.progress == nil)
  }

  @Test func offsetsMayBeNegative() {
    #expect(toast(["--offset", "-20,30", "Hi"])?.offset == Toast.Offset(x: -20, y: 30))
    #expect(toast(["--offset=-20,-30", "Hi"])?.offset == Toast.Offset(x: -20, y: -30))
    #expect(toast(["--offset", "+5,0", "Hi"])?.offset == Toast.Offset(x: 5, y: 0))
    #expect(
      toast(["--offset", "10000,-10000", "Hi"])?.offset == Toast.Offset(x: 10_000, y: -10_000))
  }

  @Test func dismissal() {
    #expect(toast(["--dismiss", "tap", "Hi"])?.dismissal == .tap)
    #expect(toast(["--dismiss=none", "Hi"])?.dismissal == Toast.Dismissal.none)
  }

  @Test func flags() {
    #expect(toast(["--spinner", "Hi"])?.showsSpinner == true)
    #expect(toast(["--modal", "Hi"])?.isModal == true)
    #expect(toast(["--markup", "<b>Hi</b>"])?.isMarkup == true)
    #expect(toast(["--markup", "<b>Hi</b>"])?.text == "<b>Hi</b>")
    #expect(toast(["--no-animation", "Hi"])?.isAnimated == false)
    let dimmed = toast(["--dim", "--modal", "Hi"])
    #expect(dimmed?.dimsBackground == true)
    #expect(dimmed?.isModal == true)
    let plain = toast(["Hi"])
    #expect(plain?.showsSpinner == false)
    #expect(plain?.isModal == false)
    #expect(plain?.dimsBackground == false)
    #expect(plain?.isMarkup == false)
    #expect(plain?.isAnimated == true)
  }

  @Test func font() {
    #expect(toast(["--font", "Sans Bold 15", "Hi"])?.font == "Sans Bold 15")
    #expect(toast(["--font=Noto Sans CJK JP 20", "Hi"])?.font == "Noto Sans CJK JP 20")
  }

  @Test func colors() {
    let red = Toast.Color(red: 1, green: 0, blue: 0, alpha: 0x80 / 255)
    #expect(toast(["--background", "#ff000080", "Hi"])?.background == red)
    #expect(toast(["--background=FF000080", "Hi"])?.background == red)
    #expect(
      toast(["--foreground", "#00ff00", "Hi"])?.foreground
        == Toast.Color(
          red: 0, green: 1, blue: 0))
  }

  @Test func outputsPositionsMarginsAndLayers() {
    let plain = toast(["Hi"])
    #expect(plain?.output == .automatic)
    #expect(plain?.position == nil)
    #expect(plain?.margin == nil)
    #expect(plain?.layer == .overlay)
    #expect(toast(["--output", "DP-1", "Hi"])?.output == .named("DP-1"))
    #expect(toast(["--output=all", "Hi"])?.output == .all)
    for position in Toast.Position.allCases {
      #expect(toast(["--position", position.rawValue, "Hi"])?.position == position)
    }
    #expect(toast(["--margin", "0", "Hi"])?.margin == 0)
    #expect(toast(["--margin=10000", "Hi"])?.margin == 10_000)
    #expect(toast(["--layer", "top", "Hi"])?.layer == .top)
    #expect(toast(["--layer", "overlay", "Hi"])?.layer == .overlay)
  }

  @Test func iconsAndTiming() {
    #expect(
      toast(["--icon", "audio-volume-high-symbolic", "Hi"])?.icon == "audio-volume-high-symbolic")
    #expect(toast(["--icon=/tmp/a b.svg", "Hi"])?.icon == "/tmp/a b.svg")
    #expect(toast(["--icon-theme", "Adwaita", "Hi"])?.iconTheme == "Adwaita")
    #expect(toast(["--grace", "0.3", "Hi"])?.grace == 0.3)
    #expect(toast(["--min-show", "1", "Hi"])?.minimumShow == 1)
    #expect(toast(["--timeout", "auto", "Hi"])?.timeout == .automatic)
    #expect(toast(["--timeout", "auto", "--timeout", "2", "Hi"])?.timeout == .after(.seconds(2)))
    #expect(toast(["--progress", "150", "Hi"])?.progress == 1.5)
  }

  @Test func screenReaders() {
    #expect(toast(["Hi"])?.accessibility == .automatic)
    #expect(toast(["Hi"])?.accessibleText == nil)
    for choice in Toast.Accessibility.allCases {
      #expect(toast(["--a11y", choice.rawValue, "Hi"])?.accessibility == choice)
    }
    #expect(toast(["--say", "Volume muted", "🔇"])?.accessibleText == "Volume muted")
    #expect(
      toast(["--say", String(repeating: "a", count: 5000), "Hi"])?.accessibleText?.count == 4096,
      "cut like a message")
  }

  @Test func urgencyAndTheFullscreenPolicy() {
    #expect(toast(["Hi"])?.urgency == .normal)
    #expect(toast(["Hi"])?.fullscreen == .show)
    for urgency in Toast.Urgency.allCases {
      #expect(toast(["--urgency", urgency.rawValue, "Hi"])?.urgency == urgency)
    }
    for policy in Toast.FullscreenPolicy.allCases {
      #expect(toast(["--fullscreen=\(policy.rawValue)", "Hi"])?.fullscreen == policy)
    }
    // Do-not-disturb holds back all but critical toasts, which also ignore fullscreen.
    var critical = Toast("Battery low")
    critical.urgency = .critical
    critical.fullscreen = .suppress
    #expect(!DoNotDisturb.on.silences(critical))
    #expect(critical.effectiveFullscreenPolicy == .show)
    for urgency in [Toast.Urgency.low, .normal] {
      var toast = critical
      toast.urgency = urgency
      #expect(DoNotDisturb.on.silences(toast))
      #expect(!DoNotDisturb.off.silences(toast))
      #expect(toast.effectiveFullscreenPolicy == .suppress)
    }
    #expect(DoNotDisturb.on.toggled == .off && DoNotDisturb.off.toggled == .on)
  }

  @Test func aToastThatSaysSoShowsThroughDoNotDisturb() {
    #expect(toast(["Hi"])?.doNotDisturb == .suppress)
    let through = toast(["--dnd", "show", "Mode: resize"])
    #expect(through?.doNotDisturb == .show)
    #expect(through.map { !DoNotDisturb.on.silences($0) } == true)
    #expect(toast(["--dnd=suppress", "Hi"]).map { DoNotDisturb.on.silences($0) } == true)
  }

  @Test func aValueMayStartWithADash() {
    #expect(toast(["--font", "-misc-fixed", "Hi"])?.font == "-misc-fixed")
    #expect(toast(["--font", "--help", "Hi"])?.font == "--help")
    #expect(toast(["--font", "--", "Hi"])?.font == "--")
  }

  // MARK: Errors

  @Test(arguments: [
    // Unknown options.
    (["--bogus", "Hi"], "unknown option '--bogus'"),
    (["--bogus=1", "Hi"], "unknown option '--bogus'"),
    (["--Style", "hud", "Hi"], "unknown option '--Style'"),
    (["--sty", "hud", "Hi"], "unknown option '--sty'"),
    (["-x", "Hi"], "unknown option '-x'"),
    (["-hV"], "unknown option '-hV'"),
    (["-h=1"], "unknown option '-h=1'"),
    (["-5", "degrees"], "unknown option '-5'"),
    // Missing values.
    (["Hi", "--style"], "--style: missing value (hud|banner|bar|card)"),
    (["Hi", "--timeout"], "--timeout: missing value (SECONDS|auto)"),
    (["Hi", "--progress"], "--progress: missing value (PERCENT)"),
    (["Hi", "--offset"], "--offset: missing value (X,Y)"),
    (["Hi", "--dismiss"], "--dismiss: missing value (tap|none)"),
    (["Hi", "--font"], "--font: missing value (FAMILY SIZE)"),
    (["Hi", "--background"], "--background: missing value (#RRGGBB[AA])"),
    (["Hi", "--foreground"], "--foreground: missing value (#RRGGBB[AA])"),
    // Flags given a value.
    (["--spinner=yes", "Hi"], "--spinner: takes no value, got 'yes'"),
    (["--modal=", "Hi"], "--modal: takes no value, got ''"),
    (["--dim=1", "Hi"], "--dim: takes no value, got '1'"),
    (["--markup=true", "Hi"], "--markup: takes no value, got 'true'"),
    (["--no-animation=no", "Hi"], "--no-animation: takes no value, got 'no'"),
    (["--help=me"], "--help: takes no value, got 'me'"),
    (["--version=2"], "--version: takes no value, got '2'"),
    // A long bad value (each option's bad values: badValues).
    (
      ["--timeout", String(repeating: "9", count: 400), "Hi"],
      "--timeout: expected seconds from 0 to 86400, or auto, got '\(String(repeating: "9", count: 64))…'"
    ),
    (["Hi", "--output"], "--output: missing value (NAME|all)"),
    // Combinations.
    (["--dim", "Hi"], "--dim needs --modal"),
    (["--dim", "--spinner"], "--dim needs --modal"),
  ])
  func usageErrors(_ arguments: [String], _ message: String) {
    #expect(failure(arguments) == "wl-toast: \(message)")
  }

  /// Each option's refused values, as `--OPTION VALUE` and `--OPTION=VALUE`:
  /// one line naming what the option expects and what it got.
  @Test(
    arguments: [
      ("--style", "hud, banner or bar", ["toast", "HUD"]),
      (
        "--timeout", "seconds from 0 to 86400, or auto",
        [
          "-1", "-0.5", "86400.5", "abc", "", "inf", "nan", "1e3", "0x10", " 1", "2s", ".", "-",
          "1.2.3",
        ]
      ),
      ("--progress", "a percentage from 0 to 200", ["201", "-1", "half", "", "%"]),
      (
        "--offset", "X,Y (two whole numbers from -10000 to 10000)",
        [
          "10", "1,2,3", ",", "1.5,2", "1, 2", "a,b", "99999999999999999999,0", "10001,0",
          "0,-10001",
        ]
      ),
      ("--dismiss", "tap or none", ["swipe"]),
      ("--font", "a font such as \"Sans Bold 15\" (at most 256 characters)", ["", "  "]),
      ("--background", "#RRGGBB or #RRGGBBAA", ["red", "#fff"]),
      ("--foreground", "#RRGGBB or #RRGGBBAA", ["#12345g"]),
      (
        "--position", "center|top|bottom|left|right|top-left|top-right|bottom-left|bottom-right",
        ["middle"]
      ),
      ("--margin", "pixels from 0 to 10000", ["-1", "2.5", "10001"]),
      ("--layer", "overlay, top, bottom or background", ["middle", "Top"]),
      ("--output", "an output's name (1 to 64 characters) or all", ["", "DP 1"]),
      ("--grace", "seconds from 0 to 60", ["61"]),
      ("--min-show", "seconds from 0 to 60", ["-1"]),
      (
        "--idle-threshold", "0 (never) or seconds from 1 to 86400",
        ["nan", "-1", "86401", "1e300", "inf", "", "0.5", "0.001"]
      ),
      ("--a11y", "auto, on or off", ["yes"]),
      ("--say", "the text a screen reader says instead of the message (not blank)", [" "]),
      ("--icon", "an icon name or a file's path (1 to 4096 bytes)", [""]),
      ("--icon-theme", "an icon theme's name (1 to 256 characters)", ["../x"]),
      (
        "--button", "a label of 1 to 64 characters on one line (at most 8 buttons)",
        ["", "  ", String(repeating: "b", count: 65), "two\nlines", "tab\there", "\u{2028}"]
      ),
      ("--keyboard", "exclusive, on-demand or none", ["sometimes", "Exclusive", ""]),
      ("--dnd", "suppress or show", ["maybe", "on"]),
    ] as [(String, String, [String])])
  func badValues(_ option: String, _ expected: String, _ values: [String]) {
    for value in values {
      let message = "wl-toast: \(option): expected \(expected), got \(Toast.quoted(value))"
      #expect(failure([option, value, "Hi"]) == message)
      #expect(failure(["\(option)=\(value)", "Hi"]) == message)
    }
  }

  @Test func buttonsKeepTheirOrderUpToEight() throws {
    let labels = (1...8).map { "B\($0)" }
    let arguments = labels.flatMap { ["--button", $0] } + ["Hi"]
    #expect(toast(arguments)?.buttons == labels)
    #expect(toast(["--button", String(repeating: "é", count: 64), "Hi"])?.buttons.count == 1)
    #expect(
      failure(labels.flatMap { ["--button", $0] } + ["--button", "Ninth", "Hi"])
        == "wl-toast: --button: expected a label of 1 to 64 characters on one line (at most 8"
        + " buttons), got 'Ninth'")
    let asking = try #require(toast(["--button", "OK", "--keyboard", "exclusive", "Hi"]))
    #expect(asking.keyboard == .exclusive)
    #expect(try #require(toast(["--keyboard", "none", "--button", "OK", "Hi"])).keyboard == .never)
  }

  @Test func theFirstMistakeIsReported() {
    #expect(failure(["--bogus", "--timeout", "-1"]) == "wl-toast: unknown option '--bogus'")
    #expect(
      failure(["--timeout", "-1", "--bogus"])
        == "wl-toast: --timeout: expected seconds from 0 to 86400, or auto, got '-1'")
  }

  @Test func errorsStayOnOneLineAndShort() {
    #expect(
      failure(["--style", "a\nb\tc\r\u{1b}[31m\u{2028}", "Hi"])
        == "wl-toast: --style: expected hud, banner or bar, got 'a\\nb\\tc\\r\\u{1B}[31m\\u{2028}'")
    let long = String(repeating: "x", count: 1000)
    #expect(
      failure(["--style", long, "Hi"])
        == "wl-toast: --style: expected hud, banner or bar, got '\(String(repeating: "x", count: 64))…'"
    )
  }

  // MARK: Help and version

  @Test(arguments: [
    ["--help"], ["-h"], ["Hi", "--help"], ["--bogus", "-h"], ["--timeout", "-1", "--help"],
    ["--spinner=yes", "--help"], ["--dim", "-h", "Hi"], ["--help", "--version"], ["-h", "-V"],
    ["--timeout", "3", "--help"], ["--help", "--"],
  ])
  func helpWins(_ arguments: [String]) {
    #expect(parseArguments(arguments) == .success(.help))
  }

  @Test(arguments: [
    ["--version"], ["-V"], ["--version", "Hi"], ["--style", "toast", "-V"], ["--version", "-h"],
    ["-V", "--help"], ["--offset", "1", "-V"], ["--font=-h", "-V"],
  ])
  func versionWins(_ arguments: [String]) {
    #expect(parseArguments(arguments) == .success(.version))
  }

  @Test func helpAndVersionAfterDoubleDashOrAsValuesAreText() {
    #expect(toast(["--", "--help"])?.text == "--help")
    #expect(toast(["--", "-V"])?.text == "-V")
    #expect(toast(["--font", "-h", "Hi"])?.font == "-h")
  }

  @Test func usageTextHasTheSynopsisAndTheExitStatuses() {
    // Every option's line: OptionTableTests.
    #expect(usageText.hasPrefix("Usage: wl-toast [OPTIONS] MESSAGE..."))
    #expect(usageText.contains("4096"))
    for status in ["0 ", "1 ", "2 ", "3 ", "4 ", "64"] {
      #expect(usageText.contains("\n  \(status)"), "\(status)")
    }
    #expect(!usageText.hasSuffix("\n"))
    for line in usageText.split(separator: "\n", omittingEmptySubsequences: false) {
      #expect(line.count <= 80, "\(line)")
    }
  }

  @Test func versionAndExitCodes() {
    #expect(versionText == "wl-toast 0.1.0")
    #expect(ExitCode.success == 0)
    #expect(ExitCode.error == 1)
    #expect(ExitCode.dismissed == 2)
    #expect(ExitCode.replaced == 3)
    #expect(ExitCode.suppressed == 4)
    #expect(ExitCode.usage == 64)
    #expect(UsageError.dimWithoutModal.description == "wl-toast: --dim needs --modal")
  }

  // MARK: Long messages

  @Test func aMessageOfTheLimitIsKept() {
    let text = String(repeating: "a", count: 4096)
    #expect(toast([text])?.text == text)
  }

  @Test func aLongerMessageIsCutWithAnEllipsis() throws {
    let cut = try #require(toast([String(repeating: "a", count: 4097)])).text
    #expect(cut == String(repeating: "a", count: 4095) + "…")
    #expect(cut.unicodeScalars.count == 4096)

    let huge = try #require(toast([String(repeating: "word ", count: 200_000)])).text
    #expect(huge.unicodeScalars.count == 4096)
    #expect(huge.hasSuffix("…"))
  }

  @Test func joinedWordsCountTowardTheLimit() throws {
    let half = String(repeating: "b", count: 2048)
    let cut = try #require(toast([half, half])).text
    #expect(cut == half + " " + String(repeating: "b", count: 2046) + "…")
  }

  @Test func cuttingKeepsCharactersWhole() throws {
    // "é" as e + combining acute: two scalars, one character.
    let accented = String(repeating: "e\u{301}", count: 3000)
    let cut = try #require(toast([accented])).text
    #expect(cut.unicodeScalars.count <= 4096)
    #expect(cut == String(repeating: "e\u{301}", count: 2047) + "…")

    let flags = String(repeating: "👨‍👩‍👧‍👦", count: 1000)  // 7 scalars each
    let cutFlags = try #require(toast([flags])).text
    #expect(cutFlags == String(repeating: "👨‍👩‍👧‍👦", count: 585) + "…")
  }

}

struct SubcommandArgumentsTests {
  @Test func tagsWaitFollowAndLinger() {
    let result = parseArguments([
      "--tag", "volume", "--print-outcome", "--follow", "--linger", "0.2", "Volume",
    ])
    guard case .success(.show(let toast, let options)) = result else {
      Issue.record("\(result)")
      return
    }
    #expect(toast.text == "Volume")
    var expected = ShowOptions(follow: .text)
    (expected.tag, expected.wait, expected.printOutcome, expected.linger) = (
      "volume", true, true, 0.2
    )
    #expect(options == expected)
    // --follow needs no message; its format comes after '=' only.
    #expect(
      (try? parseArguments(["--follow"]).get()) == .show(Toast(""), ShowOptions(follow: .text)))
    #expect(
      (try? parseArguments(["--follow=json"]).get())
        == .show(Toast(""), ShowOptions(follow: .json)))
    #expect(
      (try? parseArguments(["--follow=text", "json"]).get())
        == .show(Toast("json"), ShowOptions(follow: .text)))
    guard case .failure(let error) = parseArguments(["--follow=yaml"]) else {
      Issue.record("--follow=yaml parsed")
      return
    }
    #expect(error.message == "--follow: expected text or json, got 'yaml'")
  }

  @Test func hideStatusAndWatch() {
    #expect(parseArguments(["hide"]) == .success(.hide(tag: "default", after: nil)))
    #expect(
      parseArguments(["hide", "--tag", "v", "--after", "0.5"])
        == .success(.hide(tag: "v", after: 0.5)))
    #expect(parseArguments(["status", "--tag=rec"]) == .success(.status(tag: "rec")))
    func river(_ focusedTags: Bool, _ urgent: Bool, _ names: [Int: String]) -> Invocation {
      .watch(.river(RiverWatchOptions(focusedTags: focusedTags, urgent: urgent, tagNames: names)))
    }
    #expect(parseArguments(["watch", "sway"]) == .success(.watch(.sway(SwayWatchOptions()))))
    #expect(
      parseArguments(["watch", "sway", "--workspaces"])
        == .success(.watch(.sway(SwayWatchOptions(workspaces: true)))))
    #expect(parseArguments(["watch", "river"]) == .success(river(false, false, [:])))
    #expect(
      parseArguments(["watch", "--urgent", "river", "--focused-tags", "--tag-names=1=web,3=a=b"])
        == .success(river(true, true, [1: "web", 3: "a=b"])))
    #expect(
      parseArguments(["watch", "river", "--tag-names", "32=last,1=Ünïcödé 🎉"])
        == .success(river(false, false, [32: "last", 1: "Ünïcödé 🎉"])))
    for target in [WatchTarget.audio, .media, .backlight] {
      #expect(
        parseArguments(["watch", target.word]) == .success(.watch(WatchRequest(targets: [target]))))
    }
    #expect(
      parseArguments(["watch", "audio", "sway", "--workspaces", "media", "backlight"])
        == .success(
          .watch(
            WatchRequest(targets: [
              .audio, .sway(SwayWatchOptions(workspaces: true)), .media, .backlight,
            ]))), "targets in the order given, each with its options")
    #expect(
      parseArguments(["watch", "--urgent", "river", "audio"])
        == .success(
          .watch(WatchRequest(targets: [.river(RiverWatchOptions(urgent: true)), .audio]))))
    // The literal word after --.
    #expect((try? parseArguments(["--", "hide"]).get()) == .show(Toast("hide"), ShowOptions()))
    #expect(parseArguments(["dnd"]) == .success(.doNotDisturb(nil)))
    for change in DoNotDisturbChange.allCases {
      #expect(parseArguments(["dnd", change.rawValue]) == .success(.doNotDisturb(change)))
    }
    #expect(parseArguments(["daemon"]) == .success(.daemon(notifications: false, replace: false)))
    #expect(
      parseArguments(["daemon", "--replace", "--notifications"])
        == .success(.daemon(notifications: true, replace: true)))
    #expect(parseArguments(["notifications", "list"]) == .success(.notifications(.list())))
    #expect(
      parseArguments(["notifications", "dismiss", "12"])
        == .success(.notifications(.dismiss(id: 12))))
    #expect(
      parseArguments(["notifications", "--all", "dismiss"])
        == .success(.notifications(.dismiss(id: nil))))
    #expect(
      parseArguments(["notifications", "invoke", "4294967295"])
        == .success(.notifications(.invoke(id: UInt32.max, action: nil))))
    #expect(
      parseArguments(["notifications", "invoke", "3", "snooze"])
        == .success(.notifications(.invoke(id: 3, action: "snooze"))))
    #expect(parseArguments(["notifications", "focus"]) == .success(.notifications(.focus)))
    #expect(parseArguments(["notifications", "history"]) == .success(.notifications(.history())))
    #expect(parseArguments(["notifications", "restore"]) == .success(.notifications(.restore)))
    #expect(
      parseArguments(["daemon", "--notifications", "--max-history", "0"])
        == .success(.daemon(notifications: true, replace: false, maxHistory: 0)))
    #expect(DoNotDisturbChange.toggle.applied(to: .on) == .off)
    #expect(DoNotDisturbChange.toggle.applied(to: .off) == .on)
    #expect(DoNotDisturbChange.on.applied(to: .on) == .on)
    #expect(DoNotDisturbChange.off.applied(to: .on) == .off)
  }

  @Test(arguments: [
    (["hide", "--spinner"], "hide: --spinner does not apply here"),
    (["hide", "--after", "-1"], "--after: expected seconds from 0 to 86400, got '-1'"),
    (["hide", "extra"], "hide: unexpected argument 'extra'"),
    (["status", "--bogus"], "status: unknown option '--bogus'"),
    (
      ["watch", "niri"],
      "watch: expected 'audio', 'media', 'backlight', 'sway' or 'river', got 'niri'"
    ),
    (["watch"], "watch: expected 'audio', 'media', 'backlight', 'sway' or 'river', got ''"),
    (["watch", "audio", "audio"], "watch: 'audio' given twice"),
    (["watch", "audio", "media", "audio"], "watch: 'audio' given twice"),
    (["watch", "audio", "--workspaces"], "watch audio: --workspaces does not apply here"),
    (
      ["watch", "media", "sway", "--urgent"],
      "watch media sway: --urgent does not apply here"
    ),
    (["watch", "audio", "media", "niri"], "watch: unexpected argument 'niri'"),
    (["watch", "sway", "--urgent"], "watch sway: --urgent does not apply here"),
    (["watch", "--tag-names", "1=a", "sway"], "watch sway: --tag-names does not apply here"),
    (["watch", "river", "--workspaces"], "watch river: --workspaces does not apply here"),
    (["watch", "river", "--tag", "x"], "watch: --tag does not apply here"),
    (["dnd", "maybe"], "dnd: expected on, off or toggle, got 'maybe'"),
    (["dnd", "on", "off"], "dnd: unexpected argument 'off'"),
    (["dnd", "--urgency", "low"], "dnd: --urgency does not apply here"),
    (["watch", "river", "--tag-names"], "--tag-names: missing value (N=NAME,...)"),
    (["watch", "river", "extra"], "watch: unexpected argument 'extra'"),
    (["--urgent", "x"], "--urgent belongs to 'wl-toast watch river'"),
    (["--focused-tags", "x"], "--focused-tags belongs to 'wl-toast watch river'"),
    (["--tag-names", "1=a", "x"], "--tag-names belongs to 'wl-toast watch river'"),
    (["--tag", "", "x"], "--tag: expected 1 to 64 printable characters without spaces, got ''"),
    (
      ["--tag", "a b", "x"],
      "--tag: expected 1 to 64 printable characters without spaces, got 'a b'"
    ),
    (["--linger", "61", "x"], "--linger: expected seconds from 0 to 60, got '61'"),
    (["--after", "1", "x"], "--after belongs to 'wl-toast hide'"),
    (["--workspaces", "x"], "--workspaces belongs to 'wl-toast watch sway'"),
    (["daemon", "--replace"], "--replace needs --notifications"),
    (["daemon", "--max-history", "3"], "--max-history needs --notifications"),
    (
      ["daemon", "--notifications", "--max-history", "-1"],
      "max-history: expected a count from 0 to 100, got '-1'"
    ),
    (["notifications", "restore", "1"], "notifications: unexpected argument '1'"),
    (["--notifications", "x"], "--notifications belongs to 'wl-toast daemon'"),
    (
      ["notifications", "menu"],
      "notifications: expected 'list', 'history', 'restore', 'dismiss', 'invoke' or 'focus',"
        + " got 'menu'"
    ),
    (["notifications", "dismiss"], "notifications dismiss: missing ID or --all"),
    (["notifications", "dismiss", "--all", "3"], "notifications dismiss: unexpected argument '3'"),
    (
      ["notifications", "dismiss", "0"],
      "notifications dismiss: expected a notification id (1 to 4294967295), got '0'"
    ),
    (["notifications", "invoke"], "notifications invoke: missing ID"),
    (
      ["notifications", "invoke", "x"],
      "notifications invoke: expected a notification id (1 to 4294967295), got 'x'"
    ),
    (["notifications", "invoke", "1", "a", "b"], "notifications: unexpected argument 'b'"),
    (["notifications", "list", "--all"], "notifications list: --all does not apply here"),
    (["notifications", "list", "x"], "notifications: unexpected argument 'x'"),
  ])
  func subcommandMistakes(_ arguments: [String], _ message: String) {
    #expect(failure(arguments) == "wl-toast: \(message)")
  }

  @Test(arguments: [
    "", "1", "1=", "=web", "0=zero", "33=x", "1=a,1=b", "+1=a", "1=a,", "x=y", "1=a\tb",
    "01=a,1=b", "1=" + String(repeating: "n", count: 65),
  ])
  func badTagNamesAreUsageErrors(_ value: String) {
    #expect(
      failure(["watch", "river", "--tag-names", value])
        == "wl-toast: --tag-names: expected N=NAME pairs separated by commas, N from 1 to 32,"
        + " got \(Toast.quoted(value))")
  }
}
