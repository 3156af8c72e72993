import WaylandScanner

/// A protocol file: read, and when it is a protocol, generated as an extension
/// (its classes and interface tables) and as the core protocol. The generator
/// refuses nothing: any protocol the reader accepts gives Swift text.
func fuzzScanner(_ input: [UInt8]) throws(InvariantViolation) {
  guard let spec = try? ProtocolSpec(xml: text(of: input)) else { return }
  let generator = Generator(inputs: [Generator.Input(spec: spec, isCore: false)])
  let source = generator.source(for: spec)
  _ = generator.tablesSource()
  let core = Generator(inputs: [Generator.Input(spec: spec, isCore: true)])
  _ = core.source(for: spec)
  try require(!source.isEmpty, "no source for protocol \(spec.name)")
}
