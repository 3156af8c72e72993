import ToastModel

/// Why a message, reply or `--follow` line was not understood.
package enum MessageError: Error, Equatable, CustomStringConvertible {
  /// Not JSON.
  case syntax(JSONError)
  /// A setting's value outside its ``Toast/Limits``.
  case invalidValue(Toast.InvalidValue)
  /// A field of the wrong kind: its name and what it takes.
  case badField(String, expected: String)
  /// A field no toast has.
  case unknownField(String)
  /// A field a `--follow` line may not set (an input mode, say).
  case notFollowable(String)
  /// Not a message of the protocol at all: what is missing or wrong.
  case notAMessage(String)

  /// One line without the program name.
  package var description: String {
    switch self {
    case .syntax(let error): error.description
    case .invalidValue(let invalid): invalid.description
    case .badField(let name, let expected): "\(name): expected \(expected)"
    case .unknownField(let name): "unknown field \(Toast.quoted(name))"
    case .notFollowable(let name):
      "\(name): cannot be set by a follow line (only \(Toast.followFields.sorted().joined(separator: ", ")))"
    case .notAMessage(let what): what
    }
  }
}

/// The largest message the owner reads; anything longer is refused.
package let maximumMessageSize = 65_536

/// What a command asks of the owner, one message per request.
package enum OwnerRequest: Equatable, Sendable {
  /// Show a toast with a tag, or update the one showing in place; `wait` keeps
  /// the connection for the outcome; `whenShown` asks for the answer only once
  /// a frame with the content is committed (what the command that started the
  /// owner waits for).
  case show(tag: String, toast: Toast, wait: Bool, whenShown: Bool = false)
  /// Hide the toast with a tag, at once or after some seconds.
  case hide(tag: String, after: Double?)
  /// Ask whether a toast with a tag is showing.
  case status(tag: String)
  /// Keep the owner running while this connection is open, which says
  /// nothing else (a watcher's first request: see `OwnerFeed`).
  case hold
  /// Something of the notification server's (``NotificationsRequest``).
  case notifications(NotificationsRequest)

  /// The message as JSON text, its keys sorted. A toast carries only its
  /// fields that differ from a new toast's, in the order of the table
  /// (``Toast/writeChangedFields(into:)``): the owner starts each toast it
  /// reads from those defaults.
  package var encoded: String {
    // Written as it goes, in key order: no dictionary, no tree of values.
    var object = JSONObjectWriter()
    switch self {
    case .show(let tag, let toast, let wait, let whenShown):
      object.member("op", .string("show"))
      if whenShown { object.member("shown", .bool(true)) }
      object.member("tag", .string(tag))
      var fields = JSONObjectWriter()
      toast.writeChangedFields(into: &fields)
      object.member("toast", object: fields)
      object.member("v", .number(1))
      object.member("wait", .bool(wait))
    case .hide(let tag, let after):
      object.member("after", after.map(JSONValue.number) ?? .null)
      object.member("op", .string("hide"))
      object.member("tag", .string(tag))
      object.member("v", .number(1))
    case .status(let tag):
      object.member("op", .string("status"))
      object.member("tag", .string(tag))
      object.member("v", .number(1))
    case .hold:
      object.member("op", .string("hold"))
      object.member("v", .number(1))
    case .notifications(let request):
      request.write(into: &object)
      object.member("v", .number(1))
    }
    return object.closed
  }

  /// The members a request may have.
  private static let memberNames =
    ["v", "op", "tag", "toast", "wait", "shown", "after"] + NotificationsRequest.memberNames

  /// Reads a message; throws a one-line reason for anything malformed.
  package init(decoding text: String) throws(MessageError) {
    let value = try decodeJSON(text)
    guard case .object(let fields) = value, value["v"]?.doubleValue == 1 else {
      throw .notAMessage("not a wl-toast version 1 message")
    }
    // The first unknown member in the order of the names, looked for only
    // when there is one.
    if fields.keys.contains(where: { !Self.memberNames.contains($0) }),
      let unknown = fields.keys.sorted().first(where: { !Self.memberNames.contains($0) })
    {
      throw .unknownField(unknown)
    }
    /// A boolean field: absent is false; anything but true or false is refused.
    func flag(_ name: String) throws(MessageError) -> Bool {
      guard let field = value[name] else { return false }
      guard let flag = field.boolValue else { throw .badField(name, expected: "true or false") }
      return flag
    }
    // The requests without a tag.
    switch value["op"]?.stringValue {
    case "hold":
      self = .hold
      return
    case "notifications":
      self = .notifications(try NotificationsRequest(decoding: value))
      return
    default:
      break
    }
    guard let tagValue = value["tag"] else { throw .notAMessage("no tag") }
    guard let written = tagValue.stringValue else { throw .badField("tag", expected: "a string") }
    let tag = try checked { () throws(Toast.InvalidValue) in try Toast.checkedTag(written) }
    switch value["op"]?.stringValue {
    case "show":
      guard let json = value["toast"] else { throw .notAMessage("show without a toast") }
      var toast = Toast("")
      try toast.apply(json)
      self = .show(tag: tag, toast: toast, wait: try flag("wait"), whenShown: try flag("shown"))
    case "hide":
      var after: Double?
      if let json = value["after"], !json.isNull {
        after = try checked { () throws(Toast.InvalidValue) in
          try Toast.checkedSeconds(json.doubleValue, of: .after, written: json.serialized)
        }
      }
      self = .hide(tag: tag, after: after)
    case "status":
      self = .status(tag: tag)
    default:
      throw .notAMessage("unknown op")
    }
  }
}

extension DrawnSurface {
  /// The report as JSON: `{"output": "DP-1", "scale": 1.5, "size": [184, 144],
  /// "buffer": [276, 216], "frames": 1}`.
  package var json: JSONValue {
    .object([
      "output": output.map(JSONValue.string) ?? .null, "scale": .number(scale),
      "size": .array([.number(Double(width)), .number(Double(height))]),
      "buffer": .array([.number(Double(bufferWidth)), .number(Double(bufferHeight))]),
      "frames": .number(Double(frames)),
    ])
  }

  /// Reads a report written by ``json``; nil when it is not one.
  package init?(_ json: JSONValue) {
    func pair(_ key: String) -> (Int, Int)? {
      guard case .array(let items)? = json[key], items.count == 2,
        let first = items[0].doubleValue.flatMap({ Int(exactly: $0) }),
        let second = items[1].doubleValue.flatMap({ Int(exactly: $0) })
      else { return nil }
      return (first, second)
    }
    guard let scale = json["scale"]?.doubleValue, let size = pair("size"),
      let buffer = pair("buffer")
    else { return nil }
    self.init(
      output: json["output"]?.stringValue, scale: scale, width: size.0, height: size.1,
      bufferWidth: buffer.0, bufferHeight: buffer.1,
      frames: json["frames"]?.doubleValue.flatMap { Int(exactly: $0) } ?? 1)
  }
}

/// What the owner answers.
package enum OwnerReply: Equatable, Sendable {
  /// The request was carried out.
  case accepted
  /// The request failed; the reason in one line.
  case failed(String)
  /// The content was refused as a usage error (such as invalid markup); the reason in one line.
  case refused(String)
  /// The toast showing with the tag asked about (or nil), the owner's process
  /// id, how many toasts it has created surfaces for so far, how the
  /// toast's surfaces are drawn, and where the owner stands with screen
  /// readers (`starting`, `no-screen-reader`, `connecting`, `connected`,
  /// `failed`), and where the toast's sound stands.
  case status(
    Toast?, pid: Int32, surfaces: Int, drawn: [DrawnSurface] = [], screenReaders: String? = nil,
    sound: Sound? = nil)
  /// How the toast a waiting command showed ended.
  case outcome(ToastOutcome)
  /// Something a command tells its user on standard error: before
  /// `accepted`, that its toast shows without its icon; before the outcome
  /// (a waiting command), that the toast's output went away.
  case notice(String)
  /// A page of the notifications' list (``NotificationsRequest/list(from:)``):
  /// one object each, and whether more follow.
  case listed([JSONValue], more: Bool)

  /// Where a toast's sound stands, as `status` tells it: `waiting` (for
  /// its first frame), `playing`, `played` or `failed`, and why it failed.
  package struct Sound: Equatable, Sendable {
    /// `waiting`, `playing`, `played` or `failed`.
    package var state: String
    /// Why it failed, in one line.
    package var problem: String?

    /// A sound's state and problem.
    package init(state: String, problem: String? = nil) {
      self.state = state
      self.problem = problem
    }

    /// Its members of a status object: `sound`, and `sound-problem` when it failed.
    package var members: [String: JSONValue] {
      var members = ["sound": JSONValue.string(state)]
      if let problem { members["sound-problem"] = .string(problem) }
      return members
    }

    /// The sound a status object tells of; nil when it tells of none.
    package init?(_ object: JSONValue) {
      guard let state = object["sound"]?.stringValue else { return nil }
      self.init(state: state, problem: object["sound-problem"]?.stringValue)
    }
  }

  /// The reply itself, or the error a failure or refusal stands for.
  package func checked() throws(CommandError) -> OwnerReply {
    switch self {
    case .failed(let reason): throw .failed(reason)
    case .refused(let reason): throw .refused(reason)
    default: return self
    }
  }

  /// The text of ``accepted``, the commonest reply, which
  /// ``init(decoding:)`` knows without parsing it.
  private static let acceptedText = #"{"ok":true}"#

  /// The reply as JSON text.
  package var encoded: String {
    switch self {
    case .accepted:
      return Self.acceptedText
    case .failed(let reason):
      return JSONValue.object(["ok": .bool(false), "error": .string(reason)]).serialized
    case .refused(let reason):
      return JSONValue.object([
        "ok": .bool(false), "error": .string(reason), "usage": .bool(true),
      ]).serialized
    case .status(let toast, let pid, let surfaces, let drawn, let screenReaders, let sound):
      var object: [String: JSONValue] = [
        "ok": .bool(true), "toast": toast?.json ?? .null, "pid": .number(Double(pid)),
        "surfaces": .number(Double(surfaces)), "drawn": .array(drawn.map(\.json)),
      ]
      if let screenReaders { object["screen-readers"] = .string(screenReaders) }
      if let sound { object.merge(sound.members) { $1 } }
      return JSONValue.object(object).serialized
    case .outcome(let outcome):
      var object: [String: JSONValue] = ["outcome": .string(outcome.name)]
      if case .chose(let button) = outcome { object["button"] = .number(Double(button)) }
      return JSONValue.object(object).serialized
    case .notice(let text):
      return JSONValue.object(["notice": .string(text)]).serialized
    case .listed(let notifications, let more):
      return JSONValue.object(["listed": .array(notifications), "more": .bool(more)]).serialized
    }
  }

  /// Reads a reply.
  package init(decoding text: String) throws(MessageError) {
    // What every update hears, taken without a tree of dictionaries (whose
    // types the runtime would have to look up in a command that makes none).
    if text == Self.acceptedText {
      self = .accepted
      return
    }
    let value = try decodeJSON(text)
    if let name = value["outcome"]?.stringValue,
      let outcome = ToastOutcome(
        name: name, button: value["button"]?.doubleValue.flatMap { Int(exactly: $0) })
    {
      self = .outcome(outcome)
    } else if let notice = value["notice"]?.stringValue {
      self = .notice(notice)
    } else if case .array(let notifications)? = value["listed"] {
      self = .listed(notifications, more: value["more"]?.boolValue ?? false)
    } else if value["ok"]?.boolValue == false {
      let reason = value["error"]?.stringValue ?? "the owner refused the request"
      self = value["usage"]?.boolValue == true ? .refused(reason) : .failed(reason)
    } else if value["ok"]?.boolValue == true, let json = value["toast"] {
      let pid = value["pid"]?.doubleValue.flatMap { Int32(exactly: $0) } ?? 0
      let surfaces = value["surfaces"]?.doubleValue.flatMap { Int(exactly: $0) } ?? 0
      var drawn: [DrawnSurface] = []
      if case .array(let items)? = value["drawn"] { drawn = items.compactMap(DrawnSurface.init) }
      let screenReaders = value["screen-readers"]?.stringValue
      let sound = Sound(value)
      if json.isNull {
        self = .status(
          nil, pid: pid, surfaces: surfaces, drawn: drawn, screenReaders: screenReaders,
          sound: sound)
      } else {
        var toast = Toast("")
        try toast.apply(json)
        self = .status(
          toast, pid: pid, surfaces: surfaces, drawn: drawn, screenReaders: screenReaders,
          sound: sound)
      }
    } else if value["ok"]?.boolValue == true {
      self = .accepted
    } else {
      throw .notAMessage("not a wl-toast reply")
    }
  }
}

extension Toast.Color {
  /// `#RRGGBBAA`.
  package var hex: String {
    let channels = [red, green, blue, alpha].map { UInt8((min(max($0, 0), 1) * 255).rounded()) }
    return "#"
      + channels.map { value -> String in
        let digits = String(value, radix: 16)
        return digits.count == 1 ? "0" + digits : digits
      }.joined()
  }
}

/// Parses JSON, turning a syntax error into a ``MessageError``.
func decodeJSON(_ text: String) throws(MessageError) -> JSONValue {
  do {
    return try JSONValue.parse(text)
  } catch {
    throw .syntax(error)
  }
}

/// The result of a check of ``Toast/Limits``, its error as a ``MessageError``.
func checked<Value>(_ check: () throws(Toast.InvalidValue) -> Value) throws(MessageError) -> Value {
  do {
    return try check()
  } catch {
    throw .invalidValue(error)
  }
}
