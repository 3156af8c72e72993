import CompositorCases
import Glibc
import TestSupport
import ToastCommand
import ToastKit
import ToastRendering

/// A headless river plus the pointer and keyboard a user would have.
typealias RiverDesk = TestDesk<HeadlessRiver, VirtualInput>

extension TestDesk where Compositor == HeadlessRiver, Input == VirtualInput {
  /// Starts river (see ``HeadlessRiver``) and parks the pointer in the
  /// bottom-right corner, away from every toast: its cursor falls off the output.
  convenience init(outputs: Int = 1, extraInit: String = "", environment: [String: String] = [:])
    throws
  {
    let river = try HeadlessRiver(outputs: outputs, extraInit: extraInit, environment: environment)
    let width = river.outputWidth * river.outputNames.count
    self.init(
      river,
      input: try VirtualInput(
        socketPath: river.socketPath, width: width, height: river.outputHeight))
    try input.move(x: width - 1, y: river.outputHeight - 1)
  }

  var river: HeadlessRiver { compositor }

  var center: (x: Int, y: Int) { (river.outputWidth / 2, river.outputHeight / 2) }

  /// What `wl-toast status` says of a tag: its text and how many surfaces the
  /// owner created; nil when none shows.
  func status(tag: String = "default") throws -> (text: String, surfaces: Int)? {
    try statusLine(tag: tag).map { line in
      let value = try JSONValue.parse(line)
      return (value["toast"]?["text"]?.stringValue ?? "", Int(value["surfaces"]?.doubleValue ?? 0))
    }
  }
}

extension Image {
  /// The banner's pill: the box of pixels of its colour in the top 120 rows.
  var pillBox: Box? {
    boundingBox { x, y in
      y < 120 && pixel(x: x, y: y).isClose(to: Looks.pillColor(HeadlessRiver.self), tolerance: 3)
    }
  }
}
