import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastRendering

/// One toast per tag across commands: the background owner, its socket, and the
/// commands for scripts.
@Suite(.serialized)
struct TagTests {

  @Test func tenRapidCommandsEndWithOneOwnerShowingTheTenth() throws {
    let desk = try Desk<HeadlessSway>()
    for index in 1...10 {
      let result = try desk.runToEnd(["--no-animation", "--timeout", "0", "Volume \(index)0%"])
      #expect(result.status == 0, "\(result.errors)")
    }
    let status = try #require(try desk.status())
    #expect(status.text == "Volume 100%")
    #expect(status.surfaces == 1, "updated in place, never a second surface")
    #expect(desk.ownerProcesses() == [status.owner])
    // One box on screen, the size of the tenth text's box.
    let expected = Looks.hudBox(Toast("Volume 100%"))
    try desk.screenshot("one HUD box at \(expected), the tenth text's") {
      $0.boundingBox(of: hudColor, tolerance: 3) == expected
    }
  }

  @Test func pastThirtyTwoToastsTheOldestGivesWayAsReplaced() throws {
    let desk = try Desk<HeadlessSway>()
    let first = try desk.run(["--tag", "t1", "--wait", "--timeout", "0", "--no-animation", "t1"])
    try desk.waitUntilDrawn(tag: "t1")
    for index in 2...ToastPresenter.maximumToasts + 2 {
      let tag = "t\(index)"
      let result = try desk.runToEnd(["--tag", tag, "--timeout", "0", "--no-animation", tag])
      #expect(result.status == 0, "\(tag): \(result.errors)")
    }
    #expect(first.wait(timeout: 10) == 3, "the first toast's --wait hears 'replaced'")
    #expect(try desk.status(tag: "t1") == nil && desk.status(tag: "t2") == nil)
    for index in 3...ToastPresenter.maximumToasts + 2 {
      #expect(try desk.status(tag: "t\(index)") != nil, "t\(index) shows")
    }
  }

  @Test func aToastGoesWithTheWaitCommandThatShowedItWhenTerminated() throws {
    let desk = try Desk<HeadlessSway>()
    let waiting = try desk.run(["--wait", "--spinner", "--timeout", "0", "Backing up"])
    try desk.waitUntilDrawn()
    let handedOver = try desk.runToEnd(["--tag", "kept", "--timeout", "0", "Kept"])
    #expect(handedOver.status == 0)
    waiting.terminate()
    try waitUntil("the spinner gone with its command") { try desk.status() == nil }
    #expect(try desk.status(tag: "kept") != nil, "a toast handed over outlives its command")
  }

  @Test func commandsStartedAtOnceElectOneOwner() throws {
    let desk = try Desk<HeadlessSway>()
    let commands = try (1...8).map { index in
      try desk.run(["--no-animation", "--timeout", "0", "Racer \(index)"])
    }
    for command in commands { #expect(command.wait(timeout: 10) == 0) }
    let status = try #require(try desk.status())
    #expect(status.text.hasPrefix("Racer "))
    #expect(status.surfaces == 1)
    #expect(desk.ownerProcesses() == [status.owner])
  }

  @Test func aSecondTagShowsASecondToastStackedUnderTheFirst() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(
      try desk.runToEnd([
        "--tag", "left", "--offset", "-300,0", "--no-animation", "--timeout", "0", "Left",
      ]).status == 0)
    #expect(
      try desk.runToEnd([
        "--tag", "right", "--offset", "300,0", "--no-animation", "--timeout", "0", "Right",
      ]).status == 0)
    var left = Toast("Left")
    left.offset = .init(x: -300, y: 0)
    var right = Toast("Right")
    right.offset = .init(x: 300, y: 0)
    // Both rest at the centre: they stack around it, the first above.
    let shifts = Stacking.shifts(extents: [120, 120], position: .center)
    #expect(shifts[0] < 0 && shifts[1] > 0)
    let leftBox = Looks.hudBox(left, shift: shifts[0])
    let rightBox = Looks.hudBox(right, shift: shifts[1])
    #expect(rightBox.y - (leftBox.y + leftBox.height) == Int(Design.stackGap))
    let shot = try desk.screenshot("a HUD box at \(leftBox) and one at \(rightBox)") {
      $0.pixel(x: leftBox.x + 5, y: leftBox.y + 5).isClose(to: hudColor, tolerance: 3)
        && $0.pixel(x: rightBox.x + 5, y: rightBox.y + 5).isClose(to: hudColor, tolerance: 3)
    }
    #expect(shot.pixel(x: 640, y: 360) == HeadlessSway.background)
    #expect(try desk.status(tag: "left")?.text == "Left")
    #expect(try desk.status(tag: "right")?.text == "Right")
    #expect(desk.ownerProcesses().count == 1, "one owner serves both tags")
  }

  @Test func statusBeforeDuringAndAfter() throws {
    let desk = try Desk<HeadlessSway>()
    let before = try desk.runToEnd(["status"])
    #expect(before.status == 1)
    #expect(before.output.isEmpty)
    #expect(try desk.runToEnd(["--timeout", "0", "--progress", "40", "Showing"]).status == 0)
    let during = try desk.runToEnd(["status"])
    #expect(during.status == 0)
    let value = try JSONValue.parse(during.output.trimmingNewline)
    #expect(value["toast"]?["text"]?.stringValue == "Showing")
    #expect(value["toast"]?["progress"]?.doubleValue == 40)
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("status to report no toast after hide") {
      try desk.runToEnd(["status"]).status == 1
    }
  }

  @Test func aHideBeforeTheFirstFrameIsTheNewToastsOutcome() throws {
    let desk = try Desk<HeadlessSway>()
    // The owner runs; then sway draws nothing more until the test ends.
    #expect(try desk.runToEnd(["--tag", "probe", "--timeout", "0", "Probe"]).status == 0)
    desk.sway.pause()
    defer { desk.sway.resume() }
    let log = desk.sway.runtimeDirectory + "/job.log"
    let shown = try desk.run(
      ["--tag", "job", "--wait", "--print-outcome", "--timeout", "0", "Working"], logPath: log)
    try waitUntil("the owner to hold the toast") { try desk.status(tag: "job") != nil }
    #expect(try desk.runToEnd(["hide", "--tag", "job"]).status == 0)
    #expect(shown.wait(timeout: desk.compositor.patience) == 0)
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "hidden\n")
  }

  @Test func hideAfterHidesOnTime() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--no-animation", "--timeout", "0", "Later"]).status == 0)
    let start = now()
    // A delay of 4 s: the hide command and the status check after it take
    // well under that on a loaded machine.
    #expect(try desk.runToEnd(["hide", "--after", "4"]).status == 0)
    #expect(try desk.status() != nil, "still there right after the hide")
    // It goes: the wait's timeout is the (generous) upper bound.
    try waitUntil("the toast to be hidden 4 s after the hide", timeout: 20) {
      try desk.status() == nil
    }
    let elapsed = now() - start
    #expect(elapsed >= 4, "hidden after \(elapsed) s, before its 4 s")
    // Nothing to hide is not an error.
    #expect(try desk.runToEnd(["hide", "--tag", "nothing"]).status == 0)
  }

  @Test func waitReportsHowTheToastEnded() throws {
    let desk = try Desk<HeadlessSway>()
    // Expiry: 0.
    let expired = try desk.runToEnd(["--wait", "--print-outcome", "--timeout", "0.2", "Brief"])
    #expect(expired.status == 0)
    #expect(expired.output == "expired\n")
    // Hidden by `wl-toast hide`: 0.
    let hidden = try desk.run(["--wait", "--tag", "h", "--timeout", "0", "Hide me"])
    try waitUntil("the toast tagged h to show") { try desk.status(tag: "h") != nil }
    #expect(try desk.runToEnd(["hide", "--tag", "h"]).status == 0)
    #expect(hidden.wait(timeout: 5) == 0)
    // Replaced by a newer toast with the same tag: 3.
    let replaced = try desk.run(["--wait", "--tag", "r", "--timeout", "0", "Old"])
    try waitUntil("the toast tagged r to show 'Old'") { try desk.status(tag: "r")?.text == "Old" }
    #expect(try desk.runToEnd(["--tag", "r", "--timeout", "0", "New"]).status == 0)
    #expect(replaced.wait(timeout: 5) == 3)
    #expect(try desk.status(tag: "r")?.text == "New")
    #expect(try desk.runToEnd(["hide", "--tag", "r"]).status == 0)
    try waitUntil("the toast tagged r to be hidden") { try desk.status(tag: "r") == nil }
    // Dismissed by a click: 2.
    let tapped = try desk.run(["--wait", "--tag", "t", "--dismiss", "tap", "--timeout", "0", "Tap"])
    let box = Looks.hudBox(Toast("Tap"))
    try desk.screenshot("the tap toast's box at \(box)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == box
    }
    try desk.input.click(x: box.x + 10, y: box.y + 10)
    #expect(tapped.wait(timeout: 5) == 2)
  }

  @Test func followWithAThousandLinesKeepsOneSurfaceAndShowsTheLast() throws {
    let desk = try Desk<HeadlessSway>()
    var lines = (1...1000).map { "{\"text\": \"line \($0)\"}" }
    lines.insert("{\"progress\": 250}", at: 500)
    lines.insert("{\"text\": \"json text\", \"progress\": 30, \"spinner\": true}", at: 10)
    let result = try desk.runToEnd(
      ["--follow=json", "--tag", "f", "--timeout", "0", "--no-animation"],
      stdin: lines.joined(separator: "\n") + "\n", timeout: 60)
    #expect(result.status == 0)
    #expect(
      result.errors.contains("line 502: progress"), "the bad line is reported: \(result.errors)")
    #expect(result.errors.split(separator: "\n").count == 1)
    let status = try #require(try desk.status(tag: "f"))
    #expect(status.text == "line 1000")
    #expect(status.progress == 30, "fields set by a JSON line stay")
    #expect(status.surfaces == 1)
  }

  @Test func aKilledOwnersStaleSocketIsRecovered() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--timeout", "0", "First"]).status == 0)
    let first = try #require(try desk.status())
    kill(first.owner, SIGKILL)
    try waitUntil("the killed owner to be gone") { desk.ownerProcesses().isEmpty }
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    #expect(access(rendezvous.socketPath, F_OK) == 0, "the dead owner left its socket")
    let result = try desk.runToEnd(["--timeout", "0", "Second"])
    #expect(result.status == 0, "\(result.errors)")
    let second = try #require(try desk.status())
    #expect(second.text == "Second")
    #expect(second.owner != first.owner)
  }

  @Test func pipedDataCannotTakeOverTheScreen() throws {
    let desk = try Desk<HeadlessSway>()
    // A text stream: a line that looks like JSON is only text.
    let takeover = #"{"modal":true,"dim":true,"dismiss":"tap"}"#
    let plain = try desk.runToEnd(
      ["--follow", "--tag", "p", "--timeout", "0", "--no-animation"], stdin: takeover + "\n")
    #expect(plain.status == 0 && plain.errors.isEmpty, "\(plain.errors)")
    #expect(try desk.status(tag: "p")?.text == takeover)
    // A JSON stream: a line that reaches for an input mode is refused and skipped.
    let json = try desk.runToEnd(
      ["--follow=json", "--tag", "j", "--timeout", "0", "--no-animation"],
      stdin: #"{"text":"Fine"}"# + "\n" + takeover + "\n")
    #expect(json.status == 0)
    #expect(json.errors.contains("line 2: dim: cannot be set by a follow line"), "\(json.errors)")
    #expect(try desk.status(tag: "j")?.text == "Fine")
    // Neither covered the output: its corner shows the desktop, not a dimmed one.
    let corner = try desk.sway.screenshot(x: 0, y: 0, width: 200, height: 200)
    #expect(corner.pixel(x: 100, y: 100) == HeadlessSway.background)
  }

  @Test func aMalformedMessageIsRefusedAndChangesNothing() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(try desk.runToEnd(["--timeout", "0", "Intact"]).status == 0)
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    let fd = try connectToOwner(rendezvous)
    defer { close(fd) }
    for garbage in [
      "not json", "{\"v\":1,\"op\":\"show\",\"tag\":\"default\",\"toast\":{\"progress\":\"x\"}}",
      "{\"v\":2}",
    ] {
      let text = try exchangeRaw(Array(garbage.utf8), on: fd)
      #expect(text.contains("\"ok\":false"), "\(garbage) -> \(text)")
    }
    // Too large: refused as well.
    let huge = [UInt8](repeating: 0x20, count: maximumMessageSize + 10)
    #expect(try exchangeRaw(huge, on: fd).contains("too large"))
    #expect(try desk.status()?.text == "Intact")
  }

  @Test func aSocketOfAnotherUserIsNeverFollowed() throws {
    let desk = try Desk<HeadlessSway>()
    let rendezvous = try Rendezvous(display: desk.sway.socketPath)
    _ = try rendezvous.openDirectory()
    unlink(rendezvous.socketPath)
    // Someone else's socket where ours would be.
    let fd = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
    defer {
      close(fd)
      unlink(rendezvous.socketPath)
    }
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      let bytes = Array(rendezvous.socketPath.utf8)
      buffer.copyBytes(from: bytes)
      buffer[bytes.count] = 0
    }
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    #expect(bound == 0)
    #expect(listen(fd, 4) == 0)
    #expect(chown(rendezvous.socketPath, 65534, 65534) == 0)
    let result = try desk.runToEnd(["--timeout", "0", "Hello"])
    #expect(result.status == 1)
    #expect(result.errors.contains("not a socket owned by you"), "\(result.errors)")
    #expect(result.errors.split(separator: "\n").count == 1)
  }

  @Test func watchSwayShowsTheBindingMode() throws {
    let sway = try HeadlessSway(
      extraConfig: "mode \"resize\" {\n  bindsym Escape mode \"default\"\n}")
    let watcher = try CommandRunner(on: sway).run(
      ["watch", "sway"], logPath: sway.runtimeDirectory + "/watch.log")
    defer { watcher.terminate() }
    let pill = blend(Design.Banner.background, over: HeadlessSway.background)
    // The watcher is subscribed once its banner shows for a mode change; retry the
    // mode switch until then (the subscription is not observable from outside).
    try waitUntil("a banner for the mode 'resize'", timeout: 10) {
      try sway.swaymsg(["mode", "resize"])
      return try sway.screenshot(width: 1280, height: 120).boundingBox(of: pill, tolerance: 3)
        != nil
    }
    let layout = ToastLayout(
      toast: Toast("resize", style: .banner), outputWidth: 1280, outputHeight: 720)
    let width = Int(layout.box.width)
    var seen: Box?
    try waitUntil("a banner \(width) px wide for 'resize' (last seen: \(lastSeen(seen)))") {
      seen = try sway.screenshot(width: 1280, height: 120).boundingBox(of: pill, tolerance: 3)
      return seen?.width == width
    }
    try sway.swaymsg(["mode", "default"])
    try waitUntil("the banner to go when the mode is back to default") {
      try sway.screenshot(width: 1280, height: 120).boundingBox(of: pill, tolerance: 3) == nil
    }
    #expect(watcher.isRunning)
  }

  @Test func watchSwayNamesTheKeyboardLayoutAsItChanges() throws {
    let sway = try HeadlessSway(extraConfig: "input type:keyboard xkb_layout us,de")
    // A keyboard for the layouts to be on: a virtual one keeps the keymap its
    // client gives it (sway applies no xkb_layout to it), so it brings us,de.
    let input = try VirtualInput(
      socketPath: sway.socketPath, width: sway.outputWidth, height: sway.outputHeight,
      layouts: "us,de")
    try input.move(x: sway.outputWidth - 1, y: sway.outputHeight - 1)
    let watcher = try CommandRunner(on: sway).run(
      ["watch", "sway", "--keyboard-layout"], logPath: sway.runtimeDirectory + "/watch.log")
    defer { watcher.terminate() }
    var seen = "nothing"
    func showing(_ name: String) throws -> Bool {
      let toast = Toast(name)
      let box = Looks.hudBox(toast)
      let shot = try sway.screenshot(x: box.x, y: box.y, width: box.width, height: box.height)
      let reference = composited(toast, over: HeadlessSway.background)
      let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
      let origin = (x: -Int(layout.box.x), y: -Int(layout.box.y))
      let found = shot.boundingBox(of: Looks.hudColor(HeadlessSway.self), tolerance: 3)
      let wrong = shot.mismatches(
        in: Box(x: 0, y: 0, width: box.width, height: box.height), from: reference.blend,
        origin: origin)
      seen = "box \(lastSeen(found)), \(wrong) pixels unlike '\(name)'"
      return found != nil && wrong < 10
    }
    // Subscribed once a switch shows a name: switch (each time to the other
    // layout, so that each is a change) until one does.
    var active = "English (US)"
    try waitUntil("a HUD naming the layout after a switch (last: \(seen))", timeout: 10) {
      try sway.swaymsg(["input", "type:keyboard", "xkb_switch_layout", "next"])
      active = active == "German" ? "English (US)" : "German"
      return try showing(active)
    }
    for _ in 0..<2 {
      try sway.swaymsg(["input", "type:keyboard", "xkb_switch_layout", "next"])
      active = active == "German" ? "English (US)" : "German"
      try waitUntil("the HUD naming \(active), updated in place (last: \(seen))") {
        try showing(active)
      }
    }
    #expect(watcher.isRunning)
  }

  @Test func aNewStyleIsAppliedInPlace() throws {
    let desk = try Desk<HeadlessSway>()
    #expect(
      try desk.runToEnd(["--tag", "s", "--no-animation", "--timeout", "0", "As a HUD"]).status == 0)
    #expect(
      try desk.runToEnd([
        "--tag", "s", "--no-animation", "--timeout", "0", "--style", "banner", "--progress", "50",
        "Now a banner",
      ]).status == 0)
    let status = try #require(try desk.status(tag: "s"))
    #expect(status.surfaces == 1, "the same surface, restyled")
    #expect(status.progress == 50)
    var banner = Toast("Now a banner", style: .banner)
    banner.progress = 0.5
    let layout = ToastLayout(toast: banner, outputWidth: 1280, outputHeight: 720)
    let pill = blend(Design.Banner.background, over: HeadlessSway.background)
    let shot = try desk.screenshot("a banner \(Int(layout.box.width)) px wide") {
      $0.boundingBox(of: pill, tolerance: 3)?.width == Int(layout.box.width)
    }
    #expect(shot.boundingBox(of: pill, tolerance: 3)?.y == 10)
    // Where the HUD was (the middle of the output), only the desktop is left.
    let middle = try desk.sway.screenshot(y: 200, height: 320)
    #expect(middle.boundingBox(of: hudColor, tolerance: 3) == nil, "no HUD box left")
  }
}
