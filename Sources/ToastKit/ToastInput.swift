import ToastRendering

/// XKB keysym of Escape.
let escapeKeysym: UInt32 = 0xff1b

/// What a key does to a toast with buttons (XKB keysyms).
enum ButtonKey: Equatable {
  /// Tab, Right: the next button.
  case next
  /// Shift+Tab (ISO_Left_Tab), Left: the previous one.
  case previous
  /// Return, keypad Enter, space: choose the focused button.
  case activate
  /// Up, Down, Page Up, Page Down: scroll a bar's details by lines (a page:
  /// as many as show).
  case scroll(lines: Int, pages: Int)

  /// The key's meaning; with `rightToLeft` (a bar, whose first button is at
  /// the right end) Left moves to the next button and Right to the previous.
  init?(keysym: UInt32, rightToLeft: Bool = false) {
    switch keysym {
    case 0xff09: self = .next
    case 0xfe20: self = .previous
    case 0xff53: self = rightToLeft ? .previous : .next
    case 0xff51: self = rightToLeft ? .next : .previous
    case 0xff0d, 0xff8d, 0x20: self = .activate
    case 0xff52: self = .scroll(lines: -1, pages: 0)
    case 0xff54: self = .scroll(lines: 1, pages: 0)
    case 0xff55: self = .scroll(lines: 0, pages: -1)
    case 0xff56: self = .scroll(lines: 0, pages: 1)
    default: return nil
    }
  }
}

/// What an input event asks of the toast it reached: to draw again, and
/// what more to do.
struct InputResponse: Equatable {
  /// What the toast does beyond drawing again.
  enum Action: Equatable {
    /// The keyboard focus moved, or the toast got or lost the keyboard:
    /// screen readers hear of it (``ToastInput/keyboardFocus``).
    case focusMoved
    /// One of the toast's own buttons was chosen (its index in ``ToastModel/Toast/buttons``).
    case chose(Int)
    /// A bar's details button opened (true) or closed them; an opening
    /// surface takes the details' room first.
    case detailsToggled(open: Bool)
    /// The user dismissed the toast (a tap on it, Escape; a right click on a card).
    case dismiss
    /// The user clicked or tapped a card's body, outside its buttons: its
    /// default action.
    case activate
  }

  /// Whether the frames show the input differently (a button held or let
  /// go, the focus ring, the details): draw again.
  var redraws: Bool
  /// What else to do, if anything.
  var action: Action?

  /// Nothing changes.
  static let none = InputResponse(redraws: false, action: nil)
  /// Only the frames change.
  static let redraw = InputResponse(redraws: true, action: nil)
}

/// The user's input on one toast: the button with the keyboard focus, the
/// one held down, a bar's details (open or closed, the move under way, how
/// far scrolled) and what keys, clicks, taps and the wheel do to them.
///
/// Pure: an event and the toast's layout in, what the toast does out
/// (``InputResponse``); the caller draws, hides and tells screen readers.
struct ToastInput {
  /// How many buttons the toast has of its own (``ToastModel/Toast/buttons``).
  private var ownButtons: Int
  /// Whether the toast is a bar with details (and so their button, after its own).
  private(set) var hasDetailsButton: Bool
  /// Whether the details open and close with a move (``ToastModel/Toast/isAnimated``).
  private var isAnimated: Bool
  /// Whether the buttons run from right to left (a bar's).
  private var rightToLeft: Bool
  /// Whether the toast is a card: a click or tap on its body is its default
  /// action, a right click dismisses it.
  private var isCard: Bool
  /// Whether Escape dismisses the toast: a toast tapped away, a modal one,
  /// one with buttons, or a card.
  private var escapeDismisses: Bool
  /// Whether a tap outside the buttons dismisses: the toast's box (anywhere,
  /// for a modal toast) when it is tapped away.
  private var tapDismisses: (onTap: Bool, anywhere: Bool)
  /// Whether anywhere on the surface is the toast's (a bar that is not
  /// modal: its surface is the bar); otherwise only its box is.
  private var surfaceIsBox: Bool

  /// The button Tab has moved to (the first at the start).
  private(set) var focusedButton = 0
  /// Whether one of the toast's surfaces has the keyboard (the focus ring shows).
  private(set) var hasKeyboard = false
  /// The button held down by the pointer or a finger.
  private(set) var pressedButton: Int?
  /// Whether the pointer rests on the toast's box (on one of its surfaces).
  private(set) var pointerOnBox = false
  /// Whether a finger rests on the toast's box.
  private(set) var fingerOnBox = false
  /// A bar's details: open (or opening), and the move under way.
  private(set) var detailsOpen = false
  private var detailsMove: (from: Double, startedAt: Double)?
  /// The first line of the details shown.
  private(set) var detailsLine = 0

  /// The input of a toast showing `toast`: the focus on the first button,
  /// nothing held, details closed.
  init(toast: Toast) {
    ownButtons = 0
    hasDetailsButton = false
    isAnimated = true
    rightToLeft = false
    isCard = false
    escapeDismisses = false
    tapDismisses = (false, false)
    surfaceIsBox = false
    toastChanged(toast)
  }

  /// The toast changed in place: a focus or a press on a button it no longer
  /// shows goes back to the first button, or to none.
  mutating func toastChanged(_ toast: Toast) {
    ownButtons = toast.buttons.count
    hasDetailsButton = toast.style == .bar && toast.details != nil
    isAnimated = toast.isAnimated
    rightToLeft = toast.style == .bar
    isCard = toast.style == .card
    escapeDismisses =
      toast.dismissal == .tap || toast.isModal || !toast.buttons.isEmpty || isCard
    tapDismisses = (toast.dismissal == .tap, toast.isModal)
    surfaceIsBox = toast.style == .bar && !toast.isModal
    if focusedButton >= buttonCount { focusedButton = 0 }
    if let pressed = pressedButton, pressed >= buttonCount { pressedButton = nil }
  }

  /// How many buttons the toast shows: its own, and a bar's details button.
  var buttonCount: Int { ownButtons + (hasDetailsButton ? 1 : 0) }

  /// The button with the keyboard focus: the focused one while the toast has
  /// the keyboard, nil otherwise (for screen readers and the focus ring).
  var keyboardFocus: Int? { hasKeyboard && buttonCount > 0 ? focusedButton : nil }

  /// What the frames show of the input at `now`.
  func interaction(at now: Double) -> Interaction {
    Interaction(
      focused: keyboardFocus, pressed: pressedButton, detailsOpening: detailsOpening(at: now),
      detailsLine: detailsLine)
  }

  /// How far the details are open at `now`, from 0 to 1.
  private func detailsOpening(at now: Double) -> Double {
    let target = detailsOpen ? 1.0 : 0.0
    guard let move = detailsMove, isAnimated else { return target }
    let progress = (now - move.startedAt) / Design.Bar.detailsMove.inSeconds
    return move.from + (target - move.from) * Easing.easeOut(progress)
  }

  /// Ends the details' move when it is over at `now`: whether it is still
  /// under way (frames must follow), and whether one just ended closed (the
  /// surface gives their room back).
  mutating func advanceDetails(at now: Double) -> (moving: Bool, closed: Bool) {
    guard let move = detailsMove else { return (false, false) }
    guard now - move.startedAt >= Design.Bar.detailsMove.inSeconds || !isAnimated else {
      return (true, false)
    }
    detailsMove = nil
    return (false, !detailsOpen)
  }

  /// An event on a surface laid out as `layout`, at `now`: what the toast does.
  mutating func handle(_ event: InputEvent, layout: ToastLayout, now: Double) -> InputResponse {
    switch event {
    case .press(let x, let y, let secondary):
      // A right press on a card holds no button: its release dismisses the card.
      return setPressed(isCard && secondary ? nil : layout.button(atX: x, y: y))
    case .cancel:
      return setPressed(nil)
    case .tap(let x, let y, let secondary):
      let pressed = pressedButton
      let released = setPressed(nil)
      if isCard {
        let action = cardTap(x: x, y: y, secondary: secondary, pressed: pressed, layout, now: now)
        return InputResponse(redraws: released.redraws, action: action)
      }
      if let button = layout.button(atX: x, y: y) {
        // A button is chosen where it was pressed and released (a press on
        // one, dragged onto another, chooses neither).
        guard button == pressed else { return released }
        return InputResponse(redraws: released.redraws, action: choose(button, now: now))
      }
      guard tapDismisses.onTap, tapDismisses.anywhere || layout.box.contains(x: x, y: y) else {
        return released
      }
      return InputResponse(redraws: released.redraws, action: .dismiss)
    case .pointerMoved(let x, let y):
      pointerOnBox = surfaceIsBox || layout.box.contains(x: x, y: y)
      return .none
    case .pointerLeft:
      pointerOnBox = false
      return .none
    case .fingers(let points):
      fingerOnBox = points.contains { surfaceIsBox || layout.box.contains(x: $0.x, y: $0.y) }
      return .none
    case .scroll(let x, let y, let steps):
      guard let area = layout.details?.area, area.contains(x: x, y: y) else { return .none }
      return scrollDetails(by: steps, in: layout)
    case .keyboardFocus(let focused):
      guard focused != hasKeyboard else { return .none }
      hasKeyboard = focused
      return InputResponse(redraws: true, action: .focusMoved)
    case .key(let keysym):
      if keysym == escapeKeysym && escapeDismisses {
        return InputResponse(redraws: false, action: .dismiss)
      }
      guard buttonCount > 0, let key = ButtonKey(keysym: keysym, rightToLeft: rightToLeft)
      else { return .none }
      let count = buttonCount
      switch key {
      case .activate: return InputResponse(redraws: false, action: choose(focusedButton, now: now))
      case .scroll(let lines, let pages):
        let page = layout.details?.visibleLines ?? 1
        return scrollDetails(by: lines + pages * page, in: layout)
      case .next, .previous:
        focusedButton = (focusedButton + (key == .next ? 1 : count - 1)) % count
        hasKeyboard = true
        return InputResponse(redraws: true, action: .focusMoved)
      }
    }
  }

  /// What a click or tap ending at (`x`, `y`) does to a card, after a press
  /// on `pressed` (a button, or nil): a right click on the box dismisses
  /// it; a button is chosen where it was pressed and released; the body is
  /// its default action, unless the press was on a button; outside the box
  /// (a modal card's surface) it is tapped away with `--dismiss tap`.
  private mutating func cardTap(
    x: Double, y: Double, secondary: Bool, pressed: Int?, _ layout: ToastLayout, now: Double
  ) -> InputResponse.Action? {
    guard layout.box.contains(x: x, y: y) else {
      return tapDismisses.onTap && tapDismisses.anywhere ? .dismiss : nil
    }
    if secondary { return .dismiss }
    if let button = layout.button(atX: x, y: y) {
      return button == pressed ? choose(button, now: now) : nil
    }
    return pressed == nil ? .activate : nil
  }

  /// Chooses `button` (an index among the buttons shown) as a click on it
  /// does: a screen reader's action on it. Nothing for a button not shown.
  mutating func activate(button: Int, now: Double) -> InputResponse {
    guard (0..<buttonCount).contains(button) else { return .none }
    return InputResponse(redraws: false, action: choose(button, now: now))
  }

  /// A click on a card's body as a screen reader's action on the card does
  /// it: a left one is its default action, a right one dismisses it.
  /// Nothing for a toast that is no card.
  func clickBody(secondary: Bool) -> InputResponse {
    guard isCard else { return .none }
    return InputResponse(redraws: false, action: secondary ? .dismiss : .activate)
  }

  /// A button was chosen: a bar's details button opens or closes them; any
  /// other is the toast's own.
  private mutating func choose(_ button: Int, now: Double) -> InputResponse.Action {
    guard hasDetailsButton && button == ownButtons else { return .chose(button) }
    detailsMove = (detailsOpening(at: now), now)
    detailsOpen.toggle()
    return .detailsToggled(open: detailsOpen)
  }

  /// Scrolls the details by `lines` (negative: up), within their text.
  private mutating func scrollDetails(by lines: Int, in layout: ToastLayout) -> InputResponse {
    guard detailsOpen, let details = layout.details else { return .none }
    let line = min(max(detailsLine + lines, 0), details.lastFirstLine)
    guard line != detailsLine else { return .none }
    detailsLine = line
    return .redraw
  }

  /// Shows `button` (or none) as held down.
  private mutating func setPressed(_ button: Int?) -> InputResponse {
    guard button != pressedButton else { return .none }
    pressedButton = button
    return .redraw
  }
}
