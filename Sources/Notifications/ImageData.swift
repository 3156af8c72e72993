import ToastModel

/// An image given as pixels (`image-data`, `image_data`, `icon_data`):
/// `(iiibiiay)`, width, height, rowstride, has alpha, bits per sample,
/// channels and the bytes, checked against each other as the specification
/// says, then converted to RGBA.
enum ImageData {
  /// The parts of an `(iiibiiay)` as read from the wire.
  struct Parts {
    var width: Int
    var height: Int
    var rowstride: Int
    var hasAlpha: Bool
    var bits: Int
    var channels: Int
    /// The bytes, sharing the message's storage.
    var bytes: ArraySlice<UInt8>
  }

  /// The image of a hint's value.
  ///
  /// - Throws: ``NotificationRefusal/invalidArguments`` for another type, a
  ///   side of 0 or less, bits per sample other than 8, channels other than
  ///   3 without alpha or 4 with it, a rowstride shorter than a row, or
  ///   bytes fewer than `rowstride × (height − 1) + width × channels` or more
  ///   than `rowstride × height`; ``NotificationRefusal/limitsExceeded`` for
  ///   a side above ``NotificationRequest/Limits/claimedImageSide``, before
  ///   anything else is read or allocated.
  static func image(_ value: HintValue, hint: String) throws(NotificationRefusal) -> Toast.Image {
    let parts: Parts
    switch value {
    case .image(let read): parts = read
    case .integer(_, let type), .other(let type):
      throw .invalid("\(hint): expected (iiibiiay), got \(type)")
    case .boolean: throw .invalid("\(hint): expected (iiibiiay), got b")
    case .string: throw .invalid("\(hint): expected (iiibiiay), got s")
    }
    let (width, height, rowstride) = (parts.width, parts.height, parts.rowstride)
    let (hasAlpha, bits, channels) = (parts.hasAlpha, parts.bits, parts.channels)
    guard width > 0, height > 0 else {
      throw .invalid("\(hint): \(width)x\(height) pixels, expected sides of 1 or more")
    }
    let limit = NotificationRequest.Limits.claimedImageSide
    guard width <= limit, height <= limit else {
      throw .tooLarge("\(hint): \(width)x\(height) pixels, at most \(limit) a side")
    }
    guard bits == 8 else { throw .invalid("\(hint): \(bits) bits per sample, expected 8") }
    guard channels == (hasAlpha ? 4 : 3) else {
      throw .invalid(
        "\(hint): \(channels) channels \(hasAlpha ? "with" : "without") alpha, expected"
          + " \(hasAlpha ? 4 : 3)")
    }
    guard rowstride >= width * channels else {
      throw .invalid(
        "\(hint): a rowstride of \(rowstride) bytes, shorter than a row of \(width * channels)")
    }
    let least = rowstride * (height - 1) + width * channels
    let most = rowstride * height
    let count = parts.bytes.count
    guard (least...most).contains(count) else {
      throw .invalid(
        "\(hint): \(count) bytes for \(width)x\(height) pixels of \(channels) bytes"
          + " with a rowstride of \(rowstride), expected \(least)"
          + (least == most ? "" : " to \(most)"))
    }
    let pixels = parts.bytes.withUnsafeBytes { bytes in
      scaled(bytes, width: width, height: height, rowstride: rowstride, channels: channels)
    }
    guard let pixels else { throw .invalid("\(hint): unreadable bytes") }
    return pixels
  }

  /// The pixels as RGBA, scaled down by a whole factor when a side is above
  /// ``NotificationRequest/Limits/imageSide``: each pixel the average of a
  /// square of the original's, colours weighted by their opacity.
  static func scaled(
    _ bytes: UnsafeRawBufferPointer, width: Int, height: Int, rowstride: Int, channels: Int
  ) -> Toast.Image? {
    let side = NotificationRequest.Limits.imageSide
    let factor = (max(width, height) + side - 1) / side
    let newWidth = max(1, width / factor)
    let newHeight = max(1, height / factor)
    var rgba = [UInt8](repeating: 0, count: newWidth * newHeight * 4)
    var target = 0
    for y in 0..<newHeight {
      for x in 0..<newWidth {
        var red = 0
        var green = 0
        var blue = 0
        var alpha = 0
        var count = 0
        for row in y * factor..<min((y + 1) * factor, height) {
          var source = row * rowstride + x * factor * channels
          for _ in x * factor..<min((x + 1) * factor, width) {
            let opacity = channels == 4 ? Int(bytes[source + 3]) : 255
            red += Int(bytes[source]) * opacity
            green += Int(bytes[source + 1]) * opacity
            blue += Int(bytes[source + 2]) * opacity
            alpha += opacity
            count += 1
            source += channels
          }
        }
        if alpha > 0 {
          rgba[target] = UInt8((red + alpha / 2) / alpha)
          rgba[target + 1] = UInt8((green + alpha / 2) / alpha)
          rgba[target + 2] = UInt8((blue + alpha / 2) / alpha)
        }
        rgba[target + 3] = UInt8((alpha + count / 2) / count)
        target += 4
      }
    }
    return Toast.Image(width: newWidth, height: newHeight, rgba: rgba)
  }
}
