import ToastModel

// A toast as JSON and back, and `--follow` lines: over the table of fields.

/// How `--follow` reads the lines of standard input.
package enum FollowFormat: String, Equatable, Sendable, CaseIterable {
  /// Each line is the new message, even one that looks like JSON.
  case text
  /// Each line is a JSON object setting some of ``Toast/followFields``.
  case json
}

extension Toast {
  /// The toast as a JSON object: every field of ``ToastField/all``, progress in percent.
  package var json: JSONValue {
    var object: [String: JSONValue] = [:]
    object.reserveCapacity(ToastField.all.count)
    for field in ToastField.all {
      let value = field.encode(self)
      if field.isOmittedWhenDefault && value == field.encode(Toast.defaults) { continue }
      object[field.name] = value
    }
    return .object(object)
  }

  /// A toast with every default, for ``ToastField/isOmittedWhenDefault``
  /// and ``writeChangedFields(into:)``.
  private static let defaults = Toast("")

  /// Writes the fields whose value differs from a new toast's (`Toast("")`),
  /// in the order of ``ToastField/all``: what a request carries. An owner
  /// that applies them to a new toast has the same toast (any owner: each
  /// starts from those defaults), and reads a few fields instead of all.
  package func writeChangedFields(into object: inout JSONObjectWriter) {
    for field in ToastField.all {
      let value = field.encode(self)
      if value != field.encode(Toast.defaults) { object.member(field.name, value) }
    }
  }

  /// Sets the fields present in a JSON object (as ``json`` or
  /// ``writeChangedFields(into:)`` write them, or a `--follow` line's
  /// subset), by the rules of ``Toast/Limits``; throws naming the first bad
  /// field (in the order of their names), changing nothing.
  package mutating func apply(_ json: JSONValue) throws(MessageError) {
    guard case .object(let fields) = json else {
      throw .notAMessage("expected a JSON object")
    }
    // Each field found by its name, in the object's own order; only a
    // mistake needs the names sorted, to name the first bad one.
    var toast = self
    for (key, value) in fields {
      guard let field = ToastField.named(key) else { return try applySorted(fields) }
      do {
        try field.decode(&toast, value)
      } catch {
        return try applySorted(fields)
      }
    }
    self = toast
  }

  /// ``apply(_:)`` field by field in the order of their names: the first
  /// bad one is the error.
  private mutating func applySorted(_ fields: [String: JSONValue]) throws(MessageError) {
    var toast = self
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      guard let field = ToastField.named(key) else { throw .unknownField(key) }
      try field.decode(&toast, value)
    }
    self = toast
  }

  /// The fields a JSON `--follow` line may set (``ToastField/isFollowable``).
  package static let followFields: Set<String> = Set(
    ToastField.all.filter { $0.isFollowable }.map { $0.name })

  /// Applies one `--follow` line. As text (the default), the line is the new
  /// message, whatever it looks like; as JSON, it is an object that may set
  /// ``followFields`` only.
  package mutating func apply(followLine line: String, format: FollowFormat = .text)
    throws(MessageError)
  {
    switch format {
    case .text:
      text = Toast.truncated(line)
    case .json:
      let value = try decodeJSON(line)
      guard case .object(let fields) = value else {
        throw .notAMessage("expected a JSON object")
      }
      for key in fields.keys.sorted() where !Toast.followFields.contains(key) {
        throw ToastField.named(key) == nil ? .unknownField(key) : .notFollowable(key)
      }
      var next = self
      try next.apply(value)
      // A bar or a card takes input a --follow line may not give a toast.
      if next.style != style && next.style != .hud && next.style != .banner {
        throw .badField("style", expected: "\"hud\" or \"banner\" on a --follow line")
      }
      self = next
    }
  }
}
