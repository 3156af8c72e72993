import Bus
import CGio
import Notifications
import ToastModel
import ToastRendering

/// A notification from any bytes, three ways: the bytes as a body's markup,
/// as the serialized body of a `Notify` call, `(susssasa{sv}i)`, read as
/// GVariant reads data it does not trust (a malformed part reads as its
/// type's default), and as the call's body on the wire, read by
/// ``NotificationRequest/init(decoding:)`` itself; each call is then decoded,
/// shown as a card under rules, or refused.
///
/// The markup is always valid for Pango, and a cut one within its length. A
/// call is either refused with one of the two errors and a message on one
/// line, or read within ``NotificationRequest/Limits``; its card's text is
/// valid markup that ``Toast/normalized()`` leaves whole, its buttons are
/// its button actions' labels and valid ones, its image within its side.
func fuzzNotifications(_ input: [UInt8]) throws(InvariantViolation) {
  let body = text(of: input)
  let markup = BodyMarkup.pango(body)
  try require(TextBlock.markupError(markup) == nil, "invalid markup: \(markup)")
  let cut = BodyMarkup.pango(body, maximumLength: 40)
  try require(
    cut.unicodeScalars.count <= 40 && TextBlock.markupError(cut) == nil,
    "cut to 40: \(cut.unicodeScalars.count) scalars, \(cut)")
  _ = BodyMarkup.plainText(body)

  let bytes = input.withUnsafeBytes { g_bytes_new($0.baseAddress, gsize($0.count)) }
  defer { g_bytes_unref(bytes) }
  let value = g_variant_new_from_bytes(Variant.type("(susssasa{sv}i)"), bytes, 0)!
  let call = BusMessage.call(
    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
    interface: "org.freedesktop.Notifications", member: "Notify", body: value)
  try check(call)
  // The bytes as a body on the wire, as the bus delivers a call.
  if let call = wireCall(body: input) { try check(call) }
}

/// A `Notify` call whose body, on the wire, is `body`; nil when it does not
/// read (never, for a body shorter than 4 GiB).
private func wireCall(body: [UInt8]) -> BusMessage? {
  let call = BusMessage.call(
    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
    interface: "org.freedesktop.Notifications", member: "Notify")
  call.sender = ":1.5"
  return call.delivered(body: body, signature: "susssasa{sv}i")
}

/// Throws unless `call` is refused with one of the two errors and a message
/// on one line, or read within the limits and shown as a good card.
private func check(_ call: BusMessage) throws(InvariantViolation) {
  let request: NotificationRequest
  do {
    request = try NotificationRequest(decoding: call)
  } catch {
    try require(
      error.name == NotificationRefusal.invalidArguments
        || error.name == NotificationRefusal.limitsExceeded,
      "refused as \(error.name)")
    try require(!error.message.isEmpty && isOneLine(error.message), "refused: \(error.message)")
    return
  }
  typealias Limits = NotificationRequest.Limits
  try require(
    request.appName.utf8.count <= Limits.appNameBytes
      && request.summary.utf8.count <= Limits.summaryBytes
      && request.body.utf8.count <= Limits.bodyBytes && request.actions.count <= Limits.actions,
    "beyond the limits: \(request)")
  let toast = NotificationCard.toast(for: request, rules: rules)
  try require(TextBlock.markupError(toast.text) == nil, "the card's markup: \(toast.text)")
  try require(toast.normalized().text == toast.text, "normalized() cuts the card's text")
  let buttons = NotificationCard.buttonActions(in: request)
  try require(
    toast.buttons == buttons.map(\.label) && toast.normalized().buttons == toast.buttons,
    "buttons \(toast.buttons) for \(buttons)")
  if let image = toast.image {
    try require(
      image.width <= Limits.imageSide && image.height <= Limits.imageSide,
      "an image of \(image.width)x\(image.height)")
  }
}

/// Rules as a configuration file gives them: one for all, one by criteria,
/// one by regular expressions and flags.
private let rules = [
  NotificationRule(criteria: nil, settings: .object(["margin": .number(20)])),
  NotificationRule(
    criteria: NotificationCriteria(urgency: .critical),
    settings: .object(["background": .string("#aa0000")])),
  NotificationRule(
    criteria: NotificationCriteria(section: #"summary~="^[A-Z]" body~="(a|ab)+c$" !expiring"#),
    settings: .object(["timeout": .number(1)])),
]
