import Testing
import ToastRendering

@testable import ToastKit

/// A card's clicks and taps, on real layouts: the body is its default
/// action, a right click dismisses it, a button is chosen; other styles keep
/// their own rules.
struct CardInputTests {
  /// A card with `buttons`.
  static func card(_ buttons: [String] = ["Reply", "Snooze"]) -> Toast {
    var toast = Toast("<b>Meeting</b>\nIn 5 minutes", style: .card)
    toast.isMarkup = true
    toast.buttons = buttons
    return toast
  }

  static func layout(_ toast: Toast) -> ToastLayout {
    ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
  }

  /// A click (press and release) at a point: what it does.
  static func click(
    _ input: inout ToastInput, x: Double, y: Double, secondary: Bool = false, on layout: ToastLayout
  ) -> InputResponse.Action? {
    _ = input.handle(.press(x: x, y: y, secondary: secondary), layout: layout, now: 0)
    return input.handle(.tap(x: x, y: y, secondary: secondary), layout: layout, now: 0).action
  }

  /// A point of the card's body: its top left corner, inside the padding.
  static func body(of layout: ToastLayout) -> (x: Double, y: Double) {
    (layout.box.x + 4, layout.box.y + layout.box.height / 2)
  }

  @Test func aLeftClickOrATapOnTheBodyActivatesTheCard() {
    for buttons in [[], ["Reply"]] {
      let toast = Self.card(buttons)
      let layout = Self.layout(toast)
      var input = ToastInput(toast: toast)
      let point = Self.body(of: layout)
      #expect(Self.click(&input, x: point.x, y: point.y, on: layout) == .activate)
      // A touch: a press and a tap, with no button of the pointer.
      var touched = ToastInput(toast: toast)
      _ = touched.handle(.press(x: point.x, y: point.y), layout: layout, now: 0)
      #expect(
        touched.handle(.tap(x: point.x, y: point.y), layout: layout, now: 0).action == .activate)
    }
  }

  @Test func aRightClickAnywhereOnTheCardDismissesIt() {
    let toast = Self.card()
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let point = Self.body(of: layout)
    #expect(Self.click(&input, x: point.x, y: point.y, secondary: true, on: layout) == .dismiss)
    // On a button too, which a right press does not hold down.
    let reply = layout.buttons[0].frame
    var onButton = ToastInput(toast: toast)
    #expect(
      onButton.handle(.press(x: reply.midX, y: reply.midY, secondary: true), layout: layout, now: 0)
        == .none)
    #expect(onButton.pressedButton == nil)
    #expect(
      onButton.handle(.tap(x: reply.midX, y: reply.midY, secondary: true), layout: layout, now: 0)
        .action == .dismiss)
  }

  @Test func aLeftClickOnAButtonChoosesIt() {
    let toast = Self.card()
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let snooze = layout.buttons[1].frame
    #expect(Self.click(&input, x: snooze.midX, y: snooze.midY, on: layout) == .chose(1))
  }

  @Test func aPressOnAButtonLetGoOnTheBodyDoesNothing() {
    let toast = Self.card()
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let reply = layout.buttons[0].frame
    let point = Self.body(of: layout)
    _ = input.handle(.press(x: reply.midX, y: reply.midY), layout: layout, now: 0)
    #expect(input.handle(.tap(x: point.x, y: point.y), layout: layout, now: 0) == .redraw)
  }

  @Test func escapeDismissesACardThatHasTheKeyboard() {
    let toast = Self.card([])
    var input = ToastInput(toast: toast)
    #expect(
      input.handle(.key(keysym: escapeKeysym), layout: Self.layout(toast), now: 0).action
        == .dismiss)
  }

  @Test func otherStylesTreatTheRightButtonAsTheLeft() {
    // A HUD's button is chosen by either button, as before cards.
    var hud = Toast("Save?", timeout: 0)
    hud.buttons = ["Yes", "No"]
    let hudLayout = Self.layout(hud)
    var input = ToastInput(toast: hud)
    let yes = hudLayout.buttons[0].frame
    #expect(
      Self.click(&input, x: yes.midX, y: yes.midY, secondary: true, on: hudLayout) == .chose(0))
    // Its box away from the buttons: nothing without --dismiss tap, dismissed with it.
    let inside = (x: hudLayout.box.x + 4, y: hudLayout.box.y + 4)
    #expect(Self.click(&input, x: inside.x, y: inside.y, on: hudLayout) == nil)
    #expect(Self.click(&input, x: inside.x, y: inside.y, secondary: true, on: hudLayout) == nil)
    var tapped = Toast("Tap me", dismissal: .tap)
    tapped.style = .banner
    let bannerLayout = Self.layout(tapped)
    var bannerInput = ToastInput(toast: tapped)
    let middle = (x: bannerLayout.box.midX, y: bannerLayout.box.midY)
    #expect(Self.click(&bannerInput, x: middle.x, y: middle.y, on: bannerLayout) == .dismiss)
    #expect(
      Self.click(&bannerInput, x: middle.x, y: middle.y, secondary: true, on: bannerLayout)
        == .dismiss)
  }
}
