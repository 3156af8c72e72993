/// A key a test presses on any desk.
package enum DeskKey: Sendable {
  /// Escape.
  case escape
  /// Tab.
  case tab
  /// Return.
  case enter
}

/// The pointer and keyboard of a desk, in logical coordinates: sway's and
/// river's virtual devices, KWin's fake input.
package protocol DeskInput {
  /// Clicks the left button at a logical point.
  func click(atX x: Int, y: Int) throws
  /// Presses and releases a key.
  func press(_ key: DeskKey) throws
}

extension VirtualInput: DeskInput {
  package func click(atX x: Int, y: Int) throws { try click(x: x, y: y) }
  package func press(_ key: DeskKey) throws {
    switch key {
    case .escape: try press(keysym: 0xff1b)
    case .tab: try press(keysym: 0xff09)
    case .enter: try press(keysym: 0xff0d)
    }
  }
}

extension KWinFakeInput: DeskInput {
  package func click(atX x: Int, y: Int) throws { try click(x: Double(x), y: Double(y)) }
  package func press(_ key: DeskKey) throws {
    switch key {
    case .escape: try press(Key.escape)
    case .tab: try press(Key.tab)
    case .enter: try press(Key.enter)
    }
  }
}
