import Testing
import ToastModel
import ToastNag
import ToastNagOptions

/// swaynag's command line, read as getopt_long reads it.
@Suite struct NagOptionsTests {
  @Test func swaysConfigErrorBarParses() throws {
    // sway 1.7's swaynag_config_errors.args, split as `sh -c` splits it.
    let run = nag(
      [
        "--type", "error", "--message", "There are errors in your config file",
        "--detailed-message", "--button-no-terminal", "Exit sway", "swaymsg exit",
        "--button-no-terminal", "Reload sway", "swaymsg reload",
      ],
      stdin: "Error on line 3 (/home/u/.config/sway/config) 'bindsym $mod+q kil': Unknown\n")
    var expected = NagRequest(message: "There are errors in your config file", look: errorLook)
    expected.details =
      "Error on line 3 (/home/u/.config/sway/config) 'bindsym $mod+q kil': Unknown"
    expected.buttons = [
      NagButton(label: "Exit sway", action: "swaymsg exit"),
      NagButton(label: "Reload sway", action: "swaymsg reload"),
    ]
    #expect(try #require(run.request) == expected)
    #expect(run.standardInputReads == 1)
  }

  @Test func swaysNulSeparatedErrorsBecomeLines() throws {
    // sway writes each error followed by a NUL byte, no newline.
    let run = nag(
      ["--type", "error", "-m", "Errors", "-l"], stdin: "Error on line 3\0Error on line 9\0")
    #expect(try #require(run.request).details == "Error on line 3\nError on line 9")
  }

  @Test func exitPromptIsAWarning() throws {
    let run = nag([
      "-t", "warning", "-m", "You pressed the exit shortcut.", "-B", "Yes, exit sway",
      "swaymsg exit",
    ])
    let request = try #require(run.request)
    var expected = NagRequest(message: "You pressed the exit shortcut.", look: warningLook)
    expected.buttons = [NagButton(label: "Yes, exit sway", action: "swaymsg exit")]
    expected.typeName = "warning"
    #expect(request == expected)
    #expect(request.look.background == color("#FFA800"))
    #expect(request.look.text == color("#000000"))
    #expect(run.standardInputReads == 0)
  }

  @Test func buttonKinds() throws {
    let request = try #require(
      nag(["-m", "Hi", "-b", "A", "a", "-B", "B", "b", "-z", "C", "c", "-Z", "D", "d"]).request)
    #expect(
      request.buttons == [
        NagButton(label: "A", action: "a").with(\.inTerminal),
        NagButton(label: "B", action: "b"),
        // As swaynag's manual and usage say (its code sets the terminal for -b alone).
        NagButton(label: "C", action: "c").with(\.inTerminal).with(\.dismisses),
        NagButton(label: "D", action: "d").with(\.dismisses),
      ])
  }

  @Test(arguments: [
    ["-m", "Hi"], ["-mHi"], ["--message", "Hi"], ["--message=Hi"], ["--message=Hi", "-d", "--"],
  ])
  func valueForms(_ arguments: [String]) throws {
    #expect(try #require(nag(arguments).request).message == "Hi")
  }

  @Test func valuesAreTakenAsTheyAre() throws {
    #expect(try #require(nag(["-m", "-d"]).request) == NagRequest(message: "-d", look: errorLook))
    #expect(try #require(nag(["--message", "--"]).request).message == "--")
    #expect(try #require(nag(["--message="]).request).message == "")
    #expect(try #require(nag(["--message=a=b"]).request).message == "a=b")
    // '=' ends the name even with a combining mark after it, as bytes do.
    #expect(try #require(nag(["--message=\u{301}x"]).request).message == "\u{301}x")
    // A single dash and a long name: -m with the rest as its value.
    #expect(try #require(nag(["-message"]).request).message == "essage")
  }

  @Test func clusteredFlags() throws {
    let run = nag(["-dlmHello", "-Lmore"], stdin: "Detail\n")
    let request = try #require(run.request)
    #expect(request.debug)
    #expect(request.details == "Detail")
    #expect(request.message == "Hello")
    #expect(request.detailsButton == "more")
    #expect(try #require(nag(["-dm", "Hi"]).request).debug)
  }

  @Test func unambiguousPrefixes() throws {
    let run = nag(
      [
        "--message", "Hi", "--deb", "--out", "DP-1", "--ty", "warning", "--dismiss", "Close",
        "--detailed-m", "--detailed-b=More", "--la", "bottom", "--ed", "bottom", "--fo", "Sans 9",
        "--te", "123456",
      ], stdin: "More text")
    var expected = NagRequest(message: "Hi", look: warningLook)
    expected.look.text = color("123456")
    expected.details = "More text"
    expected.detailsButton = "More"
    expected.dismissButton = "Close"
    expected.edge = .bottom
    expected.layer = .bottom
    expected.font = "Sans 9"
    expected.output = "DP-1"
    expected.typeName = "warning"
    expected.debug = true
    #expect(try #require(run.request) == expected)
  }

  @Test func exactNamesWinOverLongerOnes() throws {
    // --button is also the start of --button-gap and six more.
    let request = try #require(
      nag(["-m", "Hi", "--button", "Go", "go", "--border=010203"]).request)
    #expect(
      request.buttons == [NagButton(label: "Go", action: "go").with(\.inTerminal)])
    #expect(request.look.border == color("010203"))
  }

  @Test func wordsThatAreNotOptionsAreSkipped() throws {
    let request = try #require(nag(["word", "-m", "Hi", "other", "-", "-d"]).request)
    #expect(request.message == "Hi")
    #expect(request.debug)
  }

  @Test func doubleDashEndsTheOptions() throws {
    #expect(try #require(nag(["-m", "Hi", "--", "-d"]).request).debug == false)
    #expect(nag(["--", "-m", "Hi"]).error?.message == "no message given: use --message or -m")
  }

  @Test func posixlyCorrectStopsAtTheFirstWord() throws {
    let environment = ["HOME": home, "POSIXLY_CORRECT": ""]
    #expect(
      nag(["-d", "word", "-m", "Hi"], environment: environment).error
        == NagError("no message given: use --message or -m", exitStatus: 1))
    #expect(try #require(nag(["-d", "word", "-m", "Hi"]).request).message == "Hi")
  }

  @Test func aButtonsActionIsTheNextWordWhateverItIs() throws {
    let request = try #require(nag(["-m", "Hi", "-b", "Run", "-d"]).request)
    #expect(
      request.buttons == [NagButton(label: "Run", action: "-d").with(\.inTerminal)]
    )
    #expect(request.debug == false)
    // "--" as an action is no end of options.
    let afterDashes = try #require(nag(["-B", "Run", "--", "-m", "Hi"]).request)
    #expect(afterDashes.buttons.map(\.action) == ["--"])
    #expect(afterDashes.message == "Hi")
    // The label clustered or after '=', the action still the next word.
    let clustered = try #require(
      nag(["-dZGo", "go", "--button-dismiss=Stop", "stop", "-mHi"]).request)
    #expect(clustered.buttons.map(\.label) == ["Go", "Stop"])
    #expect(clustered.buttons.map(\.action) == ["go", "stop"])
    // The action after a skipped word is the word after the label.
    let permuted = try #require(nag(["skipped", "-b", "Run", "run", "-m", "Hi"]).request)
    #expect(permuted.buttons.map(\.action) == ["run"])
  }

  @Test func helpAndVersionWin() throws {
    #expect(nag(["-h"]).result == .success(.help))
    #expect(nag(["--help"]).result == .success(.help))
    #expect(nag(["-m", "Hi", "-v"]).result == .success(.version))
    #expect(nag(["--ver"]).result == .success(.version))
    #expect(nag(["-v", "-h"]).result == .success(.version))
    #expect(nag(["-h", "-v"]).result == .success(.help))
    // Over errors of the second reading, and over options after them.
    #expect(nag(["-e", "left", "-t", "nope", "-h", "-b", "x"]).result == .success(.help))
    #expect(nag(["-h", "--nope", "-m"]).result == .success(.help))
    #expect(nag(["-dh"]).result == .success(.help))
    // But not over an unknown option before them.
    #expect(nag(["--nope", "-h"]).error?.message == "unknown option '--nope'")
    // And standard input is not read.
    #expect(nag(["-l", "-h"], stdin: "x").standardInputReads == 0)
    // A -h that is a value or an action is no help.
    #expect(try #require(nag(["-m", "-h"]).request).message == "-h")
    #expect(
      try #require(nag(["-m", "Hi", "-b", "Go", "-h"]).request).buttons.map(\.action) == ["-h"])
  }

  @Test func helpAndVersionWinOverTheConfigFile() {
    #expect(nag(["-h"], config: "[broken\n").result == .success(.help))
    #expect(nag(["-v"], config: "edge=left\n").result == .success(.version))
  }

  @Test func theUsageIsSwaynagsWithinEightyColumns() {
    let lines = nagUsage.split(separator: "\n", omittingEmptySubsequences: false)
    #expect(lines.first == "Usage: wl-toast nag [options...]")
    #expect(lines.allSatisfy { $0.count <= 80 })
    // Every option of the table, swaynag's and wl-toast's own, with what
    // follows it on its line (a value or the description).
    for option in nagOptions.map(\.name) + ["help", "version"] {
      #expect(nagUsage.contains("--\(option) "), "--\(option)")
    }
    #expect(nagVersion == "wl-toast nag version \(Toast.version)")
  }

  @Test func detailsAreReadWhenTheOptionIsMet() throws {
    // Trailing newlines go, others stay.
    let details = nag(["-m", "Hi", "-l"], stdin: "a\n\nb\n\n\n")
    #expect(try #require(details.request).details == "a\n\nb")
    // No input: no details (and no details button).
    #expect(try #require(nag(["-m", "Hi", "-l"], stdin: "").request).details == nil)
    // Only newlines: empty details.
    #expect(try #require(nag(["-m", "Hi", "-l"], stdin: "\n\n").request).details == "")
    // A second -l reads what is left, nothing, and drops the details as swaynag does.
    let twice = nag(["-m", "Hi", "-l", "-l"], stdin: "text")
    #expect(try #require(twice.request).details == nil)
    #expect(twice.standardInputReads == 2)
  }

  @Test func edgesLayersFontsAndOutputs() throws {
    let request = try #require(
      nag(["-m", "Hi", "-e", "bottom", "-y", "overlay", "-f", "pango:Sans 12", "-o", "DP-2"])
        .request)
    #expect(request.edge == .bottom)
    #expect(request.layer == .overlay)
    #expect(request.font == "Sans 12")
    #expect(request.output == "DP-2")
    for layer in NagRequest.Layer.allCases {
      #expect(try #require(nag(["-m", "Hi", "-y", layer.rawValue]).request).layer == layer)
    }
    #expect(try #require(nag(["-m", "Hi", "-f", "DejaVu Sans 9"]).request).font == "DejaVu Sans 9")
    #expect(try #require(nag(["-m", "Hi", "-e", "top"]).request).edge == .top)
  }

  @Test func typesAreNamedInAnyCase() throws {
    let request = try #require(nag(["-m", "Hi", "-t", "WARNING"]).request)
    #expect(request.typeName == "warning")
    #expect(request.look == warningLook)
    #expect(try #require(nag(["-m", "Hi", "-t", "Error"]).request).typeName == "error")
  }

  @Test func labels() throws {
    let request = try #require(
      nag(["-m", "Hi", "-s", "Close", "-L", "More", "-l"], stdin: "x").request)
    #expect(request.dismissButton == "Close")
    #expect(request.detailsButton == "More")
    let defaults = try #require(nag(["-m", "Hi"]).request)
    #expect(defaults.dismissButton == "X")
    #expect(defaults.detailsButton == "Toggle details")
  }
}
