import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// `wl-toast watch audio` on headless sway, a client of a sound server of the
/// test's own (PulseAudio, and PipeWire's PulseAudio server) with two outputs,
/// Speakers and Headphones, and a microphone: every change `pactl` makes
/// shows as the volume HUD, one toast updated in place; the server killed
/// and started again, the next change shows; a server that speaks nonsense
/// or stalls costs one line, and the watcher still ends on SIGTERM.
///
/// The desk's configuration gives the watcher's preset (`[preset volume]`)
/// no timeout and no animation, so that each toast stays for its screenshot
/// on a loaded machine; the watcher's own text, bar and icon are what show.
@Suite(.serialized)
struct WatchAudioTests {
  /// A desk with its own runtime directory and the watcher's preset, the
  /// watcher running on `server`; its log.
  final class Rig {
    let server: SoundServer
    let desk: Desk<HeadlessSway>
    let watcher: ChildProcess
    let log: String
    private let configHome: String?

    /// With `staying`, the watcher's preset keeps each toast without
    /// animation until the next; without, the watcher's own looks apply.
    init(_ kind: SoundServer.Kind = .pulseAudio, staying: Bool = true) throws {
      server = try SoundServer(kind, devices: .speakersAndHeadphones)
      desk = try deskWithOwnRuntime()
      configHome = staying ? try volumeHUDConfigHome() : nil
      if let configHome { desk.environment["XDG_CONFIG_HOME"] = configHome }
      (watcher, log) = try desk.watchAudio(on: server)
    }

    deinit {
      watcher.terminate()
      if let configHome { removeTree(configHome) }
    }

    /// What the watcher wrote.
    var lines: [Substring] {
      String(decoding: readFile(log) ?? [], as: UTF8.self).split(separator: "\n")
    }

    /// The volume toast's status; nil when none shows.
    func shown() throws -> ToastStatus? { try desk.status(tag: "volume") }

    /// Sets the default output's volume, to `percents` in turn, until the
    /// watcher shows it: it is connected, and has its baseline, once it
    /// does. `percents` are two values no toast has shown yet.
    func waitForWatcher(
      _ what: String = "the watcher to show a volume change", percents: (Int, Int) = (41, 42)
    ) throws {
      var percent = percents.0
      try waitUntil(what, timeout: 30) {
        guard watcher.isRunning else { throw HarnessError("the watcher ended: \(lines)") }
        percent = percent == percents.0 ? percents.1 : percents.0
        try server.control(["set-sink-volume", "@DEFAULT_SINK@", "\(percent)%"])
        return try shown()?.text == "Volume \(percent)%"
      }
    }

    /// Runs `pactl` and waits until the volume toast says `text`.
    /// Runs `pactl` with `arguments` and waits until the volume toast says
    /// `text`; returns the toast's status that said it.
    @discardableResult
    func change(_ arguments: [String], shows text: String) throws -> ToastStatus {
      try server.control(arguments)
      return try expectShown(text, "after pactl \(arguments.joined(separator: " "))")
    }

    /// Makes `sink` the default and waits until the server says it is (on
    /// PipeWire its policy daemon decides, a round trip later, and a loaded
    /// machine may take seconds), then until the volume toast says `text`.
    func changeDefaultSink(to sink: String, shows text: String) throws {
      try server.control(["set-default-sink", sink])
      try waitUntil("the sound server's default sink to be \(sink)", timeout: 30) {
        try server.pactl(["get-default-sink"]).output == sink + "\n"
      }
      try expectShown(text, "after the default sink became \(sink)")
    }

    /// Waits until the volume toast says `text`; returns its status then.
    @discardableResult
    func expectShown(_ text: String, _ when: String) throws -> ToastStatus {
      var seen: ToastStatus?
      try waitUntil(
        "'\(text)' \(when) (last: \(seen?.text ?? "nothing"); the watcher said: \(lines))"
      ) {
        seen = try shown()
        return seen?.text == text
      }
      return try #require(seen)
    }

    /// Waits until the screen shows `toast` as the offscreen rendering does
    /// (fewer than ``tolerance`` pixels differ); returns that screenshot.
    @discardableResult
    func expectOnScreen(_ toast: Toast) throws -> Image {
      var seen = "nothing"
      var shown: Image?
      try waitUntil("'\(toast.text)' on screen as rendered (last: \(seen))", timeout: 10) {
        let box = Looks.hudBox(toast)
        let shot = try desk.sway.screenshot(
          x: box.x, y: box.y, width: box.width, height: box.height)
        let found = shot.boundingBox(of: Looks.hudColor(HeadlessSway.self), tolerance: 3)
        let wrong = WatchAudioTests.mismatches(shot, toast)
        seen = "box \(lastSeen(found)), \(wrong) pixels unlike it"
        shown = shot
        return found != nil && wrong < WatchAudioTests.tolerance
      }
      return shown!
    }
  }

  /// Pixels that may differ between a screenshot and the rendering.
  static let tolerance = 10

  /// How many pixels of `shot` (of the box where `toast` rests) differ from
  /// its offscreen rendering.
  static func mismatches(_ shot: Image, _ toast: Toast) -> Int {
    let box = Looks.hudBox(toast)
    let reference = composited(toast, over: HeadlessSway.background)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    return shot.mismatches(
      in: Box(x: 0, y: 0, width: box.width, height: box.height), from: reference.blend,
      origin: (x: -Int(layout.box.x), y: -Int(layout.box.y)))
  }

  /// The volume HUD as the watcher draws it: `text`, the bar, the icon.
  static func hud(_ text: String, progress: Double, icon: String) -> Toast {
    var toast = Toast(text, timeout: 0, progress: progress)
    toast.icon = icon
    toast.isAnimated = false
    return toast
  }

  @Test func eachChangeOfTheDefaultOutputShowsTheVolumeHUD() throws {
    let rig = try Rig()
    // Connected and settled: nothing shows for the state found at start.
    try waitUntil("the watcher to be the server's client") {
      try rig.server.pactl(["list", "clients"]).output.contains("application.name = \"wl-toast\"")
    }
    try waitUntilSettled(rig.watcher.pid)
    #expect(try rig.shown() == nil, "no toast at start")
    try rig.waitForWatcher()

    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "40%"], shows: "Volume 40%")
    let forty = try #require(try rig.shown())
    #expect(forty.progress == 40)
    #expect(forty.json["toast"]?["icon"]?.stringValue == "audio-volume-medium-symbolic")
    let shot = try rig.expectOnScreen(
      Self.hud("Volume 40%", progress: 0.4, icon: "audio-volume-medium-symbolic"))
    // The comparison tells the icons and the bars apart.
    for unlike in [
      Self.hud("Volume 40%", progress: 0.4, icon: "audio-volume-high-symbolic"),
      Self.hud("Volume 40%", progress: 0.42, icon: "audio-volume-medium-symbolic"),
    ] {
      let wrong = Self.mismatches(shot, unlike)
      #expect(
        wrong >= Self.tolerance * 2, "\(wrong) pixels unlike \(unlike.icon!) at \(unlike.progress!)"
      )
    }

    // Above 100 %: the bar's overflow.
    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "130%"], shows: "Volume 130%")
    #expect(try rig.shown()?.progress == 130)
    try rig.expectOnScreen(
      Self.hud("Volume 130%", progress: 1.3, icon: "audio-volume-high-symbolic"))

    try rig.change(["set-sink-mute", "@DEFAULT_SINK@", "1"], shows: "Muted")
    try rig.expectOnScreen(Self.hud("Muted", progress: 1.3, icon: "audio-volume-muted-symbolic"))

    // Another output: named by its description, with its own level.
    try rig.changeDefaultSink(to: "headphones", shows: "Headphones")
    #expect(try rig.shown()?.progress == 100)
    try rig.expectOnScreen(Self.hud("Headphones", progress: 1, icon: "audio-volume-high-symbolic"))

    // The microphone's mute.
    try rig.change(["set-source-mute", "@DEFAULT_SOURCE@", "1"], shows: "Microphone muted")
    #expect(
      try rig.shown()?.json["toast"]?["icon"]?.stringValue
        == "microphone-sensitivity-muted-symbolic")
    try rig.change(["set-source-mute", "@DEFAULT_SOURCE@", "0"], shows: "Microphone on")

    // Do-not-disturb does not hold it back; `hide` knows its tag.
    #expect(try rig.desk.runToEnd(["dnd", "on"]).output == "on\n")
    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "55%"], shows: "Volume 55%")
    #expect(try rig.desk.runToEnd(["hide", "--tag", "volume"]).status == 0)
    try waitUntil("the volume toast hidden") { try rig.shown() == nil }
    #expect(try rig.desk.runToEnd(["dnd", "off"]).output == "off\n")

    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "60%"], shows: "Volume 60%")
    #expect(try rig.shown()?.surfaces == 2, "one toast updated in place, then one after the hide")
    #expect(rig.lines.isEmpty, "\(rig.lines)")

    // Nothing changes: the watcher does not wake.
    try expectIdle(rig.watcher.pid)
  }

  @Test func withoutAPresetTheHUDGoesAwayByItself() throws {
    let rig = try Rig(staying: false)
    try rig.waitForWatcher()
    let shown = try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "40%"], shows: "Volume 40%")
    #expect(shown.json["toast"]?["timeout"]?.doubleValue == 1.5)
    try waitUntil("the HUD to go after its timeout", timeout: 10) { try rig.shown() == nil }
  }

  @Test func aBurstOfTwentyChangesUpdatesOneSurface() throws {
    let rig = try Rig()
    try rig.waitForWatcher()
    try rig.server.control(["set-sink-volume", "@DEFAULT_SINK@", "20%"])
    for _ in 0..<20 { try rig.server.control(["set-sink-volume", "@DEFAULT_SINK@", "+1%"]) }
    try rig.expectShown("Volume 40%", "after the burst")
    let status = try #require(try rig.shown())
    #expect(status.surfaces == 1, "one surface for the whole burst")
    #expect(status.progress == 40)
    #expect(rig.desk.ownerProcesses().filter { $0 != rig.watcher.pid }.count == 1)
  }

  @Test func theWatchEndsWithTheCompositor() throws {
    let desk = try Desk<HeadlessSway>()
    desk.environment.merge(SoundServer.absentEnvironment) { $1 }
    let log = desk.scratch("watch-audio") + ".log"
    let watcher = try desk.run(["watch", "audio", "backlight"], logPath: log)
    defer { watcher.terminate() }
    func written() -> String { String(decoding: readFile(log) ?? [], as: UTF8.self) }
    // The line about the absent sound server comes once the watch runs.
    try waitUntil("the watch to run (\(log))", timeout: 20) {
      guard watcher.isRunning else { throw HarnessError("the watch ended: \(written())") }
      return written().contains("watch audio:")
    }
    desk.sway.stop()
    #expect(watcher.wait(timeout: 20) == 0, "the watch ends, as it should, with the compositor")
  }

  @Test func theNextChangeAfterTheServerCameBackShows() throws {
    let rig = try Rig()
    try rig.waitForWatcher()
    rig.server.kill()
    try waitUntil("the watcher's line about the server gone") { !rig.lines.isEmpty }
    try rig.server.restart()
    // The watcher tries again on its timer: the changes show once it is back.
    try rig.waitForWatcher("a change to show after the server came back", percents: (43, 44))
    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "40%"], shows: "Volume 40%")
    #expect(rig.lines.count == 1, "one line: \(rig.lines)")
    #expect(rig.lines.first?.hasPrefix("wl-toast: watch audio: ") == true, "\(rig.lines)")
    #expect(rig.watcher.isRunning)
  }

  @Test(arguments: [HostileSoundServer.Mode.garbage, .hugeFrame, .stall])
  func aServerSpeakingNonsenseCostsOneLineAndTheWatcherEndsOnSIGTERM(
    _ mode: HostileSoundServer.Mode
  ) throws {
    let hostile = try HostileSoundServer(mode)
    let desk = try deskWithOwnRuntime()
    desk.environment.merge(hostile.clientEnvironment) { $1 }
    let log = desk.scratch("watch-audio") + ".log"
    let watcher = try desk.run(["watch", "audio"], logPath: log)
    defer { watcher.terminate() }
    func lines() -> [Substring] {
      String(decoding: readFile(log) ?? [], as: UTF8.self).split(separator: "\n")
    }
    let started = MonotonicTime.now
    // Given up on and tried again (a stall after the watcher's 5 s), each
    // time after a longer wait: 0.25 s, 0.5 s, 1 s.
    let attempts = mode == .stall ? 2 : 4
    try waitUntil("the watcher to try again (\(mode))", timeout: 30) {
      guard watcher.isRunning else { throw HarnessError("the watcher ended: \(lines())") }
      return hostile.connections >= attempts
    }
    let waited = (MonotonicTime.now - started).inSeconds
    #expect(waited >= (mode == .stall ? 5.25 : 1.75), "\(attempts) attempts after \(waited) s")
    #expect(lines().count == 1, "one line: \(lines())")
    let expected =
      mode == .stall
      ? "wl-toast: watch audio: no answer from the sound server within 5 s; trying again in 0.25 s"
      : "wl-toast: watch audio: the sound server: "
    #expect(lines().first?.hasPrefix(expected) == true, "\(lines())")
    #expect(try desk.status(tag: "volume") == nil)
    kill(watcher.pid, SIGTERM)
    #expect(watcher.wait(timeout: 10) == 0, "\(lines())")
  }

  @Test func onPipeWireEachChangeShowsAndTheNextAfterARestart() throws {
    let rig = try Rig(.pipeWire)
    try rig.waitForWatcher()
    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "40%"], shows: "Volume 40%")
    try rig.expectOnScreen(
      Self.hud("Volume 40%", progress: 0.4, icon: "audio-volume-medium-symbolic"))
    try rig.change(["set-sink-volume", "@DEFAULT_SINK@", "130%"], shows: "Volume 130%")
    try rig.change(["set-sink-mute", "@DEFAULT_SINK@", "1"], shows: "Muted")
    try rig.changeDefaultSink(to: "headphones", shows: "Headphones")
    try rig.server.control(["set-sink-volume", "@DEFAULT_SINK@", "20%"])
    for _ in 0..<20 { try rig.server.control(["set-sink-volume", "@DEFAULT_SINK@", "+1%"]) }
    try rig.expectShown("Volume 40%", "after the burst")
    #expect(try rig.shown()?.surfaces == 1, "one surface for every change")
    rig.server.kill()
    try waitUntil("the watcher's line about the server gone") { !rig.lines.isEmpty }
    try rig.server.restart()
    try rig.waitForWatcher("a change to show after PipeWire came back", percents: (43, 44))
    #expect(rig.lines.count == 1, "one line: \(rig.lines)")
  }
}
