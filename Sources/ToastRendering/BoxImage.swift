import CPangoCairo
import Glibc
import ToastModel

/// The shadow and the box of a HUD, a banner or a card, with a progress bar's track,
/// drawn once into an image of their own and painted into every frame that
/// shows them at the same place, size and scale: the shadow's six layers, each
/// filled through an even-odd clip, cost far more than copying their pixels,
/// and an update of a showing toast keeps its box.
///
/// The image holds the pixels the direct drawing gives: the same Cairo calls on
/// the same pixel grid, moved by whole pixels, then painted over transparent
/// pixels at a whole-pixel offset (a copy).
final class BoxImage {
  /// What the pixels depend on.
  struct Key: Equatable {
    var style: Toast.Style
    var box: Rect
    var radius: Double
    var background: Toast.Color
    var scale: Double
    /// The progress bar's track, inside the box; nil without a bar.
    var track: Track?
  }

  /// A progress bar's track: the bar's place and its colour (drawn faint).
  struct Track: Equatable {
    var bar: Rect
    var color: Toast.Color
  }

  let key: Key
  /// The image's top-left corner in the target's device pixels.
  let origin: (x: Int32, y: Int32)
  private let surface: OpaquePointer

  /// Draws the shadow and the box of `key` into a new image just large enough
  /// for them; nil when Cairo cannot make it.
  private init?(_ key: Key) {
    let (_, offset, blur) = BoxImage.shadow(of: key.style)
    // The shadow's largest layer reaches 1.5 blurs (and the offset) past the
    // box, inside the 64 pixels its clip allows; one pixel more for its edge.
    let margin = min(abs(offset) + 1.5 * blur + 1, 64)
    let scale = key.scale
    let box = key.box
    // Not left of or above the target's origin: the drawing's coordinates then
    // only get smaller when moved to the image, which keeps them exact.
    let left = max(((box.x - margin) * scale).rounded(.down), 0)
    let top = max(((box.y - margin) * scale).rounded(.down), 0)
    let right = ((box.x + box.width + margin) * scale).rounded(.up)
    let bottom = ((box.y + box.height + margin) * scale).rounded(.up)
    guard right > left, bottom > top, right - left < 32_768, bottom - top < 32_768,
      let surface = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(right - left), Int32(bottom - top))
    else { return nil }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      let cairo = cairo_create(surface)
    else {
      cairo_surface_destroy(surface)
      return nil
    }
    cairo_translate(cairo, -left, -top)
    cairo_scale(cairo, scale, scale)
    Renderer.drawShadow(key.style, box: box, radius: key.radius, in: cairo)
    Renderer.roundedRectangle(box, radius: key.radius, in: cairo)
    Renderer.setColor(key.background, in: cairo)
    cairo_fill(cairo)
    if let track = key.track { Renderer.drawTrack(track.bar, color: track.color, in: cairo) }
    let status = cairo_status(cairo)
    cairo_destroy(cairo)
    cairo_surface_flush(surface)
    guard status == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      return nil
    }
    self.key = key
    self.surface = surface
    origin = (Int32(left), Int32(top))
  }

  deinit { cairo_surface_destroy(surface) }

  /// The shadow's colour, offset and blur in `style`: the HUD's light shadow
  /// and the card's dark one below and right, the banner's faint glow all round.
  static func shadow(of style: Toast.Style) -> (color: Toast.Color, offset: Double, blur: Double) {
    switch style {
    case .hud: (Design.HUD.shadowColor, Design.HUD.shadowOffset, Design.HUD.shadowBlur)
    case .card: (Design.Card.shadowColor, Design.Card.shadowOffset, Design.Card.shadowBlur)
    case .banner, .bar: (Design.Banner.shadowColor, 0, Design.Banner.shadowBlur)
    }
  }

  /// Copies the image into `cairo` at its place, whatever the context's
  /// matrix: over transparent pixels, painting it over them and copying it
  /// give the same pixels, and a copy reads nothing of the target.
  private func paint(into cairo: OpaquePointer) {
    cairo_save(cairo)
    cairo_identity_matrix(cairo)
    cairo_rectangle(
      cairo, Double(origin.x), Double(origin.y), Double(cairo_image_surface_get_width(surface)),
      Double(cairo_image_surface_get_height(surface)))
    cairo_clip(cairo)
    cairo_set_operator(cairo, CAIRO_OPERATOR_SOURCE)
    cairo_set_source_surface(cairo, surface, Double(origin.x), Double(origin.y))
    cairo_paint(cairo)
    cairo_restore(cairo)
  }

  /// Draws the shadow and the box of `key` into `cairo`, whose pixels there
  /// are transparent, from the image made for them the first time; returns
  /// false (drawing nothing) when no image can be made.
  static func draw(_ key: Key, into cairo: OpaquePointer) -> Bool {
    cache.withLock { cache in
      guard let image = cache.image(for: key) else { return false }
      // Painted under the lock: pixman's images count references without atomics.
      image.paint(into: cairo)
      return true
    }
  }

  /// The last few images made, the most recently used last: one per toast shown
  /// at once, at most.
  private struct Cache {
    static let capacity = 4
    var images: [BoxImage] = []

    mutating func image(for key: Key) -> BoxImage? {
      if let index = images.firstIndex(where: { $0.key == key }) {
        let image = images.remove(at: index)
        images.append(image)
        return image
      }
      guard let image = BoxImage(key) else { return nil }
      images.append(image)
      if images.count > Self.capacity { images.removeFirst() }
      return image
    }
  }

  /// The cache and the lock that guards it: a pthread mutex, whose locking
  /// ThreadSanitizer follows (accesses under Synchronization's Mutex it
  /// reports as races: it does not see that lock order them).
  private final class LockedCache: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    private var cache = Cache()

    init() {
      mutex = .allocate(capacity: 1)
      mutex.initialize(to: pthread_mutex_t())
      pthread_mutex_init(mutex, nil)
    }

    deinit {
      pthread_mutex_destroy(mutex)
      mutex.deallocate()
    }

    /// Runs `body` on the cache, holding the lock.
    func withLock<Result>(_ body: (inout Cache) -> Result) -> Result {
      pthread_mutex_lock(mutex)
      defer { pthread_mutex_unlock(mutex) }
      return body(&cache)
    }
  }

  private static let cache = LockedCache()
}
