import Bus
import ToastModel

/// One action of a notification: the key `ActionInvoked` sends back and the
/// label a button shows.
package struct NotificationAction: Equatable, Sendable {
  /// The key (`default` for a click on the card itself).
  package var key: String
  /// The label.
  package var label: String

  /// An action with its key and label.
  package init(key: String, label: String) {
    self.key = key
    self.label = label
  }
}

/// Why a `Notify` call is refused: the D-Bus error to answer with.
package struct NotificationRefusal: Error, Equatable, CustomStringConvertible {
  /// The D-Bus error name (``invalidArguments`` or ``limitsExceeded``).
  package var name: String
  /// One line saying what is wrong.
  package var message: String

  /// A refusal with its error name and message.
  package init(name: String, message: String) {
    self.name = name
    self.message = message
  }

  /// The error of arguments that break the specification.
  package static let invalidArguments = "org.freedesktop.DBus.Error.InvalidArgs"
  /// The error of arguments beyond what the server takes (``NotificationRequest/Limits``).
  package static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"

  /// An ``invalidArguments`` refusal.
  static func invalid(_ message: String) -> NotificationRefusal {
    NotificationRefusal(name: invalidArguments, message: message)
  }

  /// A ``limitsExceeded`` refusal.
  static func tooLarge(_ message: String) -> NotificationRefusal {
    NotificationRefusal(name: limitsExceeded, message: message)
  }

  /// The name and the message: `org.freedesktop.DBus.Error.InvalidArgs: …`.
  package var description: String { "\(name): \(message)" }
}

/// A `Notify` call of the Desktop Notifications Specification 1.2, checked:
/// what the server shows (``NotificationCard``) and answers about.
package struct NotificationRequest: Equatable, Sendable {
  /// The application's name, cut to ``Limits/appNameBytes``.
  package var appName: String
  /// The application's icon: a path, a `file://` URI or an icon name
  /// (``NotificationImage/init(reference:)``); empty for none.
  package var appIcon: String
  /// The summary (plain text), cut to ``Limits/summaryBytes``.
  package var summary: String
  /// The body (the specification's markup, ``BodyMarkup``), cut to ``Limits/bodyBytes``.
  package var body: String
  /// The notification this one replaces, or 0.
  package var replacesID: UInt32
  /// The actions, in the order given, `default` included.
  package var actions: [NotificationAction]
  /// The hints read.
  package var hints: NotificationHints
  /// Milliseconds the notification stays: -1 the server's default, 0 until
  /// dismissed.
  package var expireTimeout: Int32

  /// A request with its parts (the defaults of a bare `notify-send`).
  package init(
    appName: String = "", replacesID: UInt32 = 0, appIcon: String = "", summary: String = "",
    body: String = "", actions: [NotificationAction] = [], hints: NotificationHints = .init(),
    expireTimeout: Int32 = -1
  ) {
    self.appName = appName
    self.replacesID = replacesID
    self.appIcon = appIcon
    self.summary = summary
    self.body = body
    self.actions = actions
    self.hints = hints
    self.expireTimeout = expireTimeout
  }

  /// What the server takes of a call: beyond these, texts are cut (at a
  /// character's boundary, never refused), an icon is ignored, and actions
  /// and hints are refused with ``NotificationRefusal/limitsExceeded``.
  package enum Limits {
    /// `app_name`, in bytes of UTF-8: cut.
    package static let appNameBytes = 256
    /// `summary`, in bytes of UTF-8: cut.
    package static let summaryBytes = 4096
    /// `body`, in bytes of UTF-8: cut (64 KiB; a card shows a few lines of it).
    package static let bodyBytes = 65_536
    /// `app_icon`, `image-path` and `sound-file`, in bytes (a path's limit):
    /// a longer one is ignored.
    package static let pathBytes = Toast.Limits.iconLength
    /// A hint's string (`category`, `desktop-entry`, `sound-name`, a stack
    /// tag), in bytes: a longer one is ignored.
    package static let hintStringBytes = 256
    /// Actions, each a key and a label: more are refused (a card shows
    /// ``Toast/Limits/buttonCount`` buttons and the default action).
    package static let actions = 16
    /// An action's key, in bytes: a longer one is refused.
    package static let actionKeyBytes = 256
    /// An action's label, in bytes: cut (a button shows
    /// ``Toast/Limits/buttonLabelLength`` characters).
    package static let actionLabelBytes = 256
    /// Hints in one call: more are refused (clients send a handful).
    package static let hints = 128
    /// The longest side of an `image-data` image kept, in pixels: a larger
    /// image is scaled down (by a whole factor, averaging) to fit; a card
    /// draws it as an icon.
    package static let imageSide = 256
    /// The longest side of an `image-data` image taken at all, in pixels: a
    /// larger claim is refused before anything is read or allocated (no
    /// D-Bus message can carry such an image anyway).
    package static let claimedImageSide = 16_384
  }

  /// Reads a `Notify` call, whose body must be `(susssasa{sv}i)`, straight
  /// from the wire format (``BusMessage/bodyReader()``): no `GVariant` is made.
  ///
  /// - Throws: ``NotificationRefusal/invalidArguments`` for a body of another
  ///   type or one that does not read, an odd number of action strings or
  ///   hints that break the specification (an `image-data` whose parts
  ///   disagree); ``NotificationRefusal/limitsExceeded`` for more than
  ///   ``Limits`` allow.
  package init(decoding message: BusMessage) throws(NotificationRefusal) {
    guard message.signature == "susssasa{sv}i" else {
      throw .invalid("Notify takes (susssasa{sv}i), got (\(message.signature))")
    }
    var reader = message.bodyReader()
    appName = cut(try wire { try reader.string() }, bytes: Limits.appNameBytes)
    replacesID = try wire { try reader.uint32() }
    let icon = try wire { try reader.string() }
    appIcon = icon.utf8.count <= Limits.pathBytes ? icon : ""
    summary = cut(try wire { try reader.string() }, bytes: Limits.summaryBytes)
    body = cut(try wire { try reader.string() }, bytes: Limits.bodyBytes)
    actions = try Self.actions(&reader)
    hints = try NotificationHints(decoding: &reader, appIcon: appIcon)
    expireTimeout = try wire { try reader.int32() }
  }

  /// The actions of an `as`: keys and labels in turn. Strings past the
  /// limit are counted, not kept.
  private static func actions(_ reader: inout WireReader) throws(NotificationRefusal)
    -> [NotificationAction]
  {
    var strings: [String] = []
    var count = 0
    try wire {
      try reader.array(alignment: 4) { (element) throws(WireReader.Failure) in
        let string = try element.string()
        if count < 2 * Limits.actions { strings.append(string) }
        count += 1
      }
    }
    guard count % 2 == 0 else {
      throw .invalid("actions: \(count) strings, not pairs of a key and a label")
    }
    guard count / 2 <= Limits.actions else {
      throw .tooLarge("actions: \(count / 2), at most \(Limits.actions)")
    }
    var actions: [NotificationAction] = []
    for index in stride(from: 0, to: count, by: 2) {
      let key = strings[index]
      guard key.utf8.count <= Limits.actionKeyBytes else {
        throw .tooLarge(
          "actions: a key of \(key.utf8.count) bytes, at most \(Limits.actionKeyBytes)")
      }
      actions.append(
        NotificationAction(key: key, label: cut(strings[index + 1], bytes: Limits.actionLabelBytes))
      )
    }
    return actions
  }
}

/// What `read` reads from the wire; a body that does not read is refused
/// as invalid arguments.
func wire<Value>(_ read: () throws -> Value) throws(NotificationRefusal) -> Value {
  do {
    return try read()
  } catch {
    throw .invalid("Notify's body does not read: \(error)")
  }
}

/// `text` cut to at most `limit` bytes of UTF-8, at a character's boundary.
func cut(_ text: String, bytes limit: Int) -> String {
  guard text.utf8.count > limit else { return text }
  var size = 0
  var end = text.startIndex
  for character in text {
    size += character.utf8.count
    guard size <= limit else { break }
    end = text.index(after: end)
  }
  return String(text[..<end])
}
