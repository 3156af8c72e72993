import CPangoCairo
import Synchronization
import ToastModel

extension IconImage {
  /// The icon of an image given as pixels (``ToastModel/Toast/image``), for a
  /// square of `size` logical pixels at `scale`: its straight RGBA made
  /// premultiplied ARGB once, then fitted into the square's device pixels
  /// keeping its shape (its edges extended, so that a small image grows
  /// without a faded border); nil when Cairo cannot make it.
  ///
  /// The last few icons made are kept: the frames of a toast find theirs by
  /// the image's storage, which a toast's copies share, without comparing
  /// its bytes.
  public static func load(pixels image: Toast.Image, size: Int, scale: Double) -> IconImage? {
    let side = pixels(size: size, scale: scale)
    if let made = pixelCache.withLock({ $0.icon(for: image, side: side) }) { return made }
    guard let surface = premultipliedSurface(image),
      let fitted = try? fitted(surface, into: side, extendingEdges: true)
    else { return nil }
    let icon = IconImage(surface: fitted, isSymbolic: false, path: "")
    pixelCache.withLock { $0.store(icon, for: image, side: side) }
    return icon
  }

  /// A Cairo ARGB32 surface of `image`'s pixels, premultiplied by their
  /// alpha; nil when Cairo cannot make it.
  static func premultipliedSurface(_ image: Toast.Image) -> OpaquePointer? {
    image.rgba.withUnsafeBufferPointer { rgba in
      premultipliedSurface(
        rgba.baseAddress!, width: image.width, height: image.height, rowStride: image.width * 4,
        channels: 4)
    }
  }

  /// A Cairo ARGB32 surface of `height` rows of `width` pixels, each row
  /// `rowStride` bytes after the last, each pixel `channels` bytes: red,
  /// green, blue and, with 4, a straight alpha (3: opaque), premultiplied by
  /// that alpha; nil when Cairo cannot make it.
  static func premultipliedSurface(
    _ pixels: UnsafePointer<UInt8>, width: Int, height: Int, rowStride: Int, channels: Int
  ) -> OpaquePointer? {
    guard
      let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))
    else { return nil }
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS,
      let data = cairo_image_surface_get_data(surface)
    else {
      cairo_surface_destroy(surface)
      return nil
    }
    cairo_surface_flush(surface)
    let stride = Int(cairo_image_surface_get_stride(surface))
    for y in 0..<height {
      let row = UnsafeMutableRawPointer(data + y * stride).assumingMemoryBound(to: UInt32.self)
      var pixel = pixels + y * rowStride
      for x in 0..<width {
        let alpha = channels == 4 ? UInt32(pixel[3]) : 255
        // Rounded to the nearest: 255 keeps a channel, 0 clears it.
        func premultiplied(_ channel: UInt8) -> UInt32 { (UInt32(channel) * alpha + 127) / 255 }
        row[x] =
          alpha << 24 | premultiplied(pixel[0]) << 16 | premultiplied(pixel[1]) << 8
          | premultiplied(pixel[2])
        pixel += channels
      }
    }
    cairo_surface_mark_dirty(surface)
    return surface
  }

  /// The icons last made of pixels, the most recently used last: one per
  /// card on screen, about. The images they were made of are kept to be
  /// compared, their bytes within a budget (at least the last one).
  private struct PixelCache {
    static let capacity = 8
    static let byteBudget = 16 << 20
    var entries: [(image: Toast.Image, side: Int, icon: IconImage)] = []

    mutating func icon(for image: Toast.Image, side: Int) -> IconImage? {
      // Arrays of one storage compare equal at once; the same pixels in
      // another storage (a toast made again) are compared once, then found
      // by that storage.
      guard let index = entries.firstIndex(where: { $0.side == side && $0.image == image })
      else { return nil }
      var entry = entries.remove(at: index)
      entry.image = image
      entries.append(entry)
      return entry.icon
    }

    mutating func store(_ icon: IconImage, for image: Toast.Image, side: Int) {
      entries.removeAll { $0.side == side && $0.image == image }
      entries.append((image, side, icon))
      while entries.count > Self.capacity
        || entries.count > 1 && entries.reduce(0, { $0 + $1.image.rgba.count }) > Self.byteBudget
      {
        entries.removeFirst()
      }
    }
  }

  private static let pixelCache = Mutex(PixelCache())
}
