/// How many elements an SVG document draws, counted before librsvg draws it:
/// each element once for each time it is drawn, so an element that `<use>`
/// (or a `url(#id)` of a fill, a mask, a marker, a filter) reaches through
/// other references counts each time. Ten nested levels of ten `<use>`
/// elements are a few hundred bytes that draw 10¹⁰ elements: librsvg works
/// on them for seconds, minutes at last, on the owner's only thread.
///
/// A tag scan, not an XML parser: it reads start and end tags, their `id`,
/// any `href` (whatever its namespace prefix; a link's `<a href>` is no
/// reference) and any `url(#…)` in their values, character references
/// decoded; a `url(#…)` in text (a `<style>` sheet, CDATA) counts as if every
/// element used it; an internal entity whose value holds markup makes the
/// document too much (its expansion is not followed). Comments, processing
/// instructions and other declarations are skipped. Pure.
package enum SVGWeight {
  /// The most elements an SVG icon may draw: past that it is refused. About
  /// a quarter of a second of librsvg's work here, and tens of times what an
  /// icon theme's most detailed icon draws.
  package static let limit = 50_000

  /// The elements `data` draws (saturating at `limit + 1`), or nil when
  /// references go round in a circle (librsvg refuses those).
  package static func drawnElements(in data: [UInt8], limit: Int = limit) -> Int? {
    let tree = scan(data)
    let cap = limit + 1
    if tree.hasMarkupEntity { return cap }
    guard !tree.nodes.isEmpty else { return 0 }
    // Depth-first over the tree and the references, with an explicit stack
    // (nesting may be deep): each node's weight is 1 and its successors'.
    let successors = tree.nodes.indices.map { tree.successors(of: $0) }
    var weight = [Int](repeating: -1, count: tree.nodes.count)
    var onPath = [Bool](repeating: false, count: tree.nodes.count)
    var stack: [(node: Int, next: Int)] = []
    var total = 0
    for root in tree.nodes.indices where tree.nodes[root].parent == nil {
      stack.append((root, 0))
      onPath[root] = true
      while let top = stack.last {
        if top.next < successors[top.node].count {
          stack[stack.count - 1].next += 1
          let successor = successors[top.node][top.next]
          if onPath[successor] { return nil }
          if weight[successor] < 0 {
            onPath[successor] = true
            stack.append((successor, 0))
          }
          continue
        }
        var sum = 1
        for successor in successors[top.node] { sum = min(cap, sum + weight[successor]) }
        weight[top.node] = sum
        onPath[top.node] = false
        stack.removeLast()
      }
      total = min(cap, total + weight[root])
    }
    // A sheet's url(#…) may apply to any element: each counts it.
    for reference in tree.textReferences {
      guard let target = tree.ids[reference] else { continue }
      let each = max(weight[target], 1)
      let times = tree.nodes.count
      total = times > (cap - total) / each ? cap : min(cap, total + times * each)
    }
    return total
  }

  /// The elements of a document in order, with their parents, and the
  /// references each makes.
  struct Tree {
    struct Node {
      var parent: Int?
      var children: [Int] = []
      var references: [String] = []
    }
    var nodes: [Node] = []
    var ids: [String: Int] = [:]
    /// The ids a `url(#…)` in text names (a style sheet's).
    var textReferences: [String] = []
    /// An internal entity's value holds markup (elements it would add).
    var hasMarkupEntity = false

    /// A node's children, then the elements its references name.
    func successors(of node: Int) -> [Int] {
      nodes[node].children + nodes[node].references.compactMap { ids[$0] }
    }
  }

  /// Reads the tags of `data` into a ``Tree``.
  static func scan(_ data: [UInt8]) -> Tree {
    var tree = Tree()
    var open: [Int] = []
    var index = 0
    let count = data.count
    func skip(past terminator: [UInt8]) {
      while index < count {
        if data[index] == terminator[0], index + terminator.count <= count,
          data[index..<index + terminator.count].elementsEqual(terminator)
        {
          index += terminator.count
          return
        }
        index += 1
      }
    }
    while index < count {
      guard data[index] == UInt8(ascii: "<") else {
        // Text up to the next tag: a style sheet's references count.
        let start = index
        while index < count, data[index] != UInt8(ascii: "<") { index += 1 }
        tree.textReferences += urlReferences(in: decoded(data[start..<index])[...])
        continue
      }
      index += 1
      guard index < count else { break }
      switch data[index] {
      case UInt8(ascii: "!"):
        if data[index...].starts(with: Array("!--".utf8)) {
          skip(past: Array("-->".utf8))
        } else if data[index...].starts(with: Array("![CDATA[".utf8)) {
          let start = index
          skip(past: Array("]]>".utf8))
          tree.textReferences += urlReferences(in: data[start..<index])
        } else if data[index...].starts(with: Array("!ENTITY".utf8)) {
          let start = index
          skipDeclaration(data, from: &index)
          if holdsMarkup(data[start..<index].dropFirst(7)) { tree.hasMarkupEntity = true }
        } else if data[index...].starts(with: Array("!DOCTYPE".utf8)) {
          // Up to its internal subset, whose declarations are read one by one.
          while index < count, data[index] != UInt8(ascii: "["), data[index] != UInt8(ascii: ">") {
            index += 1
          }
          if index < count { index += 1 }
        } else {
          skipDeclaration(data, from: &index)
        }
      case UInt8(ascii: "?"):
        skip(past: Array("?>".utf8))
      case UInt8(ascii: "/"):
        skip(past: [UInt8(ascii: ">")])
        _ = open.popLast()
      default:
        let (tag, closed) = readTag(data, from: &index)
        let node = tree.nodes.count
        tree.nodes.append(Tree.Node(parent: open.last, references: tag.references))
        if let parent = open.last { tree.nodes[parent].children.append(node) }
        if let id = tag.id, tree.ids[id] == nil { tree.ids[id] = node }
        if !closed { open.append(node) }
      }
    }
    return tree
  }

  /// Moves `index` past the `>` that ends a declaration, quoted text skipped.
  private static func skipDeclaration(_ data: [UInt8], from index: inout Int) {
    var quote: UInt8?
    while index < data.count {
      let byte = data[index]
      index += 1
      if let open = quote {
        if byte == open { quote = nil }
      } else if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
        quote = byte
      } else if byte == UInt8(ascii: ">") {
        return
      }
    }
  }

  /// Whether an entity declaration's text holds markup: `<`, also written
  /// as a character reference (expanded as the entity is declared).
  private static func holdsMarkup(_ declaration: ArraySlice<UInt8>) -> Bool {
    decoded(declaration).contains(UInt8(ascii: "<"))
  }

  /// `text` with its character references (`&#35;`, `&#x23;`) and the
  /// predefined entities (`&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;`)
  /// replaced, as XML gives attribute values and text to librsvg. A
  /// reference that is not one stays as it is.
  static func decoded(_ text: ArraySlice<UInt8>) -> [UInt8] {
    guard text.contains(UInt8(ascii: "&")) else { return Array(text) }
    var result: [UInt8] = []
    result.reserveCapacity(text.count)
    var index = text.startIndex
    let named: [(String, UInt8)] = [
      ("amp", 0x26), ("lt", 0x3C), ("gt", 0x3E), ("quot", 0x22), ("apos", 0x27),
    ]
    while index < text.endIndex {
      guard text[index] == UInt8(ascii: "&"),
        let end = text[index...].prefix(12).firstIndex(of: UInt8(ascii: ";"))
      else {
        result.append(text[index])
        index += 1
        continue
      }
      let name = text[(index + 1)..<end]
      var scalar: UInt32?
      if name.first == UInt8(ascii: "#") {
        let digits = name.dropFirst()
        if digits.first == UInt8(ascii: "x") || digits.first == UInt8(ascii: "X") {
          scalar = UInt32(String(decoding: digits.dropFirst(), as: UTF8.self), radix: 16)
        } else {
          scalar = UInt32(String(decoding: digits, as: UTF8.self), radix: 10)
        }
      } else if let match = named.first(where: { name.elementsEqual($0.0.utf8) }) {
        scalar = UInt32(match.1)
      }
      guard let value = scalar, let character = Unicode.Scalar(value) else {
        result.append(text[index])
        index += 1
        continue
      }
      result += Array(String(Character(character)).utf8)
      index = end + 1
    }
    return result
  }

  /// What a start tag says: its `id`, and the ids its attributes refer to.
  struct Tag {
    var id: String?
    var references: [String] = []
  }

  /// Reads a start tag from its name (at `index`) to its `>`: what it says,
  /// and whether it closes itself (`/>`).
  private static func readTag(_ data: [UInt8], from index: inout Int) -> (Tag, closed: Bool) {
    var tag = Tag()
    let count = data.count
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    // The name: a link's href (`<a>`, any prefix) is no reference.
    let elementStart = index
    while index < count, !isSpace(data[index]), data[index] != UInt8(ascii: ">"),
      data[index] != UInt8(ascii: "/")
    {
      index += 1
    }
    let element = data[elementStart..<index]
    let isLink =
      element.elementsEqual("a".utf8) || element.reversed().starts(with: ":a".utf8.reversed())
    while index < count {
      let byte = data[index]
      if byte == UInt8(ascii: ">") {
        index += 1
        return (tag, false)
      }
      if byte == UInt8(ascii: "/"), index + 1 < count, data[index + 1] == UInt8(ascii: ">") {
        index += 2
        return (tag, true)
      }
      if isSpace(byte) || byte == UInt8(ascii: "/") {
        index += 1
        continue
      }
      // An attribute: NAME, then = and a quoted value (or none).
      let nameStart = index
      while index < count, !isSpace(data[index]), data[index] != UInt8(ascii: "="),
        data[index] != UInt8(ascii: ">")
      {
        index += 1
      }
      let name = data[nameStart..<index]
      while index < count, isSpace(data[index]) { index += 1 }
      guard index < count, data[index] == UInt8(ascii: "=") else { continue }
      index += 1
      while index < count, isSpace(data[index]) { index += 1 }
      guard index < count, data[index] == UInt8(ascii: "\"") || data[index] == UInt8(ascii: "'")
      else { continue }
      let quote = data[index]
      index += 1
      let valueStart = index
      while index < count, data[index] != quote { index += 1 }
      let value = decoded(data[valueStart..<min(index, count)])
      index += 1
      if name.elementsEqual("id".utf8) {
        tag.id = String(decoding: value, as: UTF8.self)
      } else if name.elementsEqual("href".utf8) || name.reversed().starts(with: "ferh:".utf8) {
        if !isLink, value.first == UInt8(ascii: "#") {
          tag.references.append(String(decoding: value.dropFirst(), as: UTF8.self))
        }
      } else {
        tag.references += urlReferences(in: value[...])
      }
    }
    return (tag, false)
  }

  /// The ids of every `url(#id)` in an attribute's value or a style sheet,
  /// as CSS reads them: `URL(` in any case, spaces and quotes around the id.
  private static func urlReferences(in value: ArraySlice<UInt8>) -> [String] {
    var references: [String] = []
    var index = value.startIndex
    func isSpace(_ byte: UInt8) -> Bool {
      byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
    while index + 4 <= value.endIndex {
      let word = value[index..<index + 4].map { $0 | 0x20 }
      guard word.elementsEqual("url(".utf8) else {
        index += 1
        continue
      }
      index += 4
      while index < value.endIndex,
        isSpace(value[index]) || value[index] == UInt8(ascii: "\"")
          || value[index] == UInt8(ascii: "'")
      {
        index += 1
      }
      guard index < value.endIndex, value[index] == UInt8(ascii: "#") else { continue }
      index += 1
      let start = index
      while index < value.endIndex, value[index] != UInt8(ascii: ")"), !isSpace(value[index]),
        value[index] != UInt8(ascii: "\""), value[index] != UInt8(ascii: "'")
      {
        index += 1
      }
      references.append(String(decoding: value[start..<index], as: UTF8.self))
    }
    return references
  }
}
