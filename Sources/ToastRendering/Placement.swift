import ToastModel

/// Edges of an output a layer surface is anchored to.
public struct Edges: OptionSet, Equatable, Sendable {
  /// The raw bits.
  public let rawValue: UInt32

  /// Creates the set from its raw bits.
  public init(rawValue: UInt32) { self.rawValue = rawValue }

  /// The top edge.
  public static let top = Edges(rawValue: 1)
  /// The bottom edge.
  public static let bottom = Edges(rawValue: 2)
  /// The left edge.
  public static let left = Edges(rawValue: 4)
  /// The right edge.
  public static let right = Edges(rawValue: 8)
  /// All four edges.
  public static let all: Edges = [.top, .bottom, .left, .right]
}

extension Toast.Position {
  /// The edges a toast at this position rests against (none for the centre).
  public var edges: Edges {
    switch self {
    case .center: []
    case .top: .top
    case .bottom: .bottom
    case .left: .left
    case .right: .right
    case .topLeft: [.top, .left]
    case .topRight: [.top, .right]
    case .bottomLeft: [.bottom, .left]
    case .bottomRight: [.bottom, .right]
    }
  }

  /// Whether toasts at this position stack side by side (the left and right
  /// edges) rather than one above the other.
  public var stacksHorizontally: Bool { self == .left || self == .right }
}

/// Where a toast's layer surface goes on its output: the edges it is anchored
/// to and the layer-shell margins, in logical pixels. Pure: computed from the
/// toast, its layout and its place in a stack.
public struct Placement: Equatable, Sendable {
  /// The edges the surface is anchored to; none centres it.
  public var anchors: Edges
  /// Margins to the anchored edges (the others are ignored); they may be
  /// negative where the surface's shadow room reaches past the edge.
  public var top = 0
  /// The right margin.
  public var right = 0
  /// The bottom margin.
  public var bottom = 0
  /// The left margin.
  public var left = 0

  /// The placement of `toast` laid out as `layout`, moved `shift` logical
  /// pixels away from its edge by the toasts stacked before it (at the centre,
  /// the layout holds the shift instead).
  ///
  /// The box (not the surface with its shadow room) keeps `toast`'s margin to
  /// the edges it rests against; the offset moves it along anchored axes.
  public init(toast: Toast, layout: ToastLayout, shift: Double = 0) {
    if layout.coversOutput {
      anchors = .all
      return
    }
    if toast.style == .bar {
      // Full width at its edge, the compositor's to stretch: no margins.
      anchors = [.left, .right, toast.effectivePosition == .bottom ? .bottom : .top]
      return
    }
    let position = toast.effectivePosition
    anchors = position.edges
    let margin = Double(toast.effectiveMargin)
    let box = layout.box
    let offset = toast.style == .hud ? toast.offset : .zero
    let alongX = position.stacksHorizontally ? shift : 0
    let alongY = position.stacksHorizontally ? 0 : shift
    if anchors.contains(.top) {
      top = Self.pixels(margin - box.y + Double(offset.y) + alongY)
    }
    if anchors.contains(.bottom) {
      bottom = Self.pixels(
        margin - (Double(layout.surfaceHeight) - box.y - box.height) - Double(offset.y) + alongY)
    }
    if anchors.contains(.left) {
      left = Self.pixels(margin - box.x + Double(offset.x) + alongX)
    }
    if anchors.contains(.right) {
      right = Self.pixels(
        margin - (Double(layout.surfaceWidth) - box.x - box.width) - Double(offset.x) + alongX)
    }
  }

  private static func pixels(_ value: Double) -> Int {
    Int(min(max(value.rounded(), -1_000_000), 1_000_000))
  }
}
