import Testing
import ToastProtocol

/// The error parsing the text throws, or nil when it parses.
private func parseError(_ text: String, maximumDepth: Int = 32) -> JSONError? {
  do {
    _ = try JSONValue.parse(text, maximumDepth: maximumDepth)
    return nil
  } catch {
    return error
  }
}

/// A small, seeded random number generator (SplitMix64), so failures repeat.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}

/// A document that uses every kind of value, escapes and non-ASCII text.
private let sampleDocument = """
  {
    "title": "Build finished \\u2014 \\"wl-toast\\"",
    "count": 3, "ratio": -0.25e-1, "big": 12345678901234567890, "zero": -0,
    "flags": [true, false, null],
    "nested": {"list": [1, [2, [3, {}]], []], "empty": ""},
    "text": "tab\\there\\nnew line \\/ \\\\ \\b\\f\\r",
    "unicode": "中文 \\u4e2D 😀 \\uD83D\\uDE00 é"
  }
  """

/// A random value of bounded depth, for round trips.
private func randomValue(_ generator: inout SeededGenerator, depth: Int) -> JSONValue {
  let kind =
    depth >= 4 ? Int.random(in: 0..<4, using: &generator) : Int.random(in: 0..<6, using: &generator)
  switch kind {
  case 0: return .null
  case 1: return .bool(Bool.random(using: &generator))
  case 2:
    switch Int.random(in: 0..<3, using: &generator) {
    case 0: return .number(Double(Int.random(in: -1_000_000...1_000_000, using: &generator)))
    case 1: return .number(Double.random(in: -1e6...1e6, using: &generator))
    default:
      let bits = UInt64.random(in: 0...UInt64.max, using: &generator)
      let number = Double(bitPattern: bits)
      return .number(number.isFinite ? number : 0)
    }
  case 3: return .string(randomString(&generator))
  case 4:
    let count = Int.random(in: 0..<5, using: &generator)
    return .array((0..<count).map { _ in randomValue(&generator, depth: depth + 1) })
  default:
    var members: [String: JSONValue] = [:]
    for _ in 0..<Int.random(in: 0..<5, using: &generator) {
      members[randomString(&generator)] = randomValue(&generator, depth: depth + 1)
    }
    return .object(members)
  }
}

/// A random string mixing ASCII, control characters, quotes, backslashes and
/// characters outside the Basic Multilingual Plane.
private func randomString(_ generator: inout SeededGenerator) -> String {
  let pool: [Unicode.Scalar] = [
    "a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "中",
    "\u{2028}", "\u{FFFF}", "😀", "\u{10FFFF}",
  ]
  var string = ""
  for _ in 0..<Int.random(in: 0..<8, using: &generator) {
    string.unicodeScalars.append(pool.randomElement(using: &generator)!)
  }
  return string
}

struct JSONTests {
  // MARK: Valid grammar

  @Test func literals() throws {
    #expect(try JSONValue.parse("null") == .null)
    #expect(try JSONValue.parse("true") == .bool(true))
    #expect(try JSONValue.parse("false") == .bool(false))
  }

  @Test(arguments: [
    ("0", 0.0), ("-0", -0.0), ("1", 1), ("-1", -1), ("42", 42), ("0.5", 0.5), ("-0.5", -0.5),
    ("1.25", 1.25), ("1e3", 1000), ("1E3", 1000), ("1e+3", 1000), ("1e-3", 0.001),
    ("-2.5E-2", -0.025), ("0e0", 0), ("10", 10), ("123456789012345", 123_456_789_012_345),
    ("9007199254740993", 9_007_199_254_740_992), ("12345678901234567890", 1.2345678901234567e19),
    ("0.1", 0.1), ("1e-400", 0), ("1.7976931348623157e308", .greatestFiniteMagnitude),
    ("5e-324", .leastNonzeroMagnitude), ("100000000000000000000000", 1e23),
  ])
  func numbers(text: String, expected: Double) throws {
    let value = try JSONValue.parse(text)
    #expect(value == .number(expected))
    #expect(value.doubleValue?.sign == expected.sign)
  }

  @Test func numbersMatchTheStandardLibrary() throws {
    var generator = SeededGenerator(state: 53)
    for _ in 0..<20_000 {
      var digits = String(
        UInt64.random(
          in: 0...UInt64.max >> Int.random(in: 0..<64, using: &generator), using: &generator))
      let point = Int.random(in: 0..<digits.count + 4, using: &generator)
      if point > 0 && point < digits.count {
        digits.insert(".", at: digits.index(digits.startIndex, offsetBy: point))
      }
      var text = Bool.random(using: &generator) ? "-" + digits : digits
      if Bool.random(using: &generator) {
        text += "e\(Int.random(in: -330...310, using: &generator))"
      }
      let expected = try #require(Double(text))
      if expected.isFinite {
        #expect(try JSONValue.parse(text) == .number(expected), "\(text)")
      } else {
        #expect(parseError(text) == JSONError("number out of range", offset: 0), "\(text)")
      }
    }
  }

  @Test func whitespaceAroundAndBetweenTokens() throws {
    #expect(try JSONValue.parse(" \t\r\n 1 \t\r\n ") == .number(1))
    let spaced = try JSONValue.parse(" { \"a\" : [ 1 , 2 ] , \"b\"\n:\r{ } , \"c\" :\t[ ] } ")
    #expect(
      spaced
        == .object(["a": .array([.number(1), .number(2)]), "b": .object([:]), "c": .array([])]))
    #expect(try JSONValue.parse("[]") == .array([]))
    #expect(try JSONValue.parse("{}") == .object([:]))
    #expect(try JSONValue.parse("\"\"") == .string(""))
  }

  @Test func nestedValues() throws {
    let value = try JSONValue.parse(#"{"a": [1, {"b": null}, "c"], "d": {"e": {"f": false}}}"#)
    #expect(
      value
        == .object([
          "a": .array([.number(1), .object(["b": .null]), .string("c")]),
          "d": .object(["e": .object(["f": .bool(false)])]),
        ]))
  }

  @Test func duplicateKeysLastWins() throws {
    let value = try JSONValue.parse(#"{"a": 1, "b": 2, "a": 3}"#)
    #expect(value == .object(["a": .number(3), "b": .number(2)]))
  }

  // MARK: Invalid grammar

  @Test(arguments: [
    // Empty and trailing input.
    ("", "expected a value", 0),
    ("   ", "expected a value", 3),
    ("1 2", "unexpected content after the value", 2),
    ("[] []", "unexpected content after the value", 3),
    ("truex", "unexpected content after the value", 4),
    ("1\u{0}", "unexpected content after the value", 1),
    // Whitespace is only space, tab, line feed and carriage return.
    ("\u{A0}1", "expected a value", 0),
    ("\u{FEFF}1", "expected a value", 0),
    ("\u{0C}1", "expected a value", 0),
    // Trailing and missing commas.
    ("[1,]", "expected a value", 3),
    ("[,1]", "expected a value", 1),
    ("[1,,2]", "expected a value", 3),
    ("[1 2]", "expected ',' or ']' after an array element", 3),
    (#"{"a":1,}"#, "expected a string as an object key", 7),
    (#"{"a":1 "b":2}"#, "expected ',' or '}' after an object member", 7),
    // Object keys and colons.
    (#"{"abc" 1}"#, "expected ':' after an object key", 7),
    (#"{"a"}"#, "expected ':' after an object key", 4),
    ("{1:2}", "expected a string as an object key", 1),
    ("{a:1}", "expected a string as an object key", 1),
    ("{'a':1}", "expected a string as an object key", 1),
    (#"{"a"::1}"#, "expected a value", 5),
    // Mismatched and missing brackets.
    ("[1}", "expected ',' or ']' after an array element", 2),
    (#"{"a":1]"#, "expected ',' or '}' after an object member", 6),
    ("]", "expected a value", 0),
    ("[", "expected a value", 1),
    ("[1", "expected ',' or ']' after an array element", 2),
    ("{", "expected a string as an object key", 1),
    (#"{"a":"#, "expected a value", 5),
    (#"{"a":1"#, "expected ',' or '}' after an object member", 6),
    // Comments and single quotes.
    ("// note\n1", "expected a value", 0),
    ("/* note */ 1", "expected a value", 0),
    ("1 // note", "unexpected content after the value", 2),
    ("[1 /* note */]", "expected ',' or ']' after an array element", 3),
    ("'a'", "expected a value", 0),
    ("['a']", "expected a value", 1),
    // Literals are lowercase and exact.
    ("tru", "expected 'true'", 0),
    ("nul", "expected 'null'", 0),
    ("nulL", "expected 'null'", 0),
    ("[fals]", "expected 'false'", 1),
    ("True", "expected a value", 0),
    ("NULL", "expected a value", 0),
    ("undefined", "expected a value", 0),
    // Numbers.
    ("01", "leading zeros are not allowed", 1),
    ("-01", "leading zeros are not allowed", 2),
    ("00", "leading zeros are not allowed", 1),
    ("[007]", "leading zeros are not allowed", 2),
    ("+1", "expected a value", 0),
    ("-", "expected a digit", 1),
    ("-a", "expected a digit", 1),
    ("--1", "expected a digit", 1),
    ("- 1", "expected a digit", 1),
    (".5", "expected a value", 0),
    ("1.", "expected a digit after '.'", 2),
    ("1.e5", "expected a digit after '.'", 2),
    ("1..5", "expected a digit after '.'", 2),
    ("1e", "expected a digit in the exponent", 2),
    ("1e+", "expected a digit in the exponent", 3),
    ("1E-x", "expected a digit in the exponent", 3),
    ("1e5.5", "unexpected content after the value", 3),
    ("0x10", "unexpected content after the value", 1),
    ("1_000", "unexpected content after the value", 1),
    ("NaN", "expected a value", 0),
    ("Infinity", "expected a value", 0),
    ("-Infinity", "expected a digit", 1),
    ("1e400", "number out of range", 0),
    ("[-1e400]", "number out of range", 1),
    // Strings.
    (#""abc"#, "unterminated string", 4),
    (#""ab\"#, "unterminated string", 4),
    (#""ab\""#, "unterminated string", 5),
    ("\"a\tb\"", "unescaped control character in a string", 2),
    ("\"a\nb\"", "unescaped control character in a string", 2),
    ("\"\u{0}\"", "unescaped control character in a string", 1),
    ("\"\u{1F}\"", "unescaped control character in a string", 1),
    ("\"\\n\u{1}\"", "unescaped control character in a string", 3),
    (#""\x""#, "invalid escape sequence", 1),
    (#""ab\'""#, "invalid escape sequence", 3),
    (#""\U0041""#, "invalid escape sequence", 1),
    (#""\u12""#, "expected four hexadecimal digits after \\u", 1),
    (#""\u12G4""#, "expected four hexadecimal digits after \\u", 1),
    (#""\u""#, "expected four hexadecimal digits after \\u", 1),
    (#""\uD83D""#, "unpaired surrogate in a \\u escape", 1),
    (#""\uD83Dx""#, "unpaired surrogate in a \\u escape", 1),
    (#""\uD83D\n""#, "unpaired surrogate in a \\u escape", 1),
    (#""\uD83D\u0041""#, "unpaired surrogate in a \\u escape", 1),
    (#""\uD83D\uD83D""#, "unpaired surrogate in a \\u escape", 1),
    (#""\uDE00""#, "unpaired surrogate in a \\u escape", 1),
    (#""a\uDE00\uD83D""#, "unpaired surrogate in a \\u escape", 2),
    (#""\uD83D\uDE0""#, "expected four hexadecimal digits after \\u", 7),
    // Offsets count UTF-8 bytes, not characters.
    ("[\"é\" 1]", "expected ',' or ']' after an array element", 6),
    ("[\"😀\",]", "expected a value", 8),
  ])
  func invalid(text: String, message: String, offset: Int) {
    #expect(parseError(text) == JSONError(message, offset: offset), "\(text.debugDescription)")
  }

  @Test func errorDescription() {
    let error = parseError(#"{"abc" 1}"#)
    #expect(error?.description == "invalid JSON at byte 7: expected ':' after an object key")
    #expect(
      JSONError("expected a value", offset: 0).description
        == "invalid JSON at byte 0: expected a value")
  }

  // MARK: Depth

  @Test func nestingUpToTheLimitParses() throws {
    let arrays = String(repeating: "[", count: 32) + String(repeating: "]", count: 32)
    var value = try JSONValue.parse(arrays)
    for _ in 0..<31 {
      guard case .array(let elements) = value, elements.count == 1 else {
        Issue.record("expected one element")
        return
      }
      value = elements[0]
    }
    #expect(value == .array([]))
    let objects = String(repeating: #"{"a":"#, count: 31) + "{}" + String(repeating: "}", count: 31)
    #expect(try JSONValue.parse(objects).serialized == objects)
  }

  @Test func nestingBeyondTheLimitFails() {
    let arrays = String(repeating: "[", count: 33) + String(repeating: "]", count: 33)
    #expect(parseError(arrays) == JSONError("nesting deeper than 32 levels", offset: 32))
    let objects = String(repeating: #"{"a":"#, count: 33) + "1" + String(repeating: "}", count: 33)
    #expect(parseError(objects) == JSONError("nesting deeper than 32 levels", offset: 32 * 5))
    let mixed = String(repeating: #"[{"a":"#, count: 17) + "1" + String(repeating: "}]", count: 17)
    #expect(parseError(mixed) == JSONError("nesting deeper than 32 levels", offset: 16 * 6))
  }

  @Test func customDepthLimits() throws {
    #expect(try JSONValue.parse("1", maximumDepth: 0) == .number(1))
    #expect(
      parseError("[]", maximumDepth: 0) == JSONError("nesting deeper than 0 levels", offset: 0))
    #expect(try JSONValue.parse("[[]]", maximumDepth: 2) == .array([.array([])]))
    #expect(
      parseError("[[[]]]", maximumDepth: 2) == JSONError("nesting deeper than 2 levels", offset: 2))
  }

  @Test func hugeNestingNeverOverflowsTheStack() {
    let open = String(repeating: "[", count: 200_000)
    #expect(parseError(open) == JSONError("nesting deeper than 32 levels", offset: 32))
    // The parser recurses once per level: the limit, not the input, bounds its stack.
    #expect(
      parseError(open, maximumDepth: 1_000)
        == JSONError("nesting deeper than 1000 levels", offset: 1_000))
    let objects = String(repeating: #"{"a":"#, count: 100_000)
    #expect(
      parseError(objects, maximumDepth: 1_000)
        == JSONError("nesting deeper than 1000 levels", offset: 5_000))
  }

  // MARK: Strings and escapes

  @Test func escapesParse() throws {
    #expect(try JSONValue.parse(#""\"\\\/\b\f\n\r\t""#) == .string("\"\\/\u{8}\u{C}\n\r\t"))
    #expect(try JSONValue.parse(#""\u0041\u00e9\u00E9\u4e2d""#) == .string("Aéé中"))
    #expect(try JSONValue.parse(#""\u0000""#) == .string("\u{0}"))
    #expect(try JSONValue.parse(#""\u001F\u007f""#) == .string("\u{1F}\u{7F}"))
    #expect(try JSONValue.parse(#""\uFFFF""#) == .string("\u{FFFF}"))
    #expect(try JSONValue.parse(#""a\nb" "#) == .string("a\nb"))
    #expect(
      try JSONValue.parse(#""before \"quoted\" after""#) == .string(#"before "quoted" after"#))
  }

  @Test func surrogatePairs() throws {
    #expect(try JSONValue.parse(#""\uD83D\uDE00""#) == .string("😀"))
    #expect(try JSONValue.parse(#""\ud83d\ude00""#) == .string("😀"))
    #expect(try JSONValue.parse(#""\uD800\uDC00""#) == .string("\u{10000}"))
    #expect(try JSONValue.parse(#""\uDBFF\uDFFF""#) == .string("\u{10FFFF}"))
    #expect(try JSONValue.parse(#""x\uD83C\uDDEB\uD83C\uDDF7y""#) == .string("x🇫🇷y"))
  }

  @Test func unicodeText() throws {
    let raw = "中文 日本語 한국어 😀👍🏽 é e\u{301}"
    let value = try JSONValue.parse("\"\(raw)\"")
    #expect(value.stringValue?.unicodeScalars.elementsEqual(raw.unicodeScalars) == true)
    #expect(value.serialized == "\"\(raw)\"", "non-ASCII is written as is")
    let keyed = try JSONValue.parse(#"{"名前": "😀", "\u540d": 1}"#)
    #expect(keyed["名前"] == .string("😀"))
    #expect(keyed["名"] == .number(1))
  }

  @Test func escapesSerialize() {
    let value = JSONValue.string("\"\\/\u{8}\u{C}\n\r\t\u{0}\u{1}\u{1F}\u{7F} é😀")
    #expect(value.serialized == #""\"\\/\b\f\n\r\t\u0000\u0001\u001f"# + "\u{7F} é😀\"")
    #expect(JSONValue.string("").serialized == #""""#)
    #expect(JSONValue.object(["a\"b\n": .null]).serialized == #"{"a\"b\n":null}"#)
  }

  // MARK: Serialization

  @Test func scalarsSerialize() {
    #expect(JSONValue.null.serialized == "null")
    #expect(JSONValue.bool(true).serialized == "true")
    #expect(JSONValue.bool(false).serialized == "false")
  }

  @Test(arguments: [
    (0.0, "0"), (-0.0, "0"), (1, "1"), (-42, "-42"), (1.5, "1.5"), (0.1, "0.1"), (-0.25, "-0.25"),
    (1e15, "1000000000000000"), (9_007_199_254_740_991, "9007199254740991"),
    (-9_007_199_254_740_991, "-9007199254740991"), (9_007_199_254_740_992, "9007199254740992.0"),
    (1e20, "1e+20"), (1e-7, "1e-07"), (123_456_789.125, "123456789.125"),
    (.leastNonzeroMagnitude, "5e-324"), (.greatestFiniteMagnitude, "1.7976931348623157e+308"),
    (.infinity, "null"), (-.infinity, "null"), (.nan, "null"),
  ])
  func numbersSerialize(number: Double, expected: String) throws {
    let text = JSONValue.number(number).serialized
    #expect(text == expected)
    if number.isFinite {
      #expect(try JSONValue.parse(text) == .number(number), "written numbers parse back exactly")
    }
  }

  @Test func containersSerializeCompactlyWithSortedKeys() throws {
    let value = JSONValue.object([
      "b": .number(1),
      "a": .array([.bool(true), .null, .string("x")]),
      "c": .object(["z": .string("last"), "y": .bool(false), "Y": .array([])]),
      "": .object([:]),
    ])
    let expected = #"{"":{},"a":[true,null,"x"],"b":1,"c":{"Y":[],"y":false,"z":"last"}}"#
    #expect(value.serialized == expected)
    let reordered = try JSONValue.parse(
      #"{ "c": {"y": false, "z": "last", "Y": []}, "b": 1, "": {}, "a": [true, null, "x"] }"#)
    #expect(reordered.serialized == expected, "stable output whatever the input order")
  }

  // MARK: Round trips

  @Test func sampleDocumentRoundTrips() throws {
    let value = try JSONValue.parse(sampleDocument)
    #expect(value["title"] == .string("Build finished — \"wl-toast\""))
    #expect(value["ratio"] == .number(-0.025))
    #expect(value["big"] == .number(1.2345678901234567e19))
    #expect(value["text"] == .string("tab\there\nnew line / \\ \u{8}\u{C}\r"))
    #expect(value["unicode"] == .string("中文 中 😀 😀 é"))
    #expect(try JSONValue.parse(value.serialized) == value)
    #expect(try JSONValue.parse(value.serialized).serialized == value.serialized)
  }

  @Test func randomValuesRoundTrip() throws {
    var generator = SeededGenerator(state: 0x7057)
    for _ in 0..<500 {
      let value = randomValue(&generator, depth: 0)
      let text = value.serialized
      #expect(try JSONValue.parse(text) == value, "\(text)")
    }
  }

  @Test func bigInput() throws {
    let numbers = (0..<10_000).map { Double($0) * 1.5 - 1234 }
    let text = "[" + numbers.map { JSONValue.number($0).serialized }.joined(separator: ", ") + "]"
    let value = try JSONValue.parse(text)
    #expect(value == .array(numbers.map { .number($0) }))
    #expect(try JSONValue.parse(value.serialized) == value)

    // Over 64 KiB of objects with strings and escapes.
    var document = "["
    for item in 0..<1_200 {
      if item > 0 { document += "," }
      document += #"{"id":\#(item),"name":"toast \#(item) \"quoted\" \u00e9","ok":true}"#
    }
    document += "]"
    #expect(document.utf8.count > 65_536)
    guard case .array(let items) = try JSONValue.parse(document) else {
      Issue.record("expected an array")
      return
    }
    #expect(items.count == 1_200)
    #expect(items[1_199]["name"] == .string("toast 1199 \"quoted\" é"))
  }

  // MARK: Accessors

  @Test func subscriptAndAccessors() throws {
    let value = try JSONValue.parse(#"{"s": "text", "n": 2.5, "b": true, "z": null, "a": [1]}"#)
    #expect(value["s"]?.stringValue == "text")
    #expect(value["n"]?.doubleValue == 2.5)
    #expect(value["b"]?.boolValue == true)
    #expect(value["z"]?.isNull == true)
    #expect(value["z"] == .null, "a null member is present, not nil")
    #expect(value["missing"] == nil)
    #expect(value["a"]?["x"] == nil, "subscript of an array is nil")
    #expect(JSONValue.string("s")["s"] == nil)
    #expect(JSONValue.null["a"] == nil)

    let all: [JSONValue] = [
      .null, .bool(false), .number(0), .string(""), .array([]), .object([:]),
    ]
    #expect(all.map(\.stringValue) == [nil, nil, nil, "", nil, nil])
    #expect(all.map(\.doubleValue) == [nil, nil, 0, nil, nil, nil])
    #expect(all.map(\.boolValue) == [nil, false, nil, nil, nil, nil])
    #expect(all.map(\.isNull) == [true, false, false, false, false, false])
  }

  // MARK: Robustness

  @Test func everyTruncationFails() {
    let bytes = Array(sampleDocument.utf8)
    for length in 0..<bytes.count {
      let text = String(decoding: bytes[0..<length], as: UTF8.self)
      guard let error = parseError(text) else {
        Issue.record("prefix of \(length) bytes parsed")
        continue
      }
      #expect(error.offset >= 0 && error.offset <= text.utf8.count, "offset in range")
    }
  }

  @Test func randomMutationsParseOrThrow() throws {
    var generator = SeededGenerator(state: 2026)
    let original = Array(sampleDocument.utf8)
    let interesting = Array(#"{}[]",:\u0123456789eE+-.tfn "#.utf8) + [0x00, 0x1F, 0x7F, 0xC3, 0xF0]
    var parsed = 0
    for _ in 0..<5_000 {
      var bytes = original
      for _ in 0..<Int.random(in: 1...3, using: &generator) {
        let position = Int.random(in: 0..<bytes.count, using: &generator)
        switch Int.random(in: 0..<4, using: &generator) {
        case 0: bytes[position] ^= UInt8(1) << UInt8.random(in: 0..<8, using: &generator)
        case 1: bytes[position] = interesting.randomElement(using: &generator)!
        case 2: bytes.remove(at: position)
        default: bytes.insert(interesting.randomElement(using: &generator)!, at: position)
        }
        if bytes.isEmpty { bytes = [0x20] }
      }
      let text = String(decoding: bytes, as: UTF8.self)
      do {
        let value = try JSONValue.parse(text)
        parsed += 1
        #expect(try JSONValue.parse(value.serialized) == value, "\(text)")
      } catch {
        #expect(error.offset >= 0 && error.offset <= text.utf8.count, "\(text)")
      }
    }
    #expect(parsed > 0, "some mutations (inside strings, digits) stay valid")
  }
}
