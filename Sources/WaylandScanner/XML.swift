/// A parsed XML element: its name, attributes, child elements and text.
///
/// Protocol files use a small, regular part of XML, so the scanner carries its
/// own parser for it instead of depending on a full XML library.
package struct XMLElement: Equatable, Sendable {
  /// The element's tag name.
  package var name: String
  /// The element's attributes, by name.
  package var attributes: [String: String]
  /// Child elements in document order.
  package var children: [XMLElement]
  /// The concatenated character data directly inside this element.
  package var text: String
  /// The 1-based line on which the element starts.
  package var line: Int

  /// The first child element with the given name.
  package func child(_ name: String) -> XMLElement? {
    children.first { $0.name == name }
  }

  /// All child elements with the given name, in document order.
  package func children(_ name: String) -> [XMLElement] {
    children.filter { $0.name == name }
  }
}

/// A failure to read a protocol file, with the line it happened on.
package struct ScannerError: Error, Equatable, CustomStringConvertible {
  /// What went wrong, in words a user can act on.
  package var message: String
  /// The 1-based line in the input, when known.
  package var line: Int?

  /// Creates an error with a message and an optional line.
  package init(_ message: String, line: Int? = nil) {
    self.message = message
    self.line = line
  }

  /// The message, after its line number when there is one.
  package var description: String {
    if let line { return "line \(line): \(message)" }
    return message
  }
}

/// Parses XML text into its root element.
///
/// Supports elements, attributes, character data, comments, processing
/// instructions, a DOCTYPE line, CDATA sections and the predefined and numeric
/// entities.
package func parseXML(_ text: String) throws(ScannerError) -> XMLElement {
  var parser = XMLParser(bytes: normalizingLineEnds(Array(text.utf8)))
  return try parser.parseDocument()
}

/// End-of-line handling (XML 1.0, 2.11): CR LF and a lone CR become LF.
private func normalizingLineEnds(_ bytes: [UInt8]) -> [UInt8] {
  guard bytes.contains(0x0D) else { return bytes }
  var out: [UInt8] = []
  out.reserveCapacity(bytes.count)
  for (index, byte) in bytes.enumerated() {
    if byte == 0x0D {
      if index + 1 < bytes.count, bytes[index + 1] == 0x0A { continue }
      out.append(0x0A)
    } else {
      out.append(byte)
    }
  }
  return out
}

private struct XMLParser {
  let bytes: [UInt8]
  var index = 0
  var line = 1
  /// How many elements are open: the parser recurses once for each, so
  /// ``maximumDepth`` bounds its stack.
  var depth = 0
  /// Far deeper than any protocol file nests (five levels).
  static let maximumDepth = 256

  init(bytes: [UInt8]) { self.bytes = bytes }

  var atEnd: Bool { index >= bytes.count }

  func peek(_ offset: Int = 0) -> UInt8? {
    index + offset < bytes.count ? bytes[index + offset] : nil
  }

  func starts(with literal: String) -> Bool {
    var i = index
    for byte in literal.utf8 {
      guard i < bytes.count, bytes[i] == byte else { return false }
      i += 1
    }
    return true
  }

  mutating func advance(_ count: Int = 1) {
    for _ in 0..<count where index < bytes.count {
      if bytes[index] == UInt8(ascii: "\n") { line += 1 }
      index += 1
    }
  }

  mutating func skip(past literal: String, what: String) throws(ScannerError) {
    let start = line
    while !atEnd {
      if starts(with: literal) {
        advance(literal.utf8.count)
        return
      }
      advance()
    }
    throw ScannerError("unterminated \(what)", line: start)
  }

  mutating func skipSpace() {
    while let byte = peek(), isSpace(byte) { advance() }
  }

  mutating func skipMisc() throws(ScannerError) {
    while true {
      skipSpace()
      if starts(with: "<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "comment")
      } else if starts(with: "<!DOCTYPE") {
        try skip(past: ">", what: "DOCTYPE")
      } else {
        return
      }
    }
  }

  mutating func parseDocument() throws(ScannerError) -> XMLElement {
    try skipMisc()
    guard peek() == UInt8(ascii: "<") else {
      throw ScannerError("expected an element", line: line)
    }
    let root = try parseElement()
    try skipMisc()
    guard atEnd else { throw ScannerError("content after the root element", line: line) }
    return root
  }

  mutating func parseName() throws(ScannerError) -> String {
    let start = index
    while let byte = peek(), isNameByte(byte) { advance() }
    guard index > start else { throw ScannerError("expected a name", line: line) }
    return String(decoding: bytes[start..<index], as: UTF8.self)
  }

  mutating func parseElement() throws(ScannerError) -> XMLElement {
    let startLine = line
    guard depth < Self.maximumDepth else {
      throw ScannerError("elements nested deeper than \(Self.maximumDepth) levels", line: line)
    }
    depth += 1
    defer { depth -= 1 }
    advance()  // <
    let name = try parseName()
    var element = XMLElement(name: name, attributes: [:], children: [], text: "", line: startLine)
    while true {
      skipSpace()
      if starts(with: "/>") {
        advance(2)
        return element
      }
      if peek() == UInt8(ascii: ">") {
        advance()
        break
      }
      let attribute = try parseName()
      skipSpace()
      guard peek() == UInt8(ascii: "=") else {
        throw ScannerError("expected '=' after attribute \(attribute)", line: line)
      }
      advance()
      skipSpace()
      guard let quote = peek(), quote == UInt8(ascii: "\"") || quote == UInt8(ascii: "'") else {
        throw ScannerError("expected a quoted value for attribute \(attribute)", line: line)
      }
      advance()
      let start = index
      while let byte = peek(), byte != quote { advance() }
      guard !atEnd else { throw ScannerError("unterminated attribute value", line: line) }
      // Attribute-value normalization (XML 1.0, 3.3.3): a literal tab, line feed or
      // carriage return becomes a space; one written as a character reference stays.
      let raw = bytes[start..<index].map { isSpace($0) ? UInt8(ascii: " ") : $0 }
      advance()
      element.attributes[attribute] = try decodeEntities(raw[...])
    }
    var text: [UInt8] = []
    var decoded = ""
    while true {
      guard !atEnd else { throw ScannerError("element <\(name)> is not closed", line: startLine) }
      if starts(with: "</") {
        advance(2)
        let closing = try parseName()
        guard closing == name else {
          throw ScannerError("</\(closing)> closes <\(name)>", line: line)
        }
        skipSpace()
        guard peek() == UInt8(ascii: ">") else { throw ScannerError("expected '>'", line: line) }
        advance()
        element.text = decoded + (try decodeEntities(text[...]))
        return element
      } else if starts(with: "<!--") {
        try skip(past: "-->", what: "comment")
      } else if starts(with: "<![CDATA[") {
        advance(9)
        let start = index
        try skip(past: "]]>", what: "CDATA section")
        decoded += try decodeEntities(text[...])
        decoded += String(decoding: bytes[start..<(index - 3)], as: UTF8.self)
        text.removeAll()
      } else if starts(with: "<?") {
        try skip(past: "?>", what: "processing instruction")
      } else if peek() == UInt8(ascii: "<") {
        element.children.append(try parseElement())
      } else {
        text.append(bytes[index])
        advance()
      }
    }
  }

  func decodeEntities(_ raw: ArraySlice<UInt8>) throws(ScannerError) -> String {
    guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
    var out = ""
    var i = raw.startIndex
    while i < raw.endIndex {
      let byte = raw[i]
      guard byte == UInt8(ascii: "&") else {
        let start = i
        while i < raw.endIndex, raw[i] != UInt8(ascii: "&") { i += 1 }
        out += String(decoding: raw[start..<i], as: UTF8.self)
        continue
      }
      guard let end = raw[i...].firstIndex(of: UInt8(ascii: ";")) else {
        throw ScannerError("unterminated entity", line: line)
      }
      let entity = String(decoding: raw[(i + 1)..<end], as: UTF8.self)
      var scalar = namedEntities[entity]
      if entity.hasPrefix("#x") || entity.hasPrefix("#X") {
        scalar = UInt32(entity.dropFirst(2), radix: 16).flatMap(Unicode.Scalar.init)
      } else if entity.hasPrefix("#") {
        scalar = UInt32(entity.dropFirst(1)).flatMap(Unicode.Scalar.init)
      }
      guard let scalar else { throw ScannerError("unknown entity &\(entity);", line: line) }
      out.unicodeScalars.append(scalar)
      i = end + 1
    }
    return out
  }
}

/// The entities XML names: `&lt;` and the others.
private let namedEntities: [String: Unicode.Scalar] = [
  "lt": "<", "gt": ">", "amp": "&", "quot": "\"", "apos": "'",
]

private func isSpace(_ byte: UInt8) -> Bool {
  byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
}

private func isNameByte(_ byte: UInt8) -> Bool {
  switch byte {
  case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "-"),
    UInt8(ascii: "."), UInt8(ascii: ":"):
    return true
  default:
    return byte >= 0x80
  }
}
