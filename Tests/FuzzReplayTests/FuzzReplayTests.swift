import Foundation
import FuzzTargets
import Testing

/// `Tests/Fuzz`, two directories above this file.
private let fuzzDirectory = URL(filePath: #filePath).deletingLastPathComponent()
  .deletingLastPathComponent().appending(path: "Fuzz")

/// The files of `Tests/Fuzz/TARGET/KIND` (seeds or crashes), sorted; none when
/// the directory does not exist.
func inputs(of target: FuzzTarget, _ kind: String) -> [URL] {
  let directory = fuzzDirectory.appending(path: target.rawValue).appending(path: kind)
  let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
  return names.filter { !$0.hasPrefix(".") }.sorted().map { directory.appending(path: $0) }
}

/// Every committed seed and every crash the fuzzers found (once fixed) goes
/// through the function the fuzzer calls: nothing crashes, every invariant holds.
struct FuzzReplayTests {
  @Test(arguments: FuzzTarget.allCases)
  func seedsAndCrashesPass(_ target: FuzzTarget) throws {
    let seeds = inputs(of: target, "seeds")
    #expect(seeds.count >= 3, "Tests/Fuzz/\(target.rawValue)/seeds holds a handful of inputs")
    for file in seeds + inputs(of: target, "crashes") {
      let input = [UInt8](try Data(contentsOf: file))
      #expect(throws: Never.self, "\(file.lastPathComponent)") { try target.run(input) }
    }
  }

  @Test func everyTargetHasItsDirectoryAndNoOther() throws {
    let names = try FileManager.default.contentsOfDirectory(atPath: fuzzDirectory.path)
    #expect(Set(names) == Set(FuzzTarget.allCases.map(\.rawValue)))
  }
}
