import ToastModel

/// A malformed message or follow line, in one line.
public struct MessageError: Error, Equatable, CustomStringConvertible {
  /// What is wrong.
  public var description: String
  /// Whether the content itself was refused (a usage error, such as bad markup).
  public var isUsage: Bool

  /// Creates an error.
  public init(_ description: String, isUsage: Bool = false) {
    self.description = description
    self.isUsage = isUsage
  }
}

/// The largest message the owner reads; anything longer is refused.
public let maximumMessageSize = 65_536

/// What a command asks of the owner, one message per request.
public enum OwnerRequest: Equatable, Sendable {
  /// Show a toast with a tag, or update the one showing in place; `wait` keeps
  /// the connection for the outcome.
  case show(tag: String, toast: Toast, wait: Bool)
  /// Hide the toast with a tag, at once or after some seconds.
  case hide(tag: String, after: Double?)
  /// Ask whether a toast with a tag is showing.
  case status(tag: String)

  /// The message as JSON text.
  public var encoded: String {
    var object: [String: JSONValue] = ["v": .number(1)]
    switch self {
    case .show(let tag, let toast, let wait):
      object["op"] = .string("show")
      object["tag"] = .string(tag)
      object["toast"] = toast.json
      object["wait"] = .bool(wait)
    case .hide(let tag, let after):
      object["op"] = .string("hide")
      object["tag"] = .string(tag)
      object["after"] = after.map(JSONValue.number) ?? .null
    case .status(let tag):
      object["op"] = .string("status")
      object["tag"] = .string(tag)
    }
    return JSONValue.object(object).serialized
  }

  /// Reads a message; throws a one-line reason for anything malformed.
  public init(decoding text: String) throws(MessageError) {
    let value = try decodeJSON(text)
    guard case .object = value, value["v"]?.doubleValue == 1 else {
      throw MessageError("not a wl-toast version 1 message")
    }
    guard let tag = value["tag"]?.stringValue, !tag.isEmpty, tag.unicodeScalars.count <= 64 else {
      throw MessageError("missing or bad tag")
    }
    switch value["op"]?.stringValue {
    case "show":
      guard let json = value["toast"] else { throw MessageError("show without a toast") }
      var toast = Toast("")
      try toast.apply(json)
      self = .show(tag: tag, toast: toast, wait: value["wait"]?.boolValue ?? false)
    case "hide":
      let after = value["after"]
      guard
        after == nil || after!.isNull
          || (after!.doubleValue.map { $0 >= 0 && $0 <= 86_400 } ?? false)
      else { throw MessageError("bad after") }
      self = .hide(tag: tag, after: after?.doubleValue)
    case "status":
      self = .status(tag: tag)
    default:
      throw MessageError("unknown op")
    }
  }
}

/// What the owner answers.
public enum OwnerReply: Equatable, Sendable {
  /// The request was carried out.
  case accepted
  /// The request failed; the reason in one line.
  case failed(String)
  /// The content was refused as a usage error (such as invalid markup); the reason in one line.
  case refused(String)
  /// The toast showing with the tag asked about (or nil), the owner's process
  /// id and how many surfaces it has created so far.
  case status(Toast?, pid: Int32, surfaces: Int)
  /// How the toast a waiting command showed ended.
  case outcome(ToastOutcome)

  /// The reply itself, or the error a failure or refusal stands for.
  public func checked() throws(MessageError) -> OwnerReply {
    switch self {
    case .failed(let reason): throw MessageError(reason)
    case .refused(let reason): throw MessageError(reason, isUsage: true)
    default: return self
    }
  }

  /// The reply as JSON text.
  public var encoded: String {
    switch self {
    case .accepted:
      return JSONValue.object(["ok": .bool(true)]).serialized
    case .failed(let reason):
      return JSONValue.object(["ok": .bool(false), "error": .string(reason)]).serialized
    case .refused(let reason):
      return JSONValue.object([
        "ok": .bool(false), "error": .string(reason), "usage": .bool(true),
      ]).serialized
    case .status(let toast, let pid, let surfaces):
      return JSONValue.object([
        "ok": .bool(true), "toast": toast?.json ?? .null, "pid": .number(Double(pid)),
        "surfaces": .number(Double(surfaces)),
      ]).serialized
    case .outcome(let outcome):
      return JSONValue.object(["outcome": .string(outcome.rawValue)]).serialized
    }
  }

  /// Reads a reply.
  public init(decoding text: String) throws(MessageError) {
    let value = try decodeJSON(text)
    if let outcome = value["outcome"]?.stringValue.flatMap(ToastOutcome.init(rawValue:)) {
      self = .outcome(outcome)
    } else if value["ok"]?.boolValue == false {
      let reason = value["error"]?.stringValue ?? "the owner refused the request"
      self = value["usage"]?.boolValue == true ? .refused(reason) : .failed(reason)
    } else if value["ok"]?.boolValue == true, let json = value["toast"] {
      let pid = value["pid"]?.doubleValue.flatMap { Int32(exactly: $0) } ?? 0
      let surfaces = value["surfaces"]?.doubleValue.flatMap { Int(exactly: $0) } ?? 0
      if json.isNull {
        self = .status(nil, pid: pid, surfaces: surfaces)
      } else {
        var toast = Toast("")
        try toast.apply(json)
        self = .status(toast, pid: pid, surfaces: surfaces)
      }
    } else if value["ok"]?.boolValue == true {
      self = .accepted
    } else {
      throw MessageError("not a wl-toast reply")
    }
  }
}

extension Toast {
  /// The toast as a JSON object: every setting, progress in percent.
  public var json: JSONValue {
    var object: [String: JSONValue] = [
      "text": .string(text), "markup": .bool(isMarkup), "style": .string(style.rawValue),
      "spinner": .bool(showsSpinner), "dismiss": .string(dismissal.rawValue),
      "modal": .bool(isModal), "dim": .bool(dimsBackground), "animated": .bool(isAnimated),
      "offset": .array([.number(Double(offset.x)), .number(Double(offset.y))]),
    ]
    object["timeout"] = timeout.map(JSONValue.number) ?? .null
    object["progress"] = progress.map { .number(($0 * 1000).rounded() / 10) } ?? .null
    object["font"] = font.map(JSONValue.string) ?? .null
    object["background"] = background.map { .string($0.hex) } ?? .null
    object["foreground"] = foreground.map { .string($0.hex) } ?? .null
    return .object(object)
  }

  /// Sets the fields present in a JSON object (as ``json`` writes them, or a
  /// `--follow` line's subset); throws naming the first bad field, changing nothing.
  public mutating func apply(_ json: JSONValue) throws(MessageError) {
    guard case .object(let fields) = json else { throw MessageError("expected a JSON object") }
    var toast = self
    for (key, value) in fields.sorted(by: { $0.key < $1.key }) {
      func bad(_ expectation: String) -> MessageError {
        MessageError("\(key): expected \(expectation)")
      }
      func flag() throws(MessageError) -> Bool {
        guard let flag = value.boolValue else { throw bad("true or false") }
        return flag
      }
      switch key {
      case "text":
        guard let text = value.stringValue else { throw bad("a string") }
        toast.text = Toast.truncated(text)
      case "markup":
        toast.isMarkup = try flag()
      case "style":
        guard let style = value.stringValue.flatMap(Style.init(rawValue:)) else {
          throw bad("\"hud\" or \"banner\"")
        }
        toast.style = style
      case "timeout":
        if value.isNull {
          toast.timeout = nil
        } else {
          guard let seconds = value.doubleValue, seconds >= 0, seconds <= 86_400 else {
            throw bad("seconds from 0 to 86400, or null")
          }
          toast.timeout = seconds
        }
      case "spinner":
        toast.showsSpinner = try flag()
      case "progress":
        if value.isNull {
          toast.progress = nil
        } else {
          guard let percent = value.doubleValue, percent >= 0, percent <= 100 else {
            throw bad("a percentage from 0 to 100, or null")
          }
          toast.progress = percent / 100
        }
      case "dismiss":
        guard let dismissal = value.stringValue.flatMap(Dismissal.init(rawValue:)) else {
          throw bad("\"tap\" or \"none\"")
        }
        toast.dismissal = dismissal
      case "modal":
        toast.isModal = try flag()
      case "dim":
        toast.dimsBackground = try flag()
      case "animated":
        toast.isAnimated = try flag()
      case "offset":
        guard case .array(let pair) = value, pair.count == 2,
          let x = pair[0].doubleValue, let y = pair[1].doubleValue,
          abs(x) <= 10_000, abs(y) <= 10_000, x == x.rounded(), y == y.rounded()
        else { throw bad("[x, y] with whole numbers from -10000 to 10000") }
        toast.offset = Offset(x: Int(x), y: Int(y))
      case "font":
        if value.isNull {
          toast.font = nil
        } else {
          guard let font = value.stringValue, !font.isEmpty, font.count <= 256 else {
            throw bad("a font description")
          }
          toast.font = font
        }
      case "background", "foreground":
        var color: Color?
        if !value.isNull {
          guard let parsed = value.stringValue.flatMap(Color.init(hex:)) else {
            throw bad("\"#RRGGBB\" or \"#RRGGBBAA\", or null")
          }
          color = parsed
        }
        if key == "background" { toast.background = color } else { toast.foreground = color }
      default:
        throw MessageError("unknown field \(key)")
      }
    }
    self = toast
  }

  /// Applies one `--follow` line: a JSON object sets fields; any other line is the new text.
  public mutating func apply(followLine line: String) throws(MessageError) {
    let trimmed = line.drop { $0 == " " || $0 == "\t" }
    if trimmed.first == "{" {
      let value = try decodeJSON(line)
      try apply(value)
    } else {
      text = Toast.truncated(line)
    }
  }
}

extension Toast.Color {
  /// `#RRGGBBAA`.
  public var hex: String {
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
    throw MessageError(error.description)
  }
}
