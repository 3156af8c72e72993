import Glibc
import Testing
import ToastModel

@testable import ToastCommand

/// `--follow`: standard input's lines as the reader splits them, and the
/// loop that applies each to the toast and hands it over.
struct FollowTests {
  /// Reads that return the given chunks one by one, then the end of input
  /// (or `ending`); counts the reads.
  final class Reads {
    var chunks: [[UInt8]]
    let ending: Int
    var count = 0

    init(_ chunks: [[UInt8]], ending: Int = 0) {
      self.chunks = chunks
      self.ending = ending
    }

    /// A reader over these reads.
    func reader() -> LineReader {
      LineReader { buffer in
        self.count += 1
        guard !self.chunks.isEmpty else { return self.ending }
        let chunk = self.chunks.removeFirst()
        precondition(chunk.count <= buffer.count, "a chunk larger than one read")
        buffer.replaceSubrange(0..<chunk.count, with: chunk)
        return chunk.count
      }
    }
  }

  /// Every line `reader` gives, to the end of input.
  static func lines(_ reads: Reads) -> [String] {
    var reader = reads.reader()
    var lines: [String] = []
    while let line = reader.next() { lines.append(line) }
    return lines
  }

  @Test func linesSplitAcrossReadsAreJoined() {
    let reads = Reads([Array("ab".utf8), Array("c\nde".utf8), Array("f\n".utf8)])
    #expect(Self.lines(reads) == ["abc", "def"])
    #expect(reads.count == 4, "three reads, and the one that found the end")
  }

  @Test func aLastLineWithoutANewlineIsALine() {
    let reads = Reads([Array("one\ntwo".utf8)])
    var reader = reads.reader()
    #expect(reader.next() == "one")
    #expect(reader.next() == "two")
    #expect(reader.next() == nil)
    #expect(reader.next() == nil)
    #expect(reads.count == 2, "nothing read after the end")
  }

  @Test func emptyLinesAreLines() {
    #expect(Self.lines(Reads([Array("\n\nx\n".utf8)])) == ["", "", "x"])
    #expect(Self.lines(Reads([])) == [])
  }

  @Test func aCarriageReturnBeforeANewlineIsDroppedButNotAtTheEnd() {
    #expect(Self.lines(Reads([Array("a\r\nb\r\r\nc\r".utf8)])) == ["a", "b\r", "c\r"])
  }

  @Test func invalidUTF8BecomesReplacementCharacters() {
    #expect(
      Self.lines(Reads([[0x61, 0xFF, 0x62, 0x0A, 0xC3, 0x0A]])) == ["a\u{FFFD}b", "\u{FFFD}"])
  }

  @Test func aCharacterSplitAcrossReadsIsDecodedWhole() {
    let e = Array("é\n".utf8)
    #expect(Self.lines(Reads([[e[0]], [e[1], e[2]]])) == ["é"])
  }

  @Test func anOverlongLineIsCutAfterTheReadThatPassedFourMessages() {
    let full = [UInt8](repeating: 0x61, count: 65_536)
    let reads = Reads(Array(repeating: full, count: 6) + [Array("b\nc".utf8)])
    let lines = Self.lines(reads)
    // Four messages (262,144 bytes) are not passed until the fifth read.
    #expect(lines.count == 3)
    #expect(lines.first == String(repeating: "a", count: 5 * 65_536))
    #expect(lines.dropFirst().first == String(repeating: "a", count: 65_536) + "b")
    #expect(lines.last == "c")
  }

  @Test func aLineOfExactlyFourMessagesIsNotCut() {
    let full = [UInt8](repeating: 0x61, count: 65_536)
    let reads = Reads(Array(repeating: full, count: 4) + [Array("\n".utf8)])
    #expect(Self.lines(reads) == [String(repeating: "a", count: 4 * 65_536)])
  }

  @Test func aFailedReadEndsTheInput() {
    let reads = Reads([Array("a\nb".utf8)], ending: -1)
    var reader = reads.reader()
    #expect(reader.next() == "a")
    #expect(reader.next() == "b")
    #expect(reader.next() == nil)
    #expect(reads.count == 2)
  }

  @Test func aPipesLinesAreReadToItsEnd() throws {
    var ends: [Int32] = [0, 0]
    try #require(pipe(&ends) == 0)
    let text = Array("first\nsecond\r\nlast".utf8)
    #expect(write(ends[1], text, text.count) == text.count)
    close(ends[1])
    defer { close(ends[0]) }
    var reader = LineReader(fd: ends[0])
    var lines: [String] = []
    while let line = reader.next() { lines.append(line) }
    #expect(lines == ["first", "second", "last"])
  }

  /// The toasts `follow` handed over, each with whether it waited, and the lines it skipped.
  struct Run {
    var delivered: [(text: String, wait: Bool)] = []
    var skipped: [String] = []
    var result: Client.Result = .accepted
  }

  static func run(
    _ input: String, _ toast: Toast = Toast("start"), format: FollowFormat = .text,
    wait: Bool = false
  ) -> Run {
    var delivered: [(text: String, wait: Bool)] = []
    var skipped: [String] = []
    var reader = Reads(input.isEmpty ? [] : [Array(input.utf8)]).reader()
    let result = follow(
      toast, format: format, wait: wait, reader: &reader,
      deliver: { toast, wait in
        delivered.append((toast.text, wait))
        return wait ? .outcome(.dismissed) : .accepted
      },
      skipped: { skipped.append($0) })
    return Run(delivered: delivered, skipped: skipped, result: result)
  }

  @Test func eachLineIsHandedOverWithoutWaiting() {
    let run = Self.run("one\ntwo\n")
    #expect(run.delivered.map(\.text) == ["one", "two"])
    #expect(run.delivered.allSatisfy { !$0.wait })
    #expect(run.skipped.isEmpty)
    #expect(run.result == .accepted)
  }

  @Test func aRefusedLineIsSkippedInOneLineAndChangesNothing() {
    let run = Self.run("{\"text\":\"one\"}\n[1]\n{\"text\":\"three\"}\n", format: .json)
    #expect(run.delivered.map(\.text) == ["one", "three"])
    #expect(run.skipped == ["line 2: expected a JSON object; skipped"])
  }

  @Test func withWaitTheLastToastIsHandedOverAgainToWaitForItsOutcome() {
    let run = Self.run("one\n", wait: true)
    #expect(run.delivered.map(\.text) == ["one", "one"])
    #expect(run.delivered.map(\.wait) == [false, true])
    #expect(run.result == .outcome(.dismissed))
  }

  @Test func withoutLinesTheToastIsHandedOverOnlyWhenItHasAText() {
    #expect(Self.run("").delivered.map(\.text) == ["start"])
    #expect(Self.run("", Toast("")).delivered.isEmpty)
    let refused = Self.run("[1]\n", format: .json)
    #expect(refused.delivered.map(\.text) == ["start"], "no line was delivered")
    #expect(Self.run("", Toast(" "), wait: true).delivered.isEmpty)
    #expect(Self.run("", Toast(" "), wait: true).result == .accepted)
    var spinner = Toast("")
    spinner.showsSpinner = true
    #expect(Self.run("", spinner, wait: true).delivered.map(\.wait) == [true])
  }

  @Test func aBlankLineIsSkippedUnlessASpinnerOrProgressShows() {
    let run = Self.run("one\n  \ntwo\n")
    #expect(run.delivered.map(\.text) == ["one", "two"])
    #expect(run.skipped == ["line 2: a blank text without a spinner or progress; skipped"])
    let progress = Self.run(#"{"text":"","progress":40}"# + "\n", format: .json)
    #expect(progress.delivered.map(\.text) == [""] && progress.skipped.isEmpty)
  }

  @Test func aJSONLineMayMakeTheToastAHUDOrABannerButNotABarOrACard() {
    let run = Self.run(
      #"{"style":"card"}"# + "\n" + #"{"style":"bar"}"# + "\n" + #"{"style":"banner"}"# + "\n",
      format: .json)
    #expect(run.delivered.count == 1)
    #expect(
      run.skipped == [
        #"line 1: style: expected "hud" or "banner" on a --follow line; skipped"#,
        #"line 2: style: expected "hud" or "banner" on a --follow line; skipped"#,
      ])
  }
}
