/// The D-Bus specification's rules for the names in a message's header:
/// object paths, interface and error names, member names and bus names.
/// A message that breaks them is not sent (a bus would close the connection).
package enum BusNames {
  /// `/`, or `/` and elements of `[A-Za-z0-9_]`, none empty, no `/` at the end.
  package static func isObjectPath(_ path: String) -> Bool {
    let bytes = path.utf8
    guard bytes.first == UInt8(ascii: "/") else { return false }
    guard bytes.count > 1 else { return true }
    var previous = UInt8(ascii: "/")
    for byte in bytes.dropFirst() {
      if byte == UInt8(ascii: "/") {
        guard previous != UInt8(ascii: "/") else { return false }
      } else if !isWordByte(byte) {
        return false
      }
      previous = byte
    }
    return previous != UInt8(ascii: "/")
  }

  /// At most 255 bytes, two or more elements joined by `.`, each of
  /// `[A-Za-z0-9_]` not starting with a digit (an error's name too).
  package static func isInterfaceName(_ name: String) -> Bool {
    elements(of: name, digitsFirst: false, hyphens: false).map { $0 >= 2 } ?? false
  }

  /// At most 255 bytes of `[A-Za-z0-9_]`, not starting with a digit.
  package static func isMemberName(_ name: String) -> Bool {
    elements(of: name, digitsFirst: false, hyphens: false) == 1
  }

  /// A unique name (`:` then two or more elements of `[A-Za-z0-9_-]`) or a
  /// well-known one (two or more elements of `[A-Za-z0-9_-]`, none starting
  /// with a digit), at most 255 bytes.
  package static func isBusName(_ name: String) -> Bool {
    if name.utf8.first == UInt8(ascii: ":") {
      let rest = String(name.dropFirst())
      return name.utf8.count <= 255
        && (elements(of: rest, digitsFirst: true, hyphens: true).map { $0 >= 2 } ?? false)
    }
    return elements(of: name, digitsFirst: false, hyphens: true).map { $0 >= 2 } ?? false
  }

  /// How many `.`-separated elements `name` has when each is valid; nil
  /// when one is empty or has a byte it must not, or the name is over 255 bytes.
  private static func elements(of name: String, digitsFirst: Bool, hyphens: Bool) -> Int? {
    guard !name.utf8.isEmpty, name.utf8.count <= 255 else { return nil }
    var count = 1
    var atStart = true
    for byte in name.utf8 {
      if byte == UInt8(ascii: ".") {
        guard !atStart else { return nil }
        count += 1
        atStart = true
        continue
      }
      let isDigit = (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
      guard isWordByte(byte) || (hyphens && byte == UInt8(ascii: "-")) else { return nil }
      guard !(atStart && isDigit && !digitsFirst) else { return nil }
      atStart = false
    }
    return atStart ? nil : count
  }

  /// `[A-Za-z0-9_]`.
  private static func isWordByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
      UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
      true
    default: false
    }
  }
}
