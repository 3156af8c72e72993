import Testing
import ToastModel

/// Picture formats told from their first bytes, and bitmaps' sizes read from
/// their headers before anything is decoded.
struct ImageFormatTests {
  static let pngSignature: [UInt8] = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]

  /// A PNG's signature and IHDR chunk for `width`×`height` (no pixels).
  static func pngHead(width: UInt32, height: UInt32) -> [UInt8] {
    func bigEndian(_ value: UInt32) -> [UInt8] {
      (0..<4).map { UInt8(value >> (24 - 8 * $0) & 0xff) }
    }
    return pngSignature + bigEndian(13) + Array("IHDR".utf8) + bigEndian(width)
      + bigEndian(height) + [8, 2, 0, 0, 0]
  }

  /// A JPEG segment: its marker, its length (itself included), its data.
  static func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
    [0xff, marker, UInt8((data.count + 2) >> 8), UInt8((data.count + 2) & 0xff)] + data
  }

  /// A frame header `SOFn` for `width`×`height`, three components.
  static func frame(_ marker: UInt8 = 0xc0, width: Int, height: Int) -> [UInt8] {
    segment(
      marker,
      [8, UInt8(height >> 8), UInt8(height & 0xff), UInt8(width >> 8), UInt8(width & 0xff), 3]
        + [1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
  }

  /// The size `format` reads in `bytes`, as [width, height].
  static func size(_ format: ImageFormat, _ bytes: some Sequence<UInt8>) -> [Int]? {
    format.pixelSize(in: ArraySlice(bytes)).map { [$0.width, $0.height] }
  }

  static let jfif = segment(0xe0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])

  @Test func formatsAreToldByTheirSignatures() {
    #expect(ImageFormat(signature: Self.pngSignature[...]) == .png)
    #expect(ImageFormat(signature: ([0xff, 0xd8, 0xff] + Self.jfif)[...]) == .jpeg)
    #expect(ImageFormat(signature: [0x1f, 0x8b, 8][...]) == .svg, "SVGZ")
    #expect(ImageFormat(signature: Array("\u{FEFF} \n<svg/>".utf8)[...]) == .svg)
    #expect(ImageFormat(signature: Array("<?xml version='1.0'?>".utf8)[...]) == .svg)
    #expect(ImageFormat(signature: Array("GIF89a".utf8)[...]) == nil)
    #expect(ImageFormat(signature: [0xff, 0xd8][...]) == nil, "no marker after SOI")
    #expect(ImageFormat(signature: Array("notes".utf8)[...]) == nil)
    #expect(ImageFormat(signature: [][...]) == nil)
  }

  @Test func aPNGsSizeIsItsIHDRs() {
    #expect(Self.size(.png, Self.pngHead(width: 640, height: 480)) == [640, 480])
    #expect(Self.size(.png, Self.pngHead(width: 0, height: 480)) == nil)
    #expect(Self.size(.png, Self.pngHead(width: 640, height: 480).prefix(23)) == nil)
    var renamed = Self.pngHead(width: 1, height: 1)
    renamed[12] = UInt8(ascii: "X")
    #expect(Self.size(.png, renamed) == nil, "IHDR is not first")
    #expect(Self.size(.svg, Self.pngHead(width: 1, height: 1)) == nil)
  }

  @Test func aJPEGsSizeIsItsFramesAfterAnySegmentBeforeIt() {
    let exif = Self.segment(
      0xe1, Array("Exif".utf8) + [0, 0] + [UInt8](repeating: 0xff, count: 3000))
    let quantization = Self.segment(0xdb, [0] + [UInt8](repeating: 1, count: 64))
    let file: [UInt8] =
      [0xff, 0xd8] + Self.jfif + exif + quantization + [0xff, 0xff]
      + Self.frame(width: 4032, height: 3024)
    #expect(Self.size(.jpeg, file) == [4032, 3024], "fill bytes skipped")
    // Progressive (SOF2) and arithmetic-coded (SOF9) frames too; DHT (C4),
    // JPG (C8) and DAC (CC) are no frames.
    for marker: UInt8 in [0xc2, 0xc9] {
      let other = [0xff, 0xd8] + Self.frame(marker, width: 7, height: 9)
      #expect(Self.size(.jpeg, other) == [7, 9])
    }
    let table = Self.segment(0xc4, [0x00] + [UInt8](repeating: 0, count: 16))
    #expect(Self.size(.jpeg, [0xff, 0xd8] + table + Self.frame(width: 2, height: 3)) == [2, 3])
  }

  @Test func aJPEGWithoutAFrameInItsBytesHasNoSize() {
    let start: [UInt8] = [0xff, 0xd8]
    let frame = Self.frame(width: 16, height: 16)
    let whole = start + Self.jfif + frame
    // The frame's width ends 9 bytes into it: any cut before that reads no size.
    let widthEnd = whole.count - frame.count + 9
    for count in 0..<widthEnd {
      #expect(Self.size(.jpeg, whole.prefix(count)) == nil, "cut at \(count)")
    }
    #expect(Self.size(.jpeg, whole.prefix(widthEnd)) == [16, 16])
    let scan = Self.segment(0xda, [1, 1, 0, 0, 63, 0])
    #expect(Self.size(.jpeg, (start + scan + Self.frame(width: 1, height: 1))) == nil)
    #expect(Self.size(.jpeg, (start + Self.frame(width: 0, height: 8))) == nil)
    #expect(Self.size(.jpeg, (start + [0xff, 0xe0, 0, 1])) == nil, "length 1")
    #expect(Self.size(.jpeg, (start + [0x00, 0xe0, 0, 2])) == nil, "no marker")
  }
}
