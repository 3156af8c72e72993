/// One directory of an icon theme as its `index.theme` describes it: the
/// icon size it is made for, at which scale, and how far that stretches.
public struct IconDirectory: Equatable, Sendable {
  /// How a directory's icons may be sized.
  public enum Kind: String, Equatable, Sendable {
    /// Only at ``IconDirectory/size``.
    case fixed = "Fixed"
    /// From ``IconDirectory/minimumSize`` to ``IconDirectory/maximumSize``.
    case scalable = "Scalable"
    /// Within ``IconDirectory/threshold`` of ``IconDirectory/size`` (the default).
    case threshold = "Threshold"
  }

  /// The directory, relative to the theme's (`48x48/apps`).
  public var path: String
  /// The nominal size in logical pixels.
  public var size: Int
  /// The scale its icons are drawn for (2: `48x48@2`, 96 pixels).
  public var scale: Int
  /// How its icons may be sized.
  public var kind: Kind
  /// The smallest size a scalable directory's icons are for.
  public var minimumSize: Int
  /// The largest size a scalable directory's icons are for.
  public var maximumSize: Int
  /// How far from its size a threshold directory's icons may be used.
  public var threshold: Int

  /// A directory with the specification's defaults: threshold 2, scale 1,
  /// minimum and maximum the size.
  public init(
    path: String, size: Int, scale: Int = 1, kind: Kind = .threshold, minimumSize: Int? = nil,
    maximumSize: Int? = nil, threshold: Int = 2
  ) {
    self.path = path
    self.size = size
    self.scale = scale
    self.kind = kind
    self.minimumSize = minimumSize ?? size
    self.maximumSize = maximumSize ?? size
    self.threshold = threshold
  }

  /// Whether the directory is made for icons of `size` at `scale` (the
  /// specification's DirectoryMatchesSize).
  public func matches(size wanted: Int, scale wantedScale: Int) -> Bool {
    guard scale == wantedScale else { return false }
    switch kind {
    case .fixed: return size == wanted
    case .scalable: return minimumSize <= wanted && wanted <= maximumSize
    case .threshold: return size - threshold <= wanted && wanted <= size + threshold
    }
  }

  /// The device pixels its icons are made for, from the smallest to the largest.
  public var pixelRange: ClosedRange<Int> {
    let (low, high): (Int, Int)
    switch kind {
    case .fixed: (low, high) = (size, size)
    case .scalable: (low, high) = (minimumSize, maximumSize)
    case .threshold: (low, high) = (size - threshold, size + threshold)
    }
    return max(low, 0) * scale...max(high, low, 0) * scale
  }

  /// How many device pixels lie between `pixels` and the sizes the directory
  /// is made for (the specification's DirectorySizeDistance, with a threshold
  /// directory's range taken as its size plus or minus the threshold).
  public func distance(pixels: Int) -> Int {
    let range = pixelRange
    if pixels < range.lowerBound { return range.lowerBound - pixels }
    if pixels > range.upperBound { return pixels - range.upperBound }
    return 0
  }
}

/// What an icon theme's `index.theme` says: its parents and its directories.
public struct IconThemeIndex: Equatable, Sendable {
  /// The themes it inherits from, in order (`Inherits`).
  public var parents: [String]
  /// Its directories in the order listed (`Directories`, then `ScaledDirectories`).
  public var directories: [IconDirectory]

  /// The keys read; the others (names, comments, contexts) are skipped.
  static let keys: Set<String> = [
    "Inherits", "Directories", "ScaledDirectories", "Size", "Scale", "Type", "MinSize",
    "MaxSize", "Threshold",
  ]

  /// The most directories read from one index (hicolor lists about 650).
  static let maximumDirectories = 4096

  /// Reads an `index.theme` (a desktop-entry style file). Directories without
  /// a valid `Size`, or with nonsense values, are left out.
  public init(parsing text: String) {
    // Bytes and offsets rather than characters: hicolor's index is 55 KiB.
    let bytes = Array(text.utf8)
    func string(_ range: Range<Int>) -> String {
      var (start, end) = (range.lowerBound, range.upperBound)
      while start < end, [0x20, 0x09, 0x0d].contains(bytes[start]) { start += 1 }
      while end > start, [0x20, 0x09, 0x0d].contains(bytes[end - 1]) { end -= 1 }
      return String(decoding: bytes[start..<end], as: UTF8.self)
    }
    var sections: [String: [String: String]] = [:]
    var current: String?
    var start = 0
    while start < bytes.count {
      let end = bytes[start...].firstIndex(of: 0x0a) ?? bytes.count
      defer { start = end + 1 }
      let line = string(start..<end)
      guard let first = line.utf8.first, first != UInt8(ascii: "#") else { continue }
      if first == UInt8(ascii: "["), line.utf8.last == UInt8(ascii: "]") {
        let name = String(line.dropFirst().dropLast())
        current = name
        if sections[name] == nil { sections[name] = [:] }
        continue
      }
      guard let current, let equals = bytes[start..<end].firstIndex(of: UInt8(ascii: "="))
      else { continue }
      let key = string(start..<equals)
      // The first value of a key counts.
      guard Self.keys.contains(key), sections[current]?[key] == nil else { continue }
      sections[current]?[key] = string(equals + 1..<end)
    }
    let header = sections["Icon Theme"] ?? [:]
    func list(_ key: String) -> [String] {
      (header[key] ?? "").utf8.split(separator: UInt8(ascii: ",")).compactMap {
        let item = String(Substring($0)).trimmingWhitespace
        return item.isEmpty ? nil : item
      }
    }
    parents = list("Inherits")
    var directories: [IconDirectory] = []
    var seen: Set<String> = []
    for path in list("Directories") + list("ScaledDirectories") {
      guard directories.count < Self.maximumDirectories, !seen.contains(path),
        let section = sections[path]
      else { continue }
      seen.insert(path)
      func number(_ key: String) -> Int? {
        section[key].flatMap { Int($0) }.flatMap { (0...65536).contains($0) ? $0 : nil }
      }
      guard let size = number("Size"), size > 0 else { continue }
      let kind = section["Type"].flatMap(IconDirectory.Kind.init(rawValue:)) ?? .threshold
      let scale = min(max(number("Scale") ?? 1, 1), 64)
      directories.append(
        IconDirectory(
          path: path, size: size, scale: scale, kind: kind, minimumSize: number("MinSize"),
          maximumSize: number("MaxSize"), threshold: number("Threshold") ?? 2))
    }
    self.directories = directories
  }
}
