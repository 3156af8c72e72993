/// One protocol file: a named set of interfaces.
package struct ProtocolSpec: Equatable, Sendable {
  /// The protocol's name attribute, such as `wlr_layer_shell_unstable_v1`.
  package var name: String
  /// The interfaces in file order.
  package var interfaces: [InterfaceSpec]
}

/// One interface with its requests, events and enums.
package struct InterfaceSpec: Equatable, Sendable {
  /// The wire name, such as `zwlr_layer_surface_v1`.
  package var name: String
  /// The highest version the file describes.
  package var version: UInt32
  /// The interface's documentation.
  package var description: Description?
  /// Requests in file order; the index is the opcode.
  package var requests: [MessageSpec]
  /// Events in file order; the index is the opcode.
  package var events: [MessageSpec]
  /// Enums declared by the interface.
  package var enums: [EnumSpec]
}

/// A request or an event.
package struct MessageSpec: Equatable, Sendable {
  /// The wire name, such as `set_size`.
  package var name: String
  /// Whether the message destroys the object (`type="destructor"`).
  package var isDestructor: Bool
  /// The version that introduced the message.
  package var since: UInt32
  /// The message's documentation.
  package var description: Description?
  /// Arguments in wire order.
  package var arguments: [ArgumentSpec]
}

/// The wire type of an argument.
package enum ArgumentKind: String, Equatable, Sendable {
  case int, uint, fixed, string, object
  case newID = "new_id"
  case array, fd
}

/// One argument of a message.
package struct ArgumentSpec: Equatable, Sendable {
  /// The wire name.
  package var name: String
  /// The wire type.
  package var kind: ArgumentKind
  /// The interface of an object or new_id argument, when the file names one.
  package var interface: String?
  /// Whether null is allowed (`allow-null="true"`).
  package var allowNull: Bool
  /// The enum the value belongs to: `name` or `interface.name`.
  package var enumName: String?
  /// The argument's one-line summary.
  package var summary: String?
}

/// An enum or bitfield of an interface.
package struct EnumSpec: Equatable, Sendable {
  /// The enum's name within its interface.
  package var name: String
  /// Whether entries combine as bits.
  package var isBitfield: Bool
  /// The enum's documentation.
  package var description: Description?
  /// The entries in file order.
  package var entries: [EntrySpec]
}

/// One named value of an enum.
package struct EntrySpec: Equatable, Sendable {
  /// The entry's name.
  package var name: String
  /// The entry's value.
  package var value: UInt32
  /// The entry's one-line summary.
  package var summary: String?
  /// The version that introduced the entry.
  package var since: UInt32
}

/// A description element: a summary line and an optional body.
package struct Description: Equatable, Sendable {
  /// The one-line summary.
  package var summary: String
  /// The body text, as written in the file.
  package var body: String
}

extension ProtocolSpec {
  /// Reads a protocol from the text of its XML file.
  package init(xml: String) throws(ScannerError) {
    let root = try parseXML(xml)
    guard root.name == "protocol" else {
      throw ScannerError("the root element is <\(root.name)>, not <protocol>", line: root.line)
    }
    name = try required(root, "name")
    interfaces = try root.children("interface").map { (child) throws(ScannerError) in
      try InterfaceSpec(child)
    }
  }
}

extension InterfaceSpec {
  init(_ element: XMLElement) throws(ScannerError) {
    name = try required(element, "name")
    version = try number(element, "version") ?? 1
    description = Description(element.child("description"))
    requests = try element.children("request").map { (child) throws(ScannerError) in
      try MessageSpec(child)
    }
    events = try element.children("event").map { (child) throws(ScannerError) in
      try MessageSpec(child)
    }
    enums = try element.children("enum").map { (child) throws(ScannerError) in
      try EnumSpec(child)
    }
  }
}

extension MessageSpec {
  init(_ element: XMLElement) throws(ScannerError) {
    name = try required(element, "name")
    isDestructor = element.attributes["type"] == "destructor"
    since = try number(element, "since") ?? 1
    description = Description(element.child("description"))
    arguments = try element.children("arg").map { (child) throws(ScannerError) in
      try ArgumentSpec(child)
    }
  }
}

extension ArgumentSpec {
  init(_ element: XMLElement) throws(ScannerError) {
    name = try required(element, "name")
    let type = try required(element, "type")
    guard let kind = ArgumentKind(rawValue: type) else {
      throw ScannerError("argument \(name) has unknown type \(type)", line: element.line)
    }
    self.kind = kind
    interface = element.attributes["interface"]
    allowNull = element.attributes["allow-null"] == "true"
    enumName = element.attributes["enum"]
    summary = element.attributes["summary"]
  }
}

extension EnumSpec {
  init(_ element: XMLElement) throws(ScannerError) {
    name = try required(element, "name")
    isBitfield = element.attributes["bitfield"] == "true"
    description = Description(element.child("description"))
    var entries: [EntrySpec] = []
    for child in element.children("entry") {
      guard let text = child.attributes["value"] else {
        throw ScannerError("entry without a value in enum \(name)", line: child.line)
      }
      guard let value = entryValue(text) else {
        throw ScannerError("value=\"\(text)\" is not a number", line: child.line)
      }
      entries.append(
        EntrySpec(
          name: try required(child, "name"), value: value, summary: child.attributes["summary"],
          since: try number(child, "since") ?? 1))
    }
    self.entries = entries
  }
}

extension Description {
  init?(_ element: XMLElement?) {
    guard let element else { return nil }
    summary = element.attributes["summary"] ?? ""
    body = element.text
  }
}

private func required(_ element: XMLElement, _ attribute: String) throws(ScannerError) -> String {
  guard let value = element.attributes[attribute], !value.isEmpty else {
    throw ScannerError("<\(element.name)> needs a \(attribute) attribute", line: element.line)
  }
  return value
}

private func number(_ element: XMLElement, _ attribute: String) throws(ScannerError) -> UInt32? {
  guard let text = element.attributes[attribute] else { return nil }
  let value: UInt32?
  if text.hasPrefix("0x") || text.hasPrefix("0X") {
    value = UInt32(text.dropFirst(2), radix: 16)
  } else {
    value = UInt32(text)
  }
  guard let value else {
    throw ScannerError("\(attribute)=\"\(text)\" is not a number", line: element.line)
  }
  return value
}
