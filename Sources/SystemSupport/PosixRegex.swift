import Glibc

/// A POSIX extended regular expression (Glibc's `regcomp` with
/// `REG_EXTENDED | REG_NOSUB`, as mako compiles its criteria), compiled once
/// and matched any number of times, its cost bounded:
/// - a pattern of at most ``maximumLength`` bytes;
/// - no back-reference (`\1` to `\9`, a GNU extension outside POSIX ERE,
///   whose matching grows far faster than the text);
/// - repetitions that copy at most ``maximumCopies`` atoms (`a{1,100}`
///   counts 100, `(a{1,100}){1,100}` 10,000: Glibc builds each copy, and
///   such patterns take hundreds of megabytes);
/// - a match reads at most ``maximumText`` bytes of the text (Glibc tries
///   every start, so a pattern such as `a+b` takes time growing with the
///   square of the text's length).
///
/// Matching is bytewise, as in the C locale: a character of UTF-8 outside
/// ASCII is its bytes.
public final class PosixRegex: Equatable, @unchecked Sendable {
  // Unchecked: the compiled `regex_t` is never changed after `init`, and
  // Glibc's `regexec` locks it while it runs.

  /// The pattern, as written.
  public let pattern: String
  private let compiled: UnsafeMutablePointer<regex_t>

  /// The longest pattern, in bytes.
  public static let maximumLength = 1024
  /// The most atoms a pattern's repetitions may copy.
  public static let maximumCopies = 512
  /// The most bytes of a text a match reads.
  public static let maximumText = 4096

  /// Compiles `pattern`; throws a one-line reason: the limits above, or
  /// `regerror`'s text for a pattern Glibc refuses.
  public init(_ pattern: String) throws(Problem) {
    guard pattern.utf8.count <= Self.maximumLength else {
      throw Problem("longer than \(Self.maximumLength) bytes")
    }
    guard !pattern.utf8.contains(0) else { throw Problem("a NUL byte") }
    try Self.checkCost(Array(pattern.utf8))
    let compiled = UnsafeMutablePointer<regex_t>.allocate(capacity: 1)
    let status = regcomp(compiled, pattern, REG_EXTENDED | REG_NOSUB)
    guard status == 0 else {
      var buffer = [CChar](repeating: 0, count: 256)
      regerror(status, compiled, &buffer, buffer.count)
      compiled.deallocate()
      throw Problem(
        String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }
    self.pattern = pattern
    self.compiled = compiled
  }

  deinit {
    regfree(compiled)
    compiled.deallocate()
  }

  /// Whether the pattern matches somewhere in the first ``maximumText``
  /// bytes of `text` (cut at a character's start; a NUL ends it).
  public func matches(_ text: String) -> Bool {
    var bytes = Array(text.utf8.prefix(Self.maximumText + 1))
    if bytes.count > Self.maximumText {
      var end = Self.maximumText
      while end > 0, bytes[end] & 0xC0 == 0x80 { end -= 1 }
      bytes.removeSubrange(end...)
    }
    bytes.append(0)
    return bytes.withUnsafeBufferPointer { buffer in
      buffer.withMemoryRebound(to: CChar.self) { regexec(compiled, $0.baseAddress, 0, nil, 0) == 0 }
    }
  }

  /// Two expressions are equal when their patterns are.
  public static func == (lhs: PosixRegex, rhs: PosixRegex) -> Bool { lhs.pattern == rhs.pattern }

  /// Refuses a back-reference and repetitions copying more than
  /// ``maximumCopies`` atoms (an estimate: a group counts the atoms of all
  /// its branches; `{M,N}` multiplies the atom before it by the larger
  /// bound, `+` by 2).
  private static func checkCost(_ bytes: [UInt8]) throws(Problem) {
    var levels = [0]  // atoms so far in each open group
    var last = 0  // atoms of the last atom, for a repetition after it
    var index = 0
    func add(_ count: Int) {
      levels[levels.count - 1] += count
      last = count
    }
    func multiplyLast(by factor: Int) throws(Problem) {
      let grown = last.multipliedReportingOverflow(by: max(factor, 1))
      guard !grown.overflow, grown.partialValue <= maximumCopies else {
        throw Problem("repetitions copying more than \(maximumCopies) atoms")
      }
      levels[levels.count - 1] += grown.partialValue - last
      last = grown.partialValue
      guard levels[levels.count - 1] <= maximumCopies else {
        throw Problem("repetitions copying more than \(maximumCopies) atoms")
      }
    }
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "\\"):
        if index < bytes.count, (UInt8(ascii: "1")...UInt8(ascii: "9")).contains(bytes[index]) {
          throw Problem(
            "a back-reference (\\\(Character(UnicodeScalar(bytes[index])))), not in POSIX extended expressions"
          )
        }
        index += 1
        add(1)
      case UInt8(ascii: "["):
        index = bracketEnd(bytes, from: index)
        add(1)
      case UInt8(ascii: "("):
        levels.append(0)
        last = 0
      case UInt8(ascii: ")"):
        if levels.count > 1 {
          let group = levels.removeLast()
          add(group)
        } else {
          add(1)
        }
      case UInt8(ascii: "+"): try multiplyLast(by: 2)
      case UInt8(ascii: "{"):
        if let (bound, end) = interval(bytes, from: index) {
          index = end
          try multiplyLast(by: bound)
        } else {
          add(1)
        }
      case UInt8(ascii: "*"), UInt8(ascii: "?"), UInt8(ascii: "|"), UInt8(ascii: "^"),
        UInt8(ascii: "$"):
        break
      default: add(1)
      }
    }
    while levels.count > 1 {
      let group = levels.removeLast()
      levels[levels.count - 1] += group
    }
    guard levels[0] <= maximumCopies else {
      throw Problem("repetitions copying more than \(maximumCopies) atoms")
    }
  }

  /// The index after a bracket expression that starts before `start`
  /// (`]` first is a member; `[:alpha:]`, `[.x.]` and `[=x=]` inside).
  private static func bracketEnd(_ bytes: [UInt8], from start: Int) -> Int {
    var index = start
    if index < bytes.count, bytes[index] == UInt8(ascii: "^") { index += 1 }
    if index < bytes.count, bytes[index] == UInt8(ascii: "]") { index += 1 }
    while index < bytes.count {
      let byte = bytes[index]
      if byte == UInt8(ascii: "]") { return index + 1 }
      if byte == UInt8(ascii: "["), index + 1 < bytes.count,
        [UInt8(ascii: ":"), UInt8(ascii: "."), UInt8(ascii: "=")].contains(bytes[index + 1])
      {
        let mark = bytes[index + 1]
        var end = index + 2
        while end + 1 < bytes.count, !(bytes[end] == mark && bytes[end + 1] == UInt8(ascii: "]")) {
          end += 1
        }
        index = end + 2
        continue
      }
      index += 1
    }
    return bytes.count
  }

  /// An interval's larger bound (`{M}`, `{M,}` counting M + 1, `{M,N}`)
  /// and the index after its `}`, for one starting before `start`; nil when
  /// the braces hold no interval.
  private static func interval(_ bytes: [UInt8], from start: Int) -> (Int, Int)? {
    var index = start
    var bounds: [Int?] = [nil]
    while index < bytes.count {
      let byte = bytes[index]
      index += 1
      switch byte {
      case UInt8(ascii: "0")...UInt8(ascii: "9"):
        let digit = Int(byte - UInt8(ascii: "0"))
        bounds[bounds.count - 1] = min((bounds[bounds.count - 1] ?? 0) * 10 + digit, 1 << 20)
      case UInt8(ascii: ","):
        guard bounds.count == 1 else { return nil }
        bounds.append(nil)
      case UInt8(ascii: "}"):
        let lower = bounds[0] ?? 0
        let upper = bounds.count == 2 ? (bounds[1] ?? lower + 1) : lower
        return (max(lower, upper), index)
      default: return nil
      }
    }
    return nil
  }

  /// Why a pattern is refused: one line.
  public struct Problem: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong.
    public var message: String

    /// A problem saying `message`.
    public init(_ message: String) { self.message = message }

    /// ``message``.
    public var description: String { message }
  }
}
