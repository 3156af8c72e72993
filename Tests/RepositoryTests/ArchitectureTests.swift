import Foundation
import Testing

/// The repository, two directories above this file.
private let repository = URL(filePath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The files the README's architecture tree names: a line that starts a
/// directory (`Sources/ToastKit/`), then lines indented by four spaces naming
/// its files; deeper lines continue a description, and patterns (`*.xml`)
/// name no one file.
func filesInArchitectureTree(of readme: String) -> Set<String> {
  guard let start = readme.range(of: "## Architecture\n"),
    let open = readme.range(of: "```\n", range: start.upperBound..<readme.endIndex),
    let close = readme.range(of: "```", range: open.upperBound..<readme.endIndex)
  else { return [] }
  var files: Set<String> = []
  var directory: String?
  for line in readme[open.upperBound..<close.lowerBound].split(separator: "\n") {
    let name = line.split(separator: " ", omittingEmptySubsequences: true).first.map(String.init)
    guard let name, !name.contains("*") else { continue }
    if line.hasPrefix("     ") { continue }
    if line.hasPrefix("    ") {
      if let directory, !name.hasSuffix("/") { files.insert(directory + name) }
    } else {
      directory = name.hasSuffix("/") ? name : nil
      if !name.hasSuffix("/") { files.insert(name) }
    }
  }
  return files
}

/// Every file under `directory` (relative to the repository), at any depth.
func files(under directory: String) -> [String] {
  let root = repository.appending(path: directory)
  let enumerator = FileManager.default.enumerator(atPath: root.path)
  var found: [String] = []
  while let path = enumerator?.nextObject() as? String {
    var isDirectory: ObjCBool = false
    if FileManager.default.fileExists(
      atPath: root.appending(path: path).path, isDirectory: &isDirectory), !isDirectory.boolValue
    {
      found.append(directory + "/" + path)
    }
  }
  return found.sorted()
}

/// The README's map of the code is the code's map.
struct ArchitectureTests {
  let listed: Set<String>

  init() throws {
    let readme = try String(
      contentsOf: repository.appending(path: "README.md"), encoding: .utf8)
    listed = filesInArchitectureTree(of: readme)
  }

  @Test func everySourceFileIsInTheTree() {
    let missing = (files(under: "Sources") + files(under: "Plugins")).filter {
      !listed.contains($0)
    }
    #expect(missing.isEmpty, "add to the README's architecture tree: \(missing)")
  }

  @Test func everyFileInTheTreeExists() {
    let gone = listed.filter {
      !FileManager.default.fileExists(atPath: repository.appending(path: $0).path)
    }
    #expect(gone.isEmpty, "in the README's architecture tree but not in the code: \(gone.sorted())")
  }

  @Test func theTreeIsReadAsWritten() {
    let tree = """
      ## Architecture

      ```
      Sources/A/                 the first
          One.swift              a file
          include/One.h          a header
      Sources/b/
          main.swift             its main
      man/wl-toast.1             the page
      Tests/X/                   only a directory,
                                 described on two lines
      Protocols/*.xml            a pattern
      ```
      """
    #expect(
      filesInArchitectureTree(of: tree)
        == [
          "Sources/A/One.swift", "Sources/A/include/One.h", "Sources/b/main.swift",
          "man/wl-toast.1",
        ])
  }
}
