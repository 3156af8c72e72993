import Foundation
import Testing
import WaylandScanner

/// The directory of this test target's sources, fixtures and snapshots.
let testDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

/// Wraps interface XML in a `<protocol>` element.
func protocolXML(_ interfaces: String, name: String = "test") -> String {
  """
  <?xml version="1.0" encoding="UTF-8"?>
  <protocol name="\(name)">
  \(interfaces)
  </protocol>
  """
}

/// Parses one protocol written inline.
func parseProtocol(_ interfaces: String) throws -> ProtocolSpec {
  try ProtocolSpec(xml: protocolXML(interfaces))
}

/// The first interface of inline interfaces; an issue when there is none.
func parseInterface(_ interfaces: String) throws -> InterfaceSpec {
  try #require(try parseProtocol(interfaces).interfaces.first)
}

/// Generated text for inline interfaces, optionally together with a core protocol.
struct Generated {
  /// The protocol's class source.
  var source: String
  /// The extension interface tables.
  var tables: String
}

/// Generates the source and tables of inline interfaces, with `core` as the core protocol.
func generate(_ interfaces: String, core: String? = nil) throws -> Generated {
  let spec = try parseProtocol(interfaces)
  var inputs: [Generator.Input] = []
  if let core {
    inputs.append(
      Generator.Input(spec: try ProtocolSpec(xml: protocolXML(core, name: "core")), isCore: true))
  }
  inputs.append(Generator.Input(spec: spec, isCore: false))
  let generator = Generator(inputs: inputs)
  return Generated(source: generator.source(for: spec), tables: generator.tablesSource())
}

/// Generates the bindings of one interface, `t_obj` version 1, whose requests
/// and events are `messages`.
func generate(object messages: String) throws -> Generated {
  try generate("<interface name=\"t_obj\" version=\"1\">\n\(messages)\n</interface>")
}

/// Records an issue for each snippet that `text` does not contain.
func expectContains(
  _ text: String, _ snippets: String..., sourceLocation: SourceLocation = #_sourceLocation
) {
  for snippet in snippets where !text.contains(snippet) {
    Issue.record(
      "the generated text lacks:\n\(snippet)\n--- generated text ---\n\(text)",
      sourceLocation: sourceLocation)
  }
}

/// Records an issue for each snippet that `text` contains.
func expectLacks(
  _ text: String, _ snippets: String..., sourceLocation: SourceLocation = #_sourceLocation
) {
  for snippet in snippets where text.contains(snippet) {
    Issue.record(
      "the generated text unexpectedly has:\n\(snippet)\n--- generated text ---\n\(text)",
      sourceLocation: sourceLocation)
  }
}
