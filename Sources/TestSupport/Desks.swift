// Each compositor's desk: how it starts with the pointer parked away from
// every toast, and how it holds several outputs.

extension Desk where Compositor == HeadlessSway {
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

extension Desk where Compositor == HeadlessRiver {
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

extension Desk where Compositor == HeadlessKWin {
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
  package static func desk(outputs: Int) throws -> Desk<HeadlessKWin> {
    precondition(outputs <= outputLimit, "KWin's virtual backend makes one output")
    let desk = try Desk<HeadlessKWin>(scale: 1.5)
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
  package static func desk(outputs: Int) throws -> Desk<HeadlessSway> {
    let desk = try Desk<HeadlessSway>()
    for index in 1..<max(outputs, 1) { try desk.sway.addOutput(x: 1280 * index) }
    return desk
  }
}

extension HeadlessRiver {
  /// A desk whose river has `outputs` outputs of 1280x720 side by side
  /// (HEADLESS-1, HEADLESS-2, …), made by the headless backend at start.
  package static func desk(outputs: Int) throws -> Desk<HeadlessRiver> {
    try Desk<HeadlessRiver>(outputs: outputs)
  }
}
