import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastRendering

/// Which output a toast lands on, at which scale, and what happens when outputs
/// come and go.
@Suite(.serialized)
struct OutputTests {

  /// The HUD box of `toast` centred on an output at `origin` (logical pixels)
  /// of 1280x720 device pixels at `scale`, in screenshot pixels of that output.
  /// A stack `shift` moves it down (negative: up).
  static func centredBox(
    _ toast: Toast, scale: Int = 1, shift: Int = 0, output: (width: Int, height: Int) = (1280, 720)
  ) -> Box {
    let logical = (width: output.width / scale, height: output.height / scale)
    let layout = ToastLayout(toast: toast, outputWidth: logical.width, outputHeight: logical.height)
    return Box(
      x: (logical.width - Int(layout.box.width)) / 2 * scale,
      y: ((logical.height - Int(layout.box.height)) / 2 + shift) * scale,
      width: Int(layout.box.width) * scale, height: Int(layout.box.height) * scale)
  }

  /// Runs `wl-toast` against `sway` to its end: status, standard output and error.
  static func run(_ arguments: [String], on sway: HeadlessSway) throws -> CommandResult {
    try CommandRunner(on: sway).runToEnd(arguments)
  }

  // MARK: - Choosing the output

  @Test func aNamedOutputGetsTheToastAndKeepsItAcrossUpdates() throws {
    let desk = try Desk<HeadlessSway>()
    let second = try desk.sway.addOutput(x: 1280)
    #expect(second == "HEADLESS-2")
    #expect(
      try desk.runToEnd(["--output", second, "--no-animation", "--timeout", "0", "Two"]).status
        == 0)
    let box = Self.centredBox(Toast("Two"))
    try waitUntil("the box on \(second) at \(box), none on HEADLESS-1") {
      let there = try desk.sway.screenshot(output: second)
      let here = try desk.sway.screenshot(output: "HEADLESS-1")
      return there.boundingBox(of: hudColor, tolerance: 3) == box
        && here.boundingBox(of: hudColor, tolerance: 3) == nil
    }
    // An update that names no output keeps the toast where it is.
    #expect(try desk.runToEnd(["--no-animation", "--timeout", "0", "Still two"]).status == 0)
    try waitUntil("the updated box still on \(second)") {
      let there = try desk.sway.screenshot(output: second)
      let here = try desk.sway.screenshot(output: "HEADLESS-1")
      return there.boundingBox(of: hudColor, tolerance: 3)
        == Self.centredBox(Toast("Still two"))
        && here.boundingBox(of: hudColor, tolerance: 3) == nil
    }
    #expect(try desk.status()?.surfaces == 1, "updated in place")
    // One that names another output moves it there.
    #expect(
      try desk.runToEnd(["--output", "HEADLESS-1", "--no-animation", "--timeout", "0", "One"])
        .status == 0)
    try waitUntil("the box moved to HEADLESS-1") {
      try desk.sway.screenshot(output: "HEADLESS-1").boundingBox(of: hudColor, tolerance: 3)
        == Self.centredBox(Toast("One"))
        && desk.sway.screenshot(output: second).boundingBox(of: hudColor, tolerance: 3) == nil
    }
  }

  @Test func allOutputsShowTheToastIncludingOneAddedWhileItShows() throws {
    let desk = try Desk<HeadlessSway>()
    let second = try desk.sway.addOutput(x: 1280, scale: 2)
    #expect(
      try desk.runToEnd(["--output", "all", "--no-animation", "--timeout", "0", "Everywhere"])
        .status == 0)
    let one = Self.centredBox(Toast("Everywhere"))
    let two = Self.centredBox(Toast("Everywhere"), scale: 2)
    try waitUntil("the box on both outputs, each at its scale") {
      try desk.sway.screenshot(output: "HEADLESS-1").boundingBox(of: hudColor, tolerance: 3)
        == one
        && desk.sway.screenshot(output: second).boundingBox(of: hudColor, tolerance: 3)
          == two
    }
    let third = try desk.sway.addOutput(x: 1280 + 640)
    try waitUntil("the box on the new output \(third)") {
      try desk.sway.screenshot(output: third).boundingBox(of: hudColor, tolerance: 3) == one
    }
    #expect(try desk.status()?.surfaces == 1, "one toast, however many outputs")
  }

  // MARK: - Scale

  @Test(arguments: [false, true])
  func theFirstFrameOnAScaleTwoOutputIsAlreadySharp(pinned: Bool) throws {
    let desk = try Desk<HeadlessSway>()
    let second = try desk.sway.addOutput(x: 1280, scale: 2)
    // The same text on the scale-1 output, for its edges.
    #expect(
      try desk.runToEnd([
        "--tag", "one", "--output", "HEADLESS-1", "--no-animation", "--timeout", "0", "Crisp",
      ]).status == 0)
    let oneBox = Self.centredBox(Toast("Crisp"))
    let oneShot = try desk.screenshot("the scale-1 box") {
      $0.boundingBox(of: hudColor, tolerance: 3) == oneBox
    }
    if !pinned {
      // Focus the output without warping the pointer (its cursor) onto it.
      try desk.sway.swaymsg(["mouse_warping", "none"])
      try desk.sway.swaymsg(["focus", "output", second])
    }
    let arguments = pinned ? ["--output", second] : []
    #expect(
      try desk.runToEnd(arguments + ["--no-animation", "--timeout", "0", "Crisp"]).status == 0)
    // One screenshot as soon as the command returns: the first frame.
    let shot = try desk.sway.screenshot(output: second)
    let box = Self.centredBox(Toast("Crisp"), scale: 2)
    #expect(shot.boundingBox(of: hudColor, tolerance: 3) == box)
    let reference = composited(
      Toast("Crisp"), over: HeadlessSway.background, outputWidth: 640, outputHeight: 360,
      scale: 2)
    let layout = ToastLayout(toast: Toast("Crisp"), outputWidth: 640, outputHeight: 360)
    let origin = (x: box.x - Int(layout.box.x) * 2, y: box.y - Int(layout.box.y) * 2)
    let text = Box(
      x: box.x + 20, y: box.y + box.height / 2 - 24, width: box.width - 40, height: 48)
    let mismatches = shot.mismatches(in: text, from: reference.blend, origin: origin)
    #expect(mismatches < text.width * text.height / 100, "\(mismatches) text pixels differ")
    // The owner drew it at scale 2 into a buffer twice the surface's size.
    let drawn = try #require(try desk.status()?.drawn.first)
    #expect(drawn.output == second && drawn.scale == 2)
    #expect(drawn.frames == 1, "a static toast is drawn once")
    #expect(drawn.bufferWidth == drawn.width * 2 && drawn.bufferHeight == drawn.height * 2)
    // Text edges as narrow in device pixels as at scale 1: drawn, not enlarged.
    let edge = shot.meanEdgeWidth(in: text, ground: hudColor)
    let oneText = Box(
      x: oneBox.x + 10, y: oneBox.y + oneBox.height / 2 - 12, width: oneBox.width - 20,
      height: 24)
    let oneEdge = oneShot.meanEdgeWidth(in: oneText, ground: hudColor)
    #expect(edge <= oneEdge + 0.25, "edges \(edge) px wide at scale 2, \(oneEdge) at scale 1")
  }

  // MARK: - Outputs that go away

  /// The toast's box on an output of a nested sway (nil when none is there).
  static func box(on output: String, of nested: HeadlessSway) throws -> Box? {
    try nested.screenshot(output: output).boundingBox(of: hudColor, tolerance: 3)
  }

  /// Whether `output` of `nested` shows `text`'s HUD, centred (the outer sway
  /// tiles the nested outputs' windows, so their sizes change as they come and go).
  static func showsCentred(_ text: String, on output: String, of nested: HeadlessSway) throws
    -> Bool
  {
    guard let rect = try nested.outputs()[output]?.rect else { return false }
    // grim fails while the outer sway resizes the output's window: look again.
    guard let found = try? box(on: output, of: nested) else { return false }
    return found == centredBox(Toast(text), output: (rect.width, rect.height))
  }

  @Test func aToastOnTheCompositorsChoiceMovesWhenItsOutputIsUnplugged() throws {
    let outer = try HeadlessSway()
    // A sway with two outputs, each a window of the outer one.
    let nested = try HeadlessSway(nestedIn: outer, outputs: 2)
    let log = nested.runtimeDirectory + "/waiting.log"
    let waiting = try CommandRunner(on: nested).run(
      ["--wait", "--print-outcome", "--no-animation", "--timeout", "0", "Moving"], logPath: log)
    try waitUntil("the toast on WL-1, the focused output") {
      try Self.showsCentred("Moving", on: "WL-1", of: nested)
    }
    try outer.swaymsg(["[title=\"wlroots - WL-1\"]", "kill"])
    try waitUntil("the toast on WL-2, the output left") {
      try Self.showsCentred("Moving", on: "WL-2", of: nested)
    }
    #expect(waiting.isRunning, "the toast did not end")
    #expect(try Self.run(["status"], on: nested).output.contains("\"Moving\""))
    #expect(try Self.run(["hide"], on: nested).status == 0)
    #expect(waiting.wait(timeout: 5) == 0)
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "hidden\n")
  }

  /// Runs `--wait --print-outcome --output WL-2 OPTIONS --timeout 0 Pinned`
  /// on a nested sway with two outputs, waits until `held` says the owner
  /// holds the toast, unplugs WL-2, and expects the toast to end as hidden,
  /// its command saying why. Returns the two sways (the nested one with WL-1 left).
  static func expectPinnedToastEndsWhenItsOutputGoes(
    _ options: [String], once held: (HeadlessSway) throws -> Bool
  ) throws -> (outer: HeadlessSway, nested: HeadlessSway) {
    let outer = try HeadlessSway()
    let nested = try HeadlessSway(nestedIn: outer, outputs: 2)
    let log = nested.runtimeDirectory + "/pinned.log"
    let errors = nested.runtimeDirectory + "/pinned.err"
    let waiting = try CommandRunner(on: nested).start(
      Run(
        ["--wait", "--print-outcome", "--output", "WL-2"] + options + ["--timeout", "0", "Pinned"],
        stdout: .file(log), stderr: .file(errors)))
    try waitUntil("the owner to hold the toast") { try held(nested) }
    try outer.swaymsg(["[title=\"wlroots - WL-2\"]", "kill"])
    #expect(waiting.wait(timeout: nested.patience) == 0, "outcome hidden")
    #expect(readFile(log).map { String(decoding: $0, as: UTF8.self) } == "hidden\n")
    #expect(
      readFile(errors).map { String(decoding: $0, as: UTF8.self) }
        == "wl-toast: output 'WL-2' went away; toast hidden\n")
    return (outer, nested)
  }

  @Test func aToastPinnedToAnOutputThatGoesBeforeItShowsEnds() throws {
    // In its grace time (a minute) when its output goes.
    _ = try Self.expectPinnedToastEndsWhenItsOutputGoes(["--grace", "60"]) { nested in
      try Self.run(["status"], on: nested).output.contains("\"Pinned\"")
    }
  }

  @Test func aToastPinnedToAnOutputEndsWhenItIsUnplugged() throws {
    let (outer, nested) = try Self.expectPinnedToastEndsWhenItsOutputGoes(["--no-animation"]) {
      try Self.showsCentred("Pinned", on: "WL-2", of: $0)
    }
    defer { withExtendedLifetime(outer) {} }
    // Nothing was left behind: the next toast shows on the output that is left.
    #expect(try Self.run(["--no-animation", "--timeout", "0", "Next"], on: nested).status == 0)
    try waitUntil("the next toast on WL-1") {
      try Self.showsCentred("Next", on: "WL-1", of: nested)
    }
  }

  @Test func withNoOutputLeftAToastWaitsForTheNextOne() throws {
    let outer = try HeadlessSway()
    let nested = try HeadlessSway(nestedIn: outer, outputs: 1)
    #expect(
      try Self.run(["--no-animation", "--timeout", "0", "Patient"], on: nested).status == 0)
    try outer.swaymsg(["[title=\"wlroots - WL-1\"]", "kill"])
    try waitUntil("sway to have no output") { try nested.outputs().isEmpty }
    // The toast waits; a command for a new one returns at once, not after the
    // hand-over's 10 s deadline.
    let started = MonotonicTime.now
    #expect(
      try Self.run(["--tag", "later", "--no-animation", "--timeout", "0", "Later"], on: nested)
        .status == 0)
    #expect(MonotonicTime.now - started < .seconds(9))
    #expect(try Self.run(["status"], on: nested).output.contains("\"Patient\""))
    // A waiting toast's timeout runs: it expires without ever being shown.
    let brief = try Self.run(
      ["--tag", "brief", "--wait", "--print-outcome", "--timeout", "0.5", "Brief"], on: nested)
    #expect(brief.status == 0 && brief.output == "expired\n")
    try nested.swaymsg(["create_output"])
    var name: String?
    try waitUntil("a new output") {
      name = try nested.outputs().keys.first
      return name != nil
    }
    let patient = Self.centredBox(Toast("Patient"), shift: -65)
    try waitUntil("both toasts back on \(lastSeen(name))") {
      let shot = try nested.screenshot(output: name!)
      return shot.boundingBox(of: hudColor, tolerance: 3)?.y == patient.y
    }
  }

  /// sway 1.7 ignores `output NAME disable` for headless and nested outputs
  /// alike (it answers success and leaves the output active), so this takes the
  /// path a disable and enable would take on the client: the output's global
  /// goes away and a new one comes.
  @Test func anOutputUnpluggedAndPluggedBackGetsItsToastsBack() throws {
    let outer = try HeadlessSway()
    let nested = try HeadlessSway(nestedIn: outer, outputs: 2)
    #expect(
      try Self.run(["--output", "all", "--no-animation", "--timeout", "0", "Back"], on: nested)
        .status == 0)
    try waitUntil("the toast on both outputs") {
      try Self.showsCentred("Back", on: "WL-1", of: nested)
        && Self.showsCentred("Back", on: "WL-2", of: nested)
    }
    try outer.swaymsg(["[title=\"wlroots - WL-2\"]", "kill"])
    try waitUntil("WL-2 gone") { try nested.outputs()["WL-2"] == nil }
    try waitUntil("the other output keeping its toast") {
      try Self.showsCentred("Back", on: "WL-1", of: nested)
    }
    try nested.swaymsg(["create_output"])
    var added: String?
    try waitUntil("an output plugged back") {
      added = try nested.outputs().keys.first { $0 != "WL-1" }
      return added != nil
    }
    try waitUntil("the toast on \(lastSeen(added))") {
      try Self.showsCentred("Back", on: added!, of: nested)
    }
    #expect(try Self.run(["status"], on: nested).output.contains("\"Back\""))
  }
}
