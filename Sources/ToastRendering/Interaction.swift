/// What a frame shows of the user's input, apart from the toast itself: the
/// button with the keyboard's focus, the one held down, and a bar's details
/// (how far they are open, how far scrolled).
public struct Interaction: Hashable, Sendable {
  /// The button with the focus ring (an index of ``ToastLayout/buttons``);
  /// nil for none (the toast does not have the keyboard).
  public var focused: Int?
  /// The button under a pressed pointer or finger; nil for none.
  public var pressed: Int?
  /// How far a bar's details are open, from 0 (closed) to 1 (open): the
  /// share of their area drawn, from the bar down (or up, at the bottom).
  public var detailsOpening: Double
  /// The first line of a bar's details shown (0: the first).
  public var detailsLine: Int

  /// Creates the states.
  public init(
    focused: Int? = nil, pressed: Int? = nil, detailsOpening: Double = 0, detailsLine: Int = 0
  ) {
    self.focused = focused
    self.pressed = pressed
    self.detailsOpening = detailsOpening
    self.detailsLine = detailsLine
  }

  /// No focus ring, nothing pressed, details closed.
  public static let idle = Interaction()
}
