import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastModel
import ToastRendering

@testable import Watchers

/// `wl-toast watch backlight` on a headless sway, with backlight devices of
/// umockdev's test bed (``BacklightBed``).
@Suite(.serialized)
struct WatchBacklightTests {
  /// A desk (its do-not-disturb state private), a bed with `devices`, and
  /// `watch backlight` seeing the bed: the display's owner started first,
  /// without umockdev's preload, as a user's would be; the HUD stays until
  /// hidden (`[preset brightness]`), so that a loaded machine cannot miss it.
  final class Fixture {
    let desk: Desk<HeadlessSway>
    let bed: BacklightBed
    let watcher: ChildProcess
    let log: String

    init(devices: [(String, KeyValuePairs<String, String>)]) throws {
      desk = try Desk<HeadlessSway>()
      let runtime = desk.sway.runtimeDirectory + "/user-runtime"
      #expect(mkdir(runtime, 0o700) == 0)
      desk.environment["XDG_RUNTIME_DIR"] = runtime
      bed = try BacklightBed(logDirectory: desk.sway.runtimeDirectory)
      for (name, attributes) in devices { try bed.add(name, attributes) }
      let config = desk.sway.runtimeDirectory + "/watch-config"
      try makeConfigHome(at: config, config: "[preset brightness]\ntimeout = 0\n")
      let setup = try desk.runToEnd([
        "--style", "banner", "--tag", "setup", "--timeout", "0", "Setup",
      ])
      #expect(setup.status == 0, "\(setup.errors)")
      log = desk.scratch("watch-backlight") + ".log"
      var environment = desk.environment.merging(bed.clientEnvironment) { $1 }
      environment["XDG_CONFIG_HOME"] = config
      watcher = try desk.start(
        Run(
          ["watch", "backlight"], environment: environment, stdout: .file(log), stderr: .file(log)))
    }

    deinit { watcher.terminate() }

    /// What the watcher wrote.
    var errors: String { readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? "" }

    /// Sets `name`'s brightness to 29 and 30 until the HUD shows 30 %: the
    /// watcher listens from a moment not observable from outside, and the
    /// level it finds at start is no change.
    func waitUntilListening(_ name: String) throws {
      var seen: String?
      try waitUntil("the HUD at 30 % (last seen: \(lastSeen(seen)))", timeout: 20) {
        #expect(watcher.isRunning, "\(errors)")
        try bed.set(name, "brightness", "29")
        try bed.set(name, "brightness", "30")
        seen = try desk.status(tag: "brightness")?.text
        return seen == "Brightness 30%"
      }
    }

    /// Waits until the HUD shows `percent`, by `status`.
    func waitForHUD(_ percent: Int) throws -> ToastStatus {
      var status: ToastStatus?
      try waitUntil(
        "the HUD at \(percent) % (last seen: \(lastSeen(status?.text)))",
        timeout: desk.compositor.patience
      ) {
        status = try desk.status(tag: "brightness")
        return status?.text == "Brightness \(percent)%"
      }
      return status!
    }

    /// Waits until the screen shows the HUD of `level` as an offscreen
    /// rendering of it does.
    func waitForPicture(_ brightness: UInt64, of maximum: UInt64) throws {
      let toast = BacklightState.toast(.init(brightness: brightness, maximum: maximum))
      let box = Looks.hudBox(toast)
      let reference = composited(toast, over: HeadlessSway.background)
      let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
      let origin = (x: -Int(layout.box.x), y: -Int(layout.box.y))
      var seen = "nothing"
      try waitUntil(
        "the screen to show '\(toast.text)' (last: \(seen))", timeout: desk.compositor.patience
      ) {
        let shot = try desk.sway.screenshot(
          x: box.x, y: box.y, width: box.width, height: box.height)
        let found = shot.boundingBox(of: Looks.hudColor(HeadlessSway.self), tolerance: 3)
        let wrong = shot.mismatches(
          in: Box(x: 0, y: 0, width: box.width, height: box.height), from: reference.blend,
          origin: origin)
        seen = "box \(lastSeen(found)), \(wrong) pixels unlike it"
        return found != nil && wrong < 10
      }
    }
  }

  @Test func aChangeShowsTheHUDAtItsPercentageAndTheNextUpdatesIt() throws {
    let fixture = try Fixture(devices: [
      ("intel_backlight", ["brightness": "50", "max_brightness": "100", "type": "raw"])
    ])
    let desk = fixture.desk
    try fixture.waitUntilListening("intel_backlight")
    let first = try fixture.waitForHUD(30)
    #expect(first.progress == 30)
    // The owner the desk started, without the preload, serves the watcher
    // (the watcher's process is the owner's program too).
    #expect(desk.ownerProcesses().filter { $0 != fixture.watcher.pid } == [first.owner])
    #expect(
      !(readFile("/proc/\(first.owner)/environ") ?? []).split(separator: 0).contains {
        $0.starts(with: Array("LD_PRELOAD=".utf8))
      })
    #expect(try desk.runToEnd(["hide", "--tag", "setup"]).status == 0)
    try fixture.waitForPicture(30, of: 100)

    try fixture.bed.set("intel_backlight", "brightness", "70")
    let second = try fixture.waitForHUD(70)
    #expect(second.progress == 70)
    #expect(second.surfaces == first.surfaces, "updated in place, never a second surface")
    #expect(second.owner == first.owner)
    try fixture.waitForPicture(70, of: 100)

    // A held key: 20 changes in a burst end on the last, in the same surface.
    try fixture.bed.burst("intel_backlight", "brightness", (1...20).map { "\($0 * 4)" })
    let burst = try fixture.waitForHUD(80)
    #expect(burst.surfaces == first.surfaces, "updated in place, never a second surface")
    try fixture.waitForPicture(80, of: 100)

    // Nothing changes: the watcher does not wake.
    let watcher = fixture.watcher.pid
    try expectIdle(watcher)
    #expect(fixture.errors == "")
    kill(watcher, SIGTERM)
    #expect(fixture.watcher.wait(timeout: 10) == 0)
  }

  @Test func anUnreadableLevelIsOneLineAndTheWatchGoesOn() throws {
    let fixture = try Fixture(devices: [
      ("panel", ["brightness": "50", "max_brightness": "100"]),
      ("zero", ["brightness": "5", "max_brightness": "0"]),
      ("bare", ["brightness": "5"]),
    ])
    try fixture.waitUntilListening("panel")
    for value in ["6", "7", "8"] {
      try fixture.bed.set("zero", "brightness", value)
      try fixture.bed.set("bare", "brightness", value)
    }
    // The events come in order, but each reads the level as it is when the
    // watcher gets to it: the unreadable one is awaited before the next.
    try fixture.bed.set("panel", "brightness", "40")
    _ = try fixture.waitForHUD(40)
    try fixture.bed.set("panel", "brightness", "notanumber")
    try waitUntil("the line about the panel's level") {
      fixture.errors.contains("panel: brightness is not a number")
    }
    try fixture.bed.set("panel", "brightness", "60")
    // Once 60 % shows, the devices' events before it were handled.
    _ = try fixture.waitForHUD(60)
    let lines = fixture.errors.split(separator: "\n")
    #expect(
      lines == [
        "wl-toast: watch backlight: zero: max_brightness is 0; its changes show once it can be read",
        "wl-toast: watch backlight: bare: max_brightness is missing or unreadable;"
          + " its changes show once it can be read",
        "wl-toast: watch backlight: panel: brightness is not a number (\"notanumber\");"
          + " its changes show once it can be read",
      ], "\(fixture.errors)")
    #expect(fixture.watcher.isRunning)
    kill(fixture.watcher.pid, SIGTERM)
    #expect(fixture.watcher.wait(timeout: 10) == 0)
  }

  @Test func withNoDeviceAtStartADeviceAddedLaterIsFollowed() throws {
    let fixture = try Fixture(devices: [])
    try fixture.bed.add("first", ["brightness": "50", "max_brightness": "100"])
    try fixture.waitUntilListening("first")
    // Listening now: this device comes with an `add` event, its baseline.
    try fixture.bed.add("late", ["brightness": "2", "max_brightness": "10"])
    // Do-not-disturb does not hold the HUD back.
    #expect(try fixture.desk.runToEnd(["dnd", "on"]).output == "on\n")
    let held = try fixture.desk.runToEnd(["--wait", "--print-outcome", "--tag", "held", "Held"])
    #expect(held.output == "suppressed\n", "a script's toast is held back")
    try fixture.bed.set("late", "brightness", "8")
    #expect(try fixture.waitForHUD(80).progress == 80)
    try fixture.bed.remove("first")
    try fixture.bed.set("late", "brightness", "5")
    _ = try fixture.waitForHUD(50)
    #expect(fixture.errors == "")
    #expect(fixture.watcher.isRunning)
  }
}
