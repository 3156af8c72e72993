import CPangoCairo
import CRsvg
import Glibc
import SystemSupport

/// SVG drawing through librsvg, which is opened (dlopen) when the first SVG
/// is drawn: linked into every process it would add milliseconds and
/// megabytes to each start, for toasts that mostly have no icon.
enum SVG {
  /// The library's functions that are used, or why it could not be opened.
  private struct Library: @unchecked Sendable {
    let newFromData: wlt_rsvg_handle_new_from_data
    let renderDocument: wlt_rsvg_handle_render_document
  }

  /// The soname Debian's librsvg2-2 installs.
  static let libraryName = "librsvg-2.so.2"

  private static let library = Result { () throws(LibraryError) in
    let library = try LoadedLibrary(
      libraryName, context: "cannot draw SVG icons", package: "librsvg2-2")
    return Library(
      newFromData: try library.function(
        "rsvg_handle_new_from_data", as: wlt_rsvg_handle_new_from_data.self),
      renderDocument: try library.function(
        "rsvg_handle_render_document", as: wlt_rsvg_handle_render_document.self))
  }.mapError { IconError($0.description) }

  /// Draws the SVG document `data` into a new ARGB image of `width` by
  /// `height` pixels, fitted and centred as its `preserveAspectRatio` asks.
  /// Returns the Cairo image surface (the caller destroys it). A document
  /// that would draw more than ``SVGWeight/limit`` elements is refused.
  static func render(_ data: [UInt8], width: Int, height: Int) throws(IconError) -> OpaquePointer {
    // What would take librsvg seconds is refused before it starts.
    guard let elements = SVGWeight.drawnElements(in: data) else {
      throw IconError("not a valid SVG image: its references go round in a circle")
    }
    guard elements <= SVGWeight.limit else {
      throw IconError("an SVG image that draws more than \(SVGWeight.limit) elements")
    }
    let library = try library.get()
    var error: UnsafeMutableRawPointer?
    let handle = data.withUnsafeBufferPointer { bytes in
      library.newFromData(bytes.baseAddress, bytes.count, &error)
    }
    guard let handle else { throw IconError(svgError: error) }
    defer { g_object_unref(handle) }
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, Int32(width), Int32(height))!
    guard cairo_surface_status(surface) == CAIRO_STATUS_SUCCESS, let cairo = cairo_create(surface)
    else {
      cairo_surface_destroy(surface)
      throw IconError("cannot allocate a \(width)x\(height) image")
    }
    var viewport = wlt_rsvg_rectangle(x: 0, y: 0, width: Double(width), height: Double(height))
    let drawn = library.renderDocument(handle, UnsafeMutableRawPointer(cairo), &viewport, &error)
    cairo_destroy(cairo)
    guard drawn != 0 else {
      cairo_surface_destroy(surface)
      throw IconError(svgError: error)
    }
    cairo_surface_flush(surface)
    return surface
  }
}

extension IconError {
  /// librsvg's reason (a GError, which this frees).
  init(svgError raw: UnsafeMutableRawPointer?) {
    self.init("not a valid SVG image", gError: raw?.assumingMemoryBound(to: GError.self))
  }
}
