import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastRendering

/// No content can end the owner or other toasts, no command waits without end,
/// and the owner checks exactly what the command checks.
@Suite(.serialized)
struct HardeningTests {

  /// The bytes of the owner's shared-memory buffers now mapped, by /proc/PID/maps.
  static func bufferBytes(of owner: Int32) -> [Int] {
    guard let maps = readFile("/proc/\(owner)/maps") else { return [] }
    return String(decoding: maps, as: UTF8.self).split(separator: "\n")
      .filter { $0.contains("/memfd:wl-toast-shm") }
      .compactMap { line -> Int? in
        let range = line.split(separator: " ")[0].split(separator: "-")
        guard range.count == 2, let start = Int(range[0], radix: 16),
          let end = Int(range[1], radix: 16)
        else { return nil }
        return end - start
      }
  }

  @Test func aHugeFontEndsNeitherTheOwnerNorOtherToasts() throws {
    let desk = try Desk<HeadlessSway>()
    let waiting = try desk.run(["--wait", "--tag", "keep", "--timeout", "0", "Keep"])
    try waitUntil("the first toast to show") { try desk.status(tag: "keep") != nil }
    let owner = try #require(try desk.status(tag: "keep")).owner
    // Markup, a font option and a follow line, each absurdly large.
    let markup = try desk.runToEnd([
      "--tag", "m", "--no-animation", "--timeout", "0", "--markup",
      "<span size=\"1000000000\">x</span>",
    ])
    #expect(markup.status == 0, "\(markup.errors)")
    let font = try desk.runToEnd([
      "--tag", "f", "--no-animation", "--timeout", "0", "--style", "banner", "--font",
      "Sans 400000", "Huge",
    ])
    #expect(font.status == 0, "\(font.errors)")
    let follow = try desk.runToEnd(
      ["--tag", "l", "--follow", "--markup", "--timeout", "0"],
      stdin: "<span size=\"1000000000\">big</span>\n")
    #expect(follow.status == 0, "\(follow.errors)")
    try desk.sway.swaymsg(["output", "HEADLESS-1", "scale", "2"])
    for tag in ["keep", "m", "f", "l"] {
      #expect(try desk.status(tag: tag)?.owner == owner, "\(tag) still shown by the same owner")
    }
    #expect(waiting.isRunning, "the waiting command still waits")
    // The huge HUD is on screen, inside the output; the buffers are the output's size at most.
    let shot = try desk.screenshot("the huge HUD") {
      $0.brightPixels(in: Box(x: 0, y: 0, width: 1280, height: 720), than: hudColor) > 1000
    }
    let box = try #require(shot.boundingBox(of: hudColor, tolerance: 3))
    #expect(box.x >= 0 && box.y >= 0 && box.x + box.width <= 1280 && box.y + box.height <= 720)
    let largest = Self.bufferBytes(of: owner).max() ?? 0
    #expect(largest > 0 && largest <= 1280 * 2 * 720 * 2 * 4, "largest buffer \(largest) bytes")
    #expect(try desk.runToEnd(["hide", "--tag", "keep"]).status == 0)
    #expect(waiting.wait(timeout: 5) == 0)
    // Later toasts in the same font are still drawn (no font face was broken).
    for tag in ["m", "f", "l"] { #expect(try desk.runToEnd(["hide", "--tag", tag]).status == 0) }
    try desk.sway.swaymsg(["output", "HEADLESS-1", "scale", "1"])
    #expect(
      try desk.runToEnd(["--tag", "n", "--no-animation", "--timeout", "0", "Normal"]).status == 0)
    let normal = Looks.hudBox(Toast("Normal"))
    try desk.screenshot("the next toast with its text") {
      $0.boundingBox(of: hudColor, tolerance: 3) == normal
        && $0.brightPixels(in: normal.insetBy(10), than: hudColor) > 50
    }
  }

  @Test func commandsGiveUpOnAStoppedOwnerAndTheirToastsNeverShow() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--tag", "t", "--timeout", "0", "Before"]).status == 0)
    let owner = try #require(try desk.status(tag: "t")).owner
    kill(owner, SIGSTOP)
    // More commands than the owner's backlog holds: every one ends, in bounded time.
    let started = now()
    let commands = try (0..<80).map { number in
      try desk.run(
        ["--tag", "t", "--timeout", "0", "Late \(number)"],
        logPath: desk.sway.runtimeDirectory + "/late-\(number).log")
    }
    for (number, command) in commands.enumerated() {
      #expect(command.wait(timeout: 30) == 1, "command \(number) gave up with status 1")
      let errors = readFile(desk.sway.runtimeDirectory + "/late-\(number).log").map {
        String(decoding: $0, as: UTF8.self)
      }
      #expect(errors?.split(separator: "\n").count == 1, "one line: \(errors ?? "")")
    }
    #expect(now() - started < 25, "the hand-over is bounded (10 s)")
    kill(owner, SIGCONT)
    // The owner catches up: none of the abandoned toasts is shown.
    #expect(try desk.runToEnd(["--tag", "other", "--timeout", "0", "After"]).status == 0)
    #expect(try desk.status(tag: "t")?.text == "Before")
    #expect(try desk.status(tag: "t")?.owner == owner)
  }

  @Test func aStoppedCompositorEndsEachProgramWithOneLineAfterFiveSeconds() throws {
    let desk = try Desk<HeadlessSway>()
    desk.sway.pause()
    defer { desk.sway.resume() }
    // Its sockets take connections into their backlogs; nothing answers on
    // them. First the toast's owner and the nag wait for the Wayland
    // handshake, the watcher for its IPC subscription. Then, the backlogs
    // full (sway's IPC socket takes 3, its Wayland socket 128: clients tried
    // it for a while), the daemon, the nag and the watcher wait to connect.
    // The daemon comes after the toast's owner has gone (one owner a display).
    var queued: [QueuedConnections] = []
    let groups = [
      [["--timeout", "0", "Saved"], ["nag", "-m", "Hi"], ["watch", "sway"]],
      [["daemon"], ["nag", "-m", "Hi"], ["watch", "sway"]],
    ]
    for (round, group) in groups.enumerated() {
      if round == 1 {
        queued = [desk.sway.ipcSocketPath, desk.sway.socketPath].map {
          QueuedConnections(toSocketAt: $0)
        }
        #expect(queued.map(\.filledBacklog) == [true, true], "both backlogs full")
      }
      let started = now()
      let runs = try group.map { arguments in
        let log = desk.sway.runtimeDirectory + "/stopped-\(round)-\(arguments[0]).log"
        return (arguments, log, try desk.run(arguments, logPath: log))
      }
      for (arguments, log, run) in runs {
        #expect(run.wait(timeout: 30) == 1, "\(arguments) ends with status 1")
        let errors = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
        let lines = errors.split(separator: "\n")
        #expect(lines.count == 1, "\(arguments): one line: \(errors)")
        #expect(
          errors.contains("did not answer") && errors.contains("in 5 s; is it stopped or hung?"),
          "\(arguments): \(errors)")
      }
      let waited = now() - started
      #expect(waited >= 5 && waited < 25, "\(group): given up on after \(waited) s")
    }
    for connections in queued { connections.close() }
    desk.sway.resume()
    // The compositor goes on, and so do the next toasts.
    #expect(try desk.runToEnd(["--tag", "after", "--timeout", "0", "After"]).status == 0)
    #expect(try desk.status(tag: "after")?.text == "After")
  }

  @Test func theOwnerRefusesOnTheWireWhatTheCommandRefuses() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--tag", "a", "--timeout", "0", "Intact"]).status == 0)
    let surfaces = try #require(try desk.status(tag: "a")).surfaces
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    let fd = try connectToOwner(rendezvous)
    defer { close(fd) }
    let toast = #"{"text":"x"}"#
    for (message, reason) in [
      (#"{"v":1,"op":"show","tag":"\u001b[31mred\u0007\n","toast":\#(toast)}"#, "tag: expected"),
      (#"{"v":1,"op":"show","tag":"a","wait":"yes","toast":\#(toast)}"#, "wait: expected true"),
      (#"{"v":1,"op":"show","tag":"a","colour":1,"toast":\#(toast)}"#, "unknown field 'colour'"),
      (#"{"v":1,"op":"show","tag":"a","toast":{"text":"x","modal":"yes"}}"#, "modal: expected"),
    ] {
      let answer = try exchangeRaw(Array(message.utf8), on: fd)
      #expect(answer.contains("\"ok\":false") && answer.contains(reason), "\(answer)")
    }
    #expect(try desk.status(tag: "a")?.surfaces == surfaces, "no surface was made")
    #expect(try desk.status(tag: "a")?.text == "Intact")
    // Text is cut as the command cuts it: 4096 scalars, the ellipsis included.
    let long = String(repeating: "y", count: 5000)
    let show = #"{"v":1,"op":"show","tag":"a","toast":{"text":"\#(long)"}}"#
    #expect(try exchangeRaw(Array(show.utf8), on: fd).contains("\"ok\":true"))
    let shown = try #require(try desk.status(tag: "a")?.text)
    #expect(shown.unicodeScalars.count == Toast.Limits.textLength && shown.hasSuffix("…"))
  }

  @Test func anIdleConnectionDoesNotKeepTheOwner() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(
      try desk.runToEnd(["--linger", "0", "--timeout", "0", "--no-animation", "Brief"]).status
        == 0)
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    let idle = try connectToOwner(rendezvous)
    defer { close(idle) }
    // The toast goes; the connection never sends; the owner still leaves.
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("the owner to leave despite an idle connection", timeout: 20) {
      desk.ownerProcesses().isEmpty
    }
    var buffer = [UInt8](repeating: 0, count: 16)
    #expect(recv(idle, &buffer, buffer.count, 0) == 0, "the owner closed the idle connection")
  }

  /// A command that connects as the owner's linger ends is served by that
  /// owner. The owner is stopped past its linger's end and the command
  /// connects meanwhile, so that the linger's timer and the connection are
  /// ready in the same wake-up: the owner takes the command instead of
  /// telling it that it stopped.
  @Test func aCommandConnectingAsTheLingerEndsIsServed() throws {
    let desk = try Desk<HeadlessSway>()
    let shown = try desk.runToEnd([
      "--linger", "5", "--tag", "t", "--timeout", "0", "--no-animation", "Before",
    ])
    #expect(shown.status == 0, "\(shown.errors)")
    let owner = try #require(try desk.status(tag: "t")).owner
    #expect(try desk.runToEnd(["hide", "--tag", "t"]).status == 0)
    try waitUntil("the toast gone") { try desk.status(tag: "t") == nil }
    // The last connection's end seen: the linger's 5 s run.
    try waitUntilSettled(owner)
    kill(owner, SIGSTOP)
    // Time passing is what is measured: the linger ends while the owner is stopped.
    pause(for: .seconds(5.5))
    let fd = try connectToOwner(try Rendezvous(display: desk.sway.socketPath))
    defer { close(fd) }
    try sendRaw(Array(#"{"v":1,"op":"show","tag":"u","toast":{"text":"After"}}"#.utf8), on: fd)
    kill(owner, SIGCONT)
    let reply = try receiveRaw(on: fd)
    #expect(reply.contains("\"ok\":true"), "\(reply)")
    #expect(try desk.status(tag: "u")?.owner == owner, "the same owner shows it")
    #expect(try desk.runToEnd(["hide", "--tag", "u"]).status == 0)
  }

  @Test func aConnectionLeftOpenAfterItsRequestDoesNotKeepTheOwner() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--linger", "0", "--timeout", "0", "Shown"]).status == 0)
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    let open = try connectToOwner(rendezvous)
    defer { close(open) }
    let status = Array(#"{"op":"status","tag":"default","v":1}"#.utf8)
    #expect(try exchangeRaw(status, on: open).contains("Shown"))
    // The toast is hidden; the connection stays open, asking nothing more
    // (unlike a watcher's, which said `hold`): the owner still leaves.
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("the owner to leave despite a connection left open", timeout: 20) {
      desk.ownerProcesses().isEmpty
    }
  }

  @Test func aLingerTooSmallForItsDescriptionStillStartsTheOwner() throws {
    let desk = try Desk<HeadlessSway>()
    // 0.00001 reads as "1e-05" in Swift's description; the owner's line takes it plainly.
    let result = try desk.runToEnd([
      "--linger", "0.00001", "--no-animation", "--timeout", "0", "Tiny linger",
    ])
    #expect(result.status == 0, "\(result.errors)")
    #expect(try desk.status()?.text == "Tiny linger")
  }

  @Test(arguments: [
    // A closed descriptor, and standard input (/dev/null): neither is a listening socket.
    (["99", "1", "1", "-1"], ExitCode.error, "serve: descriptor 99 is not a listening socket"),
    (["0", "1", "1", "-1"], ExitCode.error, "serve: descriptor 0 is not a listening socket"),
    // A linger the command would refuse: the owner refuses it too, rather than idling forever.
    (["99", "1", "nan", "-1"], ExitCode.usage, "serve: --linger: expected seconds from 0 to 60"),
    (["99", "1", "-1", "-1"], ExitCode.usage, "serve: --linger: expected seconds from 0 to 60"),
    (["99", "1", "inf", "-1"], ExitCode.usage, "serve: --linger: expected seconds from 0 to 60"),
    (["x", "1", "1", "-1"], ExitCode.usage, "serve: expected LISTEN-FD INODE LINGER|resident"),
  ])
  func anOwnerWithBadArgumentsSaysWhyInOneLine(
    arguments: [String], status: Int32, message: String
  ) throws {
    let result = try CommandRunner().runToEnd(
      Run(["serve"] + arguments, program: builtProduct("wl-toast-owner")), timeout: 5)
    #expect(result.status == status)
    let lines = (result.output + result.errors).split(separator: "\n")
    #expect(lines.count == 1 && lines[0].hasPrefix("wl-toast-owner: " + message), "\(lines)")
  }

  @Test func theOwnerKeepsNoDirectoryAndLeavesNoFiles() throws {
    let desk = try Desk<HeadlessSway>()
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-cwd")
    defer { removeTree(directory) }
    let started = try desk.runToEnd(
      Run(
        ["--linger", "0", "--timeout", "0", "--no-animation", "Here"], directory: directory),
      timeout: 30)
    #expect(started.status == 0, "\(started.errors)")
    let owner = try #require(desk.ownerProcesses().first)
    #expect(readLink("/proc/\(owner)/cwd") == "/")
    // Once it has gone, neither its socket nor its lock file is left.
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("the owner to leave", timeout: 10) { desk.ownerProcesses().isEmpty }
    #expect(access(rendezvous.socketPath, F_OK) != 0, "no socket left")
    #expect(access(rendezvous.lockPath, F_OK) != 0, "no lock file left")
  }

  @Test func aZeroUmaskDoesNotLockTheUserOut() throws {
    let desk = try Desk<HeadlessSway>()
    let runtime = try makeTemporaryDirectory(prefix: "wl-toast-umask")
    defer { removeTree(runtime) }
    var environment = desk.environment
    environment["XDG_RUNTIME_DIR"] = runtime
    let result = try desk.runToEnd(
      Run(
        ["--linger", "0", "--timeout", "0.2", "--no-animation", "Masked"],
        environment: environment, umask: 0o777), timeout: 30)
    #expect(result.status == 0, "\(result.errors)")
    var info = stat()
    #expect(stat(runtime + "/wl-toast", &info) == 0)
    #expect(info.st_mode & 0o777 == 0o700, "the directory is 0700 whatever the umask")
    let second = try desk.runToEnd(
      Run(
        ["--linger", "0", "--timeout", "0.2", "--no-animation", "Again"], environment: environment),
      timeout: 30)
    #expect(second.status == 0, "\(second.errors)")
  }

  @Test func writingToAFullDiskIsAnError() throws {
    let desk = try Desk<HeadlessSway>()
    let version = try desk.runToEnd(Run(["--version"], stdout: .devFull))
    #expect(version.status == 1)
    #expect(
      version.errors == "wl-toast: cannot write to standard output: No space left on device\n")
    let outcome = try desk.runToEnd(
      Run(
        ["--print-outcome", "--timeout", "0.1", "--no-animation", "Out"], stdout: .devFull))
    #expect(outcome.status == 1)
    #expect(outcome.errors.hasPrefix("wl-toast: cannot write to standard output"))
  }

  @Test func aRemovedSocketNeverLeadsToASecondOwner() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--tag", "a", "--timeout", "0", "First"]).status == 0)
    let owner = try #require(desk.ownerProcesses().first)
    // Someone removes the owner's socket; the owner still holds the election.
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    #expect(unlink(rendezvous.socketPath) == 0)
    let second = try desk.runToEnd(["--tag", "b", "--timeout", "0", "Second"])
    #expect(second.status == 1)
    #expect(second.errors.split(separator: "\n").count == 1, "\(second.errors)")
    #expect(desk.ownerProcesses() == [owner], "still one owner")
    kill(owner, SIGTERM)
    try waitUntil("the owner to end on SIGTERM") { desk.ownerProcesses().isEmpty }
    // With the owner gone the next command becomes the owner as usual.
    #expect(try desk.runToEnd(["--tag", "c", "--timeout", "0", "Third"]).status == 0)
  }
}
