import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// The `wl-toast` command's contract: exit codes and one-line errors.
@Suite(.serialized)
struct CommandTests {
  /// Runs wl-toast to completion with an environment; returns status and
  /// what it printed (standard output, then error).
  static func run(_ arguments: [String], environment: [String: String]) throws -> (
    status: Int32, stderr: String
  ) {
    let runner = try CommandRunner()
    runner.environment = environment
    let result = try runner.runToEnd(arguments, timeout: 10)
    return (result.status, result.output + result.errors)
  }

  @Test func usageErrorsExitSixtyFourWithOneLineNamingTheFlag() throws {
    for (arguments, flag) in [
      (["--timeout", "-1", "x"], "--timeout"), (["--progress", "250", "x"], "--progress"),
      (["--background", "#12345", "x"], "--background"), (["--style", "toast", "x"], "--style"),
      (["--bogus", "x"], "--bogus"), (["--offset", "-9223372036854775808,0", "x"], "--offset"),
    ] {
      let result = try Self.run(arguments, environment: currentEnvironment())
      #expect(result.status == 64, "\(arguments)")
      let lines = result.stderr.split(separator: "\n")
      #expect(lines.first?.hasPrefix("wl-toast: ") == true)
      #expect(lines.first?.contains(flag) == true, "\(result.stderr)")
    }
  }

  @Test func aMissingOwnerProgramIsOneLineAndNoHang() throws {
    // wl-toast alone in a directory: the owner it starts is not beside it.
    let desk = try Desk<HeadlessSway>()
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-alone")
    defer { removeTree(directory) }
    let copy = directory + "/wl-toast"
    let result = try runCommand(
      ["cp", builtProduct("wl-toast"), copy], environment: currentEnvironment())
    #expect(result.status == 0)
    for attempt in 1...2 {
      let child = try desk.start(Run(["--timeout", "0", "Alone"], program: copy))
      #expect(child.wait(timeout: 5) == 1, "attempt \(attempt) ends at once, status 1")
      let errors = String(decoding: child.captured(1) + child.captured(2), as: UTF8.self)
      #expect(
        errors == "wl-toast: cannot start \(directory)/wl-toast-owner: No such file or directory\n",
        "attempt \(attempt): \(errors)")
    }
    #expect(desk.ownerProcesses().isEmpty)
  }

  @Test func invalidMarkupIsAUsageError() throws {
    let result = try Self.run(["--markup", "<b>open"], environment: currentEnvironment())
    #expect(result.status == 64)
    #expect(
      result.stderr.hasPrefix("wl-toast: --markup: the message is not valid Pango markup: "),
      "\(result.stderr)")
  }

  @Test func helpAndVersionNeedNoCompositor() throws {
    var environment = currentEnvironment()
    environment.removeValue(forKey: "WAYLAND_DISPLAY")
    #expect(try Self.run(["--help"], environment: environment).status == 0)
    #expect(try Self.run(["--version"], environment: environment).status == 0)
  }

  @Test func helpAndVersionWinOverAConfigFileThatCannotBeRead() throws {
    for arguments in [["--config", "/nonexistent", "--help"], ["-V", "--config", "/"]] {
      let result = try Self.run(arguments, environment: currentEnvironment())
      #expect(result.status == 0, "\(arguments): \(result.stderr)")
      #expect(result.stderr.hasPrefix(arguments.contains("-V") ? "wl-toast " : "Usage:"))
    }
    let result = try Self.run(["--config", "/nonexistent", "x"], environment: currentEnvironment())
    #expect(result.status == 64 && result.stderr.hasPrefix("wl-toast: --config: cannot read"))
  }

  @Test func noCompositorIsAnErrorNamingTheDisplay() throws {
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = "/tmp/wl-toast-nothing-here"
    let result = try Self.run(["Hello"], environment: environment)
    #expect(result.status == 1)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("/tmp/wl-toast-nothing-here"))
  }

  @Test func noRuntimeDirectoryIsAnErrorSayingSo() throws {
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = "wayland-9"
    environment.removeValue(forKey: "XDG_RUNTIME_DIR")
    let result = try Self.run(["Hello"], environment: environment)
    #expect(result.status == 1)
    #expect(
      result.stderr
        == "wl-toast: cannot connect to Wayland display 'wayland-9': XDG_RUNTIME_DIR is not set; "
        + "is a compositor running and WAYLAND_DISPLAY set?\n")
  }

  @Test func aCompositorWithoutLayerShellIsAnErrorNamingIt() throws {
    let weston = try HeadlessWeston()
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = weston.socketPath
    let result = try Self.run(["Hello"], environment: environment)
    #expect(result.status == 1)
    #expect(result.stderr.split(separator: "\n").count == 1)
    #expect(result.stderr.contains("zwlr_layer_shell_v1"))
  }

  @Test func invalidUTF8AndHugeMessagesAreShownNotFatal() throws {
    let desk = try Desk<HeadlessSway>()
    // Bytes that are not UTF-8, as a shell would pass them: each shows as U+FFFD.
    let bad = try desk.runToEnd(
      Run(bytes: [
        Array("--no-animation".utf8), Array("--tag".utf8), Array("bad".utf8),
        Array("--timeout".utf8), Array("0".utf8),
        Array("bad ".utf8) + [0xff, 0xfe] + Array(" bytes".utf8),
      ]))
    #expect(bad.status == 0)
    #expect(try desk.status(tag: "bad")?.text == "bad \u{FFFD}\u{FFFD} bytes")
    // A message past the limit shows cut, ending in an ellipsis.
    let huge = String(repeating: "Big message ", count: 8_000)
    let result = try desk.runToEnd(["--no-animation", "--tag", "huge", "--timeout", "0", huge])
    #expect(result.status == 0)
    let shown = try #require(try desk.status(tag: "huge")?.text)
    #expect(shown.unicodeScalars.count == Toast.Limits.textLength && shown.hasSuffix("…"))
  }

  @Test func aSignalRemovesTheToastAndExitsZero() throws {
    let desk = try Desk<HeadlessSway>()
    // An owner that would otherwise stay 30 s after its last toast.
    let command = try desk.run([
      "--wait", "--no-animation", "--linger", "30", "--timeout", "0", "Until killed",
    ])
    try desk.waitUntilDrawn()
    // The toast lives in the background owner: stop that one.
    let owner = try #require(try desk.status()?.owner)
    kill(owner, SIGTERM)
    #expect(command.wait(timeout: 10) == 0)
    // The owner leaves well before its linger would have ended.
    try waitUntil("the owner to leave on SIGTERM, not after its 30 s linger", timeout: 10) {
      desk.ownerProcesses().isEmpty
    }
    try waitUntil("the HUD box to leave the screen") {
      try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) == nil
    }
  }

  @Test func escapeDismissesATapToastThatHasFocus() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--wait", "--no-animation", "--timeout", "0", "--dismiss", "tap", "Esc",
    ])
    try desk.waitUntilDrawn()
    try desk.input.press(keysym: 0xff1b)
    #expect(command.wait(timeout: 5) == 2)
  }

  @Test func aClickOnACardsBodyPrintsActivatedAndExitsAsADismissal() throws {
    let desk = try Desk<HeadlessSway>()
    let log = desk.sway.runtimeDirectory + "/card.log"
    let command = try desk.run(
      ["--style", "card", "--wait", "--print-outcome", "--no-animation", "--timeout", "0", "Card"],
      logPath: log)
    defer { command.terminate() }
    let height = Int(
      ToastLayout(toast: Toast("Card", style: .card), outputWidth: 1280, outputHeight: 720).box
        .height)
    let width = Int(Design.Card.width)
    let box = Box(x: 1280 - Design.margin - width, y: Design.margin, width: width, height: height)
    let color = blend(Design.Card.background, over: HeadlessSway.desktop)
    try desk.screenshot("the card at \(box)") { $0.boundingBox(of: color, tolerance: 3) == box }
    try desk.input.click(x: box.x + box.width - 20, y: box.y + box.height / 2)
    #expect(command.wait(timeout: 5) == 2)
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "activated\n")
  }

  @Test func closedStandardDescriptorsStillGiveOneOwner() throws {
    let desk = try Desk<HeadlessSway>()
    for text in ["One", "Two"] {
      let result = try desk.runToEnd(
        Run(
          ["--no-animation", "--timeout", "0", text], stdin: .closed, stdout: .closed,
          stderr: .closed))
      #expect(result.status == 0)
    }
    #expect(try desk.status()?.text == "Two")
    #expect(desk.ownerProcesses().count == 1)
  }

  @Test func aLostCompositorEndsAWaitingCommandWithOneLine() throws {
    let desk = try Desk<HeadlessSway>()
    let log = "/tmp/wl-toast-lost-\(getpid()).log"
    defer { unlink(log) }
    let command = try desk.run(
      ["--wait", "--timeout", "0", "Until the compositor goes"], logPath: log)
    try waitUntil("status to report the toast") { try desk.status() != nil }
    desk.sway.stop()
    #expect(command.wait(timeout: 5) == 1)
    let errors = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    #expect(errors.split(separator: "\n").count == 1)
    #expect(errors.contains("lost the connection"), "\(errors)")
  }
}
