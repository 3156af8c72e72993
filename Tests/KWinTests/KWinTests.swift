import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastNag
import ToastOwner
import ToastRendering

/// wl-toast on KDE's KWin 5.27: fractional scales (wp_fractional_scale_v1 and
/// wp_viewporter), layer-shell v3 (no on-demand keyboard focus) and KWin's own
/// screenshots and fake input. What a user sees, in device pixels. (The shared
/// cases, SharedCasesOnKWin, place the HUD and banner, click and
/// press Escape at 1.5.)
@Suite(.serialized)
struct KWinTests {
  /// A touch on a button through fake_input's touch requests chooses it: the
  /// first proof of touch input.
  @Test func aTouchOnAButtonChoosesIt() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    let log = desk.kwin.runtimeDirectory + "/touched.log"
    let command = try desk.run(
      [
        "--button", "Undo", "--button", "Keep", "--wait", "--print-outcome", "--no-animation",
        "Deleted 3 files",
      ], logPath: log)
    try desk.waitForHUD()
    var toast = Toast("Deleted 3 files")
    toast.buttons = ["Undo", "Keep"]
    let keep = Looks.button(1, of: toast)
    try desk.input.touch(
      x: Double(keep.x) + Double(keep.width) / 2, y: Double(keep.y) + Double(keep.height) / 2)
    #expect(command.wait(timeout: 30) == 11)
    let output = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    #expect(output == "button:Keep\n", "standard output and error: \(output)")
  }

  /// A toast with buttons shown by a presenter in this process, on screen
  /// (its loop run meanwhile); the presenter asks for an activation token at
  /// each button chosen, and `entries` gets the buttons, tokens and ends in
  /// the order they come.
  final class AskingPresenter {
    let presenter: ToastPresenter
    var entries: [String] = []

    init(_ desk: Desk<HeadlessKWin>, keyboard: Toast.Keyboard? = nil) throws {
      presenter = try ToastPresenter(display: desk.kwin.socketPath, announcesToScreenReaders: false)
      presenter.onButton = { [unowned self] tag, button in
        entries.append("button \(button)")
        presenter.requestActivationToken(tag: tag) { [unowned self] token in
          // KWin names a token it refuses `not-granted-666`.
          let kind = token.map { $0.isEmpty || $0 == "not-granted-666" ? "refused" : "token" }
          entries.append(kind ?? "no token")
        }
        return .end
      }
      presenter.onCompletion = { [unowned self] _, outcome in entries.append("\(outcome)") }
      var toast = KWinTests.asking
      toast.keyboard = keyboard
      presenter.show(toast, tag: "asking")
      try waitUntil("the HUD with buttons on screen", timeout: desk.kwin.patience) {
        try presenter.dispatch(timeout: .milliseconds(20))
        return desk.hudBox(in: try desk.kwin.screenshot()) != nil
      }
      try presenter.roundtrip()
    }

    /// Runs the loop until the toast is gone (failing after KWin's patience).
    func runUntilHidden(_ desk: Desk<HeadlessKWin>) throws {
      try waitUntil("the toast gone", timeout: desk.kwin.patience) {
        try presenter.dispatch(timeout: .milliseconds(20))
        return !presenter.isPresenting
      }
      _ = try presenter.runUntilHidden()
    }
  }

  static let asking: Toast = {
    var toast = Toast("Deleted 3 files", timeout: 0)
    toast.buttons = ["Undo", "Keep"]
    toast.isAnimated = false
    return toast
  }()

  /// KWin 5.27 offers xdg_activation_v1: a fake click on a button gets a
  /// token it grants (no window is active) before the toast's end is reported.
  @Test func aClickedButtonGetsAnActivationToken() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    let asking = try AskingPresenter(desk)
    let keep = Looks.button(1, of: Self.asking)
    try desk.input.click(x: Double(keep.x + keep.width / 2), y: Double(keep.y + keep.height / 2))
    try asking.runUntilHidden(desk)
    #expect(asking.entries == ["button 1", "token", "chose(button: 1)"])
  }

  /// Layer-shell v3, no on-demand focus: `focus(tag:)` gives a toast without
  /// a keyboard of its own the keyboard (exclusive) for Tab and Enter.
  @Test func focusGivesAKeylessToastTheKeyboard() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    let asking = try AskingPresenter(desk, keyboard: .never)
    #expect(asking.presenter.focus(tag: "asking"))
    try asking.presenter.roundtrip()
    try desk.input.press(DeskKey.tab)
    try desk.input.press(DeskKey.enter)
    try asking.runUntilHidden(desk)
    #expect(asking.entries.first == "button 1" && asking.entries.last == "chose(button: 1)")
  }

  /// `wl-toast nag` at 1.5: its buffers are the bar's logical size times the
  /// scale (WAYLAND_DEBUG's create_buffer), its text as sharp as at scale 1,
  /// and a fake click on a button runs its action.
  @Test func aNagBarIsSharpAtOneAndAHalfAndAClickRunsItsAction() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    let marker = desk.kwin.runtimeDirectory + "/ran"
    desk.environment["WAYLAND_DEBUG"] = "1"
    let log = desk.kwin.runtimeDirectory + "/nag.log"
    let nag = try desk.run(
      ["nag", "-m", "Crisp at one and a half", "-B", "Run", "touch \(marker)"], logPath: log)
    defer { nag.terminate() }
    guard
      case .success(.show(let request)) = parseNag(
        ["-m", "Crisp at one and a half", "-B", "Run", "touch \(marker)"], environment: [:],
        readStandardInput: { [] }, readFile: { _ in nil })
    else { throw HarnessError("the nag arguments did not parse") }
    let toast = nagToast(request, keyboard: .onDemand, animated: true)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let red = RGB(0x90, 0, 0)
    let expected = Box(
      x: 0, y: 0, width: 1920,
      height: Int((Double(layout.exclusiveZone - toast.bar.borderBottomSize) * 1.5).rounded()))
    var seen: Box?
    let shot = try desk.screenshot("the bar at \(expected) (last: \(lastSeen(seen)))") { shot in
      seen = shot.boundingBox(of: red, tolerance: 3)
      return seen.map { abs($0.height - expected.height) <= 1 && $0.width == 1920 } ?? false
    }
    // Every buffer is the logical 1280 x height at 1.5: 1920 wide, nothing to rescale.
    let buffers = (readFile(log) ?? []).split(separator: 0x0A).compactMap {
      WaylandDebugMessage(line: Substring(String(decoding: $0, as: UTF8.self)))
    }.filter { $0.interface == "wl_shm_pool" && $0.name == "create_buffer" }
    #expect(!buffers.isEmpty)
    for buffer in buffers {
      let fields = buffer.arguments.split(separator: ",").map { $0.filter { $0 != " " } }
      let height = Double(layout.surfaceHeight) * 1.5
      #expect(fields.count >= 4 && fields[2] == "1920", "\(buffer.arguments)")
      #expect(
        fields.count >= 4
          && [height.rounded(.down), height.rounded(.up)].map { String(Int($0)) }.contains(
            fields[3]),
        "\(buffer.arguments)")
    }
    // Text edges as narrow as at scale 1.
    let text = Box(
      x: Int(layout.textOrigin.x * 1.5), y: Int(layout.textOrigin.y * 1.5),
      width: Int(layout.text.width * 1.5), height: Int(layout.text.height * 1.5))
    let edge = shot.meanEdgeWidth(in: text, ground: red)
    let reference = composited(toast, over: HeadlessKWin.background)
    let oneText = Box(
      x: Int(layout.textOrigin.x), y: Int(layout.textOrigin.y), width: Int(layout.text.width),
      height: Int(layout.text.height))
    let oneEdge = meanEdgeWidth(in: oneText, ground: red, pixel: reference.blend)
    // Drawn at 1.5 offscreen, the same text: what KWin shows when it resamples nothing.
    let offscreen = OffscreenImage.render(toast, scale: 1.5)
    let exactEdge = meanEdgeWidth(in: text, ground: red) { x, y in
      let p = offscreen.pixel(x: x, y: y)
      return RGB(p.red, p.green, p.blue)
    }
    // Measured: 0.94 px on screen, 0.94 offscreen at 1.5, 0.78 at scale 1 (a
    // 10-point face at a fractional size); a buffer resampled by KWin is wider.
    #expect(abs(edge - exactEdge) <= 0.05, "edges \(edge) px on screen, \(exactEdge) offscreen")
    #expect(edge <= oneEdge + 0.2, "edges \(edge) px wide at 1.5, \(oneEdge) at 1")
    // A fake click on Run (the second button from the right: the dismiss X is at the end).
    let run = layout.buttons[1].frame
    try desk.input.click(x: run.midX, y: run.midY)
    try waitUntil("the action to run", timeout: 30) { access(marker, F_OK) == 0 }
    // -B runs and stays: the bar is there to run it again.
    #expect(unlink(marker) == 0)
    try desk.input.click(x: run.midX, y: run.midY)
    try waitUntil("the action to run again", timeout: 30) { access(marker, F_OK) == 0 }
    #expect(nag.exitStatus == nil, "-B runs and stays")
  }

  /// KWin 5.27 offers no wlr foreign toplevels: fullscreen windows cannot be
  /// known, and a toast that would be suppressed over one shows.
  @Test func withoutAWindowListEveryToastShows() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    let result = try desk.runToEnd([
      "--fullscreen", "suppress", "--no-animation", "--timeout", "0", "Shown",
    ])
    #expect(result.status == 0 && result.errors.isEmpty, "\(result.errors)")
    try desk.waitForHUD()
  }

  @Test func aToastStaysOnScreenWhenTheScaleChanges() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    let result = try desk.runToEnd(["--no-animation", "--timeout", "0", "Rescaled"])
    #expect(result.status == 0, "\(result.errors)")
    try desk.waitForHUD()
    try desk.kwin.setScale(1.25)
    #expect(desk.kwin.scale == 1.25)
    #expect(desk.kwin.logicalWidth == 1536 && desk.kwin.logicalHeight == 864)
    // The box keeps its logical size (160x120 is 200x150 device pixels at 1.25) and
    // stays centred on the now larger logical output; the owner still shows it.
    var last: Box?
    try desk.screenshot("the HUD at scale 1.25 (last box: \(lastSeen(last)))") { shot in
      last = desk.hudBox(in: shot)
      return last.map { desk.hasMinimumHUDSize($0) } ?? false
    }
    desk.expectCentred(try #require(last))
    let status = try desk.runToEnd(["status"])
    #expect(status.status == 0 && status.output.contains("Rescaled"), "\(status)")
  }
  /// How `wl-toast status` says the default toast is drawn.
  static func drawn(on desk: Desk<HeadlessKWin>) throws -> DrawnSurface? {
    try desk.status()?.drawn.first
  }

  @Test(arguments: [1.25, 1.5])
  func theBufferIsTheLogicalSizeTimesTheFractionalScaleAndAsSharp(scale: Double) throws {
    let desk = try Desk<HeadlessKWin>(scale: scale)
    let result = try desk.runToEnd(["--no-animation", "--timeout", "0", "Crisp"])
    #expect(result.status == 0, "\(result.errors)")
    let box = try desk.waitForHUD()
    desk.expectCentred(box)
    desk.expectMinimumHUDSize(box)
    // Drawn at exactly the scale, into a buffer of the logical size times it:
    // nothing for KWin to rescale.
    let drawn = try #require(try Self.drawn(on: desk))
    #expect(drawn.scale == scale)
    #expect(drawn.frames == 1, "the first frame was already at the scale: no second one")
    #expect(drawn.bufferWidth == Int((Double(drawn.width) * scale).rounded()))
    #expect(drawn.bufferHeight == Int((Double(drawn.height) * scale).rounded()))
    // Text edges as narrow as in a rendering at scale 1: drawn at the scale, not
    // resampled from a larger or smaller buffer (measured: 0.96 and 0.80 px at 1.25
    // and 1.5 against 0.90 at 1; a scale-2 buffer that KWin shrinks to 1.5 has 1.19).
    let shot = try desk.kwin.screenshot()
    let ground = blend(Design.HUD.background, over: HeadlessKWin.background)
    let text = Box(
      x: box.x + box.width / 8, y: box.y + box.height / 2 - Int(12 * scale),
      width: box.width * 3 / 4, height: Int(24 * scale))
    let edge = shot.meanEdgeWidth(in: text, ground: ground)
    let reference = composited(Toast("Crisp"), over: HeadlessKWin.background)
    let layout = ToastLayout(toast: Toast("Crisp"), outputWidth: 1280, outputHeight: 720)
    // The same middle of the box in the offscreen image (surface coordinates).
    let oneText = Box(
      x: Int(layout.box.x + layout.box.width / 8), y: Int(layout.box.midY) - 12,
      width: Int(layout.box.width * 3 / 4), height: 24)
    let oneEdge = meanEdgeWidth(in: oneText, ground: ground, pixel: reference.blend)
    #expect(edge <= oneEdge + 0.15, "edges \(edge) px wide at \(scale), \(oneEdge) at 1")
  }

  @Test func aBannerRestsAtItsMarginAtAFractionalScale() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    // A red pill, to be seen on KWin's black background.
    let result = try desk.runToEnd([
      "--style", "banner", "--background", "#ff0000", "--margin", "20", "--no-animation",
      "--timeout", "0", "Banner",
    ])
    #expect(result.status == 0, "\(result.errors)")
    var pill: Box?
    try desk.screenshot("a red pill (last: \(lastSeen(pill)))") { shot in
      pill = shot.boundingBox { x, y in
        let pixel = shot.pixel(x: x, y: y)
        return pixel.red > 200 && pixel.green < 40 && pixel.blue < 40
      }
      return pill != nil
    }
    let found = try #require(pill)
    // 20 logical pixels below the top edge, 40 high, centred: times 1.5.
    #expect(abs(found.y - 30) <= 1, "\(found)")
    #expect(abs(found.height - 60) <= 1, "\(found)")
    #expect(abs(2 * found.x + found.width - desk.kwin.deviceWidth) <= 2, "\(found)")
    let drawn = try #require(try Self.drawn(on: desk))
    #expect(drawn.scale == 1.5)
    #expect(drawn.bufferWidth == Int((Double(drawn.width) * 1.5).rounded()))
  }

  @Test func aScaleChangeDrawsAgainAtTheNewScale() throws {
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
    #expect(try desk.runToEnd(["--no-animation", "--timeout", "0", "Again"]).status == 0)
    try desk.waitForHUD()
    #expect(try Self.drawn(on: desk)?.scale == 1.5)
    for scale in [1.25, 1.75] {
      try desk.kwin.setScale(scale)
      var drawn: DrawnSurface?
      try waitUntil("the toast drawn again at \(scale) (last: \(lastSeen(drawn)))", timeout: 30) {
        drawn = try Self.drawn(on: desk)
        return drawn?.scale == scale
      }
      let report = try #require(drawn)
      #expect(report.bufferWidth == Int((Double(report.width) * scale).rounded()))
      #expect(report.bufferHeight == Int((Double(report.height) * scale).rounded()))
    }
  }
}

extension Desk where Compositor == HeadlessKWin {

  /// Waits until the HUD's box is on screen and returns it, in device pixels.
  @discardableResult
  func waitForHUD(timeout: Double = 30) throws -> Box {
    var box: Box?
    try screenshot("the HUD's box", timeout: timeout) { shot in
      box = hudBox(in: shot)
      return box != nil
    }
    return box!
  }

  /// The HUD's dark box around its text on KWin's black background, in device
  /// pixels, or nil. The box is `Design.HUD.background` over black, (6, 6, 6); its
  /// grey shadow lies right of and below it, its white text inside. The box's edges
  /// are where runs of box colour end, scanning out from the text: its left and top
  /// edges cannot be told apart from the shadow's soft fringe by colour alone.
  func hudBox(in shot: Image) -> Box? {
    let boxColor = blend(Design.HUD.background, over: HeadlessKWin.background)
    guard let text = shot.boundingBox(where: { x, y in shot.pixel(x: x, y: y).red > 150 }) else {
      return nil
    }
    func isBox(_ x: Int, _ y: Int) -> Bool {
      x >= 0 && y >= 0 && x < shot.width && y < shot.height
        && shot.pixel(x: x, y: y).isClose(to: boxColor, tolerance: 2)
    }
    let middleX = text.x + text.width / 2
    let middleY = text.y + text.height / 2
    // Along the text's middle row, outwards from its ends; along its middle column,
    // outwards from its top and bottom.
    var left = text.x - 1
    while left > 0 && !isBox(left, middleY) && left > text.x - 4 { left -= 1 }
    guard isBox(left, middleY) else { return nil }
    while isBox(left - 1, middleY) { left -= 1 }
    var right = text.x + text.width
    while right < shot.width - 1 && !isBox(right, middleY) && right < text.x + text.width + 4 {
      right += 1
    }
    guard isBox(right, middleY) else { return nil }
    while isBox(right + 1, middleY) { right += 1 }
    var top = text.y - 1
    guard isBox(middleX, top) || isBox(middleX, top - 1) else { return nil }
    while isBox(middleX, top - 1) || isBox(middleX, top - 2) { top -= 1 }
    var bottom = text.y + text.height
    guard isBox(middleX, bottom) || isBox(middleX, bottom + 1) else { return nil }
    while isBox(middleX, bottom + 1) || isBox(middleX, bottom + 2) { bottom += 1 }
    return Box(x: left, y: top, width: right - left + 1, height: bottom - top + 1)
  }

  /// The box is in the middle of the output, to within a device pixel either way.
  func expectCentred(_ box: Box, sourceLocation: SourceLocation = #_sourceLocation) {
    let dx = 2 * box.x + box.width - kwin.deviceWidth
    let dy = 2 * box.y + box.height - kwin.deviceHeight
    #expect(
      abs(dx) <= 2 && abs(dy) <= 2,
      "box \(box) is not centred on \(kwin.deviceWidth)x\(kwin.deviceHeight)",
      sourceLocation: sourceLocation)
  }

  /// Whether the box is the HUD's smallest box (160x120 logical) at the current scale.
  func hasMinimumHUDSize(_ box: Box) -> Bool {
    let width = Design.HUD.minimumSize.width * kwin.scale
    let height = Design.HUD.minimumSize.height * kwin.scale
    return abs(Double(box.width) - width) <= 2 && abs(Double(box.height) - height) <= 2
  }

  func expectMinimumHUDSize(_ box: Box, sourceLocation: SourceLocation = #_sourceLocation) {
    #expect(
      hasMinimumHUDSize(box),
      "box \(box) is not the HUD's 160x120 logical at scale \(kwin.scale)",
      sourceLocation: sourceLocation)
  }
}
