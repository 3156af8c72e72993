import Testing
import ToastModel
import ToastNag

/// The first configuration file swaynag looks for, in the tests' home.
private let configPath = home + "/.swaynag/config"

/// The error of a configuration file (the command line `-m Hi`).
private func configError(_ config: String) -> NagError? {
  nag(["-m", "Hi"], config: config).error
}

/// swaynag's configuration file, read as swaynag_load_config reads it.
@Suite struct NagConfigTests {
  @Test func theGlobalPartSetsDefaults() throws {
    // swaynag(5)'s example, its global part.
    let config = """
      font=Monospace 12
      edge=bottom

      [green]
      edge=top
      background=00AA00
      border=006600
      border-bottom=004400
      text=FFFFFF
      button-background=00CC00
      message-padding=10
      """
    let request = try #require(nag(["-m", "Hi"], config: config).request)
    #expect(request.font == "Monospace 12")
    #expect(request.edge == .bottom)
    #expect(request.look == errorLook)

    let green = try #require(nag(["-m", "Hi", "-t", "green"], config: config).request)
    var look = defaultsLook
    look.background = color("00AA00")
    look.border = color("006600")
    look.borderBottom = color("004400")
    look.text = color("FFFFFF")
    look.buttonBackground = color("00CC00")
    look.messagePadding = 10
    var expected = NagRequest(message: "Hi", look: look)
    expected.edge = .top  // the section's, over the global part's
    expected.font = "Monospace 12"
    expected.typeName = "green"
    #expect(green == expected)
  }

  @Test func aSectionOfABuiltInTypeEditsIt() throws {
    let config = "[warning]\nbackground=123456\n"
    var look = warningLook
    look.background = color("123456")
    #expect(try #require(nag(["-m", "Hi", "-t", "warning"], config: config).request).look == look)
    // The error type is left alone.
    #expect(try #require(nag(["-m", "Hi"], config: config).request).look == errorLook)
    // In any case.
    let upper = try #require(
      nag(["-m", "Hi", "-t", "warning"], config: "[WARNING]\ntext=FF0000").request)
    #expect(upper.look.text == color("FF0000"))
    #expect(upper.typeName == "warning")
  }

  @Test func aNewTypeIsChosenInAnyCase() throws {
    let config =
      "# my types\n[mine]\nbackground=010101\nedge=bottom\n[other]\nedge=top\n[MINE]\ntext=020202\n"
    let request = try #require(nag(["-m", "Hi", "-t", "MINE"], config: config).request)
    #expect(request.typeName == "mine")
    #expect(request.edge == .bottom)
    var look = defaultsLook
    look.background = color("010101")
    look.text = color("020202")
    #expect(request.look == look)
    #expect(nag(["-m", "Hi", "-t", "mine"]).error?.message == "unknown type 'mine'")
  }

  @Test func optionsInTheFileApplyToTheBar() throws {
    let config = "message=From the file\ndismiss-button=Close\ntype=warning\ndetailed-button=More\n"
    let request = try #require(nag(["-d"], config: config).request)
    #expect(request.message == "From the file")
    #expect(request.dismissButton == "Close")
    #expect(request.detailsButton == "More")
    #expect(request.typeName == "warning")
    // The command line comes after.
    let over = try #require(nag(["-m", "Hi", "-t", "error", "-s", "No"], config: config).request)
    #expect(over.message == "Hi")
    #expect(over.typeName == "error")
    #expect(over.dismissButton == "No")
    // With no arguments at all.
    #expect(try #require(nag([], config: "message=Alone").request).message == "Alone")
  }

  @Test func debugAndConfigInTheFileDoNothing() throws {
    let run = nag(["-m", "Hi"], config: "debug\nconfig=/elsewhere\n")
    #expect(try #require(run.request).debug == false)
    #expect(run.filesAsked == [configPath])
  }

  @Test func helpAndVersionInTheFileStop() {
    #expect(nag(["-m", "Hi"], config: "help\n").result == .success(.help))
    #expect(nag(["-m", "Hi"], config: "version\n").result == .success(.version))
  }

  @Test func detailsInTheFileReadStandardInputFirst() throws {
    let run = nag(["-m", "Hi", "-l"], config: "detailed-message\n", stdin: "text\n")
    // The file's read took it all; the command line's -l reads nothing.
    #expect(try #require(run.request).details == nil)
    #expect(run.standardInputReads == 2)
    let fileOnly = nag(["-m", "Hi"], config: "detailed-message\n", stdin: "text\n")
    #expect(try #require(fileOnly.request).details == "text")
  }

  @Test func longNamesCanBeShortened() throws {
    let request = try #require(nag(["-m", "Hi"], config: "out=DP-3\nla=overlay\n").request)
    #expect(request.output == "DP-3")
    #expect(request.layer == .overlay)
  }

  @Test func linesAreCStrings() throws {
    // Read up to a NUL byte; a line starting with one is skipped.
    let bytes = Array("font=Sans 8\0junk\n\0edge=left\n".utf8)
    let run = nag(["-m", "Hi"], files: [configPath: bytes])
    #expect(try #require(run.request).font == "Sans 8")
    // Text after the closing bracket is ignored.
    #expect(try #require(nag(["-m", "Hi", "-t", "a"], config: "[a] b\n").request).typeName == "a")
  }

  @Test func carriageReturnsStay() {
    #expect(
      configError("edge=bottom\r\n")
        == NagError(
          "config file '\(configPath)', line 1: invalid edge: 'bottom\\r' (expected top or"
            + " bottom)", exitStatus: 1))
  }

  @Test func encoding() throws {
    // A comment need not be UTF-8; a line read must.
    let comment = [UInt8]("# caf".utf8) + [0xE9, 0x0A] + Array("font=Serif 9\n".utf8)
    #expect(
      try #require(nag(["-m", "Hi"], files: [configPath: comment]).request).font == "Serif 9")
    let value = [UInt8]("\nfont=caf".utf8) + [0xE9, 0x0A]
    #expect(
      nag(["-m", "Hi"], files: [configPath: value]).error
        == NagError("config file '\(configPath)', line 2: not UTF-8", exitStatus: 64))
  }

  /// swaynag's own failures (EXIT_FAILURE).
  @Test(arguments: [
    ("# a comment\n\n[mine\n", "line 3: closing bracket not found"),
    ("button=Run\n", "line 1: missing action for button 'Run'"),
    ("type=nope\n", "line 1: unknown type 'nope'"),
    ("layer=up\n", "line 1: invalid layer: 'up' (expected overlay, top, bottom or background)"),
  ])
  func failuresNameTheFileAndLine(_ config: String, _ message: String) {
    #expect(
      configError(config) == NagError("config file '\(configPath)', \(message)", exitStatus: 1))
  }

  /// Options and values refused (64).
  @Test(arguments: [
    ("font=A\ncolour=FF0000\n", "line 2: unknown option '--colour'"),
    ("font\n", "line 1: option --font needs a value"),
    ("-m hi\n", "line 1: unknown option '---m hi'"),
    ("m=hi\n", "line 1: ambiguous option '--m' (could be --message or --message-padding)"),
    ("debug=yes\n", "line 1: option --debug takes no value"),
    ("mess=hi\n", "line 1: ambiguous option '--mess' (could be --message or --message-padding)"),
    (
      "[warning]\nbackground=orange\n",
      "line 2: invalid --background colour 'orange' (expected RRGGBB or RRGGBBAA, with an"
        + " optional '#')"
    ),
    (
      "dismiss-button=\n",
      "line 1: invalid dismiss button label '' (expected 1 to 64 characters on one line, not blank)"
    ),
  ])
  func refusalsNameTheFileAndLine(_ config: String, _ message: String) {
    #expect(
      configError(config) == NagError("config file '\(configPath)', \(message)", exitStatus: 64))
  }

  @Test func theFilesErrorsComeBeforeTheCommandLines() {
    #expect(
      nag(["-m", "Hi", "-e", "left"], config: "[x\n").error?.message
        == "config file '\(configPath)', line 1: closing bracket not found")
  }

  @Test func dashCNamesTheFile() throws {
    let files = [configPath: "message=home", "/tmp/my config": "message=mine"]
    let run = nag(["-c", "/tmp/my config"], stdin: "", files: files)
    #expect(try #require(run.request).message == "mine")
    #expect(run.filesAsked == ["/tmp/my config"])
    // The last -c wins; the long forms too.
    #expect(
      nag(["-c", "/a", "--config=/tmp/my config"], stdin: "", files: files).request?.message
        == "mine")
  }

  @Test func anUnreadableFileIsAWarning() throws {
    let run = nag(
      ["-m", "Hi", "--config", "/nowhere/config"], stdin: "", files: [configPath: "edge=bottom"])
    let request = try #require(run.request)
    #expect(
      request.warnings == ["failed to read config file '/nowhere/config', running without it"])
    #expect(request.edge == .top)
    #expect(run.filesAsked == ["/nowhere/config"])
  }

  @Test func theSearchOrder() throws {
    let xdg = ["HOME": home, "XDG_CONFIG_HOME": "/xdg"]
    #expect(
      nag(["-m", "Hi"], environment: xdg).filesAsked
        == [home + "/.swaynag/config", "/xdg/swaynag/config", "/etc/swaynag/config"])
    let standard = [
      home + "/.swaynag/config", home + "/.config/swaynag/config", "/etc/swaynag/config",
    ]
    #expect(nag(["-m", "Hi"]).filesAsked == standard)
    #expect(
      nag(["-m", "Hi"], environment: ["HOME": home, "XDG_CONFIG_HOME": ""]).filesAsked == standard)
    #expect(
      nag(["-m", "Hi"], environment: [:]).filesAsked
        == ["/.swaynag/config", "/.config/swaynag/config", "/etc/swaynag/config"])
    // Each found file hides the later ones, and nothing is missing: no warning.
    let all = [
      home + "/.swaynag/config": "output=first", "/xdg/swaynag/config": "output=second",
      "/etc/swaynag/config": "output=third",
    ]
    var files = all
    let first = nag(["-m", "Hi"], environment: xdg, stdin: "", files: files)
    #expect(first.request?.output == "first")
    #expect(first.request?.warnings == [])
    #expect(first.filesAsked == [home + "/.swaynag/config"])
    files[home + "/.swaynag/config"] = nil
    #expect(
      nag(["-m", "Hi"], environment: xdg, stdin: "", files: files).request?.output == "second")
    files["/xdg/swaynag/config"] = nil
    #expect(
      nag(["-m", "Hi"], environment: xdg, stdin: "", files: files).request?.output == "third")
    let config = [home + "/.config/swaynag/config": "output=dot-config"]
    #expect(nag(["-m", "Hi"], stdin: "", files: config).request?.output == "dot-config")
  }
}
