import Glibc
import TestSupport
import Testing
import ToastKit
import ToastProtocol
import ToastRendering
import Watchers

/// A watcher (`wl-toast watch sway`, `watch river`) on a desk, as a user meets
/// it beside a script's toasts: its mode banner is the display's owner's, in
/// one stack with a script's banner, known to `status` and `hide`, shown
/// through do-not-disturb, shown again by the next owner when the owner goes
/// away; the owner stays while the watcher runs, and the watcher wakes for
/// nothing while nothing changes.
package struct WatcherCase<Compositor: TestCompositor> {
  /// The desk, its commands' do-not-disturb state made private by ``run()``.
  package let desk: Desk<Compositor>
  /// The watcher's command line (`watch sway`).
  package let watch: [String]
  /// The tag of the mode banner (`sway-mode`).
  package let modeTag: String
  /// The mode's name, which its banner shows.
  package let mode: String
  /// Enters the mode (`swaymsg mode resize`).
  package let enterMode: () throws -> Void
  /// Leaves it.
  package let leaveMode: () throws -> Void

  /// A case for `desk`.
  package init(
    desk: Desk<Compositor>, watch: [String], modeTag: String, mode: String,
    enterMode: @escaping () throws -> Void, leaveMode: @escaping () throws -> Void
  ) {
    self.desk = desk
    self.watch = watch
    self.modeTag = modeTag
    self.mode = mode
    self.enterMode = enterMode
    self.leaveMode = leaveMode
  }

  /// A banner a script shows beside the mode's.
  static var script: String { "A script's banner" }

  /// The banners' pills on the first output, top to bottom.
  func pills() throws -> [Box] {
    let shot = try desk.compositor.screenshot(topRows: 200)
    let color = Looks.pillColor(Compositor.self)
    return Looks.boxes(in: shot) { x, y in shot.pixel(x: x, y: y).isClose(to: color, tolerance: 3) }
  }

  /// Takes screenshots until the pills are `expected` (logical pixels).
  func waitForPills(_ expected: [Box], _ what: String) throws {
    let boxes = expected.map { Looks.device($0, scale: desk.compositor.scale) }
    var seen: [Box] = []
    try waitUntil("\(what): pills at \(boxes) (last seen: \(seen))", timeout: 10) {
      seen = try pills()
      return seen == boxes
    }
  }

  /// `wl-toast status --tag TAG` read: the toast's JSON and the owner; nil
  /// when none shows.
  func status(_ tag: String) throws -> (toast: JSONValue, owner: Int32)? {
    try desk.statusLine(tag: tag).map { line in
      let report = try JSONValue.parse(line)
      return (report["toast"] ?? .null, Int32(report["owner"]?.doubleValue ?? 0))
    }
  }

  /// The owners serving the desk, but the watcher (the owner program too).
  func owners(besides watcher: ChildProcess) -> [Int32] {
    desk.ownerProcesses().filter { $0 != watcher.pid }
  }

  /// Runs the case.
  package func run() throws {
    let runtime = desk.compositor.runtimeDirectory + "/user-runtime"
    #expect(mkdir(runtime, 0o700) == 0)
    desk.environment["XDG_RUNTIME_DIR"] = runtime
    let watcher = try desk.run(watch)
    defer { watcher.terminate() }
    // Subscribed once a mode entered shows: enter it until the owner has the banner.
    var shown: (toast: JSONValue, owner: Int32)?
    try waitUntil("the owner to show the mode banner '\(modeTag)'", timeout: 10) {
      #expect(watcher.isRunning)
      try enterMode()
      shown = try status(modeTag)
      return shown != nil
    }
    #expect(shown?.toast["text"]?.stringValue == mode)
    #expect(shown?.toast["dnd"]?.stringValue == "show", "do-not-disturb does not hold it back")
    let owner = try #require(shown?.owner)
    #expect(owners(besides: watcher) == [owner], "one owner for the watcher and the commands")

    // A script's banner stacks below the mode's: both readable, neither over the other.
    let banner = try desk.runToEnd(["--style", "banner", "--timeout", "0", Self.script])
    #expect(banner.status == 0, "\(banner.errors)")
    let modeBox = Looks.restingPill(mode)
    var scriptBox = Looks.restingPill(Self.script)
    let height = Design.Banner.height
    scriptBox.y += Int(Stacking.shifts(extents: [height, height], position: .top)[1])
    #expect(!modeBox.intersects(scriptBox))
    try waitForPills([modeBox, scriptBox], "the mode's banner and the script's below it")
    #expect(try status("default")?.owner == owner)

    // `hide` knows the watcher's tag: the script's banner moves up.
    #expect(try desk.runToEnd(["hide", "--tag", modeTag]).status == 0)
    try waitUntil("status to find no '\(modeTag)' once it slid out") { try status(modeTag) == nil }
    try waitForPills([Looks.restingPill(Self.script)], "the script's banner alone")
    #expect(try desk.runToEnd(["hide"]).status == 0)

    // Do-not-disturb holds back a script's toast, not the watcher's.
    #expect(try desk.runToEnd(["dnd", "on"]).output == "on\n")
    try leaveMode()
    try enterMode()
    try waitForPills([modeBox], "the mode banner with do-not-disturb on")
    let held = try desk.runToEnd(["--wait", "--print-outcome", "--style", "banner", "Held"])
    #expect(held.status == ExitCode.suppressed && held.output == "suppressed\n", "\(held)")

    // The owner goes away: the watcher starts the next one and shows the mode there.
    #expect(kill(owner, SIGKILL) == 0)
    var next: Int32?
    try waitUntil("a new owner showing the mode banner (last: \(lastSeen(next)))", timeout: 10) {
      next = try status(modeTag)?.owner
      return next != nil && next != owner
    }
    try waitForPills([modeBox], "the mode banner from the next owner")
    #expect(owners(besides: watcher) == [next!])

    // Nothing shows and nothing changes: the owner stays past its linger (one
    // second), and neither it nor the watcher wakes.
    try leaveMode()
    try waitForPills([], "no banner once the mode is left")
    let processes = [watcher.pid, next!]
    func wakeUps() -> [Int] {
      processes.map { contextSwitches($0, mainThreadOnly: underThreadSanitizer) ?? -1 }
    }
    // Settled as waitUntilSettled(_:) has it: half a second without a wake-up of either.
    try waitUntil("the watcher and the owner to settle", timeout: 20) {
      let settled = wakeUps()
      pause(for: .milliseconds(500))
      return wakeUps() == settled
    }
    let before = wakeUps()
    // Time passing is what is measured here: nothing to wait for instead.
    pause(for: .seconds(2))
    #expect(wakeUps() == before, "no wake-up while nothing changes")
    #expect(owners(besides: watcher) == [next!], "the owner stays while the watcher runs")

    // A signal ends the watcher; it hides its banner, and the owner ends after it.
    try enterMode()
    try waitForPills([modeBox], "the mode banner again")
    kill(watcher.pid, SIGTERM)
    #expect(watcher.wait(timeout: 10) == 0)
    try waitForPills([], "the mode banner hidden as the watcher ends")
    try waitUntil("the owner to end after the watcher") { owners(besides: watcher).isEmpty }
  }
}

extension Looks {
  /// The boxes of the pixels that match, one for each band of rows with a
  /// match (toasts stacked one above the other), top to bottom.
  package static func boxes(in shot: Image, where matches: (_ x: Int, _ y: Int) -> Bool) -> [Box] {
    let rows = (0..<shot.height).filter { y in (0..<shot.width).contains { matches($0, y) } }
    var bands: [ClosedRange<Int>] = []
    for row in rows {
      if let last = bands.last, last.upperBound == row - 1 {
        bands[bands.count - 1] = last.lowerBound...row
      } else {
        bands.append(row...row)
      }
    }
    return bands.compactMap { band in
      shot.boundingBox { x, y in band.contains(y) && matches(x, y) }
    }
  }
}

/// What the examples' `watch audio media backlight` needs on a test
/// compositor: the programs of their key bindings (this build's wl-toast,
/// the installed pactl), a configuration home whose `[preset volume]` keeps
/// the HUD on screen (``volumeHUDConfigHome()``), a sound server of the test's
/// at 20 % and a session bus for `watch media`. The compositor and what it
/// starts may be another user's (sway as root runs as nobody): the server's
/// and the bus's directories let them reach the sockets.
package final class ExampleWatchRig {
  /// The key bindings' programs, to put first in `PATH`.
  package let bin: String
  /// The sound server.
  package let server: SoundServer
  /// The session bus.
  package let bus: NotificationBus
  private let configHome: String

  /// Starts the server and the bus.
  package init() throws {
    bin = try exampleBinDirectory(pactl: .installed)
    configHome = try volumeHUDConfigHome()
    server = try SoundServer()
    bus = try NotificationBus()
    chmod(bus.directory, 0o711)
    chmod(server.directory, 0o711)
    try server.control(["set-sink-volume", "@DEFAULT_SINK@", "20%"])
  }

  deinit {
    removeTree(bin)
    removeTree(configHome)
  }

  /// What the compositor's session needs: the server, the bus, the configuration home.
  package var environment: [String: String] {
    bus.clientEnvironment.merging(server.clientEnvironment) { $1 }
      .merging(["XDG_CONFIG_HOME": configHome]) { $1 }
  }
}

/// Presses the volume key (`press`) until the volume HUD of the example's
/// `watch audio` shows the level the key set: each press raises the volume by
/// 5 % (the binding's pactl); once pactl reports the new level, the HUD for
/// it (the watcher's own toast: text, bar and icon) must appear. A press
/// before the watcher is connected shows nothing (only later changes do), so
/// the next press tries again. `screenshot` takes the region around a box;
/// `color` is the HUD's on the compositor's desktop.
package func expectTheWatchersVolumeHUD(
  _ server: SoundServer, color: RGB, log: @autoclosure () -> String = "", press: () throws -> Void,
  screenshot: (Box) throws -> Image
) throws {
  var seen: Box?
  var expected: Box?
  try waitUntil(
    "the watcher's HUD at \(lastSeen(expected)) (last seen: \(lastSeen(seen)))\(log())",
    timeout: 30
  ) {
    let before = try defaultSinkPercent(server)
    try press()
    var level = before
    try waitUntil("the key's pactl to change the volume from \(before)%", timeout: 10) {
      level = try defaultSinkPercent(server)
      return level != before
    }
    let box = Looks.hudBox(
      AudioState.volumeToast("Volume \(level)%", percent: level, isMuted: false))
    expected = box
    let area = box.insetBy(-16)
    // The watcher shows it within a moment, or it was not connected yet.
    return
      (try? waitUntil("the HUD", timeout: 3) {
        seen = try screenshot(area).boundingBox(of: color, tolerance: 3)
          .map { Box(x: $0.x + area.x, y: $0.y + area.y, width: $0.width, height: $0.height) }
        return seen == box
      }) != nil
  }
}
