import SystemSupport
import ToastModel

/// Toasts at one position of one output never overlap: they stack in the
/// order they appeared (cards the newest first, as notifications do), with
/// ``Design/stackGap`` between them. Pure.
public enum Stacking {
  /// How far each toast moves from its place, given the extents of the boxes
  /// along the stacking axis (heights, or widths at the left and right edges),
  /// in the order the toasts appeared.
  ///
  /// At an edge, the first toast rests at its margin and the others follow away
  /// from the edge; at the centre, the stack is centred as a whole, the first
  /// toast at the top (negative shifts move up). With `newestFirst` (a stack
  /// of cards) the last toast to appear is the first in the stack.
  public static func shifts(
    extents: [Double], position: Toast.Position, newestFirst: Bool = false
  ) -> [Double] {
    if newestFirst {
      return shifts(extents: extents.reversed(), position: position).reversed()
    }
    var shifts: [Double] = []
    var before = 0.0
    for extent in extents {
      shifts.append(before)
      before += max(extent, 0) + Design.stackGap
    }
    guard position == .center, !extents.isEmpty else { return shifts }
    let total = before - Design.stackGap
    return zip(shifts, extents).map { shift, extent in
      (shift + max(extent, 0) / 2 - total / 2).rounded(.down)
    }
  }

  /// Where a toast moving from `from` to `to` in its stack is `elapsed` seconds
  /// into the move: eased out over ``Design/stackMove``, whole pixels.
  public static func shift(movingFrom from: Double, to: Double, elapsed: Double) -> Double {
    let progress = elapsed / Design.stackMove.inSeconds
    return (from + (to - from) * Easing.easeOut(progress)).rounded()
  }
}
