// wayland-scanner: protocol XML in, Swift bindings out.
//
//   wayland-scanner --output DIR [--core wayland.xml] PROTOCOL.xml...
//
// Writes one NAME.swift per protocol file plus ProtocolTables.swift.
import Foundation
import WaylandScanner

func fail(_ message: String) -> Never {
  FileHandle.standardError.write(Data("wayland-scanner: \(message)\n".utf8))
  exit(1)
}

var output: String?
var core: String?
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
  switch argument {
  case "--output":
    output = arguments.popFirst()
  case "--core":
    core = arguments.popFirst()
  case "--help", "-h":
    print("usage: wayland-scanner --output DIR [--core wayland.xml] PROTOCOL.xml...")
    exit(0)
  default:
    if argument.hasPrefix("-") { fail("unknown option \(argument)") }
    files.append(argument)
  }
}
guard let output else { fail("--output DIR is required") }

var inputs: [(path: String, input: Generator.Input)] = []
for (path, isCore) in (core.map { [($0, true)] } ?? []) + files.map({ ($0, false) }) {
  guard let text = try? String(contentsOfFile: path, encoding: .utf8) else {
    fail("cannot read \(path)")
  }
  do {
    inputs.append((path, Generator.Input(spec: try ProtocolSpec(xml: text), isCore: isCore)))
  } catch {
    fail("\(path): \(error)")
  }
}

// One module cannot hold two classes for an interface (unstable xdg-shell v5 and stable
// xdg-shell both define xdg_surface): say so here rather than with compiler errors later.
var definedIn: [String: String] = [:]
for (path, input) in inputs {
  for interface in input.spec.interfaces {
    if let other = definedIn[interface.name] {
      fail("\(path): interface \(interface.name) is already defined in \(other)")
    }
    definedIn[interface.name] = path
  }
}

let generator = Generator(inputs: inputs.map(\.input))
func write(_ text: String, to name: String) {
  let url = URL(fileURLWithPath: output).appendingPathComponent(name)
  // Leave an unchanged file alone so that the compiler's own caching keeps working.
  if let old = try? String(contentsOf: url, encoding: .utf8), old == text { return }
  do {
    try text.write(to: url, atomically: true, encoding: .utf8)
  } catch {
    fail("cannot write \(url.path): \(error)")
  }
}
try? FileManager.default.createDirectory(atPath: output, withIntermediateDirectories: true)
for (path, input) in inputs {
  let base = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
  write(generator.source(for: input.spec), to: base + ".swift")
}
write(generator.tablesSource(), to: Generator.tablesFileName)
