extension Toast {
  /// An image given as pixels rather than by a name or a path: rows of
  /// `width` pixels, four bytes each (red, green, blue, alpha; not
  /// premultiplied), one row after another with no padding.
  public struct Image: Equatable, Sendable {
    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: red, green, blue, alpha.
    public let rgba: [UInt8]

    /// The largest side accepted, in pixels.
    public static let maximumSide = 1024

    /// An image of `width × height` pixels; nil when a side is 0 or larger
    /// than ``maximumSide``, or `rgba` does not hold exactly
    /// `width × height × 4` bytes.
    public init?(width: Int, height: Int, rgba: [UInt8]) {
      guard (1...Self.maximumSide).contains(width), (1...Self.maximumSide).contains(height),
        rgba.count == width * height * 4
      else { return nil }
      self.width = width
      self.height = height
      self.rgba = rgba
    }
  }
}
