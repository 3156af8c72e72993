/// How many elements an SVG document draws, counted before librsvg draws it:
/// each element once for each time it is drawn, so an element that `<use>`
/// (or a `url(#id)` of a fill, a mask, a marker, a filter) reaches through
/// other references counts each time. Ten nested levels of ten `<use>`
/// elements are a few hundred bytes that draw 10¹⁰ elements: librsvg works
/// on them for seconds, minutes at last, on the owner's only thread.
///
/// A tag scan, not an XML parser: it reads start and end tags, their `id`,
/// `href` and `xlink:href` attributes and any `url(#…)` in their values, and
/// skips comments, CDATA, processing instructions and declarations. What it
/// misreads librsvg refuses or draws small. Pure.
package enum SVGWeight {
  /// The most elements an SVG icon may draw: past that it is refused. About
  /// a quarter of a second of librsvg's work here, and tens of times what an
  /// icon theme's most detailed icon draws.
  package static let limit = 50_000

  /// The elements `data` draws (saturating at `limit + 1`), or nil when
  /// references go round in a circle (librsvg refuses those).
  package static func drawnElements(in data: [UInt8], limit: Int = limit) -> Int? {
    let tree = scan(data)
    guard !tree.nodes.isEmpty else { return 0 }
    let cap = limit + 1
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
        index += 1
        continue
      }
      index += 1
      guard index < count else { break }
      switch data[index] {
      case UInt8(ascii: "!"):
        if data[index...].starts(with: Array("!--".utf8)) {
          skip(past: Array("-->".utf8))
        } else if data[index...].starts(with: Array("![CDATA[".utf8)) {
          skip(past: Array("]]>".utf8))
        } else {
          skip(past: [UInt8(ascii: ">")])
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
    // The name.
    while index < count, !isSpace(data[index]), data[index] != UInt8(ascii: ">"),
      data[index] != UInt8(ascii: "/")
    {
      index += 1
    }
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
      let value = data[valueStart..<min(index, count)]
      index += 1
      if name.elementsEqual("id".utf8) {
        tag.id = String(decoding: value, as: UTF8.self)
      } else if name.elementsEqual("href".utf8) || name.elementsEqual("xlink:href".utf8) {
        if value.first == UInt8(ascii: "#") {
          tag.references.append(String(decoding: value.dropFirst(), as: UTF8.self))
        }
      } else {
        tag.references += urlReferences(in: value)
      }
    }
    return (tag, false)
  }

  /// The ids of every `url(#id)` in an attribute's value (a fill, a style).
  private static func urlReferences(in value: ArraySlice<UInt8>) -> [String] {
    var references: [String] = []
    let opening = Array("url(#".utf8)
    var index = value.startIndex
    while index < value.endIndex {
      guard value[index...].starts(with: opening) else {
        index += 1
        continue
      }
      index += opening.count
      let start = index
      while index < value.endIndex, value[index] != UInt8(ascii: ")") { index += 1 }
      references.append(String(decoding: value[start..<index], as: UTF8.self))
    }
    return references
  }
}
