import Foundation
import Testing
import WaylandScanner

/// Generates whole sets of real protocols and type-checks the result with the
/// runtime sources of the `Wayland` module, in one compiler run per group.
///
/// The reference C scanner is the specification in practice: every file it
/// accepts must become Swift that compiles. Files that define an interface
/// again (unstable xdg-shell v5 redefines stable xdg-shell's xdg_surface and
/// xdg_popup; Plasma's screencast.xml is an older copy of
/// zkde-screencast-unstable-v1.xml) cannot share a module, so they go into a
/// further group of their own and are compiled too.
@Suite("Generated code compiles", .serialized)
struct CompileTests {
  /// Every protocol set that `make deps` installs, each required.
  @Test(arguments: ProtocolSet.all)
  func everyProtocolOfASetTypeChecks(_ set: ProtocolSet) throws {
    try #require(set.isInstalled, "\(set.package) is not installed (make deps installs it)")
    try typecheckProtocols(set.files)
  }

  /// Arguments named like the generated code's own parameters, locals and calls.
  @Test func argumentsNamedLikeTheGeneratedCode() throws {
    try typecheckProtocols([testDirectory.appending(path: "Fixtures/clashes.xml").path])
  }

  @Test func groupsKeepEachInterfaceOnce() {
    let files = [
      ("a.xml", ["x", "y"]), ("b.xml", ["z"]), ("c.xml", ["y"]), ("d.xml", ["y", "w"]),
      ("e.xml", ["w"]),
    ]
    let groups = compileGroups(files.map { (file: $0.0, interfaces: $0.1) })
    #expect(groups == [["a.xml", "b.xml", "e.xml"], ["c.xml"], ["d.xml"]])
  }
}

private let repository = testDirectory.deletingLastPathComponent().deletingLastPathComponent()

/// Generates protocol files with the core protocol and type-checks each group.
private func typecheckProtocols(
  _ files: [String], sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let core = try ProtocolSpec(
    xml: try String(contentsOfFile: "/usr/share/wayland/wayland.xml", encoding: .utf8))
  var specs: [(file: String, spec: ProtocolSpec)] = []
  for file in files {
    do {
      specs.append((file, try ProtocolSpec(xml: try String(contentsOfFile: file, encoding: .utf8))))
    } catch {
      Issue.record("\(file): \(error)", sourceLocation: sourceLocation)
    }
  }
  let byFile = Dictionary(specs.map { ($0.file, $0.spec) }, uniquingKeysWith: { first, _ in first })
  let groups = compileGroups(specs.map { ($0.file, $0.spec.interfaces.map(\.name)) })
  for group in groups {
    let protocols = group.compactMap { byFile[$0] }
    let generator = Generator(
      inputs: [Generator.Input(spec: core, isCore: true)]
        + protocols.map { Generator.Input(spec: $0, isCore: false) })
    var sources = ["wayland.swift": generator.source(for: core)]
    for (file, spec) in zip(group, protocols) {
      let name = URL(filePath: file).deletingPathExtension().lastPathComponent
      sources[name + ".swift"] = generator.source(for: spec)
    }
    sources[Generator.tablesFileName] = generator.tablesSource()
    try typecheck(sources, describing: group, sourceLocation: sourceLocation)
  }
}

/// Splits files into groups in which no interface is defined twice: each file goes
/// into the first group that does not define any of its interfaces yet.
func compileGroups(_ files: [(file: String, interfaces: [String])]) -> [[String]] {
  var groups: [(files: [String], interfaces: Set<String>)] = []
  for (file, interfaces) in files {
    if let index = groups.firstIndex(where: { $0.interfaces.isDisjoint(with: interfaces) }) {
      groups[index].files.append(file)
      groups[index].interfaces.formUnion(interfaces)
    } else {
      groups.append(([file], Set(interfaces)))
    }
  }
  return groups.map(\.files)
}

/// Writes generated sources to a scratch directory and type-checks them with the
/// runtime sources of `Wayland`, as the package builds them.
private func typecheck(
  _ sources: [String: String], describing group: [String], sourceLocation: SourceLocation
) throws {
  let scratch = FileManager.default.temporaryDirectory
    .appending(path: "wl-toast-scanner-\(UUID().uuidString)")
  let generated = scratch.appending(path: "Generated")
  try FileManager.default.createDirectory(at: generated, withIntermediateDirectories: true)
  for (name, text) in sources {
    try text.write(to: generated.appending(path: name), atomically: false, encoding: .utf8)
  }
  // The module maps SwiftPM would make for CWaylandClient's and CSystem's include directories.
  let modules = ["CWaylandClient", "CSystem"].map { name in
    let header = repository.appending(path: "Sources/\(name)/include/\(name).h")
    return "module \(name) {\n  header \"\(header.path)\"\n  export *\n}\n"
  }
  try modules.joined().write(
    to: scratch.appending(path: "module.modulemap"), atomically: false, encoding: .utf8)

  let runtime = try FileManager.default.contentsOfDirectory(
    atPath: repository.appending(path: "Sources/Wayland").path
  ).filter { $0.hasSuffix(".swift") }.sorted().map {
    repository.appending(path: "Sources/Wayland").appending(path: $0).path
  }
  let log = scratch.appending(path: "swiftc.log")
  let compiler: URL = try #require(swiftc(), "no swiftc found; set SWIFTC")
  // The runtime imports SystemSupport: build its module first, as the package does.
  let support = repository.appending(path: "Sources/SystemSupport")
  let supportSources = try FileManager.default.contentsOfDirectory(atPath: support.path)
    .filter { $0.hasSuffix(".swift") }.sorted().map { support.appending(path: $0).path }
  let status = try run(
    compiler,
    [
      "-emit-module", "-parse-as-library", "-module-name", "SystemSupport", "-swift-version", "6",
      "-emit-module-path", scratch.appending(path: "SystemSupport.swiftmodule").path,
      "-I", scratch.path,
    ] + supportSources, log: log)
  try #require(status == 0, "SystemSupport does not build; see \(log.path)")
  let exitStatus = try run(
    compiler,
    [
      "-typecheck", "-parse-as-library", "-module-name", "Wayland", "-swift-version", "6",
      "-warnings-as-errors", "-diagnostic-style", "llvm", "-I", scratch.path,
    ] + runtime + sources.keys.sorted().map { generated.appending(path: $0).path }, log: log)

  guard exitStatus != 0 else {
    try? FileManager.default.removeItem(at: scratch)
    return
  }
  // Each error with the source line and caret that follow it in the llvm style.
  let lines = (try String(contentsOf: log, encoding: .utf8)).split(separator: "\n")
  let errors = lines.indices.filter { lines[$0].contains("error:") }
  let first = errors.prefix(10).map { lines[$0..<min($0 + 3, lines.count)].joined(separator: "\n") }
  Issue.record(
    """
    the generated code does not compile: \(errors.count) errors; sources and log kept in
    \(scratch.path)
    protocols: \(group.map { URL(filePath: $0).lastPathComponent }.joined(separator: ", "))
    first errors:
    \(first.joined(separator: "\n"))
    """,
    sourceLocation: sourceLocation)
}

/// Runs `program` with `arguments`, its output appended to `log`; returns its exit status.
private func run(_ program: URL, _ arguments: [String], log: URL) throws -> Int32 {
  if !FileManager.default.fileExists(atPath: log.path) {
    _ = FileManager.default.createFile(atPath: log.path, contents: nil)
  }
  let output = try FileHandle(forWritingTo: log)
  try output.seekToEnd()
  let process = Process()
  process.executableURL = program
  process.arguments = arguments
  process.standardOutput = output
  process.standardError = output
  try process.run()
  process.waitUntilExit()
  try output.close()
  return process.terminationStatus
}

/// The compiler of the running toolchain: `SWIFTC` if set, else the swiftc next to
/// the Swift runtime this test runs on, else one on the PATH or in /opt/swift.
private func swiftc() -> URL? {
  var candidates: [String] = []
  if let explicit = ProcessInfo.processInfo.environment["SWIFTC"] { candidates.append(explicit) }
  if let maps = try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8),
    let line = maps.split(separator: "\n").first(where: { $0.hasSuffix("/libswiftCore.so") }),
    let start = line.firstIndex(of: "/")
  {
    // .../usr/lib/swift/linux/libswiftCore.so -> .../usr/bin/swiftc
    var url = URL(filePath: String(line[start...]))
    for _ in 0..<4 { url.deleteLastPathComponent() }
    candidates.append(url.appending(path: "bin/swiftc").path)
  }
  return executable("swiftc", preferring: candidates)
    ?? executable("swiftc", preferring: ["/opt/swift/usr/bin/swiftc"])
}
