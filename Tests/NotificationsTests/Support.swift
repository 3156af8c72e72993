import Bus
import CGio
import Notifications
import ToastRendering

/// A `Notify` call as a client sends it, built by hand: the arguments in the
/// specification's order, `actions` as keys and labels in turn, `hints` as
/// keys and values (floating GVariants the call takes).
func notifyCall(
  appName: String = "app", replacesID: UInt32 = 0, appIcon: String = "",
  summary: String = "Summary", body: String = "", actions: [String] = [],
  hints: [(String, OpaquePointer)] = [], expireTimeout: Int32 = -1
) -> BusMessage {
  BusMessage.call(
    destination: "org.freedesktop.Notifications", path: "/org/freedesktop/Notifications",
    interface: "org.freedesktop.Notifications", member: "Notify",
    body: Variant.tuple([
      Variant.string(appName), Variant.uint32(replacesID), Variant.string(appIcon),
      Variant.string(summary), Variant.string(body),
      Variant.array("s", actions.map(Variant.string)),
      Variant.array(
        "{sv}",
        hints.map { Variant.dictionaryEntry(Variant.string($0.0), Variant.boxed($0.1)) }),
      Variant.int32(expireTimeout),
    ]))
}

/// The request of a call built by ``notifyCall(appName:replacesID:appIcon:summary:body:actions:hints:expireTimeout:)``.
func request(
  appName: String = "app", replacesID: UInt32 = 0, appIcon: String = "",
  summary: String = "Summary", body: String = "", actions: [String] = [],
  hints: [(String, OpaquePointer)] = [], expireTimeout: Int32 = -1
) throws(NotificationRefusal) -> NotificationRequest {
  try NotificationRequest(
    decoding: notifyCall(
      appName: appName, replacesID: replacesID, appIcon: appIcon, summary: summary, body: body,
      actions: actions, hints: hints, expireTimeout: expireTimeout))
}

/// The refusal of a call with these hints and actions; nil when it is taken.
func refusal(actions: [String] = [], hints: [(String, OpaquePointer)] = [])
  -> NotificationRefusal?
{
  do {
    _ = try request(actions: actions, hints: hints)
    return nil
  } catch {
    return error
  }
}

/// A byte value (`y`), as `notify-send -u` sends the urgency.
func byte(_ value: UInt8) -> OpaquePointer { g_variant_new_byte(value) }

/// An `ay` of `bytes`.
func bytes(_ bytes: [UInt8]) -> OpaquePointer {
  bytes.withUnsafeBufferPointer {
    g_variant_new_fixed_array(Variant.type("y"), $0.baseAddress, gsize($0.count), 1)
  }
}

/// An `image-data` value, `(iiibiiay)`.
func imageData(
  width: Int32, height: Int32, rowstride: Int32, hasAlpha: Bool, bits: Int32 = 8,
  channels: Int32, data: [UInt8]
) -> OpaquePointer {
  Variant.tuple([
    Variant.int32(width), Variant.int32(height), Variant.int32(rowstride),
    Variant.boolean(hasAlpha), Variant.int32(bits), Variant.int32(channels), bytes(data),
  ])
}

/// Why Pango refuses `markup`; nil when it is valid (what the presenter asks).
func pangoError(_ markup: String) -> String? { TextBlock.markupError(markup) }
