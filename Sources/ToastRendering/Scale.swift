/// The scale a toast is drawn at: buffer pixels per logical pixel, kept in
/// 120ths as wp_fractional_scale_v1 sends it, so 1.25, 1.5 and 1.75 are exact.
/// Pure.
public struct RenderScale: Hashable, Comparable, Sendable, CustomStringConvertible {
  /// The scale times 120.
  public let numerator: Int

  /// A scale from its 120ths (wp_fractional_scale_v1's `preferred_scale`);
  /// below 1 counts as 1.
  public init(fractional numerator: Int) {
    self.numerator = max(numerator, 120)
  }

  /// A whole scale, as wl_output.scale gives it; below 1 counts as 1.
  public static func integer(_ scale: Int) -> RenderScale {
    let (numerator, overflow) = max(scale, 1).multipliedReportingOverflow(by: 120)
    return RenderScale(fractional: overflow ? Int.max : numerator)
  }

  /// Scale 1.
  public static let one = RenderScale(fractional: 120)

  /// The scale as a number (1.5).
  public var factor: Double { Double(numerator) / 120 }

  /// Whether the scale is whole, so `wl_surface.set_buffer_scale` can express it.
  public var isInteger: Bool { numerator % 120 == 0 }

  /// The smallest whole scale at least this large: what a compositor without
  /// fractional scaling gets, never less sharp than this scale.
  public var roundedUp: Int { (numerator + 119) / 120 }

  /// Buffer pixels for `logical` pixels: the product rounded half away from
  /// zero, as wp_fractional_scale_v1 asks; nil when it does not fit an Int32
  /// (a buffer that could not be allocated anyway).
  public func pixels(_ logical: Int) -> Int? {
    let (product, overflow) = logical.multipliedReportingOverflow(by: numerator)
    guard !overflow, logical >= 0 else { return nil }
    let pixels = (product + 60) / 120
    return pixels <= Int(Int32.max) ? pixels : nil
  }

  /// `1.5`, or `2` for a whole scale.
  public var description: String {
    isInteger ? "\(numerator / 120)" : "\(factor)"
  }

  /// Whether `lhs` is the smaller scale.
  public static func < (lhs: RenderScale, rhs: RenderScale) -> Bool {
    lhs.numerator < rhs.numerator
  }
}
