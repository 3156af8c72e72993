import ToastModel

// The kinds of a toast's field (flag, word, choice, colour, number, seconds), each
// with its parsing from a word and from JSON and its encoding, for the table in
// ToastFields.swift; and the small parsers they share.

extension ToastField {
  /// The message: a string, cut to the limit.
  init(
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
  init(
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
  static func flag(
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
  static func word<Value>(
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
  static func choice<Choice>(
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
  static func optionalChoice<Choice>(
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
  static func color(
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
  static func number<Value>(
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

  /// A list of words, one more for each time the option is given, a JSON
  /// array of strings; `add` checks each word and the list it joins.
  static func list(
    _ name: String, valueName: String, summary: String,
    help: @autoclosure @escaping @Sendable () -> String,
    add: @escaping @Sendable (String, [String]) throws(Toast.InvalidValue) -> [String],
    get: @escaping @Sendable (Toast) -> [String],
    set: @escaping @Sendable (inout Toast, [String]) -> Void
  ) -> ToastField {
    let setting = Toast.InvalidValue.Setting(rawValue: name)!
    var field = ToastField(
      name: name, valueName: valueName, summary: summary, help: help(),
      parse: { toast, value throws(Toast.InvalidValue) in
        set(&toast, try add(value, get(toast)))
      },
      decode: { toast, json throws(MessageError) in
        guard case .array(let items) = json else {
          throw .invalidValue(Toast.InvalidValue(setting, json.serialized))
        }
        var values: [String] = []
        for item in items {
          let word = try string(item, of: setting)
          values = try checked { () throws(Toast.InvalidValue) in try add(word, values) }
        }
        set(&toast, values)
      },
      encode: { .array(get($0).map(JSONValue.string)) })
    field.isRepeatable = true
    return field
  }

  /// Seconds within the setting's limits, or nil for none.
  static func seconds(
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
func string(_ json: JSONValue, of setting: Toast.InvalidValue.Setting) throws(MessageError)
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
  // ASCII digits, tested by value: `isWholeNumber` reads the standard
  // library's numeric tables (pages of the owner's read-only data).
  guard parts.allSatisfy({ $0.allSatisfy { (0x30...0x39).contains($0.asciiValue ?? 0) } }),
    parts.contains(where: { !$0.isEmpty })
  else { return nil }
  return Double(text)
}
