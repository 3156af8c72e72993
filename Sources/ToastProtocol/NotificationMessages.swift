/// What a command asks of the owner's notification server: to serve
/// `org.freedesktop.Notifications` (`wl-toast daemon --notifications`), or
/// one of `wl-toast notifications list|history|restore|dismiss|invoke|focus`.
package enum NotificationsRequest: Equatable, Sendable {
  /// Stay resident and own the bus name; `replace` takes it from another
  /// server that allows it; `rules` are the configuration's notification
  /// rules, as JSON.
  case serve(replace: Bool, rules: JSONValue)
  /// List the notifications from the one at `from` in the list's order on:
  /// one page (``OwnerReply/listed(_:more:)``), as many as one reply holds.
  case list(from: Int = 0)
  /// List the history (the notifications that ended by expiry or by the
  /// user, newest first) from the one at `from` on, one page as ``list(from:)``.
  case history(from: Int = 0)
  /// Show the newest notification of the history again.
  case restore
  /// Dismiss the notification with an id, or all of them (nil).
  case dismiss(id: UInt32?)
  /// Invoke an action of the notification with an id: the named one, or
  /// its default action (nil).
  case invoke(id: UInt32, action: String?)
  /// Hand the keyboard to the newest notification with actions.
  case focus

  /// For a request the command prints page after page: whether it lists the
  /// history (`history`) or the live notifications (`list`); nil for the others.
  package var listsHistory: Bool? {
    switch self {
    case .list: false
    case .history: true
    default: nil
    }
  }

  /// The word of the request's `do` member.
  private var word: String {
    switch self {
    case .serve: "serve"
    case .list: "list"
    case .history: "history"
    case .restore: "restore"
    case .dismiss: "dismiss"
    case .invoke: "invoke"
    case .focus: "focus"
    }
  }

  /// The request's members beside `op` and `v`, in key order, into `object`.
  func write(into object: inout JSONObjectWriter) {
    switch self {
    case .invoke(_, let action?):
      object.member("action", .string(action))
    default:
      break
    }
    object.member("do", .string(word))
    switch self {
    case .list(let from) where from > 0, .history(let from) where from > 0:
      object.member("from", .number(Double(from)))
    case .dismiss(let id?), .invoke(let id, _):
      object.member("id", .number(Double(id)))
    default:
      break
    }
    object.member("op", .string("notifications"))
    if case .serve(let replace, let rules) = self {
      object.member("replace", .bool(replace))
      object.member("rules", rules)
    }
  }

  /// The members a notifications request may have beside `op` and `v`.
  static let memberNames = ["do", "id", "action", "replace", "rules", "from"]

  /// Reads the request from its message (`op` is `notifications`).
  init(decoding value: JSONValue) throws(MessageError) {
    func id() throws(MessageError) -> UInt32? {
      guard let field = value["id"] else { return nil }
      guard let number = field.doubleValue.flatMap({ UInt32(exactly: $0) }), number > 0 else {
        throw .badField("id", expected: "a notification id from 1 to \(UInt32.max)")
      }
      return number
    }
    func from() throws(MessageError) -> Int {
      let from = value["from"] ?? .number(0)
      guard let index = from.doubleValue.flatMap({ Int(exactly: $0) }), index >= 0 else {
        throw .badField("from", expected: "a position in the list from 0")
      }
      return index
    }
    switch value["do"]?.stringValue {
    case "serve":
      guard let replace = (value["replace"] ?? .bool(false)).boolValue else {
        throw .badField("replace", expected: "true or false")
      }
      self = .serve(replace: replace, rules: value["rules"] ?? .array([]))
    case "list":
      self = .list(from: try from())
    case "history":
      self = .history(from: try from())
    case "restore":
      self = .restore
    case "dismiss":
      self = .dismiss(id: try id())
    case "invoke":
      guard let id = try id() else { throw .notAMessage("invoke without an id") }
      var action: String?
      if let field = value["action"] {
        guard let text = field.stringValue else {
          throw .badField("action", expected: "a string")
        }
        action = text
      }
      self = .invoke(id: id, action: action)
    case "focus":
      self = .focus
    default:
      throw .notAMessage("unknown notifications request")
    }
  }
}
