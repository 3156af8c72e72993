import ToastModel

/// A setting of a toast, declared once: its name (the command line's
/// `--NAME`, the configuration key and the JSON field), what `--help` and the
/// completions say of it, whether a `--follow=json` line may set it, and how
/// its value is read from a word (command line, configuration file), read from
/// JSON and written to JSON.
///
/// ``all`` is the table; the option parser, the configuration checks, the
/// completions, `--help`, the socket protocol's JSON and the follow-line rules
/// all read it.
package struct ToastField: Sendable {
  /// The name shared by the option (`--NAME`), the configuration key and the JSON field.
  package let name: String
  /// What the value stands for in `--help` (`SECONDS|auto`); nil for a flag.
  package let valueName: String?
  /// One line for completion menus.
  package let summary: String
  /// The text `--help` prints beside the option: made when asked for, so
  /// that a command that prints no help does not build it.
  package let helpText: @Sendable () -> String
  /// The values the option takes, when they are a short list (for completions).
  package let choices: [String]
  /// Whether the value is a file's path (for completions).
  package let takesPath: Bool
  /// Whether a `--follow=json` line may set it: what the toast says, never how
  /// it takes input or covers the screen.
  package let isFollowable: Bool
  /// Whether it is an option; false for the message (`text`), which the
  /// command line takes as its words.
  package let isOption: Bool

  /// Sets the value from a word (nil for a flag and the message).
  package let parse: (@Sendable (inout Toast, String) throws(Toast.InvalidValue) -> Void)?
  /// Turns a flag on or off (nil for a setting with a value).
  package let setFlag: (@Sendable (inout Toast, Bool) -> Void)?
  /// Sets the value from JSON.
  package let decode: @Sendable (inout Toast, JSONValue) throws(MessageError) -> Void
  /// The value as JSON.
  package let encode: @Sendable (Toast) -> JSONValue

  /// Whether the option takes no value.
  package var isFlag: Bool { valueName == nil }

  /// The text `--help` prints beside the option.
  package var help: String { helpText() }
}

extension ToastField {
  /// Every setting of a toast, in the order `--help` lists them.
  package static let all: [ToastField] = [
    ToastField(
      message: "text", summary: "the message",
      get: { $0.text }, set: { toast, text in toast.text = Toast.truncated(text) }),
    choice(
      "style", Toast.Style.allCases, summary: "a box in the middle or a pill at the top",
      help: "a box in the middle (default) or a pill at the top", followable: true,
      get: { $0.style }, set: { $0.style = $1 }),
    ToastField(
      name: "timeout", valueName: "SECONDS|auto",
      summary: "hide after SECONDS (0: until dismissed; auto: by length)",
      help:
        "hide after SECONDS (0 to \(Int(Toast.Limits.timeout.upperBound)); 0: until dismissed;"
        + " auto: 0.5 s plus 0.06 s a character, 1.5 to 10 s)",
      choices: ["auto"], isFollowable: true,
      parse: { toast, value throws(Toast.InvalidValue) in
        toast.timeout =
          value == "auto"
          ? .automatic
          : Toast.Timeout(
            seconds: try Toast.checkedSeconds(decimal(value), of: .timeout, written: value))
      },
      decode: { toast, json throws(MessageError) in
        if json.stringValue == "auto" {
          toast.timeout = .automatic
        } else if json.isNull {
          toast.timeout = .standard
        } else {
          toast.timeout = Toast.Timeout(
            seconds: try checked { () throws(Toast.InvalidValue) in
              try Toast.checkedSeconds(json.doubleValue, of: .timeout, written: json.serialized)
            })
        }
      },
      encode: { toast in
        toast.timeout == .automatic
          ? .string("auto") : toast.timeout.seconds.map(JSONValue.number) ?? .null
      }),
    flag(
      "spinner", summary: "an activity indicator above the text",
      help: "show an activity indicator above the text (hud)", followable: true,
      get: { $0.showsSpinner }, set: { $0.showsSpinner = $1 }),
    number(
      "progress", valueName: "PERCENT", summary: "a progress bar filled to PERCENT (0 to 200)",
      help:
        "show a progress bar filled to PERCENT (0 to"
        + " \(Int(Toast.Limits.progressPercent.upperBound)); beyond 100 in a second colour)",
      followable: true,
      read: { decimal($0.hasSuffix("%") ? String($0.dropLast()) : $0) },
      check: { percent, written throws(Toast.InvalidValue) in
        try Toast.checkedProgress(percent: percent, written: written)
      },
      encode: { .number(($0 * 1000).rounded() / 10) },
      get: { $0.progress }, set: { $0.progress = $1 }),
    ToastField(
      name: "offset", valueName: "X,Y", summary: "move the HUD by X,Y pixels",
      help:
        "move the hud by X,Y pixels (\(Toast.Limits.offset.lowerBound) to"
        + " \(Toast.Limits.offset.upperBound) each)",
      parse: { toast, value throws(Toast.InvalidValue) in
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.count == 2 ? parts.map { Int($0).map(Double.init) } : [nil, nil]
        toast.offset = try Toast.checkedOffset(x: numbers[0], y: numbers[1], written: value)
      },
      decode: { toast, json throws(MessageError) in
        var pair: [Double?] = [nil, nil]
        if case .array(let items) = json, items.count == 2 { pair = items.map { $0.doubleValue } }
        toast.offset = try checked { () throws(Toast.InvalidValue) in
          try Toast.checkedOffset(x: pair[0], y: pair[1], written: json.serialized)
        }
      },
      encode: { .array([.number(Double($0.offset.x)), .number(Double($0.offset.y))]) }),
    choice(
      "dismiss", Toast.Dismissal.allCases, valueName: "tap|none",
      summary: "tap: a click, touch or Escape dismisses it",
      help: "tap lets a click, touch or Escape dismiss the toast",
      get: { $0.dismissal }, set: { $0.dismissal = $1 }),
    flag(
      "modal", summary: "cover the screen and take all input",
      help: "cover the screen and take all input while shown",
      get: { $0.isModal }, set: { $0.isModal = $1 }),
    flag(
      "dim", summary: "darken the screen behind a modal toast",
      help: "darken the screen behind the toast (needs --modal)",
      get: { $0.dimsBackground }, set: { $0.dimsBackground = $1 }),
    flag(
      "markup", summary: "the message is Pango markup",
      help: "MESSAGE is Pango markup, e.g. '<b>Saved</b>'",
      get: { $0.isMarkup }, set: { $0.isMarkup = $1 }),
    flag(
      "no-animation", summary: "show and hide at once",
      help: "show and hide at once, without fading or sliding",
      get: { !$0.isAnimated }, set: { $0.isAnimated = !$1 }),
    word(
      "font", valueName: "FAMILY SIZE", summary: "the Pango font",
      help: "the Pango font, e.g. \"Sans Bold 15\"",
      check: { font throws(Toast.InvalidValue) in try Toast.checkedFont(font) },
      write: { $0 }, get: { $0.font }, set: { $0.font = $1 }),
    color(
      "background", summary: "the colour of the box", help: "the colour of the box",
      get: { $0.background }, set: { $0.background = $1 }),
    color(
      "foreground", summary: "the colour of the text",
      help: "the colour of the text (default: white)",
      get: { $0.foreground }, set: { $0.foreground = $1 }),
    ToastField(
      name: "output", valueName: "NAME|all", summary: "the output to show on, or all",
      help:
        "show on the output NAME (e.g. DP-1) or on all outputs (default: the compositor's"
        + " choice)",
      choices: ["all"],
      parse: { toast, value throws(Toast.InvalidValue) in
        toast.output = Toast.OutputChoice(name: try Toast.checkedOutputName(value))
      },
      decode: { toast, json throws(MessageError) in
        if json.isNull {
          toast.output = .automatic
        } else {
          let name = try string(json, of: .output)
          toast.output = Toast.OutputChoice(
            name: try checked { () throws(Toast.InvalidValue) in
              try Toast.checkedOutputName(name)
            })
        }
      },
      encode: { $0.output.name.map(JSONValue.string) ?? .null }),
    optionalChoice(
      "position", Toast.Position.allCases, valueName: "POSITION", summary: "where the toast rests",
      help:
        listed(Toast.Position.allCases.map { $0.rawValue })
        + " (default: center for hud, top for banner)",
      get: { $0.position }, set: { $0.position = $1 }),
    number(
      "margin", valueName: "PIXELS", summary: "distance to the output's edges",
      help:
        "distance to the output's edges (\(Toast.Limits.margin.lowerBound) to"
        + " \(Toast.Limits.margin.upperBound), default 10); the centre ignores it",
      read: { Int($0).map(Double.init) },
      check: { pixels, written throws(Toast.InvalidValue) in
        try Toast.checkedMargin(pixels, written: written)
      },
      encode: { .number(Double($0)) }, get: { $0.margin }, set: { $0.margin = $1 }),
    choice(
      "layer", Toast.Layer.allCases, summary: "overlay (above fullscreen) or top",
      help: "overlay (default) shows above fullscreen windows",
      get: { $0.layer }, set: { $0.layer = $1 }),
    word(
      "icon", valueName: "NAME|PATH", summary: "an icon name or a PNG or SVG file",
      help: "an icon from the icon theme, or a PNG or SVG file", takesPath: true,
      check: { icon throws(Toast.InvalidValue) in try Toast.checkedIcon(icon) },
      write: { $0 }, get: { $0.icon }, set: { $0.icon = $1 }),
    word(
      "icon-theme", valueName: "THEME", summary: "the icon theme for icon names",
      help: "the icon theme to look names up in (then hicolor)",
      check: { theme throws(Toast.InvalidValue) in try Toast.checkedIconTheme(theme) },
      write: { $0 }, get: { $0.iconTheme }, set: { $0.iconTheme = $1 }),
    seconds(
      "grace", of: .grace, summary: "appear only if still wanted after SECONDS",
      help: "appear only if still wanted after SECONDS (0 to 60)",
      get: { $0.grace }, set: { $0.grace = $1 }),
    seconds(
      "min-show", of: .minimumShow, summary: "once shown, stay at least SECONDS",
      help: "once shown, stay at least SECONDS (0 to 60)",
      get: { $0.minimumShow }, set: { $0.minimumShow = $1 }),
    choice(
      "a11y", Toast.Accessibility.allCases, summary: "screen readers hear it: auto, on or off",
      help:
        "screen readers hear the toast: auto (default) when one is running, on whenever the"
        + " accessibility bus runs, off never",
      get: { $0.accessibility }, set: { $0.accessibility = $1 }),
    word(
      "say", valueName: "TEXT", summary: "what a screen reader says instead of the message",
      help: "what a screen reader says instead of MESSAGE", followable: true,
      check: { text throws(Toast.InvalidValue) in try Toast.checkedAccessibleText(text) },
      write: { $0 }, get: { $0.accessibleText }, set: { $0.accessibleText = $1 }),
  ]

  /// The field with this name (a search of the table: see `Option.named`).
  package static func named(_ name: String) -> ToastField? {
    all.first { $0.name == name }
  }
}

// MARK: - Kinds of field

extension ToastField {
  /// The message: a string, cut to the limit.
  fileprivate init(
    message name: String, summary: String, get: @escaping @Sendable (Toast) -> String,
    set: @escaping @Sendable (inout Toast, String) -> Void
  ) {
    self.init(
      name: name, valueName: "MESSAGE", summary: summary, help: summary, isFollowable: true,
      isOption: false, parse: nil,
      decode: { toast, json throws(MessageError) in
        guard let text = json.stringValue else { throw .badField(name, expected: "a string") }
        set(&toast, text)
      },
      encode: { .string(get($0)) })
  }

  /// A setting with a value, written out.
  fileprivate init(
    name: String, valueName: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String, choices: [String] = [],
    takesPath: Bool = false, isFollowable: Bool = false, isOption: Bool = true,
    parse: (@Sendable (inout Toast, String) throws(Toast.InvalidValue) -> Void)?,
    decode: @escaping @Sendable (inout Toast, JSONValue) throws(MessageError) -> Void,
    encode: @escaping @Sendable (Toast) -> JSONValue
  ) {
    self.name = name
    self.valueName = valueName
    self.summary = summary
    self.helpText = help
    self.choices = choices
    self.takesPath = takesPath
    self.isFollowable = isFollowable
    self.isOption = isOption
    self.parse = parse
    self.setFlag = nil
    self.decode = decode
    self.encode = encode
  }

  /// A flag: given or not on the command line, a yes/no in the file, `true`
  /// or `false` in JSON.
  fileprivate static func flag(
    _ name: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String, followable: Bool = false,
    get: @escaping @Sendable (Toast) -> Bool, set: @escaping @Sendable (inout Toast, Bool) -> Void
  ) -> ToastField {
    ToastField(
      name: name, valueName: nil, summary: summary, helpText: help, choices: [], takesPath: false,
      isFollowable: followable, isOption: true, parse: nil, setFlag: set,
      decode: { toast, json throws(MessageError) in
        guard let on = json.boolValue else { throw .badField(name, expected: "true or false") }
        set(&toast, on)
      },
      encode: { .bool(get($0)) })
  }

  /// A word checked by `check`, a JSON string; a `nullable` setting takes
  /// `null` in JSON for its default.
  fileprivate static func word<Value>(
    _ name: String, valueName: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String, choices: [String] = [],
    takesPath: Bool = false, followable: Bool = false, nullable: Bool = true,
    check: @escaping @Sendable (String) throws(Toast.InvalidValue) -> Value,
    write: @escaping @Sendable (Value) -> String,
    get: @escaping @Sendable (Toast) -> Value?,
    set: @escaping @Sendable (inout Toast, Value?) -> Void
  ) -> ToastField {
    let setting = Toast.InvalidValue.Setting(rawValue: name)!
    return ToastField(
      name: name, valueName: valueName, summary: summary, help: help(), choices: choices,
      takesPath: takesPath, isFollowable: followable,
      parse: { toast, value throws(Toast.InvalidValue) in set(&toast, try check(value)) },
      decode: { toast, json throws(MessageError) in
        if json.isNull && nullable {
          set(&toast, nil)
        } else {
          let text = try string(json, of: setting)
          set(&toast, try checked { () throws(Toast.InvalidValue) in try check(text) })
        }
      },
      encode: { get($0).map { .string(write($0)) } ?? .null })
  }

  /// One of a fixed list of words (an enumeration), with a default.
  fileprivate static func choice<Choice>(
    _ name: String, _ cases: [Choice], valueName: String? = nil, summary: String,
    help: @autoclosure @escaping @Sendable () -> String,
    followable: Bool = false, get: @escaping @Sendable (Toast) -> Choice,
    set: @escaping @Sendable (inout Toast, Choice) -> Void
  ) -> ToastField
  where Choice: RawRepresentable & Sendable, Choice.RawValue == String {
    // The cases come from the caller (`Toast.Style.allCases`), not from
    // `Choice.allCases`: unspecialized, that asks the runtime for the
    // associated type, which costs the command's start more than the table.
    let names = cases.map { $0.rawValue }
    return word(
      name, valueName: valueName ?? listed(names, separator: "|", last: "|"), summary: summary,
      help: help(),
      choices: names, followable: followable, nullable: false,
      check: choiceCheck(name, Choice.self), write: { $0.rawValue }, get: get,
      set: { toast, value in
        if let value { set(&toast, value) }  // never nil: not nullable
      })
  }

  /// One of a fixed list of words, or nil for the style's default.
  fileprivate static func optionalChoice<Choice>(
    _ name: String, _ cases: [Choice], valueName: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String,
    get: @escaping @Sendable (Toast) -> Choice?,
    set: @escaping @Sendable (inout Toast, Choice?) -> Void
  ) -> ToastField
  where Choice: RawRepresentable & Sendable, Choice.RawValue == String {
    word(
      name, valueName: valueName, summary: summary, help: help(),
      choices: cases.map { $0.rawValue }, check: choiceCheck(name, Choice.self),
      write: { $0.rawValue }, get: get, set: set)
  }

  /// The check of a word that must be one of `Choice`'s.
  private static func choiceCheck<Choice>(_ name: String, _ type: Choice.Type)
    -> @Sendable (String) throws(Toast.InvalidValue) -> Choice
  where Choice: RawRepresentable & Sendable, Choice.RawValue == String {
    let setting = Toast.InvalidValue.Setting(rawValue: name)!
    return { value throws(Toast.InvalidValue) in
      guard let choice = Choice(rawValue: value) else { throw .init(setting, value) }
      return choice
    }
  }

  /// A colour, `#RRGGBB[AA]`, or nil for the style's.
  fileprivate static func color(
    _ name: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String,
    get: @escaping @Sendable (Toast) -> Toast.Color?,
    set: @escaping @Sendable (inout Toast, Toast.Color?) -> Void
  ) -> ToastField {
    let setting = Toast.InvalidValue.Setting(rawValue: name)!
    return word(
      name, valueName: "#RRGGBB[AA]", summary: summary, help: help(),
      check: { hex throws(Toast.InvalidValue) in
        guard let color = Toast.Color(hex: hex) else { throw .init(setting, hex) }
        return color
      },
      write: { $0.hex }, get: get, set: set)
  }

  /// A number read from a word by `read` and from a JSON number, checked by
  /// `check`, or JSON `null` for the default.
  fileprivate static func number<Value>(
    _ name: String, valueName: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String, followable: Bool = false,
    read: @escaping @Sendable (String) -> Double?,
    check: @escaping @Sendable (Double?, String) throws(Toast.InvalidValue) -> Value,
    encode: @escaping @Sendable (Value) -> JSONValue,
    get: @escaping @Sendable (Toast) -> Value?,
    set: @escaping @Sendable (inout Toast, Value?) -> Void
  ) -> ToastField {
    ToastField(
      name: name, valueName: valueName, summary: summary, help: help(), isFollowable: followable,
      parse: { toast, value throws(Toast.InvalidValue) in
        set(&toast, try check(read(value), value))
      },
      decode: { toast, json throws(MessageError) in
        set(
          &toast,
          json.isNull
            ? nil
            : try checked { () throws(Toast.InvalidValue) in
              try check(json.doubleValue, json.serialized)
            })
      },
      encode: { get($0).map(encode) ?? .null })
  }

  /// Seconds within the setting's limits, or nil for none.
  fileprivate static func seconds(
    _ name: String, of setting: Toast.InvalidValue.Setting, summary: String,
    help: @autoclosure @escaping @Sendable () -> String,
    get: @escaping @Sendable (Toast) -> Double?,
    set: @escaping @Sendable (inout Toast, Double?) -> Void
  ) -> ToastField {
    number(
      name, valueName: "SECONDS", summary: summary, help: help(), read: decimal,
      check: { seconds, written throws(Toast.InvalidValue) in
        try Toast.checkedSeconds(seconds, of: setting, written: written)
      },
      encode: JSONValue.number, get: get, set: set)
  }
}

/// `a, b or c`: the words with `separator` between them and `last` before the
/// last. (A loop of its own: the standard library's `joined(separator:)` is
/// generic code that the command's start would pay for.)
package func listed(_ words: [String], separator: String = ", ", last: String = " or ") -> String {
  var text = ""
  for (index, word) in words.enumerated() {
    if index > 0 { text += index == words.count - 1 ? last : separator }
    text += word
  }
  return text
}

/// A JSON string, or the setting's error for any other value.
private func string(_ json: JSONValue, of setting: Toast.InvalidValue.Setting) throws(MessageError)
  -> String
{
  guard let string = json.stringValue else {
    throw .invalidValue(Toast.InvalidValue(setting, json.serialized))
  }
  return string
}

/// A plain decimal number (`3`, `-1`, `0.5`, `.5`, `+2.`): no exponent, no hex,
/// no `inf` or `nan`.
package func decimal(_ text: String) -> Double? {
  var body = Substring(text)
  if body.first == "+" || body.first == "-" { body = body.dropFirst() }
  let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
  guard parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
    parts.contains(where: { !$0.isEmpty })
  else { return nil }
  return Double(text)
}

/// How `--follow` reads the lines of standard input.
package enum FollowFormat: String, Equatable, Sendable, CaseIterable {
  /// Each line is the new message, even one that looks like JSON.
  case text
  /// Each line is a JSON object setting some of ``Toast/followFields``.
  case json
}

// MARK: - JSON

extension Toast {
  /// The toast as a JSON object: every field of ``ToastField/all``, progress in percent.
  package var json: JSONValue {
    var object: [String: JSONValue] = [:]
    object.reserveCapacity(ToastField.all.count)
    for field in ToastField.all { object[field.name] = field.encode(self) }
    return .object(object)
  }

  /// Sets the fields present in a JSON object (as ``json`` writes them, or a
  /// `--follow` line's subset), by the rules of ``Toast/Limits``; throws naming
  /// the first bad field (in the order of their names), changing nothing.
  package mutating func apply(_ json: JSONValue) throws(MessageError) {
    guard case .object(let fields) = json else {
      throw .notAMessage("expected a JSON object")
    }
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
      try apply(value)
    }
  }
}
