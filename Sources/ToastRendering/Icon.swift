import CPangoCairo
import Glibc
import Synchronization
import SystemSupport
import ToastModel

/// Why an icon cannot be shown, in one line for the user.
public struct IconError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The reason (`icon 'x' not found in Adwaita, hicolor`).
  public let description: String

  /// An error with this reason.
  public init(_ description: String) { self.description = description }

  /// `reason`, then a GLib-based library's own message in parentheses on
  /// the same line, of a sensible length (`error`, a GError, which this frees).
  init(_ reason: String, gError error: UnsafeMutablePointer<GError>?) {
    defer { if let error { g_error_free(error) } }
    let message = error.flatMap { $0.pointee.message }.map {
      String(
        String(cString: $0).split(whereSeparator: \.isNewline).joined(separator: " ").prefix(200))
    }
    self.init(reason + (message.map { " (\($0))" } ?? ""))
  }
}

/// An icon ready to draw: a PNG, JPEG or SVG file decoded or drawn at the size in
/// device pixels it is shown at. Immutable.
///
/// ``load(_:theme:size:scale:lookup:reusingFailures:checkingFile:)`` keeps
/// the images it made in a small cache of the process, so drawing a toast's
/// icon in every frame reads the file once.
public final class IconImage: @unchecked Sendable {
  /// The Cairo image surface (ARGB32), owned.
  let surface: OpaquePointer
  /// Width in pixels.
  public let width: Int
  /// Height in pixels.
  public let height: Int
  /// Whether it is drawn in the text's colour (its file name ends in `-symbolic`).
  public let isSymbolic: Bool
  /// The file it came from; empty for an image given as pixels.
  public let path: String

  /// An icon over `surface` (ARGB32, owned from now on).
  init(surface: OpaquePointer, isSymbolic: Bool, path: String) {
    self.surface = surface
    width = Int(cairo_image_surface_get_width(surface))
    height = Int(cairo_image_surface_get_height(surface))
    self.isSymbolic = isSymbolic
    self.path = path
  }

  deinit { cairo_surface_destroy(surface) }

  /// The largest icon file read, in bytes.
  public static let maximumFileSize = 16 << 20
  /// The largest PNG or JPEG decoded, in pixels on a side.
  public static let maximumBitmapSide = ImageFormat.maximumBitmapSide
  /// The largest icon drawn, in device pixels on a side.
  public static let maximumDrawnSide = 1024

  /// The side in device pixels of an icon `size` logical pixels wide at `scale`.
  public static func pixels(size: Int, scale: Double) -> Int {
    let product = Double(max(size, 1)) * (scale.isFinite ? max(scale, 1) : 1)
    return Int(min(product.rounded(), Double(maximumDrawnSide)))
  }

  /// The premultiplied ARGB pixel at a point, as (alpha, red, green, blue).
  public func pixel(x: Int, y: Int) -> (alpha: UInt8, red: UInt8, green: UInt8, blue: UInt8) {
    guard x >= 0, y >= 0, x < width, y < height, let data = cairo_image_surface_get_data(surface)
    else { return (0, 0, 0, 0) }
    let stride = Int(cairo_image_surface_get_stride(surface))
    let value = UnsafeRawPointer(data + y * stride + x * 4).loadUnaligned(as: UInt32.self)
    return (
      UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)
    )
  }

  // MARK: - Loading

  /// The icon `icon` (a name looked up in `theme`, or a path when it holds a
  /// slash) for a square of `size` logical pixels at `scale`: an SVG drawn
  /// at exactly that many device pixels, a PNG or JPEG fitted into them.
  ///
  /// Results are cached by request: a cached image is used while its file is
  /// unchanged (a frame, with `checkingFile` false, uses it without looking:
  /// the toast's show or update has just looked); a failure is reused for a
  /// moment (so a toast redrawn every frame does not search every frame)
  /// unless `reusingFailures` is false.
  public static func load(
    _ icon: String, theme: String?, size: Int, scale: Double, lookup: IconLookup = IconLookup(),
    reusingFailures: Bool = true, checkingFile: Bool = true
  ) -> Result<IconImage, IconError> {
    let key = CacheKey(
      icon: icon, theme: theme, pixels: pixels(size: size, scale: scale), size: size,
      searchPath: lookup.searchPath)
    let now = MonotonicTime.now
    if let entry = cache.withLock({ $0.entry(key) }) {
      switch entry.result {
      case .success(let image):
        if !checkingFile { return entry.result }
        if let stamp = entry.stamp, FileStamp(path: image.path) == stamp { return entry.result }
      case .failure:
        if reusingFailures && now - entry.time < failureReuse { return entry.result }
      }
    }
    let (result, stamp) = loadUncached(icon, theme: theme, size: size, scale: scale, lookup: lookup)
    cache.withLock { $0.store(key, CacheEntry(result: result, stamp: stamp, time: now)) }
    return result
  }

  /// How long a failed load is reused before the files are looked at again.
  static let failureReuse: Duration = .seconds(2)

  private static func loadUncached(
    _ icon: String, theme: String?, size: Int, scale: Double, lookup: IconLookup
  ) -> (Result<IconImage, IconError>, FileStamp?) {
    let path: String
    if icon.contains("/") {
      path = icon
    } else if let file = lookup.find(icon, theme: theme, size: size, scale: scale) {
      path = file.path
    } else {
      return (.failure(notFound(icon, theme: theme, lookup: lookup)), nil)
    }
    let side = pixels(size: size, scale: scale)
    /// The failure, naming the path whole: the user must find the file.
    func cannotRead(_ error: some Error) -> IconError {
      IconError("cannot read icon \(Toast.quoted(path, cutAfter: nil)): \(error)")
    }
    let bytes: [UInt8]
    let stamp: FileStamp
    switch readIconFile(path, limit: maximumFileSize) {
    case .success(let read):
      (bytes, stamp) = read
    case .failure(let error):
      return (.failure(cannotRead(error)), nil)
    }
    do throws(IconError) {
      let surface: OpaquePointer
      switch ImageFormat(signature: bytes[...]) {
      case .png:
        surface = try fitted(decodePNG(bytes), into: side)
      case .jpeg:
        let (width, height) = try bitmapSize(of: bytes, format: .jpeg)
        surface = try fitted(
          JPEG.decode(bytes, width: width, height: height, fitting: side), into: side)
      case .svg:
        surface = try SVG.render(bytes, width: side, height: side)
      case nil:
        throw IconError("not a PNG, JPEG or SVG image")
      }
      let image = IconImage(
        surface: surface, isSymbolic: IconFile(path: path, name: icon).isSymbolic, path: path)
      return (.success(image), stamp)
    } catch {
      return (.failure(cannotRead(error)), nil)
    }
  }

  /// The message for a name no theme has.
  private static func notFound(_ icon: String, theme: String?, lookup: IconLookup) -> IconError {
    let chain = lookup.themeChain(theme)
    var message = "icon \(Toast.quoted(icon)) not found"
    message +=
      chain.isEmpty ? " (no icon theme is installed)" : " in " + chain.joined(separator: ", ")
    if let theme, !chain.contains(theme) {
      message += " (there is no icon theme \(Toast.quoted(theme)))"
    }
    return IconError(message)
  }

  // MARK: - Decoding

  /// The width and height a bitmap's header gives, within
  /// ``maximumBitmapSide``.
  static func bitmapSize(
    of bytes: [UInt8], format: ImageFormat
  ) throws(IconError) -> (width: Int, height: Int) {
    guard let (width, height) = format.pixelSize(in: bytes[...]) else {
      throw IconError("not a valid \(format.name) image")
    }
    guard width <= maximumBitmapSide, height <= maximumBitmapSide else {
      throw IconError(
        "the image is too large (\(width)x\(height) pixels; at most \(maximumBitmapSide) a side)")
    }
    return (width, height)
  }

  /// Decodes PNG bytes with Cairo, refusing images larger than
  /// ``maximumBitmapSide`` before allocating them.
  static func decodePNG(_ bytes: [UInt8]) throws(IconError) -> OpaquePointer {
    _ = try bitmapSize(of: bytes, format: .png)
    let reader = PNGReader(bytes)
    let surface = withExtendedLifetime(reader) {
      cairo_image_surface_create_from_png_stream(
        { closure, data, length in
          let reader = Unmanaged<PNGReader>.fromOpaque(closure!).takeUnretainedValue()
          return reader.read(into: data, count: Int(length))
        }, Unmanaged.passUnretained(reader).toOpaque())
    }
    guard let surface else { throw IconError("not a valid PNG image") }
    // Cairo's status says little more (truncated data reads as "out of memory").
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS else {
      cairo_surface_destroy(surface)
      throw IconError("not a valid PNG image")
    }
    return surface
  }

  /// The image scaled to fit a square of `side` pixels keeping its shape, or
  /// itself when it fits exactly already; `extendingEdges` reads past its
  /// edges as their own pixels rather than as transparent ones, so that a
  /// small image grows without a faded border. Takes ownership of `surface`.
  static func fitted(
    _ surface: OpaquePointer, into side: Int, extendingEdges: Bool = false
  ) throws(IconError) -> OpaquePointer {
    let width = Int(cairo_image_surface_get_width(surface))
    let height = Int(cairo_image_surface_get_height(surface))
    let factor = Double(side) / Double(max(width, height))
    let target = (
      width: max(1, Int((Double(width) * factor).rounded())),
      height: max(1, Int((Double(height) * factor).rounded()))
    )
    guard target != (width, height) else { return surface }
    defer { cairo_surface_destroy(surface) }
    guard
      let scaled = cairo_image_surface_create(
        CAIRO_FORMAT_ARGB32, Int32(target.width), Int32(target.height)),
      cairo_surface_status(scaled) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(scaled)
    else { throw IconError("cannot allocate a \(target.width)x\(target.height) image") }
    cairo_scale(
      cairo, Double(target.width) / Double(width), Double(target.height) / Double(height))
    cairo_set_source_surface(cairo, surface, 0, 0)
    // GOOD averages the pixels a reduction merges (a box filter), rather than sampling.
    cairo_pattern_set_filter(cairo_get_source(cairo), CAIRO_FILTER_GOOD)
    if extendingEdges { cairo_pattern_set_extend(cairo_get_source(cairo), CAIRO_EXTEND_PAD) }
    cairo_paint(cairo)
    cairo_destroy(cairo)
    cairo_surface_flush(scaled)
    return scaled
  }

  // MARK: - Drawing

  /// Draws the icon centred in `rect` (logical pixels, a square of the size
  /// it was loaded for) on whole device pixels of a context scaled by
  /// `scale`; a symbolic icon in `color`, others in their own colours.
  func draw(in rect: Rect, scale: Double, color: Toast.Color, cairo: OpaquePointer) {
    let side = Self.pixels(size: Int(rect.width.rounded()), scale: scale)
    let left = (rect.x * scale).rounded() + Double((side - width) / 2)
    let top = (rect.y * scale).rounded() + Double((side - height) / 2)
    cairo_save(cairo)
    cairo_identity_matrix(cairo)
    if isSymbolic {
      cairo_set_source_rgba(cairo, color.red, color.green, color.blue, color.alpha)
      cairo_mask_surface(cairo, surface, left, top)
    } else {
      cairo_set_source_surface(cairo, surface, left, top)
      cairo_paint(cairo)
    }
    cairo_restore(cairo)
  }

  // MARK: - Cache

  private struct CacheKey: Hashable {
    var icon: String
    var theme: String?
    var pixels: Int
    var size: Int
    var searchPath: IconSearchPath
  }

  private struct CacheEntry {
    var result: Result<IconImage, IconError>
    var stamp: FileStamp?
    var time: MonotonicTime
  }

  /// The most recently used requests and their results.
  private struct Cache {
    static let capacity = 16
    var entries: [CacheKey: CacheEntry] = [:]
    var order: [CacheKey] = []

    mutating func entry(_ key: CacheKey) -> CacheEntry? {
      guard let entry = entries[key] else { return nil }
      order.removeAll { $0 == key }
      order.append(key)
      return entry
    }

    mutating func store(_ key: CacheKey, _ entry: CacheEntry) {
      entries[key] = entry
      order.removeAll { $0 == key }
      order.append(key)
      while order.count > Self.capacity { entries[order.removeFirst()] = nil }
    }
  }

  private static let cache = Mutex(Cache())
}

/// Feeds PNG bytes to Cairo's stream reader.
private final class PNGReader {
  let bytes: [UInt8]
  var offset = 0

  init(_ bytes: [UInt8]) { self.bytes = bytes }

  func read(into data: UnsafeMutablePointer<UInt8>?, count: Int) -> cairo_status_t {
    guard let data, count <= bytes.count - offset else { return CAIRO_STATUS_READ_ERROR }
    bytes.withUnsafeBufferPointer { source in
      data.update(from: source.baseAddress! + offset, count: count)
    }
    offset += count
    return CAIRO_STATUS_SUCCESS
  }
}

/// What identifies a file's contents well enough to notice it changed.
struct FileStamp: Equatable {
  var device: UInt64
  var inode: UInt64
  var size: Int
  var modified: Int

  init(_ info: stat) {
    device = UInt64(info.st_dev)
    inode = UInt64(info.st_ino)
    size = Int(info.st_size)
    modified = info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
  }

  /// The stamp of the file at `path` now; nil when it is gone.
  init?(path: String) {
    var info = stat()
    guard stat(path, &info) == 0 else { return nil }
    self.init(info)
  }
}

extension Toast {
  /// The side of the toast's icon in logical pixels, as its style draws it.
  public var iconSize: Int {
    switch style {
    case .hud: Int(Design.HUD.iconSize)
    case .card: Int(Design.Card.iconSize)
    case .banner, .bar: Int(Design.Banner.iconSize)
    }
  }

  /// Whether the toast shows an icon: its ``ToastModel/Toast/image`` or its
  /// ``ToastModel/Toast/icon`` (a bar shows neither).
  public var hasIcon: Bool { image != nil || icon != nil }

  /// The theme its icon name is looked up in: its own, or the desktop's
  /// (`DesktopIconTheme.current`), then hicolor.
  public var effectiveIconTheme: String? { iconTheme ?? DesktopIconTheme.current }

  /// Why the toast's icon cannot be shown at `scale`, in one line for the
  /// user (`icon 'x' not found in hicolor; the toast shows without it`), or
  /// nil when it can, the toast has none, or its image is drawn in its place.
  /// Loads the icon into the cache, so that drawing it then reads nothing.
  public func iconProblem(scale: Double) -> String? {
    guard let icon, image == nil else { return nil }
    let loaded = IconImage.load(
      icon, theme: effectiveIconTheme, size: iconSize, scale: scale, reusingFailures: false)
    guard case .failure(let error) = loaded else { return nil }
    return "\(error.description); the toast shows without it"
  }
}
