import Glibc

/// GTK's `icon-theme.cache` of a theme directory (written by
/// gtk-update-icon-cache, which Debian runs whenever a package adds icons):
/// which icons each of its directories holds, so that a theme is searched
/// without listing its directories (hicolor has hundreds, mostly empty).
///
/// Format 1.0, big-endian: a header (versions, the hash's and the directory
/// list's offsets), the directory names, and a hash of icon names whose
/// entries list (directory, file suffixes) pairs. Every offset is checked;
/// a cache that does not hold together is not used.
package struct IconThemeCache: Sendable {
  /// The file suffixes an icon has in one directory.
  package struct Suffixes: OptionSet, Sendable {
    package let rawValue: UInt16
    package init(rawValue: UInt16) { self.rawValue = rawValue }
    package static let xpm = Suffixes(rawValue: 1)
    package static let svg = Suffixes(rawValue: 2)
    package static let png = Suffixes(rawValue: 4)
  }

  private let bytes: [UInt8]
  /// The directories the cache names, relative to the theme's root.
  package let directories: [String]
  private let hashOffset: Int
  private let bucketCount: Int

  /// The largest cache read, in bytes (Adwaita's is about 120 KiB).
  static let maximumSize = 32 << 20

  /// The cache of the theme root `root`, when it has one that is not older
  /// than the root itself (GTK's rule) and holds together.
  package init?(root: String) {
    var rootInfo = stat()
    var cacheInfo = stat()
    let path = root + "/icon-theme.cache"
    guard stat(root, &rootInfo) == 0, stat(path, &cacheInfo) == 0,
      cacheInfo.st_mtim.tv_sec >= rootInfo.st_mtim.tv_sec,
      let bytes = readSmallFile(path, limit: Self.maximumSize)
    else { return nil }
    self.init(bytes: bytes)
  }

  /// A cache from its bytes; nil when they are not a cache of format 1.0.
  package init?(bytes: [UInt8]) {
    self.bytes = bytes
    guard bytes.count >= 12, Self.word(bytes, 0) == 1, Self.word(bytes, 2) == 0,
      let hashOffset = Self.long(bytes, 4), let listOffset = Self.long(bytes, 8),
      let bucketCount = Self.long(bytes, hashOffset), bucketCount > 0,
      hashOffset + 4 + 4 * bucketCount <= bytes.count,
      let directoryCount = Self.long(bytes, listOffset),
      listOffset + 4 + 4 * directoryCount <= bytes.count
    else { return nil }
    var directories: [String] = []
    for index in 0..<directoryCount {
      guard let offset = Self.long(bytes, listOffset + 4 + 4 * index),
        let name = Self.string(bytes, offset)
      else { return nil }
      directories.append(name)
    }
    self.directories = directories
    self.hashOffset = hashOffset
    self.bucketCount = bucketCount
  }

  /// The directories (indices into ``directories``) that hold `name`, with
  /// its suffixes in each.
  package func images(of name: String) -> [(directory: Int, suffixes: Suffixes)] {
    let key = Array(name.utf8)
    guard !key.isEmpty, !key.contains(0) else { return [] }
    let bucket = Int(Self.hash(key) % UInt32(bucketCount))
    guard var chain = Self.long(bytes, hashOffset + 4 + 4 * bucket) else { return [] }
    var steps = 0
    // 0xffffffff ends a chain; the step limit stops a cache that loops.
    while chain != 0xffff_ffff && steps < 1 << 16 {
      steps += 1
      guard let next = Self.long(bytes, chain), let nameOffset = Self.long(bytes, chain + 4),
        let listOffset = Self.long(bytes, chain + 8)
      else { return [] }
      if Self.matches(bytes, nameOffset, key) {
        guard let count = Self.long(bytes, listOffset), listOffset + 4 + 8 * count <= bytes.count
        else { return [] }
        return (0..<count).compactMap { index in
          let entry = listOffset + 4 + 8 * index
          guard let directory = Self.word(bytes, entry), directory < directories.count,
            let flags = Self.word(bytes, entry + 2)
          else { return nil }
          return (directory, Suffixes(rawValue: UInt16(flags)))
        }
      }
      chain = next
    }
    return []
  }

  /// GTK's hash of icon names (`icon_name_hash`: signed characters, h*31 + c).
  package static func hash(_ key: [UInt8]) -> UInt32 {
    func signed(_ byte: UInt8) -> UInt32 { UInt32(bitPattern: Int32(Int8(bitPattern: byte))) }
    var hash = signed(key[0])
    for byte in key.dropFirst() { hash = (hash << 5) &- hash &+ signed(byte) }
    return hash
  }

  private static func word(_ bytes: [UInt8], _ offset: Int) -> Int? {
    guard offset >= 0, offset + 2 <= bytes.count else { return nil }
    return Int(bytes[offset]) << 8 | Int(bytes[offset + 1])
  }

  private static func long(_ bytes: [UInt8], _ offset: Int) -> Int? {
    guard offset >= 0, offset + 4 <= bytes.count else { return nil }
    return bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
  }

  private static func string(_ bytes: [UInt8], _ offset: Int) -> String? {
    guard offset >= 0, offset < bytes.count,
      let end = bytes[offset...].firstIndex(of: 0)
    else { return nil }
    return String(decoding: bytes[offset..<end], as: UTF8.self)
  }

  private static func matches(_ bytes: [UInt8], _ offset: Int, _ key: [UInt8]) -> Bool {
    guard offset >= 0, offset + key.count < bytes.count else { return false }
    return bytes[offset + key.count] == 0 && bytes[offset..<offset + key.count].elementsEqual(key)
  }
}
