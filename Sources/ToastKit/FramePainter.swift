import ToastRendering
import Wayland

/// What a frame shows apart from the spinner's turn and the countdown line's
/// length: a buffer that shows the same needs only those drawn again.
private struct FrameContents: Hashable {
  var version: Int
  var opacity: Double
  var slide: Double
  var width: Int32
  var height: Int32
  var scale: RenderScale
  var buttons: Interaction
  var countdown: Bool
}

/// The buffers of one layer surface and the frames painted into them: a
/// buffer the compositor does not hold for each frame, the frame drawn into
/// it (only the spinner and the countdown line when the rest shows already),
/// and the part of it that differs from the frame before.
///
/// A frame's `version` is its surface's content version: it changes whenever
/// the toast or its layout does.
final class FramePainter {
  private let pool: ShmBufferPool
  /// The buffer holding the first frame, drawn before the first configure.
  private weak var preparedFrame: ShmBuffer?
  /// What the last frame showed, to damage only what changed.
  private var lastFrame:
    (appearance: Appearance, content: Int, width: Int32, height: Int32, buttons: Interaction)?

  /// Buffers from `shm`.
  init(shm: WlShm) {
    pool = ShmBufferPool(shm: shm)
  }

  /// A buffer the compositor does not hold, for a frame of `width` x `height`
  /// logical pixels at `scale`; nil when both are held.
  func freeBuffer(width: Int, height: Int, scale: RenderScale) -> Result<ShmBuffer?, WaylandError> {
    guard let pixelWidth = scale.pixels(width), let pixelHeight = scale.pixels(height),
      let bufferWidth = Int32(exactly: pixelWidth), let bufferHeight = Int32(exactly: pixelHeight)
    else {
      return .failure(.bufferTooLarge(width: width, height: height))
    }
    do {
      return .success(try pool.nextBuffer(width: bufferWidth, height: bufferHeight))
    } catch {
      // No buffer for this toast (too large, no shared memory).
      return .failure(error)
    }
  }

  /// Gives back the memory of the buffers the compositor does not hold (now,
  /// or when it releases them) until the next frame: for a surface whose
  /// last frame is committed and that changes seldom.
  func rest() { pool.rest() }

  /// Draws the frame into `buffer`; false when Cairo cannot use it.
  ///
  /// A buffer that holds this frame already is not drawn again: the first
  /// frame, drawn while the first configure was on its way, or any frame but
  /// for the spinner's turn and the countdown line (only they are drawn again).
  func paint(
    _ toast: Toast, layout: ToastLayout, version: Int, appearance: Appearance,
    buttons: Interaction, into buffer: ShmBuffer, scale: RenderScale
  ) -> Bool {
    guard let canvas = canvas(for: buffer) else { return false }
    let contents = FrameContents(
      version: version, opacity: appearance.opacity, slide: appearance.slide,
      width: buffer.width, height: buffer.height, scale: scale, buttons: buttons,
      countdown: appearance.countdown != nil)
    let prepared = preparedFrame === buffer
    preparedFrame = nil
    var clip: Rect?
    if canvas.contents == AnyHashable(contents) {
      if let moving = Self.movingArea(layout, countdown: appearance.countdown != nil) {
        clip = Rect(
          x: moving.x - 1, y: moving.y - 1, width: moving.width + 2, height: moving.height + 2)
      } else if prepared {
        return true
      }
    }
    canvas.draw(
      toast, layout: layout, appearance: appearance, scale: scale.factor, clip: clip,
      buttons: buttons)
    canvas.contents = contents
    return true
  }

  /// Draws the first frame, at `width` x `height` logical pixels, while the
  /// compositor answers the role's commit, so that it is ready to attach when
  /// the configure comes; a configure of another size, or another scale or
  /// content by then, draws it again.
  func prepareFirstFrame(
    _ toast: Toast, layout: ToastLayout, version: Int, appearance: Appearance,
    buttons: Interaction, width: Int, height: Int, scale: RenderScale
  ) {
    guard case .success(let buffer?) = freeBuffer(width: width, height: height, scale: scale),
      paint(
        toast, layout: layout, version: version, appearance: appearance, buttons: buttons,
        into: buffer, scale: scale)
    else { return }
    preparedFrame = buffer
  }

  /// The Cairo canvas over a buffer's pixels, made at its first use and kept
  /// with the buffer; nil when Cairo cannot use the buffer.
  private func canvas(for buffer: ShmBuffer) -> Canvas? {
    if let canvas = buffer.drawingContext as? Canvas { return canvas }
    let canvas = Canvas(
      pixels: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
    buffer.drawingContext = canvas
    return canvas
  }

  /// What moves in frames that show the same contents: the spinner, the
  /// countdown line (`countdown`: drawn), or the rectangle around both; nil
  /// for neither.
  private static func movingArea(_ layout: ToastLayout, countdown: Bool) -> Rect? {
    guard countdown else { return layout.spinner }
    let line = layout.countdownLine
    guard let spinner = layout.spinner else { return line }
    let left = min(spinner.x, line.x)
    let top = min(spinner.y, line.y)
    return Rect(
      x: left, y: top, width: max(spinner.x + spinner.width, line.x + line.width) - left,
      height: max(spinner.y + spinner.height, line.y + line.height) - top)
  }

  /// Whether the frame shown last is this one, at `width` x `height`
  /// logical pixels at `scale` (the scale it was drawn at): the same
  /// content, opacity, slide, countdown line and buttons, and no spinner
  /// turning. A commit
  /// then needs no new buffer (a move in a stack changes only the margins).
  func shows(
    layout: ToastLayout, version: Int, appearance: Appearance, buttons: Interaction,
    width: Int, height: Int, scale: RenderScale
  ) -> Bool {
    guard layout.spinner == nil, let last = lastFrame,
      let pixelWidth = scale.pixels(width), let pixelHeight = scale.pixels(height)
    else { return false }
    return last.content == version && last.buttons == buttons
      && Int(last.width) == pixelWidth && Int(last.height) == pixelHeight
      && last.appearance.opacity == appearance.opacity
      && last.appearance.slide == appearance.slide
      && last.appearance.countdown == appearance.countdown
  }

  /// The part of `buffer`, the frame about to be shown, that differs from
  /// the frame shown before: only the spinner and the countdown line while
  /// nothing else moves, otherwise everything. The frame is the last one
  /// from now on.
  func damage(
    layout: ToastLayout, version: Int, appearance: Appearance, buttons: Interaction,
    buffer: ShmBuffer, scale s: Double
  ) -> (x: Int32, y: Int32, width: Int32, height: Int32) {
    defer { lastFrame = (appearance, version, buffer.width, buffer.height, buttons) }
    let countdown = appearance.countdown != nil
    if let last = lastFrame, let moving = Self.movingArea(layout, countdown: countdown),
      last.content == version, last.buttons == buttons,
      last.width == buffer.width, last.height == buffer.height,
      last.appearance.opacity == appearance.opacity, last.appearance.slide == appearance.slide,
      (last.appearance.countdown != nil) == countdown
    {
      return (
        Int32((moving.x * s).rounded(.down)) - 1, Int32((moving.y * s).rounded(.down)) - 1,
        Int32((moving.width * s).rounded(.up)) + 2, Int32((moving.height * s).rounded(.up)) + 2
      )
    }
    return (0, 0, buffer.width, buffer.height)
  }
}
