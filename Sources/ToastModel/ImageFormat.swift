/// The picture formats an icon, an image path or a cover can be in, told
/// from a file's first bytes; and the size in pixels a bitmap's header gives,
/// read before anything is decoded, so that a huge image is refused before
/// its pixels take any memory. Pure.
public enum ImageFormat: Equatable, Sendable {
  /// PNG, decoded by Cairo.
  case png
  /// JPEG (JFIF or Exif), decoded by gdk-pixbuf.
  case jpeg
  /// SVG or SVGZ, drawn by librsvg.
  case svg

  /// The format's name, for messages: `PNG`, `JPEG`, `SVG`.
  public var name: String {
    switch self {
    case .png: "PNG"
    case .jpeg: "JPEG"
    case .svg: "SVG"
    }
  }

  /// The widest and tallest bitmap (PNG or JPEG) decoded, in pixels.
  public static let maximumBitmapSide = 4096

  /// The format whose signature `bytes` start with: PNG's eight bytes,
  /// JPEG's start-of-image marker followed by another marker, gzip's (SVGZ),
  /// or XML text (after a byte-order mark and white space); nil otherwise.
  public init?(signature bytes: ArraySlice<UInt8>) {
    if bytes.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) {
      self = .png
    } else if bytes.starts(with: [0xff, 0xd8, 0xff]) {
      self = .jpeg
    } else if bytes.starts(with: [0x1f, 0x8b]) {
      self = .svg
    } else {
      var rest = bytes
      if rest.starts(with: [0xef, 0xbb, 0xbf]) { rest = rest.dropFirst(3) }
      guard rest.first(where: { ![0x20, 0x09, 0x0a, 0x0d].contains($0) }) == UInt8(ascii: "<")
      else { return nil }
      self = .svg
    }
  }

  /// The width and height in pixels that the header of a bitmap of this
  /// format says, both at least 1: a PNG's `IHDR` chunk, which comes first;
  /// a JPEG's frame header (`SOF0` to `SOF15`), after whatever segments come
  /// before it. Nil for SVG, and when `bytes` hold no such header.
  public func pixelSize(in bytes: ArraySlice<UInt8>) -> (width: Int, height: Int)? {
    let bytes = Array(bytes)
    func number(at offset: Int, count: Int) -> Int? {
      guard offset >= 0, offset + count <= bytes.count else { return nil }
      return bytes[offset..<offset + count].reduce(0) { $0 << 8 | Int($1) }
    }
    let size: (width: Int, height: Int)?
    switch self {
    case .svg:
      return nil
    case .png:
      guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return nil }
      size = number(at: 16, count: 4).flatMap { width in
        number(at: 20, count: 4).map { (width, $0) }
      }
    case .jpeg:
      size = Self.jpegFrameSize(bytes, number: number)
    }
    guard let size, size.width > 0, size.height > 0 else { return nil }
    return size
  }

  /// The size in a JPEG's frame header: its segments are walked from the
  /// start-of-image marker, each by its length, up to the first frame
  /// marker; nil when the scan, the image's end or the bytes' end comes
  /// first.
  private static func jpegFrameSize(
    _ bytes: [UInt8], number: (Int, Int) -> Int?
  ) -> (width: Int, height: Int)? {
    var offset = 2
    while offset + 1 < bytes.count {
      guard bytes[offset] == 0xff else { return nil }
      let marker = bytes[offset + 1]
      switch marker {
      case 0xff:
        // A fill byte before a marker.
        offset += 1
      case 0x01, 0xd0...0xd7:
        // Markers without a segment (TEM, RSTn).
        offset += 2
      case 0xd8, 0xd9, 0xda:
        // Another start of image, the end, or a scan before any frame.
        return nil
      case 0xc0...0xcf where marker != 0xc4 && marker != 0xc8 && marker != 0xcc:
        // SOFn: length, precision, height, width.
        guard let height = number(offset + 5, 2), let width = number(offset + 7, 2) else {
          return nil
        }
        return (width, height)
      default:
        guard let length = number(offset + 2, 2), length >= 2 else { return nil }
        offset += 2 + length
      }
    }
    return nil
  }
}
