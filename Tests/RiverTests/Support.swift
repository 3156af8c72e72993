import Glibc
import TestSupport
import ToastCommand
import ToastKit
import ToastRendering

/// A headless river plus the pointer and keyboard a user would have.
final class RiverDesk {
  let river: HeadlessRiver
  let input: VirtualInput

  /// Starts river (see ``HeadlessRiver``) and parks the pointer in the
  /// bottom-right corner, away from every toast: its cursor falls off the output.
  init(outputs: Int = 1, extraInit: String = "", environment: [String: String] = [:]) throws {
    river = try HeadlessRiver(outputs: outputs, extraInit: extraInit, environment: environment)
    let width = river.outputWidth * river.outputNames.count
    input = try VirtualInput(socketPath: river.socketPath, width: width, height: river.outputHeight)
    try input.move(x: width - 1, y: river.outputHeight - 1)
  }

  var center: (x: Int, y: Int) { (river.outputWidth / 2, river.outputHeight / 2) }

  /// Starts `wl-toast` with arguments against this river.
  func run(_ arguments: [String]) throws -> ChildProcess {
    try ChildProcess(
      [builtProduct("wl-toast")] + arguments, environment: river.clientEnvironment,
      logPath: river.runtimeDirectory + "/wl-toast.log")
  }

  /// Runs `wl-toast` to completion; returns its status, standard output and standard error.
  func runToEnd(_ arguments: [String], timeout: Double = 20) throws -> (
    status: Int32, output: String, errors: String
  ) {
    let log = river.runtimeDirectory + "/stderr-\(UInt32.random(in: 0...UInt32.max))"
    let command =
      ["sh", "-c", "exec \"$@\" 2> \"\(log)\"", "sh", builtProduct("wl-toast")] + arguments
    let result = try runCommand(command, environment: river.clientEnvironment, timeout: timeout)
    let errors = readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
    return (result.status, result.output, errors)
  }

  /// What `wl-toast status` says of a tag: its text and how many surfaces the
  /// owner created; nil when none shows.
  func status(tag: String = "default") throws -> (text: String, surfaces: Int)? {
    let result = try runToEnd(["status", "--tag", tag])
    guard result.status == 0 else { return nil }
    let value = try JSONValue.parse(
      result.output.hasSuffix("\n") ? String(result.output.dropLast()) : result.output)
    return (
      value["toast"]?["text"]?.stringValue ?? "", Int(value["surfaces"]?.doubleValue ?? 0)
    )
  }

  /// Takes screenshots until `condition` holds for one (see
  /// ``CapturedCompositor/screenshot(_:timeout:until:)``).
  @discardableResult
  func screenshot(
    _ expected: @autoclosure () -> String, timeout: Double = 5, until condition: (Image) -> Bool
  ) throws -> Image {
    try river.screenshot(expected(), timeout: timeout, until: condition)
  }
}

/// The HUD's and the banner's colours and places on a 1280x720 river output.
enum Looks {
  static let hudBox = blend(Design.HUD.background, over: HeadlessRiver.background)
  static let pill = blend(Design.Banner.background, over: HeadlessRiver.background)

  /// Where the layout puts a centred HUD's box on a 1280x720 output.
  static func hudBox(_ toast: Toast) -> Box {
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    return Box(
      x: (1280 - layout.surfaceWidth) / 2 + Int(layout.box.x),
      y: (720 - layout.surfaceHeight) / 2 + Int(layout.box.y), width: Int(layout.box.width),
      height: Int(layout.box.height))
  }

  /// Where a banner with `text` rests on a 1280x720 output: centred, 10 px
  /// below the top edge, 40 px high.
  static func restingPill(_ text: String) -> Box {
    let layout = ToastLayout(
      toast: Toast(text, style: .banner), outputWidth: 1280, outputHeight: 720)
    let width = Int(layout.box.width)
    return Box(
      x: (1280 - layout.surfaceWidth) / 2 + Int(layout.box.x), y: Int(Design.Banner.topGap),
      width: width, height: Int(Design.Banner.height))
  }
}

/// `top` drawn with its alpha over an opaque `bottom`, as the compositor blends it.
func blend(_ top: Toast.Color, over bottom: RGB) -> RGB {
  func channel(_ value: Double, _ under: UInt8) -> UInt8 {
    UInt8((value * 255 * top.alpha + Double(under) * (1 - top.alpha)).rounded())
  }
  return RGB(
    channel(top.red, bottom.red), channel(top.green, bottom.green), channel(top.blue, bottom.blue))
}

extension Image {
  /// The banner's pill: the box of pixels of its colour in the top 120 rows.
  var pillBox: Box? {
    boundingBox { x, y in y < 120 && pixel(x: x, y: y).isClose(to: Looks.pill, tolerance: 3) }
  }
}
