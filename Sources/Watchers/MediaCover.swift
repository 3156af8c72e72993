import Bus
import Glibc
import SystemSupport
import ToastModel

/// A track's cover (`mpris:artUrl`) as the toast's icon: only a local file
/// (`file://` and an absolute path), never anything fetched from the
/// network; and only a regular file within the owner's icon size limit that
/// the owner can draw (PNG or SVG). Anything else gives no cover, and the
/// toast shows its text alone: a player's bad cover is not the user's
/// business, so nothing is said.
package enum MediaCover {
  /// The largest cover file taken, in bytes: the owner's limit for an icon file.
  package static let maximumFileSize = 16 << 20
  /// The widest and tallest PNG cover taken, in pixels: the owner's limit.
  package static let maximumPNGSide: UInt32 = 4096

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
  /// a PNG or an SVG does; nil otherwise.
  package static func file(of uri: String) -> String? {
    guard let path = path(of: uri),
      case .success(let file) = readRegularFile(path, limit: maximumFileSize, prefix: 64)
    else { return nil }
    return isDrawable(file.bytes[...]) ? path : nil
  }

  /// Whether a file starting with `head` is one the owner's icons decode:
  /// a PNG whose header gives a size within ``maximumPNGSide``, or an SVG
  /// (gzip-compressed, or its first character `<`).
  package static func isDrawable(_ head: ArraySlice<UInt8>) -> Bool {
    if head.starts(with: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]) {
      // The IHDR chunk comes first: its width and height, big-endian, at 16 and 20.
      let bytes = Array(head)
      guard bytes.count >= 24, bytes[12..<16].elementsEqual("IHDR".utf8) else { return false }
      func number(at offset: Int) -> UInt32 {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | UInt32($1) }
      }
      return (1...maximumPNGSide).contains(number(at: 16))
        && (1...maximumPNGSide).contains(number(at: 20))
    }
    if head.starts(with: [0x1f, 0x8b]) { return true }
    var rest = head
    if rest.starts(with: [0xef, 0xbb, 0xbf]) { rest = rest.dropFirst(3) }
    return rest.first { ![0x20, 0x09, 0x0a, 0x0d].contains($0) } == UInt8(ascii: "<")
  }
}
