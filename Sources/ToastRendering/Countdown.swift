import CPangoCairo
import ToastModel

/// A timeout as its countdown line (`--countdown`) shows it: when it started
/// (again), how long it is, and whether it is paused. The line shows the
/// share that remains; it stops while the timeout is paused and is full
/// again when the timeout starts again at its full length.
///
/// Times are seconds on the animation clock; the value only compares them.
public struct Countdown: Equatable, Sendable {
  /// The timeout's length in seconds.
  public let length: Double
  /// When the timeout started, or last started again at its full length.
  public private(set) var startedAt: Double
  /// When the timeout was paused, while it is.
  public private(set) var pausedAt: Double?

  /// A timeout of `length` seconds that starts at `startedAt` (the line is
  /// full until then), paused from `pausedAt` when given.
  public init(length: Double, startedAt: Double, pausedAt: Double? = nil) {
    self.length = length
    self.startedAt = startedAt
    self.pausedAt = pausedAt
  }

  /// Whether the timeout is paused.
  public var isPaused: Bool { pausedAt != nil }

  /// Pauses at `time`: the line stops where it is. A second pause keeps the first.
  public mutating func pause(at time: Double) {
    guard pausedAt == nil else { return }
    pausedAt = time
  }

  /// Starts the timeout again at its full length at `time`, running.
  public mutating func restart(at time: Double) {
    startedAt = time
    pausedAt = nil
  }

  /// The share of the timeout that remains at `time`: 1 until it starts, 0
  /// once it has run out (or for a timeout of no length); while paused, what
  /// remained when the pause began.
  public func remaining(at time: Double) -> Double {
    guard length > 0, length.isFinite else { return 0 }
    let reached = pausedAt.map { min($0, time) } ?? time
    let share = 1 - (reached - startedAt) / length
    return share.isNaN ? 0 : min(max(share, 0), 1)
  }

  /// Whether the line moves at `time`: the timeout runs and has not run out.
  public func isMoving(at time: Double) -> Bool {
    pausedAt == nil && length > 0 && length.isFinite && time < startedAt + length
  }

  /// What a frame at `time` shows of a toast's line, and whether the line
  /// asks for the next frame: none when the toast shows no line (`shown`
  /// false: no `--countdown`, or no timeout); a full line about to move
  /// before its timeout has started (`countdown` nil); otherwise the share
  /// left, moving while the timeout runs, still while it is paused or once
  /// it has run out.
  public static func line(
    of countdown: Countdown?, shown: Bool, at time: Double
  ) -> (remaining: Double?, moving: Bool) {
    guard shown else { return (nil, false) }
    guard let countdown else { return (1, true) }
    return (countdown.remaining(at: time), countdown.isMoving(at: time))
  }
}

extension Toast {
  /// Whether the toast draws a countdown line: it asks for one and has a
  /// timeout (none without: nothing runs out).
  public var drawsCountdown: Bool { showsCountdown && effectiveTimeout > .zero }
}

extension ToastLayout {
  /// The countdown line at its full length, at rest: along the bottom edge
  /// inside the box (the box's rounded corners clip its ends); for a bar
  /// (the one layout with a border line), along its row's bottom edge, above
  /// the border.
  public var countdownLine: Rect {
    let thickness = Design.Countdown.thickness
    if let border = barBorder {
      let rowBottom = Double(exclusiveZone) - border.height
      return Rect(x: box.x, y: rowBottom - thickness, width: box.width, height: thickness)
    }
    return Rect(x: box.x, y: box.y + box.height - thickness, width: box.width, height: thickness)
  }
}

extension Renderer {
  /// Draws the countdown line of `layout` moved down by `dy` (a slide),
  /// `remaining` of it (0 to 1) from its left end, in `color` at the line's
  /// opacity, inside the box's rounded corners.
  static func drawCountdown(
    _ remaining: Double, layout: ToastLayout, dy: Double, color: Toast.Color,
    in cairo: OpaquePointer
  ) {
    let share = remaining.isNaN ? 0 : min(max(remaining, 0), 1)
    guard share > 0 else { return }
    var line = layout.countdownLine
    line.y += dy
    cairo_save(cairo)
    if layout.cornerRadius > 0 {
      var box = layout.box
      box.y += dy
      roundedRectangle(box, radius: layout.cornerRadius, in: cairo)
      cairo_clip(cairo)
    }
    cairo_rectangle(cairo, line.x, line.y, line.width * share, line.height)
    setColor(color, in: cairo, alpha: Design.Countdown.opacity)
    cairo_fill(cairo)
    cairo_restore(cairo)
  }
}
