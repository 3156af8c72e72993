import CPangoCairo
import Glibc
import SystemSupport
import ToastModel

/// JPEG decoding through gdk-pixbuf, which is opened (dlopen) when the first
/// JPEG is drawn, as librsvg is for SVG: most toasts have no photo.
enum JPEG {
  private typealias GErrorOut = UnsafeMutablePointer<UnsafeMutablePointer<GError>?>
  private typealias NewWithType =
    @convention(c) (UnsafePointer<CChar>, GErrorOut?) -> OpaquePointer?
  private typealias SetSize = @convention(c) (OpaquePointer, Int32, Int32) -> Void
  private typealias Write =
    @convention(c) (OpaquePointer, UnsafePointer<UInt8>?, Int, GErrorOut?) -> Int32
  private typealias Close = @convention(c) (OpaquePointer, GErrorOut?) -> Int32
  private typealias GetPixbuf = @convention(c) (OpaquePointer) -> OpaquePointer?
  private typealias Measure = @convention(c) (OpaquePointer) -> Int32
  private typealias ReadPixels = @convention(c) (OpaquePointer) -> UnsafePointer<UInt8>?
  private typealias Orient = @convention(c) (OpaquePointer) -> OpaquePointer?

  /// The library's functions that are used, or why it could not be opened.
  private struct Library: @unchecked Sendable {
    let newWithType: NewWithType
    let setSize: SetSize
    let write: Write
    let close: Close
    let pixbuf: GetPixbuf
    let width: Measure
    let height: Measure
    let rowstride: Measure
    let channels: Measure
    let bitsPerSample: Measure
    let pixels: ReadPixels
    let orient: Orient
  }

  /// The soname Debian's libgdk-pixbuf-2.0-0 installs.
  static let libraryName = "libgdk_pixbuf-2.0.so.0"

  private static let library = Result { () throws(LibraryError) in
    let library = try LoadedLibrary(
      libraryName, context: "cannot draw JPEG images", package: "libgdk-pixbuf-2.0-0")
    return Library(
      newWithType: try library.function("gdk_pixbuf_loader_new_with_type", as: NewWithType.self),
      setSize: try library.function("gdk_pixbuf_loader_set_size", as: SetSize.self),
      write: try library.function("gdk_pixbuf_loader_write", as: Write.self),
      close: try library.function("gdk_pixbuf_loader_close", as: Close.self),
      pixbuf: try library.function("gdk_pixbuf_loader_get_pixbuf", as: GetPixbuf.self),
      width: try library.function("gdk_pixbuf_get_width", as: Measure.self),
      height: try library.function("gdk_pixbuf_get_height", as: Measure.self),
      rowstride: try library.function("gdk_pixbuf_get_rowstride", as: Measure.self),
      channels: try library.function("gdk_pixbuf_get_n_channels", as: Measure.self),
      bitsPerSample: try library.function("gdk_pixbuf_get_bits_per_sample", as: Measure.self),
      pixels: try library.function("gdk_pixbuf_read_pixels", as: ReadPixels.self),
      orient: try library.function("gdk_pixbuf_apply_embedded_orientation", as: Orient.self))
  }.mapError { IconError($0.description) }

  /// Decodes the JPEG `bytes`, whose header says `width` by `height` pixels,
  /// shrunk while it is decoded to fit a square of `side` pixels when it is
  /// larger (libjpeg decodes at 1/2, 1/4 or 1/8 directly), and turned
  /// upright as its Exif orientation says (a phone's photo taken sideways).
  /// Returns a Cairo image surface (ARGB32, opaque; the caller destroys it).
  static func decode(
    _ bytes: [UInt8], width: Int, height: Int, fitting side: Int
  ) throws(IconError) -> OpaquePointer {
    let library = try library.get()
    var error: UnsafeMutablePointer<GError>?
    guard let loader = library.newWithType("jpeg", &error) else {
      throw IconError("cannot draw JPEG images", gError: error)
    }
    defer { g_object_unref(UnsafeMutableRawPointer(loader)) }
    if max(width, height) > side {
      let factor = Double(side) / Double(max(width, height))
      library.setSize(
        loader, Int32(max(1, (Double(width) * factor).rounded())),
        Int32(max(1, (Double(height) * factor).rounded())))
    }
    let written = bytes.withUnsafeBufferPointer {
      library.write(loader, $0.baseAddress, $0.count, &error)
    }
    // The loader is closed in any case: a loader freed open warns on standard error.
    let closed = written != 0 ? library.close(loader, &error) : library.close(loader, nil)
    guard written != 0, closed != 0 else {
      throw IconError("not a valid JPEG image", gError: error)
    }
    // A new reference, to the same pixbuf when it is upright already.
    guard let decoded = library.pixbuf(loader), let pixbuf = library.orient(decoded) else {
      throw IconError("not a valid JPEG image")
    }
    defer { g_object_unref(UnsafeMutableRawPointer(pixbuf)) }
    guard let pixels = library.pixels(pixbuf), library.bitsPerSample(pixbuf) == 8,
      [3, 4].contains(library.channels(pixbuf))
    else { throw IconError("not a valid JPEG image") }
    let (width, height) = (Int(library.width(pixbuf)), Int(library.height(pixbuf)))
    guard
      let surface = IconImage.premultipliedSurface(
        pixels, width: width, height: height, rowStride: Int(library.rowstride(pixbuf)),
        channels: Int(library.channels(pixbuf)))
    else { throw IconError("cannot allocate a \(width)x\(height) image") }
    return surface
  }
}
