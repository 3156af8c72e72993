import TestSupport
import ToastProtocol

// The desks of the flat compositors (sway, river): how each starts with the
// pointer parked, and how each shows one output of several.

extension TestDesk where Compositor == HeadlessSway, Input == VirtualInput {
  /// Starts a headless sway (`extraConfig` appended to its config) and parks
  /// the pointer in the bottom-right corner: away from every toast, and its
  /// cursor image (drawn into screenshots) falls off the output.
  package convenience init(extraConfig: String = "") throws {
    let sway = try HeadlessSway(extraConfig: extraConfig)
    self.init(
      sway,
      input: try VirtualInput(
        socketPath: sway.socketPath, width: sway.outputWidth, height: sway.outputHeight))
    try input.move(x: sway.outputWidth - 1, y: sway.outputHeight - 1)
  }

  /// The sway.
  package var sway: HeadlessSway { compositor }
}

extension TestDesk where Compositor == HeadlessRiver, Input == VirtualInput {
  /// Starts river (see ``HeadlessRiver``) and parks the pointer in the
  /// bottom-right corner, away from every toast: its cursor falls off the output.
  package convenience init(
    outputs: Int = 1, extraInit: String = "", environment: [String: String] = [:]
  ) throws {
    let river = try HeadlessRiver(outputs: outputs, extraInit: extraInit, environment: environment)
    let width = river.outputWidth * river.outputNames.count
    self.init(
      river,
      input: try VirtualInput(
        socketPath: river.socketPath, width: width, height: river.outputHeight))
    try input.move(x: width - 1, y: river.outputHeight - 1)
  }

  /// The river.
  package var river: HeadlessRiver { compositor }
}

/// A desk over a headless KWin at a scale, with a fake pointer and keyboard.
package typealias KWinDesk = TestDesk<HeadlessKWin, KWinFakeInput>

extension TestDesk where Compositor == HeadlessKWin, Input == KWinFakeInput {
  /// Starts a headless KWin at `scale` with a fake pointer and keyboard made
  /// before any client starts (KWin's fake device lives as long as its
  /// connection), and parks the pointer in the bottom-right corner, away from
  /// every toast.
  package convenience init(width: Int = 1280, height: Int = 720, scale: Double) throws {
    let kwin = try HeadlessKWin(width: width, height: height, scale: scale)
    self.init(kwin, input: try KWinFakeInput(socketPath: kwin.socketPath))
    try input.move(x: Double(kwin.logicalWidth - 1), y: Double(kwin.logicalHeight - 1))
  }

  /// The KWin.
  package var kwin: HeadlessKWin { compositor }
}

extension HeadlessKWin {
  /// A desk whose KWin is at scale 1.5, its one output covered by a desktop
  /// surface of ``desktop`` on the background layer. `outputs` is at most 1.
  package static func desk(outputs: Int) throws -> KWinDesk {
    precondition(outputs <= outputLimit, "KWin's virtual backend makes one output")
    let desk = try KWinDesk(scale: 1.5)
    let kwin = desk.kwin
    let argb =
      0xff00_0000 | UInt32(desktop.red) << 16 | UInt32(desktop.green) << 8
      | UInt32(desktop.blue)
    let surface = try ColorSurface(
      socketPath: kwin.socketPath, width: 0, height: 0, argb: argb, layer: .background,
      anchor: [.top, .bottom, .left, .right])
    guard try surface.pump(timeout: kwin.patience, until: { surface.isMapped }) else {
      throw HarnessError("KWin did not map the desktop surface")
    }
    desk.fixtures.append(surface)
    try kwin.screenshot("the desktop in \(desktop)") { $0.pixel(x: 0, y: 0) == desktop }
    return desk
  }
}

extension HeadlessSway {
  /// A desk whose sway has `outputs` outputs of 1280x720 side by side
  /// (HEADLESS-1, HEADLESS-2, …), added with `create_output`.
  package static func desk(outputs: Int) throws -> CaseDesk<HeadlessSway> {
    let desk = try CaseDesk<HeadlessSway>()
    for index in 1..<max(outputs, 1) { try desk.sway.addOutput(x: 1280 * index) }
    return desk
  }

  /// A screenshot of one output, by name.
  package func screenshot(output name: String) throws -> Image {
    guard let rect = try outputs()[name]?.rect else {
      throw HarnessError("no output \(name): sway has \(try outputs().keys.sorted())")
    }
    return try screenshot(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
  }
}

extension HeadlessRiver {
  /// A desk whose river has `outputs` outputs of 1280x720 side by side
  /// (HEADLESS-1, HEADLESS-2, …), made by the headless backend at start.
  package static func desk(outputs: Int) throws -> CaseDesk<HeadlessRiver> {
    try CaseDesk<HeadlessRiver>(outputs: outputs)
  }
}

extension HeadlessSway {
  /// The outputs sway has, by name: their place and size in the layout
  /// (logical pixels), and whether they are active.
  package func outputs() throws -> [String: (rect: Box, active: Bool, scale: Double)] {
    let reply = try JSONValue.parse(swaymsg(["-t", "get_outputs"]))
    var outputs: [String: (rect: Box, active: Bool, scale: Double)] = [:]
    guard case .array(let items) = reply else { return outputs }
    for item in items {
      guard let name = item["name"]?.stringValue, let rect = item["rect"] else { continue }
      func number(_ key: String) -> Int { Int(rect[key]?.doubleValue ?? 0) }
      outputs[name] = (
        Box(x: number("x"), y: number("y"), width: number("width"), height: number("height")),
        item["active"]?.boolValue ?? false, item["scale"]?.doubleValue ?? 1
      )
    }
    return outputs
  }

  /// Adds a headless output of 1280x720 at `x`, 0 with `scale`, and returns its name.
  @discardableResult
  package func addOutput(x: Int, scale: Int = 1) throws -> String {
    let before = Set(try outputs().keys)
    try swaymsg(["create_output"])
    var name: String?
    try waitUntil("a new output") {
      name = try outputs().keys.first { !before.contains($0) }
      return name != nil
    }
    try swaymsg([
      "output", name!, "mode", "1280x720", "position", String(x), "0", "scale", String(scale),
    ])
    return name!
  }
}
