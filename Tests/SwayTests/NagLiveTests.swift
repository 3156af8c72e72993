import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastNag
import ToastOwner
import ToastProtocol
import ToastRendering

/// `wl-toast nag` as sway runs it: its `swaynag_command` for config errors,
/// and the exit prompt of the example config.
@Suite(.serialized)
struct NagLiveTests {
  /// The wl-toast-owner processes this sway started (its SWAYSOCK in their
  /// environment; other tests run beside this one), and of those the `nag`s
  /// (the bar draws in the process sway started: the command execs the owner
  /// program, keeping its id).
  static func ownerProcesses(of sway: HeadlessSway) -> (all: [Int32], nags: [Int32]) {
    let owner = builtProduct("wl-toast-owner")
    let all = listProcesses().filter { pid in
      readLink("/proc/\(pid)/exe") == owner
        && environment(of: pid).contains("SWAYSOCK=\(sway.ipcSocketPath)")
    }
    let nags = all.filter { pid in
      let words = (readFile("/proc/\(pid)/cmdline") ?? []).split(separator: 0)
      return words.count > 1 && words[1].elementsEqual("nag".utf8)
    }
    return (all, nags)
  }

  /// The variables a process started with.
  static func environment(of pid: Int32) -> [String] {
    (readFile("/proc/\(pid)/environ") ?? []).split(separator: 0).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// The bar sway asks for on a config error: its own arguments, read by ToastNag.
  static func configErrorBar(details: String) throws -> Toast {
    let arguments = [
      "--type", "error", "--message", "There are errors in your config file",
      "--detailed-message", "--button-no-terminal", "Exit sway", "swaymsg exit",
      "--button-no-terminal", "Reload sway", "swaymsg reload",
    ]
    guard
      case .success(.show(let request)) = parseNag(
        arguments, environment: [:], readStandardInput: { Array(details.utf8) },
        readFile: { _ in nil })
    else { throw HarnessError("sway's own nag arguments did not parse") }
    return nagToast(request, keyboard: .onDemand, animated: true)
  }

  @Test func swaysOwnPopupCommandShowsTheBarAndReloadsSway() throws {
    let sway = try HeadlessSway(
      extraConfig: "swaynag_command \(builtProduct("wl-toast")) nag\nbogus_command_for_test")
    let input = try VirtualInput(
      socketPath: sway.socketPath, width: sway.outputWidth, height: sway.outputHeight)
    try input.move(x: sway.outputWidth - 1, y: sway.outputHeight - 1)
    let red = RGB(0x90, 0, 0)
    let details =
      "Error on line 7 (\(sway.runtimeDirectory)/config) 'bogus_command_for_test': Unknown/invalid"
      + " command 'bogus_command_for_test'"
    let toast = try Self.configErrorBar(details: details)
    let closed = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    // The error type's bar, the whole width of the output, at its top, once slid in.
    let expectedBar = Box(
      x: 0, y: 0, width: 1280, height: closed.exclusiveZone - toast.bar.borderBottomSize)
    var bar: Box?
    // The first look waits for sway's config load, its spawn of the bar's
    // process as sway's user (with a cold font cache of its own) and the
    // slide: 20 s bounds a failure; a pass takes well under one.
    try sway.screenshot(
      "sway's error bar at \(expectedBar) (last: \(lastSeen(bar)))", timeout: 20
    ) { shot in
      bar = shot.boundingBox(of: red, tolerance: 2)
      return bar == expectedBar
    }
    let started = Self.ownerProcesses(of: sway)
    let first = try #require(started.nags.first, "a nag process")
    #expect(started.nags.count == 1)
    #expect(
      Self.environment(of: first).contains { $0.hasPrefix("WAYLAND_SOCKET=") },
      "started by sway with its socket")
    #expect(started.all == [first], "no owner: the bar draws in the process sway started")

    // The details: sway's own message, as the same bar draws it offscreen.
    let toggle = closed.buttons[3].frame
    try input.click(x: Int(toggle.midX), y: Int(toggle.midY))
    let open = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, detailsOpen: true)
    let area = try #require(open.details).area
    let expected = OffscreenImage.render(
      toast, scale: 1, buttons: Interaction(detailsOpening: 1))
    let region = Box(
      x: Int(area.x), y: Int(area.y), width: Int(area.width), height: Int(area.height))
    var differing = 0
    try sway.screenshot("the details open, showing sway's error text", timeout: 20) { shot in
      differing = 0
      for y in region.y..<(region.y + region.height) {
        for x in region.x..<(region.x + region.width) {
          let pixel = expected.pixel(x: x, y: y)
          if !shot.pixel(x: x, y: y).isClose(
            to: RGB(pixel.red, pixel.green, pixel.blue), tolerance: 24)
          {
            differing += 1
          }
        }
      }
      return differing == 0
    }

    // Tab to Reload sway (the dismiss button first, then Exit sway), Enter:
    // sway reloads, ends the old bar's client and starts a new one.
    let connection = try SwayIPCConnection(socketPath: sway.ipcSocketPath)
    try connection.subscribe(to: ["workspace"])
    try input.press(keysym: 0xff09)
    try input.press(keysym: 0xff09)
    try input.press(keysym: 0xff0d)
    var reloaded = false
    try waitUntil("sway's workspace event with change reload", timeout: 10) {
      var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 100)
      for event in try connection.readAvailable() {
        if try JSONValue.parse(event.payload)["change"]?.stringValue == "reload" { reloaded = true }
      }
      return reloaded
    }
    try waitUntil("the old bar's process gone and a new bar shown", timeout: 10) {
      let now = Self.ownerProcesses(of: sway).nags
      return !now.contains(first) && now.count == 1
    }
    try sway.screenshot("the new error bar across the top") { shot in
      shot.boundingBox(of: red, tolerance: 2).map { $0.x == 0 && $0.width == 1280 } ?? false
    }
  }
}

/// The buttons' actions as swaynag runs them: `-B` with `sh -c`, `-b` and `-z`
/// in `$TERMINAL -e` (a script that removes itself), each in a session of its
/// own, not the bar's child, without the bar's Wayland socket; `-z` then
/// closes the bar.
@Suite(.serialized)
struct NagActionTests {
  @Test func actionsRunInTheirOwnSessionWithoutTheSocketAndBInATerminal() throws {
    let desk = try Desk<HeadlessSway>()
    let directory = desk.sway.runtimeDirectory
    let terminal = directory + "/terminal"
    // A stand-in terminal: it notes its arguments and runs what -e names.
    try writeFile(
      terminal, "#!/bin/sh\necho \"$@\" > \(directory)/terminal-args\nshift\nexec \"$@\"\n",
      mode: 0o755)
    let record =
      "echo $$ $(ps -o sid= -p $$) $(ps -o ppid= -p $$) > \(directory)/%@; env > \(directory)/%@.env"
    func action(_ name: String) -> String { record.replacing("%@", with: name) }
    desk.environment["TERMINAL"] = terminal
    let nag = try desk.run(
      [
        "nag", "-m", "Actions", "-B", "Plain", action("plain"), "-b", "Term", action("term"), "-z",
        "Close", action("close"),
      ], logPath: directory + "/nag.log")
    defer { nag.terminate() }
    guard
      case .success(.show(let request)) = parseNag(
        [
          "-m", "Actions", "-B", "Plain", action("plain"), "-b", "Term", action("term"), "-z",
          "Close", action("close"),
        ],
        environment: [:], readStandardInput: { [] }, readFile: { _ in nil })
    else { throw HarnessError("the arguments did not parse") }
    let layout = ToastLayout(
      toast: nagToast(request, keyboard: .onDemand, animated: true), outputWidth: 1280,
      outputHeight: 720)
    try desk.screenshot("the bar") { $0.boundingBox(of: RGB(0x90, 0, 0), tolerance: 2) != nil }
    for (index, name) in [(1, "plain"), (2, "term")] {
      let frame = layout.buttons[index].frame
      try desk.input.click(x: Int(frame.midX), y: Int(frame.midY))
      try waitUntil("the \(name) action to run", timeout: 10) {
        access(directory + "/\(name).env", F_OK) == 0
          && (readFile(directory + "/\(name)")?.count ?? 0) > 0
      }
      let words = String(decoding: readFile(directory + "/\(name)") ?? [], as: UTF8.self)
        .split(whereSeparator: \.isWhitespace)
      #expect(
        words.count == 3 && words[1] != Substring(String(getsid(nag.pid))),
        "a session of its own, not the bar's \(getsid(nag.pid)): \(words)")
      #expect(words.count == 3 && words[2] != Substring(String(nag.pid)), "not the bar's child")
      let variables = String(decoding: readFile(directory + "/\(name).env") ?? [], as: UTF8.self)
      #expect(!variables.contains("WAYLAND_SOCKET="), "no Wayland socket of the bar's")
    }
    let arguments = String(decoding: readFile(directory + "/terminal-args") ?? [], as: UTF8.self)
    #expect(arguments.hasPrefix("-e /tmp/wl-toast-nag"), "\(arguments)")
    let script = String(arguments.dropFirst(3).prefix { !$0.isWhitespace })
    #expect(access(script, F_OK) != 0, "the script removed itself")
    #expect(nag.exitStatus == nil, "-B and -b leave the bar up")
    // -z: in the terminal too, and the bar goes.
    let close = layout.buttons[3].frame
    try desk.input.click(x: Int(close.midX), y: Int(close.midY))
    #expect(nag.wait(timeout: 10) == 0, "-z closes the bar")
    try waitUntil("the close action to run", timeout: 10) {
      access(directory + "/close.env", F_OK) == 0
    }
    let again = String(decoding: readFile(directory + "/terminal-args") ?? [], as: UTF8.self)
    #expect(again.hasPrefix("-e /tmp/wl-toast-nag") && again != arguments, "\(again)")
  }
}

/// A bar's details on sway: long ones scroll by key and wheel, and close again.
@Suite(.serialized)
struct NagDetailsTests {
  @Test func longDetailsScrollByKeyAndWheelAndClose() throws {
    let desk = try Desk<HeadlessSway>()
    let lines = (1...200).map { "Error on line \($0)" }.joined(separator: "\n")
    let input = desk.sway.runtimeDirectory + "/details"
    try writeFile(input, lines)
    let arguments = ["--keyboard", "exclusive", "-m", "Many errors", "-l"]
    let log = StandardStream.file(desk.sway.runtimeDirectory + "/nag.log")
    let nag = try desk.start(
      Run(["nag"] + arguments, stdin: .file(input), stdout: log, stderr: log))
    defer { nag.terminate() }
    guard
      case .success(.show(let request)) = parseNag(
        ["-m", "Many errors", "-l"], environment: [:], readStandardInput: { Array(lines.utf8) },
        readFile: { _ in nil })
    else { throw HarnessError("the arguments did not parse") }
    let toast = nagToast(request, keyboard: .exclusive, animated: true)
    let closed = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let open = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, detailsOpen: true)
    let red = RGB(0x90, 0, 0)
    let row = closed.exclusiveZone - toast.bar.borderBottomSize
    try desk.screenshot("the bar's row") { $0.boundingBox(of: red, tolerance: 2)?.height == row }
    // The focus starts on X: Tab to "Toggle details", Enter opens them.
    try desk.input.press(keysym: 0xff09)
    try desk.input.press(keysym: 0xff0d)
    let details = try #require(open.details)
    let area = Box(
      x: Int(details.area.x), y: Int(details.area.y), width: Int(details.area.width),
      height: Int(details.area.height))
    func shown(line: Int) -> Image {
      let image = OffscreenImage.render(
        toast, scale: 1, buttons: Interaction(detailsOpening: 1, detailsLine: line))
      var bytes: [UInt8] = []
      for y in area.y..<(area.y + area.height) {
        for x in area.x..<(area.x + area.width) {
          let pixel = image.pixel(x: x, y: y)
          bytes += [pixel.red, pixel.green, pixel.blue]
        }
      }
      return Image(width: area.width, height: area.height, bytes: bytes)
    }
    func showing(_ expected: Image) throws -> Bool {
      let shot = try desk.sway.screenshot(
        x: area.x, y: area.y, width: area.width, height: area.height)
      return shot.difference(from: expected, tolerance: 24) == nil
    }
    try waitUntil("the details open at their first line") { try showing(shown(line: 0)) }
    try desk.input.press(keysym: 0xff54)  // Down
    try desk.input.press(keysym: 0xff56)  // Page Down: as many lines as show
    try waitUntil("the details from line \(1 + details.visibleLines)") {
      try showing(shown(line: 1 + details.visibleLines))
    }
    try desk.input.press(keysym: 0xff52)  // Up
    try waitUntil("the details from line \(details.visibleLines)") {
      try showing(shown(line: details.visibleLines))
    }
    // Enter again (the focus is still on the details button): they close.
    try desk.input.press(keysym: 0xff0d)
    try desk.screenshot("the bar back to its row") { shot in
      shot.boundingBox(of: red, tolerance: 2)?.height == row
        && shot.pixel(x: area.x + 4, y: area.y + 4) == HeadlessSway.background
    }
    #expect(nag.exitStatus == nil, "the details button never ends the bar")
  }
}

/// `wl-toast nag` given what it must refuse: one line on standard error naming
/// the problem, a documented status (swaynag's 1 where it has one, 64 for a
/// command line swaynag would half-take), never a crash or a hang.
@Suite(.serialized)
struct NagHardeningTests {
  /// Runs the built `wl-toast nag` with `arguments`, `stdin` on its standard
  /// input and `environment`; its status and standard error.
  static func nag(
    _ arguments: [String], stdin: [UInt8] = [], environment: [String: String]
  ) throws -> (status: Int32, errors: String) {
    let result = try CommandRunner().runToEnd(
      Run(["nag"] + arguments, environment: environment, stdin: .bytes(stdin)),
      timeout: 20)
    return (result.status, result.errors)
  }

  @Test func versionIsOneLineAsSwaynagsIs() throws {
    let result = try CommandRunner().runToEnd(Run(["nag", "-v"]), timeout: 20)
    #expect(result.status == 0 && result.errors.isEmpty, "\(result.errors)")
    #expect(result.output == "wl-toast nag version \(Toast.version)\n")
  }

  @Test(
    arguments: [
      (["-m"], 64, "option -m needs a value"),
      (["--message"], 64, "option --message needs a value"),
      (["-m", "Hi", "-b", "Go"], 1, "missing action for button 'Go'"),
      (["-m", "Hi", "-t", "nosuch"], 1, "unknown type 'nosuch'"),
      (["-m", "Hi", "-e", "left"], 1, "invalid edge: 'left'"),
      (["-m", "Hi", "-o", ""], 1, "no output named ''"),
      (["-m", "Hi", "-o", "NO SUCH"], 1, "no output named 'NO SUCH'"),
      ([] as [String], 1, "no message given: use --message or -m"),
      (["-m", "Hi", "--background", "#12345"], 64, "invalid --background colour '#12345'"),
      (["-m", "Hi", "--button-gap", "-3"], 64, "--button-gap"),
      (["-m", "Hi", "--button-padding", "lots"], 64, "--button-padding"),
      (["-m", "Hi", "-b", "", "true"], 64, "button"),
      (["-m", "Hi", "-b", String(repeating: "x", count: 65), "true"], 64, "button"),
      (["-m", "Hi", "--bogus"], 64, "unknown option"),
      (["--keyboard", "sometimes", "-m", "Hi"], 64, "--keyboard: expected"),
      (["-m", "Hi", "--keyboard", "exclusive"], 64, "unknown option"),
    ] as [([String], Int32, String)])
  func badCommandLines(_ arguments: [String], _ status: Int32, _ message: String) throws {
    let result = try Self.nag(arguments, environment: currentEnvironment())
    #expect(result.status == status, "\(result.errors)")
    #expect(result.errors.hasPrefix("wl-toast nag: ") && result.errors.contains(message))
    #expect(result.errors.split(separator: "\n").count == 1, "\(result.errors)")
  }

  @Test func aNinthButtonIsRefused() throws {
    // The dismiss button and seven more make eight: the ninth is one too many.
    let seven = (1...7).flatMap { ["-B", "B\($0)", "true"] }
    // With no compositor to reach: read, then refused only for want of one.
    let fine = try Self.nag(["-m", "Hi"] + seven, environment: [:])
    #expect(fine.status == 1 && fine.errors.contains("cannot connect"), "\(fine.errors)")
    let nine = try Self.nag(["-m", "Hi"] + seven + ["-B", "B8", "true"], environment: [:])
    #expect(nine.status == 64 && nine.errors.contains("B8"), "\(nine.errors)")
  }

  @Test func badStandardInputAndABadSocket() throws {
    let huge = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
    let long = try Self.nag(["-m", "Hi", "-l"], stdin: huge, environment: [:])
    #expect(long.status == 64 && long.errors.contains("262144"), "\(long.errors)")
    // A newline or a NUL right after the limit cuts nothing off: still too long.
    let cut = [UInt8](repeating: UInt8(ascii: "a"), count: 262_144) + Array("\nTAIL".utf8)
    let tail = try Self.nag(["-m", "Hi", "-l"], stdin: cut, environment: [:])
    #expect(tail.status == 64 && tail.errors.contains("262144"), "\(tail.errors)")
    let zeros = [UInt8](repeating: 0, count: 262_145)
    let nuls = try Self.nag(["-m", "Hi", "-l"], stdin: zeros, environment: [:])
    #expect(nuls.status == 64 && nuls.errors.contains("262144"), "\(nuls.errors)")
    // Bytes that are not UTF-8 (a configuration's Latin-1 line, as sway
    // copies it): the bar shows them as U+FFFD.
    let png = try makeTemporaryDirectory(prefix: "wl-toast-nag-png")
    defer { removeTree(png) }
    let invalid = try Self.nag(
      ["--render-png", png + "/bar.png", "-m", "Hi", "-l"], stdin: [0x66, 0xff, 0xfe],
      environment: [:])
    #expect(invalid.status == 0 && access(png + "/bar.png", F_OK) == 0, "\(invalid.errors)")
    var environment = currentEnvironment()
    environment["WAYLAND_SOCKET"] = "0"  // standard input: a file, not a socket
    let socket = try Self.nag(["-m", "Hi"], environment: environment)
    #expect(socket.status == 1, "\(socket.errors)")
    #expect(
      socket.errors == "wl-toast nag: WAYLAND_SOCKET is '0', not the descriptor of a socket"
        + " (a compositor that starts the program sets it)\n")
  }

  @Test func aLostConnectionEndsTheBarQuietly() throws {
    let sway = try HeadlessSway()
    let nag = try CommandRunner(on: sway).run(
      ["nag", "-m", "Going away"], logPath: sway.runtimeDirectory + "/nag.log")
    try sway.screenshot("the bar") { $0.boundingBox(of: RGB(0x90, 0, 0), tolerance: 2) != nil }
    sway.stop()
    try waitUntil("the bar's process to end with its compositor", timeout: 10) {
      !nag.isRunning
    }
    #expect(nag.exitStatus == 0, "as swaynag: its connection gone, it ends")
  }
}
