import Glibc
import Testing
import ToastModel

@testable import ToastCommand

/// The configuration file: sections, presets, precedence and problems.
struct ConfigTests {
  static let text = """
    # comment
    ; also a comment
    [default]
    timeout = 3
    font = "Sans Bold 15"
    no-animation = true

    [preset volume]
    icon = audio-volume-high-symbolic
    position = bottom
    margin = 80
    timeout = 1
    tag = volume
    no-animation = false

    [preset  job]
    spinner = yes
    follow = json
    """

  func toast(_ arguments: [String], _ config: Config) -> (Toast, ShowOptions)? {
    guard case .success(.show(let toast, let options)) = parseArguments(arguments, config: config)
    else { return nil }
    return (toast, options)
  }

  @Test func aFileWithCRLFLineEndsAndAByteOrderMarkReadsAsWithLineFeeds() {
    let plain = Config(text: Self.text, path: "config")
    let windows = Config(
      text: "\u{FEFF}"
        + Self.text.split(separator: "\n", omittingEmptySubsequences: false).joined(
          separator: "\r\n"), path: "config")
    #expect(windows.problems == [])
    #expect(windows.presetNames == ["job", "volume"])
    #expect(windows.defaults == plain.defaults)
    #expect(windows.presets == plain.presets)
  }

  @Test func sectionsAndEntriesAreRead() {
    let config = Config(text: Self.text, path: "config")
    #expect(config.problems == [])
    #expect(config.defaults.map(\.key) == ["timeout", "font", "no-animation"])
    #expect(config.defaults[1].value == "Sans Bold 15", "quotes are taken off")
    #expect(config.defaults[0].line == 4)
    #expect(config.presetNames == ["job", "volume"])
  }

  @Test func theCommandLineWinsOverThePresetAndThePresetOverTheDefaults() throws {
    let config = Config(text: Self.text, path: "config").checked()
    let (plain, _) = try #require(toast(["Hi"], config))
    #expect(plain.timeout == 3 && plain.font == "Sans Bold 15" && !plain.isAnimated)
    let (volume, options) = try #require(
      toast(["--preset", "volume", "--progress", "40", "V"], config))
    #expect(volume.icon == "audio-volume-high-symbolic" && volume.position == .bottom)
    #expect(volume.margin == 80 && volume.timeout == 1 && options.tag == "volume")
    #expect(volume.isAnimated, "the preset turned the default's flag off")
    #expect(volume.font == "Sans Bold 15", "what the preset leaves comes from [default]")
    let (line, lineOptions) = try #require(
      toast(["--preset=volume", "--timeout", "5", "--tag", "mine", "V"], config))
    #expect(line.timeout == 5 && lineOptions.tag == "mine")
    let (job, jobOptions) = try #require(toast(["--preset", "job"], config))
    #expect(job.showsSpinner && jobOptions.follow == .json, "no message needed with a spinner")
  }

  @Test func buttonsComeFromOneSourceInOrder() throws {
    let text = """
      [default]
      button = OK
      button = Cancel
      [preset undo]
      button = Undo
      [preset quiet]
      timeout = 1
      """
    let config = Config(text: text, path: "config").checked()
    #expect(config.problems == [])
    #expect(try #require(toast(["Hi"], config)).0.buttons == ["OK", "Cancel"])
    #expect(try #require(toast(["--preset", "undo", "Hi"], config)).0.buttons == ["Undo"])
    #expect(
      try #require(toast(["--preset", "quiet", "Hi"], config)).0.buttons == ["OK", "Cancel"],
      "a preset without buttons keeps the defaults'")
    #expect(
      try #require(toast(["--preset", "undo", "--button", "A", "--button", "B", "Hi"], config))
        .0.buttons == ["A", "B"], "the command line's replace the file's")
    // A ninth button line is a problem of its line; the eight before it stay.
    let nine = (1...9).map { "button = B\($0)" }.joined(separator: "\n")
    let many = Config(text: "[default]\n\(nine)\n", path: "c").checked()
    #expect(many.problems.count == 1 && many.problems[0].hasPrefix("c:10: button:"))
    #expect(try #require(toast(["Hi"], many)).0.buttons == (1...8).map { "B\($0)" })
    let bad = Config(text: "[default]\nbutton =\nkeyboard = sometimes\n", path: "c").checked()
    #expect(bad.problems.count == 2)
    #expect(bad.problems.first?.hasPrefix("c:2: button: expected a label of 1 to 64") == true)
  }

  @Test func aRelativeIconPathIsTakenFromTheFilesDirectory() throws {
    let text = "[default]\nicon = icons/volume.svg\n[preset named]\nicon = audio-volume-high\n"
    let config = Config(text: text, path: "/home/me/.config/wl-toast/config").checked()
    #expect(
      try #require(toast(["Hi"], config)).0.icon == "/home/me/.config/wl-toast/icons/volume.svg")
    #expect(
      try #require(toast(["--preset", "named", "Hi"], config)).0.icon == "audio-volume-high",
      "a name stays a name")
  }

  @Test func anUnknownPresetIsAUsageErrorNamingThePresets() {
    let config = Config(text: Self.text, path: "/home/me/.config/wl-toast/config")
    guard case .failure(let error) = parseArguments(["--preset", "volum", "V"], config: config)
    else {
      Issue.record("accepted an unknown preset")
      return
    }
    #expect(
      error.description
        == "wl-toast: --preset: no preset 'volum' in /home/me/.config/wl-toast/config"
        + " (presets: job, volume)")
    guard case .failure(let none) = parseArguments(["--preset", "volume", "V"], config: nil) else {
      Issue.record("accepted a preset without a file")
      return
    }
    #expect(none.message == "--preset: no preset 'volume': there is no configuration file")
  }

  @Test func brokenLinesAreReportedWithTheirLineAndTheRestLoads() throws {
    let text = """
      timeout = 1
      [default]
      timeout = soon
      colour = red
      just words
      = 5
      [preset]
      [section two
      style = banner
      [preset ok]
      position = middle
      margin = 20
      spinner = maybe
      """
    let config = Config(text: text, path: "c").checked()
    #expect(
      config.problems == [
        "c:1: timeout: outside a section ([default], [preset NAME], [notifications] or criteria"
          + " such as [app-name=NAME])",
        "c:3: timeout: expected seconds from 0 to 86400, or auto, got 'soon'",
        "c:4: unknown key 'colour'",
        "c:5: expected KEY = VALUE, got 'just words'",
        "c:6: a key is missing before '='",
        "c:7: unknown section '[preset]' (expected [default], [preset NAME], [notifications] or"
          + " criteria such as [app-name=NAME])",
        "c:8: a section header ends with ']'",
        "c:9: style: outside a section ([default], [preset NAME], [notifications] or criteria"
          + " such as [app-name=NAME])",
        "c:11: position: expected center|top|bottom|left|right|top-left|top-right|bottom-left"
          + "|bottom-right, got 'middle'",
        "c:13: spinner: expected true or false, got 'maybe'",
      ])
    let (shown, _) = try #require(toast(["--preset", "ok", "Hi"], config))
    #expect(shown.margin == 20 && shown.position == nil && !shown.showsSpinner)
  }

  @Test func aKeyWithControlCharactersIsReportedOnOneLineWithThemEscaped() {
    let config = Config(text: "backg\u{0B}\u{0}d = #a00000\n[default]\nti\u{85}me = 2", path: "c")
      .checked()
    #expect(
      config.problems == [
        "c:1: backg\\u{0B}\\0d: outside a section ([default], [preset NAME], [notifications] or"
          + " criteria such as [app-name=NAME])",
        "c:3: unknown key 'ti\\u{0085}me'",
      ])
  }

  @Test func everyOptionOfAToastHasAKey() {
    for key in [
      "style", "timeout", "spinner", "progress", "offset", "dismiss", "modal", "dim", "markup",
      "no-animation", "font", "background", "foreground", "output", "position", "margin",
      "layer", "icon", "icon-theme", "grace", "min-show", "a11y", "say", "tag", "wait",
      "print-outcome",
      "follow", "linger",
    ] {
      #expect(configKeys.contains(key), "\(key)")
    }
    for notAKey in ["help", "version", "preset", "config", "no-config", "after", "workspaces"] {
      #expect(!configKeys.contains(notAKey), "\(notAKey)")
    }
  }

  @Test func theFileToReadComesFromTheCommandLineOrTheEnvironment() {
    #expect(configChoice(in: ["Hi"]) == .standard)
    #expect(configChoice(in: ["--config", "/x", "Hi"]) == .file("/x"))
    #expect(configChoice(in: ["--config=/y", "--no-config", "Hi"]) == .none)
    #expect(configChoice(in: ["--font", "--no-config", "Hi"]) == .standard, "a value, not a flag")
    #expect(configChoice(in: ["--", "--no-config"]) == .standard)
  }

  @Test func theExampleConfigLoadsWithoutAProblem() throws {
    var root = #filePath
    for _ in 0..<3 { root = String(root[..<(root.lastIndex(of: "/") ?? root.startIndex)]) }
    let loaded = try #require(try Config.load(path: root + "/Examples/config").get())
    let config = loaded.checked()
    #expect(config.problems == [])
    #expect(config.presetNames == ["ask", "brightness", "job", "mode", "mute", "volume"])
    let (volume, options) = try #require(
      toast(["--preset", "volume", "--progress", "40", "V"], config))
    #expect(volume.icon == "audio-volume-high-symbolic" && volume.iconTheme == "Adwaita")
    #expect(volume.position == .bottom && volume.margin == 80 && options.tag == "volume")
    let (mute, _) = try #require(toast(["--preset", "mute", "🔇"], config))
    #expect(mute.accessibleText == "Volume muted" && mute.accessibility == .automatic)
    let rules = config.notificationRules()
    let criteria = rules.compactMap { $0.criteria?.section }
    #expect(criteria == ["summary~=\"^Volume [0-9]+%\"", "urgency=critical", "actionable"])
    #expect(rules.first { $0.criteria == nil }?.maxHistory == 10)
  }

  @Test func aMissingFileIsNoFileAndAnUnreadableOneSaysWhy() throws {
    #expect(try Config.load(path: "/nonexistent/wl-toast/config").get() == nil)
    guard case .failure(let error) = Config.load(path: "/proc/self/mem") else {
      Issue.record("read /proc/self/mem")
      return
    }
    #expect(error.description.hasPrefix("cannot read /proc/self/mem: "))
  }

  @Test func aFIFONobodyWritesToReadsAsEmptyWithoutWaiting() throws {
    let directory = try #require(
      mkdtemp(strdup("/tmp/wl-toast-config-XXXXXX")).map { String(cString: $0) })
    defer {
      unlink(directory + "/config")
      rmdir(directory)
    }
    #expect(mkfifo(directory + "/config", 0o600) == 0)
    let config = try #require(try Config.load(path: directory + "/config").get())
    #expect(config.problems == [] && config.presetNames == [] && config.defaults == [])
  }
}
