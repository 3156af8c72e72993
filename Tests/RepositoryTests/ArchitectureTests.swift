import Foundation
import Testing

/// The repository, two directories above this file.
private let repository = URL(filePath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().deletingLastPathComponent()

/// The map of the code, and its sections that hold a tree of files.
private let mapPath = "docs/ARCHITECTURE.md"
private let treeHeadings = ["## The code", "## The tests", "## The rest of the repository"]

/// The paths the tree under `heading` names: the first code block after that
/// line, in which a line that starts at the margin names a directory
/// (`Sources/ToastKit/`) or a file, and lines indented by four spaces name the
/// files and directories in the directory above them; deeper lines continue a
/// description, and patterns (`*.xml`) name nothing. Directories keep their
/// trailing slash.
func pathsInTree(of map: String, under heading: String) -> Set<String> {
  Set(pathList(of: map, under: heading))
}

/// The paths the tree under `heading` names, in the order it names them,
/// as often as it names them.
func pathList(of map: String, under heading: String) -> [String] {
  guard let start = map.range(of: "\n" + heading + "\n"),
    let open = map.range(of: "```\n", range: start.upperBound..<map.endIndex),
    let close = map.range(of: "```", range: open.upperBound..<map.endIndex)
  else { return [] }
  var paths: [String] = []
  var directory: String?
  for line in map[open.upperBound..<close.lowerBound].split(separator: "\n") {
    guard let name = line.split(separator: " ").first.map(String.init) else { continue }
    if line.hasPrefix("     ") { continue }
    if line.hasPrefix("    ") {
      if let directory, !name.contains("*") { paths.append(directory + name) }
    } else {
      directory = name.hasSuffix("/") ? name : nil
      if !name.contains("*") { paths.append(name) }
    }
  }
  return paths
}

/// The paths named more than once in the trees under `headings`.
func pathsNamedTwice(in map: String, under headings: [String]) -> [String] {
  var seen: Set<String> = []
  var twice: [String] = []
  for path in headings.flatMap({ pathList(of: map, under: $0) }) where !seen.insert(path).inserted {
    twice.append(path)
  }
  return twice
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

/// The map of the code (docs/ARCHITECTURE.md) is the code's map.
struct ArchitectureTests {
  let code: Set<String>
  let tests: Set<String>
  let listed: Set<String>

  init() throws {
    let map = try String(contentsOf: repository.appending(path: mapPath), encoding: .utf8)
    code = pathsInTree(of: map, under: treeHeadings[0])
    tests = pathsInTree(of: map, under: treeHeadings[1])
    listed = treeHeadings.reduce(into: []) { $0.formUnion(pathsInTree(of: map, under: $1)) }
  }

  @Test func everySourceFileIsInTheCodeTree() {
    let missing = (files(under: "Sources") + files(under: "Plugins")).filter {
      !code.contains($0)
    }
    #expect(missing.isEmpty, "add to \(mapPath), under \(treeHeadings[0]): \(missing)")
  }

  /// The files of each test target (`Tests/NAME/FILE`), not those of its data
  /// directories (fixtures, snapshots, references, fuzz seeds).
  @Test func everyTestFileIsInTheTestsTree() {
    let missing = files(under: "Tests").filter {
      $0.split(separator: "/").count == 3 && !tests.contains($0)
    }
    #expect(missing.isEmpty, "add to \(mapPath), under \(treeHeadings[1]): \(missing)")
  }

  /// Each file has one description: a second entry for it is a stale one.
  @Test func noPathIsNamedTwice() throws {
    let map = try String(contentsOf: repository.appending(path: mapPath), encoding: .utf8)
    let twice = pathsNamedTwice(in: map, under: treeHeadings)
    #expect(twice.isEmpty, "named more than once in \(mapPath): \(twice)")
    let sample = "## The code\n\n```\nSources/A/\n    One.swift   x\n    One.swift   y\n```\n"
    #expect(pathsNamedTwice(in: "\n" + sample, under: ["## The code"]) == ["Sources/A/One.swift"])
  }

  @Test func everyPathInTheMapExists() {
    let gone = listed.filter {
      !FileManager.default.fileExists(atPath: repository.appending(path: $0).path)
    }
    #expect(gone.isEmpty, "in \(mapPath) but not in the repository: \(gone.sorted())")
  }

  @Test func theTreeIsReadAsWritten() {
    let map = """
      # Map

      ## The code

      ```
      Protocols/*.xml, list      a pattern
      Sources/A/                 the first
          One.swift              a file
          include/One.h          a header
          Data/                  a directory of data
      Sources/b/
          main.swift             its main
      man/wl-toast.1             the page
      Tests/X/                   only a directory,
                                 described on two lines
      ```

      ## The tests

      ```
      Tests/Y/
          YTests.swift           the tests
      ```
      """
    #expect(
      pathsInTree(of: map, under: "## The code")
        == [
          "Sources/A/", "Sources/A/One.swift", "Sources/A/include/One.h", "Sources/A/Data/",
          "Sources/b/", "Sources/b/main.swift", "man/wl-toast.1", "Tests/X/",
        ])
    #expect(pathsInTree(of: map, under: "## The tests") == ["Tests/Y/", "Tests/Y/YTests.swift"])
    #expect(pathsInTree(of: map, under: "## Elsewhere") == [])
  }
}
