/// Picture files written by the tests themselves, of one colour, so that a
/// test knows what a decoder must give back.

/// A PNG file of `width`×`height` pixels all of the colour `rgb` (8-bit RGB,
/// stored uncompressed in zlib's format, as any PNG decoder reads it).
package func pngFile(width: Int, height: Int, rgb: [UInt8]) -> [UInt8] {
  var raw: [UInt8] = []
  for _ in 0..<height { raw += [0] + Array((0..<width).flatMap { _ in rgb }) }
  func bigEndian(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
  }
  func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
    let body = Array(type.utf8) + data
    return bigEndian(UInt32(data.count)) + body + bigEndian(crc32(body))
  }
  // zlib: a header, stored blocks of at most 65535 bytes, then Adler-32.
  var zlib: [UInt8] = [0x78, 0x01]
  var offset = 0
  repeat {
    let length = min(65_535, raw.count - offset)
    let last: UInt8 = offset + length == raw.count ? 1 : 0
    zlib += [
      last, UInt8(length & 0xff), UInt8(length >> 8), UInt8(~length & 0xff),
      UInt8((~length >> 8) & 0xff),
    ]
    zlib += raw[offset..<offset + length]
    offset += length
  } while offset < raw.count
  var a: UInt32 = 1
  var b: UInt32 = 0
  for byte in raw {
    a = (a + UInt32(byte)) % 65_521
    b = (b + a) % 65_521
  }
  zlib += bigEndian(b << 16 | a)
  let header =
    bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, 2, 0, 0, 0]
  return [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] + chunk("IHDR", header)
    + chunk("IDAT", zlib) + chunk("IEND", [])
}

/// The CRC-32 of `bytes` (PNG's and zlib's polynomial).
private func crc32(_ bytes: [UInt8]) -> UInt32 {
  var crc: UInt32 = 0xffff_ffff
  for byte in bytes {
    crc ^= UInt32(byte)
    for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
  }
  return ~crc
}

/// A baseline JPEG file (JFIF) of `width`×`height` pixels all of the colour
/// `rgb` (8-bit RGB), as a camera or a player writes one, for any JPEG
/// decoder: YCbCr without subsampling, quantized by 1, so a decoder gives the
/// colour back within a step or two. `metadata` bytes go in an APP1 segment
/// before the frame, as Exif does.
package func jpegFile(width: Int, height: Int, rgb: [UInt8], metadata: [UInt8] = []) -> [UInt8] {
  jpegFile(width: width, height: height, metadata: metadata) { _, _ in rgb }
}

/// A JPEG file as above whose 8×8 blocks each have one colour, `color(x,
/// y)` at the block's top left pixel. Each block is its DC value alone,
/// coded with the specification's DC table; an AC table of one code, end of
/// block.
package func jpegFile(
  width: Int, height: Int, metadata: [UInt8] = [], color: (_ x: Int, _ y: Int) -> [UInt8]
) -> [UInt8] {
  func segment(_ marker: UInt8, _ data: [UInt8]) -> [UInt8] {
    let length = data.count + 2
    return [0xff, marker, UInt8(length >> 8), UInt8(length & 0xff)] + data
  }
  // JFIF's conversion; a flat block's DC coefficient is 8 × its level-shifted value.
  func coefficients(_ rgb: [UInt8]) -> [Int] {
    let (red, green, blue) = (Double(rgb[0]), Double(rgb[1]), Double(rgb[2]))
    return [
      0.299 * red + 0.587 * green + 0.114 * blue,
      -0.168_736 * red - 0.331_264 * green + 0.5 * blue + 128,
      0.5 * red - 0.418_688 * green - 0.081_312 * blue + 128,
    ].map { Int((8 * ($0 - 128)).rounded()) }
  }
  // ITU T.81 Table K.3: code lengths of the luminance DC categories 0 to 11.
  let dcCounts: [UInt8] = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
  var dcCodes: [(code: Int, length: Int)] = []
  var code = 0
  for (index, count) in dcCounts.enumerated() {
    for _ in 0..<count {
      dcCodes.append((code, index + 1))
      code += 1
    }
    code <<= 1
  }
  var scan: [UInt8] = []
  var accumulator = 0
  var bits = 0
  func put(_ value: Int, _ length: Int) {
    for shift in stride(from: length - 1, through: 0, by: -1) {
      accumulator = accumulator << 1 | (value >> shift & 1)
      bits += 1
      if bits == 8 {
        scan.append(UInt8(accumulator))
        if accumulator == 0xff { scan.append(0) }
        (accumulator, bits) = (0, 0)
      }
    }
  }
  var previous = [0, 0, 0]
  for block in 0..<((width + 7) / 8) * ((height + 7) / 8) {
    let columns = (width + 7) / 8
    let components = coefficients(color(block % columns * 8, block / columns * 8))
    for index in 0..<3 {
      let difference = components[index] - previous[index]
      previous[index] = components[index]
      let category = difference == 0 ? 0 : Int.bitWidth - abs(difference).leadingZeroBitCount
      put(dcCodes[category].code, dcCodes[category].length)
      put(difference < 0 ? difference + (1 << category) - 1 : difference, category)
      put(0, 1)  // end of block
    }
  }
  while bits != 0 { put(1, 1) }
  let size = [UInt8(height >> 8), UInt8(height & 0xff), UInt8(width >> 8), UInt8(width & 0xff)]
  var file: [UInt8] = [0xff, 0xd8]
  file += segment(0xe0, Array("JFIF".utf8) + [0, 1, 1, 0, 0, 1, 0, 1, 0, 0])
  if !metadata.isEmpty { file += segment(0xe1, metadata) }
  file += segment(0xdb, [0] + [UInt8](repeating: 1, count: 64))
  file += segment(0xc0, [8] + size + [3, 1, 0x11, 0, 2, 0x11, 0, 3, 0x11, 0])
  file += segment(
    0xc4, [0x00] + dcCounts + Array(0...11) + [0x10, 1] + [UInt8](repeating: 0, count: 15) + [0])
  file += segment(0xda, [3, 1, 0, 2, 0, 3, 0, 0, 63, 0])
  return file + scan + [0xff, 0xd9]
}

/// Exif metadata (for ``jpegFile(width:height:metadata:color:)``) holding
/// only an orientation, 1 to 8: 6 is a photo taken with the camera turned a
/// quarter clockwise, shown turned back.
package func exifMetadata(orientation: UInt16) -> [UInt8] {
  // Big-endian TIFF: its header, then one directory of one SHORT entry.
  Array("Exif".utf8) + [0, 0] + [0x4d, 0x4d, 0, 0x2a, 0, 0, 0, 8] + [0, 1]
    + [0x01, 0x12, 0, 3, 0, 0, 0, 1, UInt8(orientation >> 8), UInt8(orientation & 0xff), 0, 0]
    + [0, 0, 0, 0]
}
