import CompositorCases
import TestSupport
import ToastKit
import ToastRendering

extension Image {
  /// The banner's pill: the box of pixels of its colour in the top 120 rows.
  var pillBox: Box? {
    boundingBox { x, y in
      y < 120 && pixel(x: x, y: y).isClose(to: Looks.pillColor(HeadlessRiver.self), tolerance: 3)
    }
  }
}
