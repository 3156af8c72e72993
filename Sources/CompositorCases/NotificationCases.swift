import Notifications
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// Where a notification's card shows on a 1280x720 output (logical pixels),
/// as the server makes it, and how a test waits for it on any compositor.
package enum CardLooks {
  /// The card a notification shows, as the server makes it.
  package static func card(
    app: String, summary: String, body: String, actions: [NotificationAction] = [],
    timeout: Int32 = -1
  ) -> Toast {
    NotificationCard.toast(
      for: NotificationRequest(
        appName: app, summary: summary, body: body, actions: actions, expireTimeout: timeout),
      rules: [])
  }

  /// Where `card` rests alone at the top right.
  package static func restingBox(_ card: Toast) -> Box {
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let width = Int(layout.box.width)
    return Box(
      x: 1280 - Design.margin - width, y: Design.margin, width: width,
      height: Int(layout.box.height))
  }

  /// Where button `index` of `card` resting alone is.
  package static func buttonBox(_ index: Int, of card: Toast) -> Box {
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let box = restingBox(card)
    let frame = layout.buttons[index].frame
    return Box(
      x: box.x - Int(layout.box.x) + Int(frame.x), y: box.y - Int(layout.box.y) + Int(frame.y),
      width: Int(frame.width), height: Int(frame.height))
  }

  /// The centre of button `index` of `card` resting alone.
  package static func buttonCentre(_ index: Int, of card: Toast) -> (x: Int, y: Int) {
    let button = buttonBox(index, of: card)
    return (button.x + button.width / 2, button.y + button.height / 2)
  }

  /// A card's box colour over the desktop of `Compositor`.
  package static func color<Compositor: TestCompositor>(_: Compositor.Type) -> RGB {
    blend(Design.Card.background, over: Compositor.desktop)
  }

  /// Waits until the only card on `desk` rests at `box`: exactly at an
  /// integer scale, within 3 device pixels at a fractional one (KWin's 1.5).
  package static func expectCard<Compositor: TestCompositor>(
    at box: Box, on desk: Desk<Compositor>
  ) throws {
    let scale = desk.compositor.scale
    let expected = Looks.device(box, scale: scale)
    let tolerance = scale == scale.rounded() ? 0 : 3
    var last: Box?
    try desk.screenshot("a card at \(expected) (last: \(lastSeen(last)))") { shot in
      last = shot.boundingBox(of: color(Compositor.self), tolerance: 3)
      guard let seen = last else { return false }
      return [
        (seen.x, expected.x), (seen.y, expected.y),
        (seen.x + seen.width, expected.x + expected.width),
        (seen.y + seen.height, expected.y + expected.height),
      ].allSatisfy { abs($0 - $1) <= tolerance }
    }
  }

  /// Waits until no card is on `desk`.
  package static func expectNoCard<Compositor: TestCompositor>(on desk: Desk<Compositor>) throws {
    try desk.screenshot("no card") {
      $0.boundingBox(of: color(Compositor.self), tolerance: 3) == nil
    }
  }
}

/// The case every compositor with a notification server runs alike: the
/// card of `notify-send --wait -a Calendar -A snooze=Snooze Meeting "Room 4"`
/// (the first notification on `bus`) on `desk`, its Snooze button pressed
/// by `press` at its centre (logical pixels: a click, a touch) makes
/// notify-send print `snooze`, with `ActivationToken` (the compositor gives
/// one for the press), `ActionInvoked` and `NotificationClosed` as dismissed
/// on the bus, in that order; then the card goes.
package func expectSnoozeChosen<Compositor: TestCompositor>(
  on desk: Desk<Compositor>, bus: NotificationBus,
  by press: (_ x: Int, _ y: Int) throws -> Void
) throws {
  let patience = max(20, desk.compositor.patience)
  let waiting = try desk.start(
    Run(
      ["--wait", "-a", "Calendar", "-A", "snooze=Snooze", "Meeting", "Room 4"],
      program: "notify-send"))
  defer { waiting.terminate() }
  let card = CardLooks.card(
    app: "Calendar", summary: "Meeting", body: "Room 4",
    actions: [NotificationAction(key: "snooze", label: "Snooze")])
  try CardLooks.expectCard(at: CardLooks.restingBox(card), on: desk)
  let snooze = CardLooks.buttonCentre(0, of: card)
  try press(snooze.x, snooze.y)
  #expect(waiting.wait(timeout: patience) == 0)
  #expect(String(decoding: waiting.captured(1), as: UTF8.self) == "snooze\n")
  #expect(
    try bus.signalsUntilClosed(1, timeout: patience) == [
      "ActivationToken(1, TOKEN)", "ActionInvoked(1, snooze)", "NotificationClosed(1, 2)",
    ])
  try CardLooks.expectNoCard(on: desk)
}
