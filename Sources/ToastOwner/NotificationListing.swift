import ToastProtocol

/// `wl-toast notifications list` as the owner answers it: each
/// notification's object cut to fit one reply, and the pages of objects the
/// command asks for one after another (``NotificationsRequest/list(from:)``).
enum NotificationListing {
  /// The most bytes of JSON one notification's object takes: a page of one
  /// object stays well within one reply (``maximumMessageSize``).
  static let objectLimit = 60 * 1024

  /// The most bytes a page's objects take with their separators and the
  /// reply's own members.
  private static let pageLimit = maximumMessageSize - 1024

  /// `object` as it is, or, when its JSON is longer than ``objectLimit``
  /// bytes, with its `body` cut, then its `summary`, then the labels of its
  /// `actions` (in the order of their keys), each ending in "…", until it
  /// fits. Only text written as escapes can make an object that long (a
  /// control character is six bytes, `\u0001`); the other members (the id,
  /// the application, the actions' keys, the tag, the category) are never
  /// cut, and take at most about 30 KB.
  static func capped(_ object: JSONValue) -> JSONValue {
    var excess = object.serialized.utf8.count - objectLimit
    guard excess > 0, case .object(var members) = object else { return object }
    func shortened(_ text: String) -> String {
      let length = jsonLength(text)
      let kept = cut(text, toJSONLength: max(0, length - excess))
      excess -= length - jsonLength(kept)
      return kept
    }
    for name in ["body", "summary"] where excess > 0 {
      if let text = members[name]?.stringValue { members[name] = .string(shortened(text)) }
    }
    if excess > 0, case .object(var actions)? = members["actions"] {
      for key in actions.keys.sorted() where excess > 0 {
        if let label = actions[key]?.stringValue { actions[key] = .string(shortened(label)) }
      }
      members["actions"] = .object(actions)
    }
    return .object(members)
  }

  /// How many bytes `text` takes in JSON, without its quotes.
  private static func jsonLength(_ text: String) -> Int {
    JSONValue.string(text).serialized.utf8.count - 2
  }

  /// `text` cut at a character boundary so that it takes at most `limit`
  /// bytes in JSON, ending in "…" (just that when nothing more fits); as it
  /// is when that is no shorter.
  private static func cut(_ text: String, toJSONLength limit: Int) -> String {
    let length = jsonLength(text)
    let ellipsis = "…"
    guard length > limit, length > ellipsis.utf8.count else { return text }
    let room = limit - ellipsis.utf8.count
    var used = 0
    var end = text.startIndex
    for character in text {
      used += jsonLength(String(character))
      guard used <= room else { break }
      end = text.index(after: end)
    }
    return text[..<end] + ellipsis
  }

  /// The page of `notifications` from the one at `from` on, each
  /// ``capped(_:)``: as many as one reply holds. Only the objects of that
  /// page are read (`notifications` may make each as it is read), so that
  /// listing stays linear in the number of notifications, page after page.
  static func page(of notifications: some Collection<JSONValue>, from: Int) -> OwnerReply {
    var page: [JSONValue] = []
    var size = 64
    for notification in notifications.dropFirst(from) {
      var object = notification
      var length = object.serialized.utf8.count
      if length > objectLimit {
        object = capped(object)
        length = object.serialized.utf8.count
      }
      size += length + 1
      // Never more than a page: one object is not.
      guard size <= pageLimit else { return .listed(page, more: true) }
      page.append(object)
    }
    return .listed(page, more: false)
  }
}
