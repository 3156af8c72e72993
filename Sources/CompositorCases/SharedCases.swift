import TestSupport
import Testing
import ToastKit
import ToastProtocol
import ToastRendering

/// `top` drawn with its alpha (times `opacity`) over an opaque `bottom`, as
/// the compositor blends it.
package func blend(_ top: Toast.Color, over bottom: RGB, opacity: Double = 1) -> RGB {
  let alpha = top.alpha * opacity
  func channel(_ value: Double, _ under: UInt8) -> UInt8 {
    UInt8((value * 255 * alpha + Double(under) * (1 - alpha)).rounded())
  }
  return RGB(
    channel(top.red, bottom.red), channel(top.green, bottom.green), channel(top.blue, bottom.blue))
}

/// Where the design puts things on a 1280x720 output, in screen pixels.
package enum Looks {
  /// Where the layout puts a centred HUD's box.
  package static func hudBox(_ toast: Toast, shift: Double = 0) -> Box {
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, shift: shift)
    return Box(
      x: (1280 - layout.surfaceWidth) / 2 + Int(layout.box.x),
      y: (720 - layout.surfaceHeight) / 2 + Int(layout.box.y), width: Int(layout.box.width),
      height: Int(layout.box.height))
  }

  /// Where a centred HUD's button `index` is, in logical pixels of the output.
  package static func button(_ index: Int, of toast: Toast) -> Box {
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let frame = layout.buttons[index].frame
    return Box(
      x: (1280 - layout.surfaceWidth) / 2 + Int(frame.x),
      y: (720 - layout.surfaceHeight) / 2 + Int(frame.y), width: Int(frame.width),
      height: Int(frame.height))
  }

  /// Where a banner with `text` rests: centred, below the top edge.
  package static func restingPill(_ text: String) -> Box {
    let layout = ToastLayout(
      toast: Toast(text, style: .banner), outputWidth: 1280, outputHeight: 720)
    return Box(
      x: (1280 - layout.surfaceWidth) / 2 + Int(layout.box.x), y: Int(Design.Banner.topGap),
      width: Int(layout.box.width), height: Int(Design.Banner.height))
  }

  /// The HUD's box colour over the desktop of `Compositor`.
  package static func hudColor<Compositor: TestCompositor>(_: Compositor.Type) -> RGB {
    blend(Design.HUD.background, over: Compositor.desktop)
  }

  /// The banner's pill colour over the desktop of `Compositor`.
  package static func pillColor<Compositor: TestCompositor>(_: Compositor.Type) -> RGB {
    blend(Design.Banner.background, over: Compositor.desktop)
  }

  /// A box in logical pixels, in the device pixels of `scale`.
  package static func device(_ box: Box, scale: Double) -> Box {
    func times(_ value: Int) -> Int { Int((Double(value) * scale).rounded()) }
    return Box(x: times(box.x), y: times(box.y), width: times(box.width), height: times(box.height))
  }

  /// The rows at column `x` darker than `background` (the pill, even half faded in).
  package static func darkRows(_ shot: Image, x: Int, background: RGB) -> ClosedRange<Int>? {
    let limit = Int(background.red) + Int(background.green) + Int(background.blue) - 15
    let rows = (0..<shot.height).filter { y in
      let p = shot.pixel(x: x, y: y)
      return Int(p.red) + Int(p.green) + Int(p.blue) < limit
    }
    guard let first = rows.first, let last = rows.last else { return nil }
    return first...last
  }
}

/// The cases every compositor runs alike: where the HUD and the banner show,
/// what a click (on a tap toast and through a plain one) and Escape do, and an update in place. Each
/// test target runs them on its compositor with a parameterised test
/// (`@Test(arguments: SharedCase.allCases)`).
package enum SharedCase: String, CaseIterable, Sendable {
  case hudPlacement
  case bannerPlacement
  case tapDismisses
  case aClickPassesThrough
  case escapeDismissesAModalToast
  case updateInPlace
  case namedAndAllOutputs
  case unknownOutput
  case aClickChoosesAButton
  case tabEnterAndEscapeAnswerButtons

  /// How many outputs the case's desk has.
  private var outputs: Int {
    switch self {
    case .namedAndAllOutputs, .unknownOutput: 2
    default: 1
    }
  }

  /// The cases a desk of `Compositor` can hold (as many outputs as they need).
  package static func cases<Compositor: TestCompositor>(for _: Compositor.Type) -> [SharedCase] {
    allCases.filter { $0.outputs <= Compositor.outputLimit }
  }

  /// Runs the case on a new desk of `Compositor`.
  package func run<Compositor: TestCompositor>(on _: Compositor.Type) throws {
    let desk = try Compositor.desk(outputs: outputs)
    switch self {
    case .hudPlacement: try Self.hudPlacement(desk)
    case .bannerPlacement: try Self.bannerPlacement(desk)
    case .tapDismisses: try Self.tapDismisses(desk)
    case .aClickPassesThrough: try Self.aClickPassesThrough(desk)
    case .escapeDismissesAModalToast: try Self.escape(desk)
    case .updateInPlace: try Self.updateInPlace(desk)
    case .namedAndAllOutputs: try Self.namedAndAllOutputs(desk)
    case .unknownOutput: try Self.unknownOutput(desk)
    case .aClickChoosesAButton: try Self.clickOnAButton(desk)
    case .tabEnterAndEscapeAnswerButtons: try Self.buttonKeys(desk)
    }
  }

  /// The toast with two buttons that the button cases show.
  private static let asking: Toast = {
    var toast = Toast("Deleted 3 files")
    toast.buttons = ["Undo", "Keep"]
    return toast
  }()

  /// Runs `wl-toast --button Undo --button Keep --wait --print-outcome` with
  /// `extra` options until its HUD is on screen; returns the command and the
  /// log of its standard output.
  private static func ask<C: TestCompositor>(_ desk: Desk<C>, _ extra: [String] = []) throws
    -> (ChildProcess, log: String)
  {
    let log = desk.compositor.runtimeDirectory + "/asked-\(UInt32.random(in: 0...UInt32.max))"
    let command = try desk.run(
      ["--button", "Undo", "--button", "Keep", "--wait", "--print-outcome", "--no-animation"]
        + extra + ["Deleted 3 files"], logPath: log)
    let box = Looks.device(Looks.hudBox(asking), scale: desk.compositor.scale)
    try desk.screenshot("the HUD with buttons at \(box)") {
      $0.boundingBox(of: Looks.hudColor(C.self), tolerance: 3) == box
    }
    return (command, log)
  }

  /// What the command printed.
  private static func printed(_ log: String) -> String {
    readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// A click on the second button: `--wait` exits 11 and prints `button:Keep`;
  /// the toast stays until then (no timeout with buttons).
  private static func clickOnAButton<C: TestCompositor>(_ desk: Desk<C>) throws {
    let (command, log) = try ask(desk)
    // Longer than a HUD's own 2 s: a toast with buttons waits for its answer.
    #expect(command.wait(timeout: 2.5) == nil, "it stays until answered")
    let keep = Looks.button(1, of: asking)
    try desk.input.click(atX: keep.x + keep.width / 2, y: keep.y + keep.height / 2)
    #expect(command.wait(timeout: desk.compositor.patience) == 11)
    #expect(printed(log) == "button:Keep\n")
  }

  /// With the keyboard: Tab moves to the second button and Enter chooses it
  /// (11, `button:Keep`); Escape dismisses a second toast (2, `dismissed`).
  private static func buttonKeys<C: TestCompositor>(_ desk: Desk<C>) throws {
    let (command, log) = try ask(desk, ["--keyboard", "exclusive"])
    try desk.input.press(.tab)
    try desk.input.press(.enter)
    #expect(command.wait(timeout: desk.compositor.patience) == 11)
    #expect(printed(log) == "button:Keep\n")
    let (second, secondLog) = try ask(desk, ["--keyboard", "exclusive"])
    try desk.input.press(.escape)
    #expect(second.wait(timeout: desk.compositor.patience) == 2)
    #expect(printed(secondLog) == "dismissed\n")
  }

  /// `--output HEADLESS-2` shows the toast there alone; `--output all` on each.
  private static func namedAndAllOutputs<C: TestCompositor>(_ desk: Desk<C>) throws {
    let box = Looks.hudBox(Toast("Two"))
    let color = Looks.hudColor(C.self)
    func boxes() throws -> (one: Box?, two: Box?) {
      (
        try desk.compositor.screenshot(output: "HEADLESS-1").boundingBox(of: color, tolerance: 3),
        try desk.compositor.screenshot(output: "HEADLESS-2").boundingBox(of: color, tolerance: 3)
      )
    }
    var seen: (one: Box?, two: Box?) = (nil, nil)
    let named = try desk.runToEnd([
      "--output", "HEADLESS-2", "--no-animation", "--timeout", "0", "Two",
    ])
    #expect(named.status == 0, "\(named.errors)")
    try waitUntil("the box on HEADLESS-2 at \(box), none on HEADLESS-1 (last: \(seen))") {
      seen = try boxes()
      return seen.one == nil && seen.two == box
    }
    #expect(try desk.runToEnd(["hide"]).status == 0)
    try waitUntil("no box on either output (last: \(seen))") {
      seen = try boxes()
      return seen.one == nil && seen.two == nil
    }
    let all = try desk.runToEnd(["--output", "all", "--no-animation", "--timeout", "0", "Two"])
    #expect(all.status == 0, "\(all.errors)")
    try waitUntil("the box on both outputs at \(box) (last: \(seen))") {
      seen = try boxes()
      return seen.one == box && seen.two == box
    }
  }

  /// An output that does not exist is a usage error naming the outputs that do,
  /// from a new owner and from a running one.
  private static func unknownOutput<C: TestCompositor>(_ desk: Desk<C>) throws {
    for round in 0..<2 {
      if round == 1 { #expect(!desk.ownerProcesses().isEmpty, "an owner runs") }
      let result = try desk.runToEnd(["--output", "DP-9", "--no-animation", "Lost"])
      #expect(result.status == 64)
      // The outputs in the order the compositor announced them.
      #expect(result.errors.hasPrefix("wl-toast: --output: no output named 'DP-9' (outputs: "))
      #expect(result.errors.contains("HEADLESS-1") && result.errors.contains("HEADLESS-2"))
      #expect(result.errors.split(separator: "\n").count == 1)
      #expect(try desk.runToEnd(["--tag", "keep", "--timeout", "0", "Owner"]).status == 0)
    }
    #expect(try desk.runToEnd(["hide", "--tag", "keep"]).status == 0)
  }

  /// The HUD is centred, in the design's colours, with its text and shadow.
  private static func hudPlacement<C: TestCompositor>(_ desk: Desk<C>) throws {
    let command = try desk.run(["--no-animation", "--timeout", "0", "Saved"])
    defer { command.terminate() }
    let color = Looks.hudColor(C.self)
    let logical = Looks.hudBox(Toast("Saved"))
    #expect(logical == Box(x: 560, y: 300, width: 160, height: 120), "centred on the output")
    let expected = Looks.device(logical, scale: desk.compositor.scale)
    var seen: Box?
    let shot = try desk.screenshot("the HUD box at \(expected) (last seen: \(lastSeen(seen)))") {
      seen = $0.boundingBox(of: color, tolerance: 3)
      return seen == expected
    }
    // A corner of the box shows the design's translucent dark grey over the desktop.
    let inside = Looks.device(Box(x: 12, y: 12, width: 2, height: 2), scale: desk.compositor.scale)
    #expect(
      shot.pixel(x: expected.x + inside.x, y: expected.y + inside.y).isClose(
        to: color, tolerance: 3))
    // White text in the middle of the box.
    #expect(shot.brightPixels(in: expected.insetBy(inside.x + inside.width * 4), than: color) > 50)
    // The light shadow below and to the right, nothing to the left.
    let belowRight = shot.pixel(
      x: expected.x + expected.width + inside.width, y: expected.y + expected.height + inside.width)
    #expect(Int(belowRight.red) > Int(C.desktop.red) + 20)
    #expect(shot.pixel(x: expected.x - 3, y: expected.y + expected.height / 2) == C.desktop)
  }

  /// The banner slides down and rests below the top edge, fitted to its text.
  private static func bannerPlacement<C: TestCompositor>(_ desk: Desk<C>) throws {
    // The library in this process, on a clock the test sets: each frame is
    // drawn at the instant the test chose, however slow the screenshots are.
    let presenter = try ToastPresenter(display: desk.compositor.socketPath)
    var clock = 0.0
    presenter.animationClock = { clock }
    let scale = desk.compositor.scale
    var frames = 0
    presenter.onFrame = { _ in frames += 1 }
    presenter.show(Toast("Hi", style: .banner, timeout: .untilDismissed))
    // The entry starts at the first frame, drawn at 0.
    try waitUntil("the banner's first frame", timeout: desk.compositor.patience) {
      try presenter.dispatch(timeout: .milliseconds(20))
      return frames >= 1
    }
    // A frame from the middle of the 0.8 s entry shows the pill above its
    // resting place.
    clock = 0.3
    var rows: ClosedRange<Int>?
    try waitUntil(
      "the pill to show above its resting place (last seen: \(lastSeen(rows)))",
      timeout: desk.compositor.patience
    ) {
      try presenter.dispatch(timeout: .milliseconds(20))
      let top = try desk.compositor.screenshot(topRows: 120)
      rows = Looks.darkRows(top, x: Int(610 * scale), background: C.desktop)
      return rows.map { Double($0.upperBound) < 49 * scale } ?? false
    }
    clock = 10
    // "Hi" gives the narrowest pill (100 + 20 wide), centred: x 580...699,
    // 10 px below the top edge, 40 px high; fully opaque at rest, exactly its
    // design colour from edge to edge.
    let resting = Looks.restingPill("Hi")
    #expect(resting == Box(x: 580, y: 10, width: 120, height: 40))
    let onScreen = Looks.device(resting, scale: scale)
    var seen: Box?
    try waitUntil(
      "the opaque pill at rest, \(onScreen) (last seen: \(lastSeen(seen)))",
      timeout: desk.compositor.patience
    ) {
      try presenter.dispatch(timeout: .milliseconds(20))
      seen = try desk.compositor.screenshot(topRows: 120)
        .boundingBox(of: Looks.pillColor(C.self), tolerance: 3)
      return seen == onScreen
    }
  }

  /// A click on a tap toast dismisses it: `--wait` exits 2, `--print-outcome`
  /// says `dismissed` and the box goes.
  private static func tapDismisses<C: TestCompositor>(_ desk: Desk<C>) throws {
    let log = desk.compositor.runtimeDirectory + "/dismissed.log"
    let command = try desk.run(
      [
        "--wait", "--print-outcome", "--no-animation", "--timeout", "0", "--dismiss", "tap",
        "Tap me",
      ], logPath: log)
    let color = Looks.hudColor(C.self)
    let logical = Looks.hudBox(Toast("Tap me"))
    let box = Looks.device(logical, scale: desk.compositor.scale)
    try desk.screenshot("the HUD box at \(box)") { $0.boundingBox(of: color, tolerance: 3) == box }
    try desk.input.click(atX: logical.x + 10, y: logical.y + 10)
    #expect(command.wait(timeout: desk.compositor.patience) == 2)
    let output = readFile(log).map { String(decoding: $0, as: UTF8.self) }
    #expect(output == "dismissed\n", "standard output and error")
    try desk.screenshot("no HUD box left") { $0.boundingBox(of: color, tolerance: 3) == nil }
  }

  /// A toast without `--dismiss tap` lets a click reach the surface below, and stays.
  private static func aClickPassesThrough<C: TestCompositor>(_ desk: Desk<C>) throws {
    let below = try ColorSurface(
      socketPath: desk.compositor.socketPath, width: 400, height: 300, argb: 0xff33_aa33,
      layer: .bottom)
    #expect(try below.pump(timeout: desk.compositor.patience) { below.isMapped })
    let command = try desk.run(["--no-animation", "--timeout", "0", "Over"])
    defer { command.terminate() }
    let color = blend(Design.HUD.background, over: RGB(0x33, 0xaa, 0x33))
    let logical = Looks.hudBox(Toast("Over"))
    let box = Looks.device(logical, scale: desk.compositor.scale)
    try desk.screenshot("the HUD box at \(box) over the green surface") {
      $0.boundingBox(of: color, tolerance: 3) == box
    }
    try desk.input.click(atX: logical.x + 10, y: logical.y + 10)
    #expect(
      try below.pump(timeout: desk.compositor.patience) {
        below.pointerEvents.contains(.button(code: 0x110, pressed: true))
      })
    #expect(
      try desk.compositor.screenshot().boundingBox(of: color, tolerance: 3) == box, "it stays")
  }

  /// Escape dismisses a modal toast that dims the desktop: `--wait` exits 2.
  private static func escape<C: TestCompositor>(_ desk: Desk<C>) throws {
    let command = try desk.run([
      "--wait", "--no-animation", "--timeout", "0", "--modal", "--dim", "--dismiss", "tap", "Esc",
    ])
    let dimmed = blend(Design.dim, over: C.desktop)
    try desk.screenshot("the desktop dimmed behind the modal toast") {
      $0.pixel(x: 10, y: 10).isClose(to: dimmed, tolerance: 3)
    }
    try desk.input.press(.escape)
    #expect(command.wait(timeout: desk.compositor.patience) == 2)
  }

  /// A second command with the tag redraws the toast in place: one surface,
  /// the same box, only the inside changed.
  private static func updateInPlace<C: TestCompositor>(_ desk: Desk<C>) throws {
    func show(_ percent: Int) throws {
      let result = try desk.runToEnd([
        "--tag", "volume", "--progress", String(percent), "--no-animation", "--timeout", "0",
        "Volume \(percent)%",
      ])
      #expect(result.status == 0, "\(result.errors)")
    }
    let color = Looks.hudColor(C.self)
    try show(40)
    var first = Toast("Volume 40%")
    first.progress = 0.4
    let box = Looks.device(Looks.hudBox(first), scale: desk.compositor.scale)
    let before = try desk.screenshot("the HUD box at \(box)") {
      $0.boundingBox(of: color, tolerance: 3) == box
    }
    try show(70)
    var second = first
    second.text = "Volume 70%"
    second.progress = 0.7
    #expect(
      Looks.hudBox(second) == Looks.hudBox(first), "the same box: the bar and the text change")
    try desk.screenshot("the bar and text redrawn inside \(box)") { shot in
      guard shot.boundingBox(of: color, tolerance: 3) == box,
        let changed = shot.difference(from: before)
      else { return false }
      return box.contains(changed)
    }
    let line = try #require(try desk.statusLine(tag: "volume"))
    let status = try JSONValue.parse(line)
    #expect(status["toast"]?["text"]?.stringValue == "Volume 70%")
    #expect(status["surfaces"]?.doubleValue == 1, "one surface: updated in place, not shown again")
  }
}
