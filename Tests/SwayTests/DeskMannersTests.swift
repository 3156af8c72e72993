import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastModel

/// Do-not-disturb and the fullscreen policy on headless sway: what a user at
/// a real desk sees, with `wl-toast dnd`, a fullscreen `weston-flower` and
/// two outputs.
@Suite(.serialized)
struct DeskMannersTests {
  /// An opaque colour no desktop or flower has: the box's pixels are this
  /// exactly, whatever is below.
  static let magenta = RGB(0xff, 0x00, 0xff)
  static let opaque = ["--background", "#ff00ffff", "--no-animation", "--timeout", "0"]

  /// The state file of `desk`'s commands.
  static func stateFile(_ desk: Desk<HeadlessSway>) -> String {
    (desk.environment["XDG_RUNTIME_DIR"] ?? "") + "/wl-toast/state/do-not-disturb"
  }

  static func box(_ text: String) -> Box {
    var toast = Toast(text)
    toast.background = Toast.Color(hex: "#ff00ffff")
    return Looks.hudBox(toast)
  }

  // MARK: - Do-not-disturb

  @Test func doNotDisturbHoldsBackAllButCriticalToastsAndOutlivesOwners() throws {
    let desk = try deskWithOwnRuntime()
    #expect(try desk.runToEnd(["dnd"]).output == "off\n")
    let on = try desk.runToEnd(["dnd", "on"])
    #expect(on.status == 0 && on.output == "on\n", "\(on.errors)")
    var info = stat()
    #expect(lstat(Self.stateFile(desk), &info) == 0)
    #expect(info.st_mode & 0o777 == 0o600 && info.st_uid == getuid())
    // A normal toast: exit 0 at once, nothing shown, no owner started.
    let normal = try desk.runToEnd(Self.opaque + ["Saved"])
    #expect(normal.status == 0 && normal.errors.isEmpty, "\(normal.errors)")
    #expect(desk.ownerProcesses().isEmpty, "no owner for a toast that is not shown")
    let waited = try desk.runToEnd(Self.opaque + ["--urgency", "low", "--print-outcome", "Low"])
    #expect(waited.status == 4 && waited.output == "suppressed\n", "\(waited)")
    // A --follow command reads its input to the end (the writer is not cut off).
    let followed = try desk.runToEnd(
      Self.opaque + ["--follow", "--wait", "--print-outcome"], stdin: "1\n2\n3\n")
    #expect(followed.status == 4 && followed.output == "suppressed\n", "\(followed)")
    // A critical one shows, and status reports do-not-disturb.
    let critical = try desk.runToEnd(Self.opaque + ["--urgency", "critical", "Battery low"])
    #expect(critical.status == 0, "\(critical.errors)")
    let box = Self.box("Battery low")
    try desk.screenshot("the critical toast at \(box)") {
      $0.boundingBox(of: Self.magenta, tolerance: 2) == box
    }
    let report = try JSONValue.parse(try #require(try desk.statusLine()))
    #expect(report["do-not-disturb"]?.stringValue == "on")
    // The owner going does not turn it off: the next owner finds it on.
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("the owner gone after its linger") { desk.ownerProcesses().isEmpty }
    #expect(try desk.runToEnd(["dnd"]).output == "on\n")
    #expect(try desk.runToEnd(Self.opaque + ["--wait", "Still quiet"]).status == 4)
    let off = try desk.runToEnd(["dnd", "toggle"])
    #expect(off.output == "off\n" && lstat(Self.stateFile(desk), &info) != 0)
    #expect(try desk.runToEnd(Self.opaque + ["Heard"]).status == 0)
    try desk.screenshot("the toast shown once do-not-disturb is off") {
      $0.boundingBox(of: Self.magenta, tolerance: 2) == Self.box("Heard")
    }
  }

  @Test func turningDoNotDisturbOnEndsTheToastsOnScreenButCriticalOnes() throws {
    let desk = try deskWithOwnRuntime()
    let waiting = try desk.run(
      [
        "--tag", "mail", "--wait", "--print-outcome", "--timeout", "0", "--offset", "0,-200",
        "Mail",
      ])
    try waitUntil("the mail toast on screen") { try desk.status(tag: "mail") != nil }
    #expect(
      try desk.runToEnd(
        Self.opaque + ["--tag", "alarm", "--urgency", "critical", "--offset", "0,200", "Alarm"]
      ).status == 0)
    #expect(try desk.runToEnd(["dnd", "on"]).status == 0)
    // The owner hears of the state file at once: the normal toast fades as suppressed.
    #expect(waiting.wait(timeout: 10) == 4)
    #expect(try desk.status(tag: "mail") == nil)
    #expect(try desk.status(tag: "alarm")?.text == "Alarm")
    // An update of the critical toast's tag that is not critical changes nothing.
    #expect(try desk.runToEnd(Self.opaque + ["--tag", "alarm", "Quieter"]).status == 0)
    #expect(try desk.status(tag: "alarm")?.text == "Alarm")
  }

  @Test func anOwnerHearsDoNotDisturbAfterItsStateDirectoryIsMadeAgain() throws {
    let desk = try deskWithOwnRuntime()
    let directory = (desk.environment["XDG_RUNTIME_DIR"] ?? "") + "/wl-toast/state"
    // The directory the owner watches goes (removed, or moved away) and comes
    // back, made by the user or by the owner, whichever comes first.
    let ways: [(String, () -> Bool)] = [
      ("removed", { rmdir(directory) == 0 }),
      ("moved away", { rename(directory, directory + ".old") == 0 }),
    ]
    for (way, takeAway) in ways {
      #expect(try desk.runToEnd(["dnd", "off"]).output == "off\n")
      let waiting = try desk.run([
        "--tag", "mail", "--wait", "--print-outcome", "--timeout", "0", "Mail",
      ])
      try waitUntil("the mail toast on screen") { try desk.status(tag: "mail") != nil }
      #expect(takeAway(), "\(way): \(Errno.current)")
      #expect(mkdir(directory, 0o700) == 0 || errno == EEXIST, "\(way): \(Errno.current)")
      #expect(try desk.runToEnd(["dnd", "on"]).output == "on\n")
      try waitUntil("the mail toast to end as suppressed (\(way))") {
        try desk.status(tag: "mail") == nil
      }
      #expect(waiting.wait(timeout: 10) == 4, "\(way)")
      var info = stat()
      #expect(lstat(directory, &info) == 0 && info.st_mode & 0o777 == 0o700, "\(way)")
    }
  }

  @Test func concurrentTogglesEndAsTheirNumberSays() throws {
    // Its own runtime directory: no other test's do-not-disturb state.
    let runner = try CommandRunner()
    // Each toggle is whole: the toggles print on and off in turn, and an odd
    // number of them turns do-not-disturb on. All run at once, their lines
    // appended to one file.
    let count = 201
    let output = runner.scratch("toggles")
    let errors = runner.scratch("toggles-errors")
    let toggles = try (0..<count).map { _ in
      try runner.start(Run(["dnd", "toggle"], stdout: .file(output), stderr: .file(errors)))
    }
    try waitUntil("the toggles to end", timeout: 60) { toggles.allSatisfy { !$0.isRunning } }
    let result = String(
      decoding: (readFile(output) ?? []) + (readFile(errors) ?? []), as: UTF8.self)
    let lines = String(decoding: readFile(output) ?? [], as: UTF8.self).split(separator: "\n")
    #expect(lines.count == count, "\(result)")
    #expect(lines.filter { $0 == "on" }.count == count / 2 + 1, "\(result)")
    #expect(try runner.runToEnd(["dnd"]).output == "on\n")
  }

  @Test func aStateFileThatIsNotOursIsRefusedInOneLine() throws {
    let desk = try deskWithOwnRuntime()
    #expect(try desk.runToEnd(["dnd", "off"]).output == "off\n")
    let path = Self.stateFile(desk)
    #expect(symlink("/etc/passwd", path) == 0)
    for arguments in [["dnd"], ["dnd", "on"], ["dnd", "toggle"], Self.opaque + ["Hello"]] {
      let result = try desk.runToEnd(arguments)
      #expect(result.status == 1, "\(arguments)")
      #expect(
        result.errors
          == "wl-toast: refusing to use \(path): it is not a regular file owned by you\n",
        "\(arguments)")
    }
    unlink(path)
    #expect(mkdir(path, 0o700) == 0)
    let directory = try desk.runToEnd(["dnd", "on"])
    #expect(directory.status == 1 && directory.errors.hasPrefix("wl-toast: "))
    #expect(directory.errors.filter { $0 == "\n" }.count == 1, "\(directory.errors)")
    rmdir(path)
    for bad in [["dnd", "maybe"], ["dnd", "on", "off"], ["dnd", "--tag", "x"]] {
      let result = try desk.runToEnd(bad)
      #expect(result.status == 64, "\(bad)")
      #expect(result.errors.hasPrefix("wl-toast: dnd"), "\(bad): \(result.errors)")
    }
  }

  // MARK: - Fullscreen

  /// Starts `weston-flower` on `desk`'s sway and makes it fullscreen; the
  /// flower lives as long as the returned process.
  static func fullscreenFlower(on desk: Desk<HeadlessSway>) throws -> ChildProcess {
    let flower = try ChildProcess(
      ["weston-flower"], environment: desk.environment,
      logPath: desk.sway.runtimeDirectory + "/flower.log")
    let criteria = "[app_id=\"org.freedesktop.weston.flower\"]"
    try waitUntil("weston-flower mapped") {
      try desk.sway.swaymsg(["-t", "get_tree"]).contains("org.freedesktop.weston.flower")
    }
    try desk.sway.swaymsg([criteria, "fullscreen", "enable"])
    try waitUntil("weston-flower fullscreen") {
      try desk.sway.swaymsg(["-t", "get_tree"]).contains("\"fullscreen_mode\": 1")
    }
    return flower
  }

  @Test func aDelayedToastWaitsForFullscreenToEndAndThenTakesItsTime() throws {
    let desk = try deskWithOwnRuntime()
    let flower = try Self.fullscreenFlower(on: desk)
    defer { flower.terminate() }
    // A timeout of 4 s (the last --timeout wins), counted from when it shows:
    // time enough for a loaded machine's screenshot and status after it shows.
    let shown = try desk.runToEnd(
      Self.opaque + ["--timeout", "4", "--fullscreen", "delay", "Later"])
    #expect(shown.status == 0, "\(shown.errors)")
    let heldSince = now()
    // Held: the owner has it and draws nothing.
    let held = try #require(try desk.status())
    #expect(held.text == "Later" && held.drawn.isEmpty, "\(held)")
    #expect(try desk.sway.screenshot().boundingBox(of: Self.magenta, tolerance: 2) == nil)
    // Held longer than its timeout: time passing is what is tested here.
    pause(for: .seconds(max(0, 4.5 - (now() - heldSince))))
    #expect(try desk.status() != nil, "its timeout does not run while it is held")
    try desk.sway.swaymsg(["fullscreen", "disable"])
    let released = now()
    let box = Self.box("Later")
    try desk.screenshot("the delayed toast at \(box) once fullscreen ended") {
      $0.boundingBox(of: Self.magenta, tolerance: 2) == box
    }
    #expect(try desk.waitUntilDrawn().first?.output == "HEADLESS-1")
    // Then it takes its time: the whole 4 s from when fullscreen ended.
    try waitUntil("the delayed toast to expire", timeout: 20) { try desk.status() == nil }
    #expect(now() - released >= 4, "shown its full timeout after the hold")
  }

  @Test func aSuppressedToastNeverShowsAndACriticalOneShowsOverFullscreen() throws {
    let desk = try deskWithOwnRuntime()
    let flower = try Self.fullscreenFlower(on: desk)
    defer { flower.terminate() }
    // The first command starts the owner, which learns the windows first.
    let dropped = try desk.runToEnd(
      Self.opaque + ["--fullscreen", "suppress", "--print-outcome", "Dropped"])
    #expect(dropped.status == 4 && dropped.output == "suppressed\n", "\(dropped)")
    // The default shows over the fullscreen window (the overlay layer).
    #expect(try desk.runToEnd(Self.opaque + ["--tag", "plain", "Over it"]).status == 0)
    try desk.screenshot("the default toast over the fullscreen window") {
      $0.boundingBox(of: Self.magenta, tolerance: 2) == Self.box("Over it")
    }
    #expect(try desk.runToEnd(["hide", "--tag", "plain"]).status == 0)
    try desk.screenshot("no toast") { $0.boundingBox(of: Self.magenta, tolerance: 2) == nil }
    // With an owner running: suppressed at once, without --wait too.
    let again = try desk.runToEnd(Self.opaque + ["--fullscreen", "suppress", "Dropped"])
    #expect(again.status == 0 && again.errors.isEmpty, "\(again.errors)")
    #expect(try desk.status() == nil)
    let critical = try desk.runToEnd(
      Self.opaque + ["--fullscreen", "suppress", "--urgency", "critical", "Battery low"])
    #expect(critical.status == 0, "\(critical.errors)")
    try desk.screenshot("the critical toast over the fullscreen window") {
      $0.boundingBox(of: Self.magenta, tolerance: 2) == Self.box("Battery low")
    }
  }

  /// The library: a presenter holds a delayed toast back without waking,
  /// shows it when fullscreen ends, and with do-not-disturb on shows nothing.
  @Test func aPresenterSleepsWhileItHoldsAToastBack() throws {
    let desk = try deskWithOwnRuntime()
    let flower = try Self.fullscreenFlower(on: desk)
    defer { flower.terminate() }
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var toast = Toast("Later", timeout: 0)
    toast.isAnimated = false
    toast.background = Toast.Color(hex: "#ff00ffff")
    toast.fullscreen = .delay
    #expect(presenter.show(toast).isEmpty)
    // The window list comes in; then nothing changes and nothing wakes the loop.
    try settle(presenter)
    #expect(try wakeUps(of: presenter, during: .seconds(1)) <= 2)
    #expect(presenter.isWaitingToAppear(tag: Toast.defaultTag))
    try desk.sway.swaymsg(["fullscreen", "disable"])
    try waitUntil("the held toast on screen") {
      try presenter.dispatch(timeout: .milliseconds(50))
      return try desk.sway.screenshot().boundingBox(of: Self.magenta, tolerance: 2)
        == Self.box("Later")
    }
    presenter.doNotDisturb = .on
    #expect(try presenter.runUntilHidden() == .suppressed)
    #expect(presenter.show(Toast("Mail")) == [.suppressed])
    #expect(!presenter.isPresenting)
    #expect(try presenter.runUntilHidden() == .suppressed)
  }

  @Test func aToastForAnotherOutputShowsAtOnce() throws {
    let desk = try deskWithOwnRuntime()
    let flower = try Self.fullscreenFlower(on: desk)
    defer { flower.terminate() }
    let second = try desk.sway.addOutput(x: 1280)
    #expect(
      try desk.runToEnd(
        Self.opaque + ["--tag", "other", "--output", second, "--fullscreen", "delay", "There"]
      ).status == 0)
    try waitUntil("the toast on \(second)") {
      try desk.sway.screenshot(output: second).boundingBox(of: Self.magenta, tolerance: 2)
        == Self.box("There")
    }
    // One for the fullscreen output, and one for the compositor's choice
    // (the focused output, where the fullscreen window is), wait.
    for arguments in [["--output", "HEADLESS-1"], []] {
      #expect(
        try desk.runToEnd(Self.opaque + ["--fullscreen", "delay"] + arguments + ["Here"]).status
          == 0)
      let held = try #require(try desk.status())
      #expect(held.text == "Here" && held.drawn.isEmpty, "\(arguments): \(held)")
    }
    #expect(try desk.waitUntilDrawn(tag: "other").first?.output == second)
  }
}
