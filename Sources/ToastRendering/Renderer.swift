import CPangoCairo
import Glibc
import ToastModel

/// Draws a toast with Cairo, Pango and librsvg into any Cairo context: a Wayland shm
/// buffer or an offscreen image. Knows nothing of Wayland.
public enum Renderer {
  /// Draws `toast` laid out as `layout` at `appearance`, scaled by `scale`
  /// (buffer pixels per logical pixel), over a cleared surface, its buttons
  /// in `buttons`' states.
  ///
  /// With `clip` (logical pixels), only the pixels inside it are drawn (the
  /// whole pixels it touches); the others keep what they held.
  public static func draw(
    _ toast: Toast, layout: ToastLayout, appearance: Appearance, scale: Double,
    into cairo: OpaquePointer, clip: Rect? = nil, buttons: Interaction = .idle
  ) {
    cairo_save(cairo)
    if let clip {
      let left = (clip.x * scale).rounded(.down)
      let top = (clip.y * scale).rounded(.down)
      cairo_rectangle(
        cairo, left, top, ((clip.x + clip.width) * scale).rounded(.up) - left,
        ((clip.y + clip.height) * scale).rounded(.up) - top)
      cairo_clip(cairo)
    }
    cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_rgba(cairo, 0, 0, 0, 0)
    cairo_paint(cairo)
    cairo_set_operator(cairo, CAIRO_OPERATOR_OVER)
    cairo_scale(cairo, scale, scale)

    let opacity = min(max(appearance.opacity, 0), 1)
    let dims = layout.coversOutput && toast.dimsBackground
    if dims {
      setColor(Design.dim, in: cairo, alpha: opacity)
      cairo_paint(cairo)
    }
    // Over the dimmed output the toast is drawn into a group, then painted at
    // its opacity (the box's image is copied over cleared pixels, not over the
    // dim). Over the cleared pixels it is drawn directly and, below full
    // opacity, multiplied by it (DEST_IN): the same pixels as a group painted
    // at that opacity, without the group's image (a card's size of memory at
    // each frame of a fade).
    if dims { cairo_push_group(cairo) }
    defer {
      if dims {
        cairo_pop_group_to_source(cairo)
        cairo_paint_with_alpha(cairo, opacity)
      } else if opacity < 1 {
        cairo_set_operator(cairo, CAIRO_OPERATOR_DEST_IN)
        cairo_set_source_rgba(cairo, 0, 0, 0, opacity)
        cairo_paint(cairo)
      }
      cairo_restore(cairo)
    }
    if toast.style == .bar {
      let dy = layout.box(at: appearance).y - layout.box.y
      drawBar(toast, layout: layout, interaction: buttons, dy: dy, in: cairo)
      if let remaining = appearance.countdown {
        drawCountdown(
          remaining, layout: layout, dy: dy, color: toast.foreground ?? toast.bar.text, in: cairo)
      }
      return
    }
    let box = layout.box(at: appearance)
    let radius = layout.cornerRadius
    let background = toast.background ?? defaultBackground(of: toast.style)
    let foreground = toast.foreground ?? Design.foreground
    let dy = box.y - layout.box.y
    // The progress bar's track, which only the box's size and colour decide.
    let track = toast.progress == nil ? nil : layout.progressBar
    // A box at rest comes from its image (made at its first frame), with the
    // track; a sliding one, at a new place each frame, is drawn directly.
    let key = BoxImage.Key(
      style: toast.style, box: box, radius: radius, background: background, scale: scale,
      track: track.map { BoxImage.Track(bar: $0, color: foreground) })
    let fromImage = box == layout.box && BoxImage.draw(key, into: cairo)
    if !fromImage {
      drawShadow(toast.style, box: box, radius: radius, in: cairo)
      roundedRectangle(box, radius: radius, in: cairo)
      setColor(background, in: cairo)
      cairo_fill(cairo)
      // Under the icon and the text, as in the image.
      if var bar = track {
        bar.y += dy
        drawTrack(bar, color: foreground, in: cairo)
      }
    }

    // An icon that cannot be loaded is left out (the presenter has said why).
    if var square = layout.icon,
      let image = iconImage(of: toast, size: Int(square.width.rounded()), scale: scale)
    {
      square.y += dy
      image.draw(in: square, scale: scale, color: foreground, cairo: cairo)
    }
    if let spinner = layout.spinner {
      drawSpinner(in: spinner, phase: appearance.spinnerPhase, color: foreground, cairo: cairo)
    }
    if !layout.text.isEmpty {
      setColor(foreground, in: cairo)
      layout.text.draw(
        in: cairo, x: layout.textOrigin.x, y: layout.textOrigin.y + dy, scale: layout.textScale)
    }
    if var bar = track, let progress = toast.progress {
      bar.y += dy
      var filled = bar
      filled.width = bar.width * min(max(progress, 0), 1)
      if filled.width > 0 {
        roundedRectangle(filled, radius: min(bar.height / 2, filled.width / 2), in: cairo)
        setColor(foreground, in: cairo)
        cairo_fill(cairo)
      }
      // Beyond full (a volume above 100 %): the excess over the bar, in a second colour.
      var excess = bar
      excess.width = bar.width * min(max(progress - 1, 0), 1)
      if excess.width > 0 {
        roundedRectangle(excess, radius: min(bar.height / 2, excess.width / 2), in: cairo)
        setColor(Design.progressBeyondFull, in: cairo)
        cairo_fill(cairo)
      }
    }
    drawButtons(layout.buttons, states: buttons, dy: dy, color: foreground, in: cairo)
    if let remaining = appearance.countdown {
      drawCountdown(remaining, layout: layout, dy: dy, color: foreground, in: cairo)
    }
  }

  /// The box colour of `style` when the toast sets none.
  static func defaultBackground(of style: Toast.Style) -> Toast.Color {
    switch style {
    case .hud: Design.HUD.background
    case .card: Design.Card.background
    case .banner, .bar: Design.Banner.background
    }
  }

  /// The icon `toast` shows in a square of `size` logical pixels at `scale`:
  /// its image given as pixels, else its named icon (from the cache the
  /// presenter's check filled); nil for none, or one that cannot be loaded.
  static func iconImage(of toast: Toast, size: Int, scale: Double) -> IconImage? {
    if let pixels = toast.image { return IconImage.load(pixels: pixels, size: size, scale: scale) }
    guard let icon = toast.icon,
      case .success(let image) = IconImage.load(
        icon, theme: toast.effectiveIconTheme, size: size, scale: scale, checkingFile: false)
    else { return nil }
    return image
  }

  /// The progress bar's track: the whole bar in `color`, faint.
  static func drawTrack(_ bar: Rect, color: Toast.Color, in cairo: OpaquePointer) {
    roundedRectangle(bar, radius: bar.height / 2, in: cairo)
    setColor(color, in: cairo, alpha: 0.3)
    cairo_fill(cairo)
  }

  /// The HUD's light shadow (offset 4,4), the card's dark one (offset 2,2)
  /// or the banner's faint glow, drawn outside the box only, so the
  /// translucent box stays clean.
  static func drawShadow(_ style: Toast.Style, box: Rect, radius: Double, in cairo: OpaquePointer) {
    let (color, offset, blur) = BoxImage.shadow(of: style)
    cairo_save(cairo)
    // Clip to everything but the box.
    cairo_set_fill_rule(cairo, CAIRO_FILL_RULE_EVEN_ODD)
    cairo_rectangle(cairo, box.x - 64, box.y - 64, box.width + 128, box.height + 128)
    roundedRectangle(box, radius: radius, in: cairo)
    cairo_clip(cairo)
    // A blur approximated by layered, growing outlines with falling alpha.
    let steps = 6
    for step in 0..<steps {
      let spread = blur * Double(step + 1) / Double(steps) * 1.5
      var rect = box
      rect.x += offset - spread
      rect.y += offset - spread
      rect.width += 2 * spread
      rect.height += 2 * spread
      roundedRectangle(rect, radius: radius + spread, in: cairo)
      setColor(color, in: cairo, alpha: 1.0 / Double(steps))
      cairo_fill(cairo)
    }
    cairo_restore(cairo)
  }

  /// Twelve spokes fading around the circle, the brightest at `phase` (0 to 1, clockwise).
  static func drawSpinner(in rect: Rect, phase: Double, color: Toast.Color, cairo: OpaquePointer) {
    let spokes = Design.HUD.spinnerSpokes
    let outer = rect.width / 2
    let inner = outer * 0.45
    cairo_save(cairo)
    cairo_set_line_width(cairo, rect.width * 0.09)
    cairo_set_line_cap(cairo, CAIRO_LINE_CAP_ROUND)
    for index in 0..<spokes {
      let position = Double(index) / Double(spokes)
      var behind = phase - position
      behind -= behind.rounded(.down)
      let alpha = 1 - 0.75 * behind
      let angle = position * 2 * Double.pi - Double.pi / 2
      let (sine, cosine) = (sin(angle), cos(angle))
      cairo_move_to(cairo, rect.midX + cosine * inner, rect.midY + sine * inner)
      cairo_line_to(
        cairo, rect.midX + cosine * (outer - 2), rect.midY + sine * (outer - 2))
      setColor(color, in: cairo, alpha: alpha)
      cairo_stroke(cairo)
    }
    cairo_restore(cairo)
  }

  static func roundedRectangle(_ rect: Rect, radius: Double, in cairo: OpaquePointer) {
    let r = min(radius, rect.width / 2, rect.height / 2)
    cairo_new_sub_path(cairo)
    cairo_arc(cairo, rect.x + rect.width - r, rect.y + r, r, -Double.pi / 2, 0)
    cairo_arc(cairo, rect.x + rect.width - r, rect.y + rect.height - r, r, 0, Double.pi / 2)
    cairo_arc(cairo, rect.x + r, rect.y + rect.height - r, r, Double.pi / 2, Double.pi)
    cairo_arc(cairo, rect.x + r, rect.y + r, r, Double.pi, 3 * Double.pi / 2)
    cairo_close_path(cairo)
  }

  static func setColor(_ color: Toast.Color, in cairo: OpaquePointer, alpha: Double = 1) {
    cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha * alpha)
  }
}

/// A Cairo surface and context over ARGB pixels that someone else owns, such
/// as a shared-memory buffer: made once per buffer, drawn into every frame.
public final class Canvas {
  private let surface: OpaquePointer
  private let cairo: OpaquePointer
  /// Width in pixels.
  public let width: Int32
  /// Height in pixels.
  public let height: Int32

  /// A canvas over `stride * height` bytes of premultiplied ARGB32 pixels that
  /// outlive it; nil when Cairo cannot use that memory (such as a stride it
  /// does not accept).
  public init?(pixels: UnsafeMutableRawPointer, width: Int32, height: Int32, stride: Int32) {
    guard
      let surface = cairo_image_surface_create_for_data(
        pixels.assumingMemoryBound(to: UInt8.self), CAIRO_FORMAT_ARGB32, width, height, stride)
    else { return nil }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      let cairo = cairo_create(surface), cairo_status(cairo) == CAIRO_STATUS_SUCCESS
    else {
      cairo_surface_destroy(surface)
      return nil
    }
    self.surface = surface
    self.cairo = cairo
    self.width = width
    self.height = height
  }

  deinit {
    cairo_destroy(cairo)
    cairo_surface_destroy(surface)
  }

  /// What the pixels show, in the caller's terms (a version of the frame
  /// apart from what `clip` redraws), so that a later frame can redraw only
  /// what changed; nil before the first draw.
  public var contents: AnyHashable?

  /// Draws `toast` laid out as `layout` at `appearance`, `scale` pixels per
  /// logical pixel, its buttons in `buttons`' states, over whatever the
  /// pixels held (only inside `clip` when given), and flushes it to them.
  public func draw(
    _ toast: Toast, layout: ToastLayout, appearance: Appearance, scale: Double, clip: Rect? = nil,
    buttons: Interaction = .idle
  ) {
    Renderer.draw(
      toast, layout: layout, appearance: appearance, scale: scale, into: cairo, clip: clip,
      buttons: buttons)
    cairo_surface_flush(surface)
  }
}

/// An offscreen ARGB image a toast can be drawn into, for tests and PNG output.
public final class OffscreenImage {
  let surface: OpaquePointer
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int

  /// A transparent image of the given size in pixels.
  public init(width: Int, height: Int) {
    self.width = width
    self.height = height
    surface = cairo_image_surface_create(
      CAIRO_FORMAT_ARGB32, Int32(clamping: width), Int32(clamping: height))
  }

  /// Loads a PNG file; nil when it cannot be read.
  public init?(png path: String) {
    guard let loaded = cairo_image_surface_create_from_png(path) else { return nil }
    guard cairo_surface_status(loaded) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(loaded)
      return nil
    }
    surface = loaded
    width = Int(cairo_image_surface_get_width(loaded))
    height = Int(cairo_image_surface_get_height(loaded))
  }

  deinit { cairo_surface_destroy(surface) }

  /// Renders a toast the way the surface would show it: the layout for an
  /// output of the given logical size, at `scale`.
  public static func render(
    _ toast: Toast, outputWidth: Int = 1280, outputHeight: Int = 720, scale: Int = 1,
    appearance: Appearance = .resting
  ) -> OffscreenImage {
    render(
      toast, outputWidth: outputWidth, outputHeight: outputHeight, scale: Double(scale),
      appearance: appearance)
  }

  /// Renders a toast at any scale (1.5: a buffer of the logical size times
  /// 1.5, rounded), as a surface at a fractional scale shows it, its buttons
  /// in `buttons`' states (a bar's details laid out open when they are open
  /// there at all).
  public static func render(
    _ toast: Toast, outputWidth: Int = 1280, outputHeight: Int = 720, scale: Double,
    appearance: Appearance = .resting, buttons: Interaction = .idle
  ) -> OffscreenImage {
    let layout = ToastLayout(
      toast: toast, outputWidth: outputWidth, outputHeight: outputHeight,
      detailsOpen: buttons.detailsOpening > 0)
    let image = OffscreenImage(
      width: Int((Double(layout.surfaceWidth) * scale).rounded()),
      height: Int((Double(layout.surfaceHeight) * scale).rounded()))
    if let cairo = cairo_create(image.surface) {
      Renderer.draw(
        toast, layout: layout, appearance: appearance, scale: scale, into: cairo,
        buttons: buttons)
      cairo_destroy(cairo)
    }
    cairo_surface_flush(image.surface)
    return image
  }

  /// Writes the image as PNG; returns whether that worked.
  @discardableResult
  public func writePNG(to path: String) -> Bool {
    cairo_surface_write_to_png(surface, path) == CAIRO_STATUS_SUCCESS
  }

  /// The premultiplied ARGB pixel at a point, as (alpha, red, green, blue).
  public func pixel(x: Int, y: Int) -> (alpha: UInt8, red: UInt8, green: UInt8, blue: UInt8) {
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    guard let data = cairo_image_surface_get_data(surface) else { return (0, 0, 0, 0) }
    let value = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
    return (
      UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)
    )
  }
}
