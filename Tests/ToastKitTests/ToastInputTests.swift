import Testing
import ToastRendering

@testable import ToastKit

/// A toast's input without a compositor: keys, presses and taps, the wheel,
/// on real layouts.
struct ToastInputTests {
  static let tab: UInt32 = 0xff09
  static let shiftTab: UInt32 = 0xfe20
  static let left: UInt32 = 0xff51
  static let right: UInt32 = 0xff53
  static let returnKey: UInt32 = 0xff0d
  static let up: UInt32 = 0xff52
  static let down: UInt32 = 0xff54
  static let pageDown: UInt32 = 0xff56

  /// A HUD with `buttons`.
  static func hud(_ buttons: [String], dismissal: Toast.Dismissal = .none) -> Toast {
    var toast = Toast("Save the changes?", timeout: 0, dismissal: dismissal)
    toast.buttons = buttons
    return toast
  }

  /// A bar with a dismiss button and `details`.
  static func bar(details: String) -> Toast {
    var toast = Toast("There are errors in your config file", style: .bar)
    toast.buttons = ["X"]
    toast.details = details
    return toast
  }

  static func layout(_ toast: Toast, detailsOpen: Bool = false) -> ToastLayout {
    ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, detailsOpen: detailsOpen)
  }

  /// The middle of button `index`.
  static func center(of index: Int, in layout: ToastLayout) -> (x: Double, y: Double) {
    (layout.buttons[index].frame.midX, layout.buttons[index].frame.midY)
  }

  @Test func theFocusShowsOnlyWhileTheToastHasTheKeyboard() {
    let toast = Self.hud(["Yes", "No"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    #expect(input.keyboardFocus == nil && input.interaction(at: 0).focused == nil)
    #expect(
      input.handle(.keyboardFocus(true), layout: layout, now: 0)
        == InputResponse(redraws: true, action: .focusMoved))
    #expect(input.keyboardFocus == 0 && input.interaction(at: 0).focused == 0)
    #expect(input.handle(.keyboardFocus(true), layout: layout, now: 0) == .none, "no change")
    #expect(
      input.handle(.keyboardFocus(false), layout: layout, now: 0)
        == InputResponse(redraws: true, action: .focusMoved))
    #expect(input.keyboardFocus == nil)
  }

  @Test func tabAndShiftTabGoThroughTheButtonsInOrderAndWrap() {
    let toast = Self.hud(["Yes", "No", "Cancel"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    _ = input.handle(.keyboardFocus(true), layout: layout, now: 0)
    var order: [Int?] = []
    for _ in 0..<4 {
      #expect(
        input.handle(.key(keysym: Self.tab), layout: layout, now: 0)
          == InputResponse(redraws: true, action: .focusMoved))
      order.append(input.keyboardFocus)
    }
    #expect(order == [1, 2, 0, 1])
    order = []
    for _ in 0..<3 {
      _ = input.handle(.key(keysym: Self.shiftTab), layout: layout, now: 0)
      order.append(input.keyboardFocus)
    }
    #expect(order == [0, 2, 1])
  }

  @Test func tabTakesTheKeyboardWhenTheCompositorHasNotSaidSo() {
    let toast = Self.hud(["Yes", "No"])
    var input = ToastInput(toast: toast)
    _ = input.handle(.key(keysym: Self.tab), layout: Self.layout(toast), now: 0)
    #expect(input.keyboardFocus == 1)
  }

  @Test func theArrowsFollowTheButtonsOnScreen() {
    let hud = Self.hud(["Yes", "No", "Cancel"])
    var input = ToastInput(toast: hud)
    _ = input.handle(.key(keysym: Self.right), layout: Self.layout(hud), now: 0)
    #expect(input.keyboardFocus == 1, "Right: the next, to its right")
    _ = input.handle(.key(keysym: Self.left), layout: Self.layout(hud), now: 0)
    #expect(input.keyboardFocus == 0)
    // A bar's first button is at the right end: Left goes to the next.
    var bar = Self.bar(details: "Error on line 3")
    bar.buttons = ["X", "Reload"]
    var barInput = ToastInput(toast: bar)
    _ = barInput.handle(.key(keysym: Self.left), layout: Self.layout(bar), now: 0)
    #expect(barInput.keyboardFocus == 1)
    _ = barInput.handle(.key(keysym: Self.right), layout: Self.layout(bar), now: 0)
    #expect(barInput.keyboardFocus == 0)
  }

  @Test func keysDoNothingOnAToastWithoutButtons() {
    let toast = Self.hud([])
    var input = ToastInput(toast: toast)
    for key in [Self.tab, Self.shiftTab, Self.returnKey, Self.down, 0x61] {
      #expect(input.handle(.key(keysym: key), layout: Self.layout(toast), now: 0) == .none)
    }
    #expect(input.keyboardFocus == nil)
  }

  @Test func returnChoosesTheFocusedButton() {
    let toast = Self.hud(["Yes", "No"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    _ = input.handle(.key(keysym: Self.tab), layout: layout, now: 0)
    #expect(
      input.handle(.key(keysym: Self.returnKey), layout: layout, now: 0)
        == InputResponse(redraws: false, action: .chose(1)))
  }

  @Test func aButtonIsChosenWhereItWasPressedAndReleased() {
    let toast = Self.hud(["Yes", "No"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let yes = Self.center(of: 0, in: layout)
    #expect(input.handle(.press(x: yes.x, y: yes.y), layout: layout, now: 0) == .redraw)
    #expect(input.pressedButton == 0 && input.interaction(at: 0).pressed == 0)
    #expect(
      input.handle(.tap(x: yes.x, y: yes.y), layout: layout, now: 0)
        == InputResponse(redraws: true, action: .chose(0)))
    #expect(input.pressedButton == nil)
  }

  @Test func aPressReleasedOnAnotherButtonChoosesNeither() {
    let toast = Self.hud(["Yes", "No"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let (yes, no) = (Self.center(of: 0, in: layout), Self.center(of: 1, in: layout))
    _ = input.handle(.press(x: yes.x, y: yes.y), layout: layout, now: 0)
    #expect(input.handle(.tap(x: no.x, y: no.y), layout: layout, now: 0) == .redraw)
    #expect(input.pressedButton == nil)
    // Released off the buttons, off the box: let go, nothing chosen.
    _ = input.handle(.press(x: yes.x, y: yes.y), layout: layout, now: 0)
    #expect(input.handle(.tap(x: 1, y: 1), layout: layout, now: 0) == .redraw)
  }

  @Test func aCancelledPressLetsGoAndChoosesNothing() {
    let toast = Self.hud(["Yes", "No"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let yes = Self.center(of: 0, in: layout)
    _ = input.handle(.press(x: yes.x, y: yes.y), layout: layout, now: 0)
    #expect(input.handle(.cancel, layout: layout, now: 0) == .redraw)
    #expect(input.pressedButton == nil)
    #expect(input.handle(.tap(x: yes.x, y: yes.y), layout: layout, now: 0) == .none)
  }

  @Test func aScreenReadersClickOnACardsBodyIsItsDefaultActionOrDismissesIt() {
    let card = ToastInput(toast: Toast("Meeting", style: .card, dismissal: .tap))
    #expect(card.clickBody(secondary: false) == InputResponse(redraws: false, action: .activate))
    #expect(card.clickBody(secondary: true) == InputResponse(redraws: false, action: .dismiss))
    // A toast that is no card has no body to click.
    let hud = ToastInput(toast: Self.hud([], dismissal: .tap))
    #expect(hud.clickBody(secondary: false) == .none && hud.clickBody(secondary: true) == .none)
  }

  @Test func aTapDismissesATapToastInItsBox() {
    let toast = Self.hud([], dismissal: .tap)
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let box = layout.box
    #expect(
      input.handle(.tap(x: box.midX, y: box.midY), layout: layout, now: 0)
        == InputResponse(redraws: false, action: .dismiss))
    #expect(input.handle(.tap(x: box.x - 5, y: box.y - 5), layout: layout, now: 0) == .none)
    // A modal toast: anywhere on its surface.
    var modal = toast
    modal.isModal = true
    var modalInput = ToastInput(toast: modal)
    #expect(
      modalInput.handle(.tap(x: 1, y: 1), layout: Self.layout(modal), now: 0)
        == InputResponse(redraws: false, action: .dismiss))
    // Without tap dismissal a tap in the box does nothing.
    let still = Self.hud(["Yes"])
    var stillInput = ToastInput(toast: still)
    let stillBox = Self.layout(still).box
    #expect(
      stillInput.handle(
        .tap(x: stillBox.x + 2, y: stillBox.y + 2), layout: Self.layout(still), now: 0) == .none)
  }

  @Test func escapeDismissesAToastThatTakesInputOnly() {
    let escape = InputResponse(redraws: false, action: .dismiss)
    for (toast, expected) in [
      (Self.hud([]), InputResponse.none), (Self.hud([], dismissal: .tap), escape),
      (Self.hud(["OK"]), escape),
    ] {
      var input = ToastInput(toast: toast)
      #expect(
        input.handle(.key(keysym: escapeKeysym), layout: Self.layout(toast), now: 0) == expected,
        "\(toast.buttons) \(toast.dismissal)")
    }
  }

  @Test func theDetailsButtonComesAfterTheToastsOwnAndOpensTheDetails() {
    let toast = Self.bar(details: "Error on line 3")
    var input = ToastInput(toast: toast)
    #expect(input.buttonCount == 2)
    #expect(input.activate(button: 0, now: 0) == InputResponse(redraws: false, action: .chose(0)))
    #expect(
      input.activate(button: 1, now: 0)
        == InputResponse(redraws: false, action: .detailsToggled(open: true)))
    #expect(input.detailsOpen)
    #expect(
      input.activate(button: 1, now: 1)
        == InputResponse(redraws: false, action: .detailsToggled(open: false)))
    #expect(input.activate(button: 2, now: 1) == .none, "no such button")
    // A HUD has no details button, details or not.
    var hud = Self.hud(["OK"])
    hud.details = "More"
    #expect(ToastInput(toast: hud).buttonCount == 1)
  }

  @Test func theDetailsOpenOverTheirMoveAndCloseGivingTheirRoomBack() {
    let move = Design.Bar.detailsMove.inSeconds
    // Just past the move's end (its seconds summed at 10 and 20 may round down).
    let over = move + 0.001
    var input = ToastInput(toast: Self.bar(details: "Error on line 3"))
    _ = input.activate(button: 1, now: 10)
    #expect(input.interaction(at: 10).detailsOpening == 0)
    let halfway = input.interaction(at: 10 + move / 2).detailsOpening
    #expect(halfway > 0 && halfway < 1)
    #expect(input.advanceDetails(at: 10 + move / 2) == (moving: true, closed: false))
    #expect(input.advanceDetails(at: 10 + over) == (moving: false, closed: false))
    #expect(input.interaction(at: 10 + over).detailsOpening == 1)
    #expect(input.advanceDetails(at: 11) == (moving: false, closed: false), "nothing moves")
    _ = input.activate(button: 1, now: 20)
    #expect(input.advanceDetails(at: 20) == (moving: true, closed: false))
    #expect(input.advanceDetails(at: 20 + over) == (moving: false, closed: true))
    #expect(input.interaction(at: 20 + over).detailsOpening == 0)
    // Without animation: open at once.
    var still = Self.bar(details: "Error on line 3")
    still.isAnimated = false
    var stillInput = ToastInput(toast: still)
    _ = stillInput.activate(button: 1, now: 0)
    #expect(stillInput.interaction(at: 0).detailsOpening == 1)
    #expect(stillInput.advanceDetails(at: 0) == (moving: false, closed: false))
  }

  @Test func scrollingStaysWithinTheDetails() throws {
    let toast = Self.bar(details: (1...200).map { "Error on line \($0)" }.joined(separator: "\n"))
    let layout = Self.layout(toast, detailsOpen: true)
    let details = try #require(layout.details)
    let (x, y) = (details.area.midX, details.area.midY)
    var input = ToastInput(toast: toast)
    #expect(input.handle(.scroll(x: x, y: y, steps: 3), layout: layout, now: 0) == .none, "closed")
    _ = input.activate(button: 1, now: 0)
    #expect(input.handle(.scroll(x: x, y: y, steps: -1), layout: layout, now: 0) == .none, "top")
    #expect(input.handle(.key(keysym: Self.up), layout: layout, now: 0) == .none)
    #expect(input.handle(.scroll(x: x, y: y, steps: 3), layout: layout, now: 0) == .redraw)
    #expect(input.detailsLine == 3 && input.interaction(at: 1).detailsLine == 3)
    #expect(input.handle(.key(keysym: Self.pageDown), layout: layout, now: 0) == .redraw)
    #expect(input.detailsLine == 3 + details.visibleLines)
    #expect(input.handle(.key(keysym: Self.down), layout: layout, now: 0) == .redraw)
    #expect(input.detailsLine == 4 + details.visibleLines)
    _ = input.handle(.scroll(x: x, y: y, steps: 10_000), layout: layout, now: 0)
    #expect(input.detailsLine == details.lastFirstLine, "the last page")
    #expect(input.handle(.key(keysym: Self.pageDown), layout: layout, now: 0) == .none, "end")
    #expect(input.handle(.key(keysym: Self.up), layout: layout, now: 0) == .redraw)
    #expect(input.detailsLine == details.lastFirstLine - 1)
    // The wheel over the bar's row, not the details: nothing.
    #expect(input.handle(.scroll(x: x, y: 1, steps: 1), layout: layout, now: 0) == .none)
    _ = input.handle(.scroll(x: x, y: y, steps: -10_000), layout: layout, now: 0)
    #expect(input.detailsLine == 0)
  }

  @Test func anUpdateWithFewerButtonsMovesTheFocusBackAndLetsGo() {
    let three = Self.hud(["Yes", "No", "Cancel"])
    let layout = Self.layout(three)
    var input = ToastInput(toast: three)
    _ = input.handle(.key(keysym: Self.shiftTab), layout: layout, now: 0)
    let cancel = Self.center(of: 2, in: layout)
    _ = input.handle(.press(x: cancel.x, y: cancel.y), layout: layout, now: 0)
    #expect(input.keyboardFocus == 2 && input.pressedButton == 2)
    input.toastChanged(Self.hud(["OK"]))
    #expect(input.keyboardFocus == 0 && input.pressedButton == nil)
    input.toastChanged(Self.hud([]))
    #expect(input.keyboardFocus == nil && input.buttonCount == 0)
  }

  @Test func thePointerOnTheBoxHoldsTheToastAndLeavingLetsGo() {
    let toast = Self.hud([], dismissal: .tap)
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    #expect(
      input.handle(.pointerMoved(x: layout.box.midX, y: layout.box.midY), layout: layout, now: 0)
        == .none)
    #expect(input.pointerOnBox)
    _ = input.handle(.pointerLeft, layout: layout, now: 0)
    #expect(!input.pointerOnBox)
  }

  @Test func onAModalToastOnlyItsBoxHoldsIt() {
    var toast = Self.hud([], dismissal: .tap)
    toast.isModal = true
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    _ = input.handle(.pointerMoved(x: layout.box.x - 5, y: layout.box.midY), layout: layout, now: 0)
    #expect(!input.pointerOnBox, "beside the box, on the modal surface")
    _ = input.handle(.pointerMoved(x: layout.box.x + 5, y: layout.box.midY), layout: layout, now: 0)
    #expect(input.pointerOnBox)
  }

  @Test func aFingerOnTheBoxHoldsItUntilTheLastLifts() {
    let toast = Self.hud(["Keep"])
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let inside = (x: layout.box.x + 4, y: layout.box.y + 4)
    _ = input.handle(.fingers([inside]), layout: layout, now: 0)
    #expect(input.fingerOnBox)
    _ = input.handle(.fingers([inside, (x: -20, y: -20)]), layout: layout, now: 0)
    #expect(input.fingerOnBox, "one of two fingers still on it")
    _ = input.handle(.fingers([(x: -20, y: -20)]), layout: layout, now: 0)
    #expect(!input.fingerOnBox, "the one left was dragged off the box")
    _ = input.handle(.fingers([inside]), layout: layout, now: 0)
    _ = input.handle(.fingers([]), layout: layout, now: 0)
    #expect(!input.fingerOnBox)
  }

  @Test func aTapAfterTheFingerRestedStillDismisses() {
    let toast = Self.hud([], dismissal: .tap)
    let layout = Self.layout(toast)
    var input = ToastInput(toast: toast)
    let (x, y) = (layout.box.midX, layout.box.midY)
    _ = input.handle(.press(x: x, y: y), layout: layout, now: 0)
    _ = input.handle(.fingers([(x: x, y: y)]), layout: layout, now: 0)
    #expect(input.fingerOnBox)
    #expect(input.handle(.tap(x: x, y: y), layout: layout, now: 4).action == .dismiss)
  }
}
