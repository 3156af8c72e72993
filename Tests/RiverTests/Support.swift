import CompositorCases
import Glibc
import TestSupport
import ToastCommand
import ToastKit
import ToastRendering

/// A headless river plus the pointer and keyboard a user would have.
typealias RiverDesk = TestDesk<HeadlessRiver, VirtualInput>

extension TestDesk where Compositor == HeadlessRiver, Input == VirtualInput {
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
