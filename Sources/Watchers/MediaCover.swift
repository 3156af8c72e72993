import Bus
import Glibc
import SystemSupport
import ToastModel

/// A track's cover (`mpris:artUrl`) as the toast's icon: only a local file
/// (`file://` and an absolute path), never anything fetched from the
/// network; and only a regular file within the owner's icon size limit that
/// the owner can draw (PNG, JPEG or SVG). Anything else gives no cover, and the
/// toast shows its text alone: a player's bad cover is not the user's
/// business, so nothing is said.
package enum MediaCover {
  /// The largest cover file taken, in bytes: the owner's limit for an icon file.
  package static let maximumFileSize = 16 << 20

  /// The path of the local file `uri` names: `file://` (or
  /// `file://localhost`) and an absolute path, percent-decoded, valid UTF-8
  /// without control characters, within the icon path's limit; nil for any
  /// other URI (`http://`, `file:relative`, `%00`).
  package static func path(of uri: String) -> String? {
    var rest = Substring(uri)
    guard rest.hasPrefix("file://") else { return nil }
    rest = rest.dropFirst("file://".count)
    if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
    guard rest.hasPrefix("/"), let path = decodedText(rest) else { return nil }
    guard (try? Toast.checkedIcon(path)) != nil else { return nil }
    return path
  }

  /// `text` with its `%XX` escapes decoded; nil when an escape is malformed,
  /// the bytes are no UTF-8, or they hold a control character (NUL too).
  static func decodedText(_ text: Substring) -> String? {
    guard let bytes = BusAddress.percentDecoded(text),
      let decoded = String(validating: bytes, as: UTF8.self),
      !decoded.unicodeScalars.contains(where: Toast.breaksLine)
    else { return nil }
    return decoded
  }

  /// The path of `uri`'s file when the owner can draw it as the toast's
  /// icon: a regular file (opened without blocking, so that a FIFO cannot
  /// stall the watcher) of at most ``maximumFileSize`` bytes that starts as
  /// a PNG, a JPEG or an SVG does; nil otherwise.
  package static func file(of uri: String) -> String? {
    guard let path = path(of: uri),
      case .success(let file) = readRegularFile(path, limit: maximumFileSize, prefix: headLength)
    else { return nil }
    return isDrawable(file.bytes[...]) ? path : nil
  }

  /// How much of a cover file is read to check it: a JPEG's frame header
  /// comes after its metadata (Exif, a colour profile), which is seldom longer.
  static let headLength = 64 << 10

  /// Whether a file starting with `head` is one the owner's icons decode:
  /// a PNG or a JPEG whose header, within `head`, gives a size within
  /// ``ImageFormat/maximumBitmapSide``, or an SVG (gzip-compressed, or its
  /// first character `<`).
  package static func isDrawable(_ head: ArraySlice<UInt8>) -> Bool {
    guard let format = ImageFormat(signature: head) else { return false }
    if format == .svg { return true }
    guard let (width, height) = format.pixelSize(in: head) else { return false }
    return max(width, height) <= ImageFormat.maximumBitmapSide
  }
}
