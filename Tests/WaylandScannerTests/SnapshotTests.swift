import Foundation
import Testing
import WaylandScanner

/// Compares generated text with files in `Snapshots/`.
///
/// Run with `UPDATE_SNAPSHOTS=1` to rewrite the files after an intended change
/// to the generator, then review the diff.
@Suite("Snapshots")
struct SnapshotTests {
  @Test func smallFixture() throws {
    let spec = try ProtocolSpec(xml: try read(testDirectory.appending(path: "Fixtures/small.xml")))
    let generator = Generator(inputs: [Generator.Input(spec: spec, isCore: false)])
    try assertSnapshot(generator.source(for: spec), named: "small.swift.txt")
    try assertSnapshot(generator.tablesSource(), named: "small-tables.swift.txt")
  }

  @Test func layerShellWithTheCoreProtocol() throws {
    let repository = testDirectory.deletingLastPathComponent().deletingLastPathComponent()
    let layerShell = try ProtocolSpec(
      xml: try read(repository.appending(path: "Protocols/wlr-layer-shell-unstable-v1.xml")))
    let core = try ProtocolSpec(xml: try read(URL(filePath: "/usr/share/wayland/wayland.xml")))
    let generator = Generator(inputs: [
      Generator.Input(spec: core, isCore: true),
      Generator.Input(spec: layerShell, isCore: false),
    ])
    try assertSnapshot(generator.source(for: layerShell), named: "wlr-layer-shell.swift.txt")
    try assertSnapshot(generator.tablesSource(), named: "wlr-layer-shell-tables.swift.txt")
  }

  @Test func generationIsDeterministic() throws {
    let spec = try ProtocolSpec(xml: try read(testDirectory.appending(path: "Fixtures/small.xml")))
    let first = Generator(inputs: [Generator.Input(spec: spec, isCore: false)])
    let second = Generator(inputs: [Generator.Input(spec: spec, isCore: false)])
    #expect(first.source(for: spec) == second.source(for: spec))
    #expect(first.tablesSource() == second.tablesSource())
  }

  @Test func reportsTheFirstDifferingLine() {
    #expect(firstDifference("a\nb\nc\n", "a\nb\nc\n") == nil)
    #expect(firstDifference("a\nb\nc\n", "a\nx\nc\n")?.line == 2)
    #expect(firstDifference("a\nb\nc\n", "a\nx\nc\n")?.expected == "b")
    #expect(firstDifference("a\nb\nc\n", "a\nx\nc\n")?.actual == "x")
    #expect(firstDifference("a\n", "a\nb\n")?.line == 2)
    #expect(firstDifference("a\n", "a\nb\n")?.expected == "")
    #expect(firstDifference("a", "a\nb")?.expected == nil)
    #expect(firstDifference("a\nb", "a\n")?.actual == "")
  }
}

// MARK: - Snapshot support

/// Whether to rewrite snapshots instead of comparing with them.
private let updatingSnapshots = ProcessInfo.processInfo.environment["UPDATE_SNAPSHOTS"] == "1"

private func read(_ url: URL) throws -> String {
  do {
    return try String(contentsOf: url, encoding: .utf8)
  } catch {
    Issue.record("cannot read \(url.path): \(error)")
    throw error
  }
}

/// Checks `actual` against `Snapshots/name`, or rewrites that file when updating.
private func assertSnapshot(
  _ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let url = testDirectory.appending(path: "Snapshots").appending(path: name)
  if updatingSnapshots {
    try FileManager.default.createDirectory(
      at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
    try actual.write(to: url, atomically: true, encoding: .utf8)
    return
  }
  guard let expected = try? String(contentsOf: url, encoding: .utf8) else {
    Issue.record(
      "missing snapshot Snapshots/\(name); run the tests with UPDATE_SNAPSHOTS=1 to create it",
      sourceLocation: sourceLocation)
    return
  }
  guard let difference = firstDifference(expected, actual) else { return }
  Issue.record(
    """
    generated text differs from Snapshots/\(name) at line \(difference.line):
      expected: \(difference.expected.map(\.debugDescription) ?? "<end of file>")
        actual: \(difference.actual.map(\.debugDescription) ?? "<end of file>")
    Run the tests with UPDATE_SNAPSHOTS=1 to accept the new output, then review the diff.
    """,
    sourceLocation: sourceLocation)
}

/// The first line, 1-based, where two texts differ, with both lines (nil past the end).
private func firstDifference(
  _ expected: String, _ actual: String
) -> (line: Int, expected: String?, actual: String?)? {
  let expectedLines = expected.split(separator: "\n", omittingEmptySubsequences: false)
  let actualLines = actual.split(separator: "\n", omittingEmptySubsequences: false)
  for index in 0..<max(expectedLines.count, actualLines.count) {
    let left = index < expectedLines.count ? String(expectedLines[index]) : nil
    let right = index < actualLines.count ? String(actualLines[index]) : nil
    if left != right { return (index + 1, left, right) }
  }
  return nil
}
