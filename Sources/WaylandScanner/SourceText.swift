/// A growing source text with indentation.
struct Output {
  var text = ""
  var depth = 0

  mutating func line(_ content: String) {
    for part in content.split(separator: "\n", omittingEmptySubsequences: false) {
      if part.isEmpty {
        text += "\n"
      } else {
        text += String(repeating: "  ", count: depth) + part + "\n"
      }
    }
  }

  mutating func indent(_ body: (inout Output) -> Void) {
    depth += 1
    body(&self)
    depth -= 1
  }

  /// Writes a `///` comment from a description, reflowing its body.
  mutating func doc(_ description: Description?, fallback: String) {
    let summary = description.map { sentence($0.summary) } ?? ""
    line("/// " + (summary.isEmpty ? fallback : summary))
    guard let body = description?.body else { return }
    var paragraphs: [[String]] = [[]]
    for raw in body.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline) {
      let trimmed = String(raw).trimmingSpace()
      if trimmed.isEmpty {
        if paragraphs.last?.isEmpty == false { paragraphs.append([]) }
      } else {
        paragraphs[paragraphs.count - 1].append(trimmed)
      }
    }
    for paragraph in paragraphs where !paragraph.isEmpty {
      line("///")
      for text in paragraph { line("/// " + text) }
    }
  }
}

/// The identifiers of one generated function or `case` body.
///
/// Parameters and locals named after protocol arguments are claimed first, so
/// that the code's own temporaries, which come later, never shadow them: an
/// argument named `arguments` keeps its name, and the buffer becomes `arguments2`.
struct Scope {
  private var taken: Set<String>

  /// A scope in which `reserved` names (members the body calls, `self`) are never claimed.
  init(reserved: Set<String>) {
    taken = reserved.union(["self", "Self", "super"])
  }

  /// Claims `name` (a bare member name), or `name2`, `name3`... when it is taken, and
  /// returns it as it is written in an expression (in backticks when a keyword).
  mutating func claim(_ name: String) -> String {
    var candidate = name
    var number = 2
    while taken.contains(candidate) {
      candidate = "\(name)\(number)"
      number += 1
    }
    taken.insert(candidate)
    return Naming.escaped(candidate)
  }
}

/// The characters a Swift string literal writes with a backslash, and how.
private let literalEscapes: [Unicode.Scalar: String] = [
  "\"": #"\""#, "\\": #"\\"#, "\n": #"\n"#, "\r": #"\r"#, "\t": #"\t"#,
]

/// A Swift string literal of `text`.
func literal(_ text: String) -> String {
  var out = "\""
  for scalar in text.unicodeScalars {
    if let escape = literalEscapes[scalar] {
      out += escape
    } else if scalar.value < 0x20 || scalar.value == 0x7F {
      out += "\\u{\(String(scalar.value, radix: 16))}"
    } else {
      out.unicodeScalars.append(scalar)
    }
  }
  return out + "\""
}

/// A one-line sentence from a summary: runs of white space, line breaks included,
/// become one space, so that the text fits on a single comment line.
func sentence(_ text: String) -> String {
  let trimmed = text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
  guard let first = trimmed.first else { return "" }
  let capitalized = first.uppercased() + trimmed.dropFirst()
  return capitalized.hasSuffix(".") ? capitalized : capitalized + "."
}

extension String {
  func trimmingSpace() -> String {
    var slice = Substring(self)
    while let first = slice.first, first.isWhitespace { slice = slice.dropFirst() }
    while let last = slice.last, last.isWhitespace { slice = slice.dropLast() }
    return String(slice)
  }
}
