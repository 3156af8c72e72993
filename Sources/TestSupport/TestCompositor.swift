import Glibc
import SystemSupport

/// A test compositor as a desk sees it (HeadlessSway, HeadlessRiver,
/// HeadlessKWin): where clients connect, the environment they run with, a
/// directory for logs, and its traits: the scale and size of its first
/// output, the desktop's colour, the input a user has on it, how many outputs
/// it can have and the private session bus it runs on, if any.
package protocol TestCompositor: AnyObject {
  /// The pointer and keyboard of its desks.
  associatedtype Input: DeskInput
  /// The absolute path of its Wayland socket.
  var socketPath: String { get }
  /// The environment a client of it runs with.
  var clientEnvironment: [String: String] { get }
  /// A directory of its own, removed when it stops (logs, scratch files).
  var runtimeDirectory: String { get }
  /// The address of the private session bus it runs on; nil when it has none.
  var sessionBusAddress: String? { get }
  /// How long a wait for what it shows may take, in seconds (KWin on
  /// llvmpipe answers slowly): how long before a wait fails, never how
  /// late something may be (``lateness``).
  var patience: Double { get }
  /// How many times sway's lateness what it shows may have on a loaded
  /// machine (KWin's screenshots take seconds there): the factor of the
  /// margins a test allows past a deadline.
  var lateness: Double { get }
  /// Device pixels per logical pixel on the first output.
  var scale: Double { get }
  /// The size of its first output in logical pixels.
  var logicalSize: (width: Int, height: Int) { get }
  /// The desktop's colour on a desk of ``desk(outputs:)``.
  static var desktop: RGB { get }
  /// How many outputs its desks can have.
  static var outputLimit: Int { get }
  /// A desk with `outputs` outputs of 1280x720 side by side (HEADLESS-1,
  /// HEADLESS-2, …) over the desktop's colour, the pointer parked in the
  /// bottom-right corner.
  static func desk(outputs: Int) throws -> Desk<Self>
  /// A screenshot of its first output, in device pixels.
  func screenshot() throws -> Image
  /// A screenshot of one output, by name.
  func screenshot(output name: String) throws -> Image
  /// A screenshot of the top `rows` logical rows of the first output, in device pixels.
  func screenshot(topRows rows: Int) throws -> Image
}

extension TestCompositor {
  /// Takes screenshots of the first output until `condition` holds for one and
  /// returns it; throws a `WaitTimeout` naming `expected` (what the screen
  /// should show) after `timeout` seconds.
  @discardableResult
  package func screenshot(
    _ expected: @autoclosure () -> String, timeout: Double? = nil,
    until condition: (Image) -> Bool
  ) throws -> Image {
    var found: Image?
    try waitUntil("a screenshot showing \(expected())", timeout: timeout ?? patience) {
      let shot = try screenshot()
      if condition(shot) { found = shot }
      return found != nil
    }
    return found!
  }
}

/// sway and river draw at scale 1, grim captures any region of them, and
/// they run on no session bus of their own.
extension TestCompositor where Self: CapturedCompositor {
  /// One.
  package var scale: Double { 1 }
  /// Twenty seconds: a cold start of a command and its owner took 6 s once
  /// on a loaded machine.
  package var patience: Double { 20 }
  /// One.
  package var lateness: Double { 1 }
  /// None.
  package var sessionBusAddress: String? { nil }
  /// The first output's size.
  package var logicalSize: (width: Int, height: Int) { (outputWidth, outputHeight) }
  /// The whole first output.
  package func screenshot() throws -> Image { try screenshot(x: 0) }
  /// The top rows of the first output.
  package func screenshot(topRows rows: Int) throws -> Image {
    try screenshot(width: outputWidth, height: rows)
  }
}

extension HeadlessSway: TestCompositor {
  package typealias Input = VirtualInput
  /// sway's background colour.
  package static var desktop: RGB { background }
  /// Eight, added with `create_output`.
  package static var outputLimit: Int { 8 }
}

extension HeadlessRiver: TestCompositor {
  package typealias Input = VirtualInput
  /// river's background colour.
  package static var desktop: RGB { background }
  /// Eight, made by the headless backend.
  package static var outputLimit: Int { 8 }
}

extension HeadlessKWin: TestCompositor {
  package typealias Input = KWinFakeInput
  /// Thirty seconds: KWin on llvmpipe answers slowly.
  package var patience: Double { 30 }
  /// Six.
  package var lateness: Double { 6 }
  /// The private bus KWin starts on.
  package var sessionBusAddress: String? { busAddress }
  /// The output's logical size.
  package var logicalSize: (width: Int, height: Int) { (logicalWidth, logicalHeight) }
  /// The colour of the desktop surface a desk of ``desk(outputs:)`` maps
  /// (KWin's own is black, too close to the HUD's box to tell its edges).
  package static var desktop: RGB { RGB(0x20, 0x40, 0x80) }
  /// One: KWin's virtual backend makes one output.
  package static var outputLimit: Int { 1 }

  /// The one output, by its name.
  package func screenshot(output name: String) throws -> Image {
    let output = try outputState().name
    guard name == output else { throw HarnessError("no output \(name): KWin has \(output)") }
    return try screenshot()
  }

  /// The top rows, in device pixels.
  package func screenshot(topRows rows: Int) throws -> Image {
    try screenshot(
      deviceRegion: Box(x: 0, y: 0, width: deviceWidth, height: Int(Double(rows) * scale)))
  }
}
