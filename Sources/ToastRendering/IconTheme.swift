import Glibc
import Synchronization
import SystemSupport

/// Where icon themes and unthemed icons are looked for, as the freedesktop
/// Icon Theme Specification and GTK have it: `$XDG_DATA_HOME/icons`
/// (`~/.local/share/icons`), `~/.icons`, then `icons` under each of
/// `$XDG_DATA_DIRS` (`/usr/local/share:/usr/share`); unthemed icons also in
/// `/usr/share/pixmaps`. A directory listed earlier wins.
public struct IconSearchPath: Hashable, Sendable {
  /// The directories that hold themes (`/usr/share/icons`), first wins.
  public var themeDirectories: [String]
  /// The directories searched for an icon file of the name itself, after
  /// every theme: the theme directories, then `/usr/share/pixmaps`.
  public var fallbackDirectories: [String]

  /// A search path of the given directories.
  public init(themeDirectories: [String], fallbackDirectories: [String]) {
    self.themeDirectories = themeDirectories
    self.fallbackDirectories = fallbackDirectories
  }

  /// The search path an environment describes (`HOME`, `XDG_DATA_HOME`,
  /// `XDG_DATA_DIRS`); relative paths in them are ignored, as the base
  /// directory specification asks.
  public init(environment: [String: String]) {
    func absolute(_ path: String?) -> String? {
      guard let path, path.hasPrefix("/") else { return nil }
      return path
    }
    let home = absolute(environment["HOME"])
    var directories: [String] = []
    if let data = absolute(environment["XDG_DATA_HOME"]) ?? home.map({ $0 + "/.local/share" }) {
      directories.append(data + "/icons")
    }
    if let home { directories.append(home + "/.icons") }
    let shared = (environment["XDG_DATA_DIRS"] ?? "").split(separator: ":").compactMap {
      absolute(String($0))
    }
    for directory in shared.isEmpty ? ["/usr/local/share", "/usr/share"] : shared {
      directories.append(directory + "/icons")
    }
    var unique: [String] = []
    for directory in directories where !unique.contains(directory) { unique.append(directory) }
    self.init(themeDirectories: unique, fallbackDirectories: unique + ["/usr/share/pixmaps"])
  }

  /// The search path of this process's environment, read once: every lookup
  /// (and every frame that draws an icon) uses it.
  public static let current: IconSearchPath = {
    var environment: [String: String] = [:]
    for name in ["HOME", "XDG_DATA_HOME", "XDG_DATA_DIRS"] {
      if let value = getenv(name) { environment[name] = String(cString: value) }
    }
    return IconSearchPath(environment: environment)
  }()
}

/// An icon file found for a name.
public struct IconFile: Equatable, Sendable {
  /// Its path.
  public var path: String
  /// The name it was found under (a fallback of the name asked for, perhaps).
  public var name: String
  /// The theme it was found in; nil for an unthemed icon (pixmaps) or a path.
  public var theme: String?
  /// The directory it was found in, for a themed icon.
  public var directory: IconDirectory?

  /// Whether it is an SVG (drawn at any size) rather than a bitmap.
  public var isScalable: Bool { path.hasSuffix(".svg") }

  /// Whether it is a symbolic icon, drawn in the text's colour: its file name
  /// (without the extension) ends in `-symbolic`.
  public var isSymbolic: Bool {
    var stem = Substring(
      path[(path.lastIndex(of: "/").map(path.index(after:)) ?? path.startIndex)...])
    for suffix in [".png", ".svg", ".PNG", ".SVG"] where stem.hasSuffix(suffix) {
      stem = stem.dropLast(suffix.count)
      break
    }
    return stem.hasSuffix("-symbolic")
  }
}

/// Icon lookup by the freedesktop Icon Theme Specification: a name is looked
/// for in the theme, the themes it inherits from, then `hicolor`, then
/// unthemed; in each theme, in the directory made for the size and scale
/// wanted, else the nearest, never a small bitmap enlarged when a larger one
/// or an SVG exists. Names fall back as GTK's do: `audio-volume-high-symbolic`,
/// `audio-volume-symbolic`, `audio-symbolic`, then `audio-volume-high`,
/// `audio-volume`, `audio`.
///
/// A theme is read when an icon is first looked up in it: its `index.theme`
/// and GTK's `icon-theme.cache` (or, without a current one, the listing of
/// each of its directories), kept for the process (per search path), so that
/// later lookups read nothing. Every 5 seconds at most
/// a lookup checks the directories' modification times and reads a changed
/// theme again. Only PNG and SVG files count (no XPM, nor GTK's own
/// `.symbolic.png`).
public struct IconLookup: Sendable {
  /// Where themes are looked for.
  public let searchPath: IconSearchPath

  /// A lookup over `searchPath`.
  public init(searchPath: IconSearchPath = .current) {
    self.searchPath = searchPath
  }

  /// The file extensions looked for, in order (the specification's, less XPM).
  static let extensions = [".png", ".svg"]

  /// The names tried for `name`, in order: shorter and shorter at its dashes,
  /// symbolic ones first when it is symbolic, then the others.
  public static func fallbackNames(_ name: String) -> [String] {
    let symbolic = name.hasSuffix("-symbolic")
    let base = symbolic ? String(name.dropLast("-symbolic".count)) : name
    var shorter: [String] = []
    var current = Substring(base)
    while !current.isEmpty {
      shorter.append(String(current))
      guard let dash = current.lastIndex(of: "-") else { break }
      current = current[..<dash]
    }
    let symbolicNames = shorter.map { $0 + "-symbolic" }
    return symbolic ? symbolicNames + shorter : shorter + symbolicNames
  }

  /// The themes looked in, in order: `theme`, its parents depth first as
  /// listed, then `hicolor`; themes that do not exist are left out.
  public func themeChain(_ theme: String?) -> [String] { chain(theme).map(\.name) }

  private func chain(_ theme: String?) -> [LoadedTheme] {
    var chain: [LoadedTheme] = []
    func visit(_ name: String, depth: Int) {
      guard depth < 32, !chain.contains(where: { $0.name == name }),
        let loaded = loadedTheme(name)
      else { return }
      chain.append(loaded)
      for parent in loaded.index.parents { visit(parent, depth: depth + 1) }
    }
    if let theme { visit(theme, depth: 0) }
    visit("hicolor", depth: 0)
    return chain
  }

  /// Finds the file for the icon `name` at `size` logical pixels drawn at
  /// `scale` (1.5: 72 device pixels for 48); nil when no theme has it.
  public func find(_ name: String, theme: String?, size: Int, scale: Double) -> IconFile? {
    guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
    let wholeScale = max(1, Int((scale - 1e-6).rounded(.up)))
    let pixels = max(1, Int((Double(size) * scale).rounded()))
    let names = Self.fallbackNames(name)
    for loaded in chain(theme) {
      for candidate in names {
        if let file = loaded.find(candidate, size: size, scale: wholeScale, pixels: pixels) {
          return IconFile(
            path: file.path, name: candidate, theme: loaded.name, directory: file.directory)
        }
      }
    }
    for candidate in names {
      for directory in searchPath.fallbackDirectories {
        for ext in Self.extensions where isFile(directory + "/" + candidate + ext) {
          return IconFile(path: directory + "/" + candidate + ext, name: candidate)
        }
      }
    }
    return nil
  }

  /// Whether a theme of this name exists on the search path (it has an
  /// `index.theme`).
  public func themeExists(_ name: String) -> Bool { loadedTheme(name) != nil }

  // MARK: - Themes, read once

  private struct ThemeKey: Hashable {
    var searchPath: IconSearchPath
    var name: String
  }

  private struct CachedTheme {
    /// The theme, or nil when there is none of that name.
    var theme: LoadedTheme?
    /// When it was read: the modification times of the theme's directory
    /// under each base directory (nil where there is none).
    var stamp: [Int?]
    /// When it was last found unchanged.
    var checkedAt: MonotonicTime
  }

  /// How long a theme read is used before its directories are looked at
  /// again (GTK's interval), so that icons installed meanwhile are found.
  static let recheckInterval: Duration = .seconds(5)

  /// The themes this process has read, by search path and name.
  private static let themes = Mutex<[ThemeKey: CachedTheme]>([:])

  /// The theme `name`, read at its first use and again when its directories
  /// changed; nil when it does not exist.
  private func loadedTheme(_ name: String) -> LoadedTheme? {
    guard !name.isEmpty, !name.contains("/"), name != ".", name != ".." else { return nil }
    let key = ThemeKey(searchPath: searchPath, name: name)
    let now = MonotonicTime.now
    let cached = Self.themes.withLock { $0[key] }
    if let cached, now - cached.checkedAt < Self.recheckInterval { return cached.theme }
    let stamp = LoadedTheme.stamp(of: name, in: searchPath)
    if let cached, cached.stamp == stamp, cached.theme?.isUnchanged ?? true {
      Self.themes.withLock { $0[key]?.checkedAt = now }
      return cached.theme
    }
    let loaded = LoadedTheme(name: name, searchPath: searchPath, stamp: stamp)
    Self.themes.withLock { $0[key] = CachedTheme(theme: loaded, stamp: stamp, checkedAt: now) }
    return loaded
  }
}

/// A theme read from disk: its index and, for each of its roots (its
/// directory under each base directory), GTK's cache of which icons its
/// directories hold, or where there is none, the listings of its directories;
/// so that a lookup reads nothing.
private final class LoadedTheme: Sendable {
  /// Where a file of a name is.
  struct Entry: Sendable {
    /// Its directory, in the index.
    var directory: Int32
    /// Its root, in ``LoadedTheme/roots``.
    var root: Int16
    /// Whether it is `NAME.svg` rather than `NAME.png`.
    var isSVG: Bool

    /// The specification's order: the index's directories, each under every
    /// root in search order, a PNG before an SVG.
    var order: (Int32, Int16, Int) { (directory, root, isSVG ? 1 : 0) }
  }

  let name: String
  let index: IconThemeIndex
  /// The theme's directory under each base directory that has one.
  let roots: [String]
  /// For each root, its GTK cache when it has a current one, with the
  /// index's number of each directory the cache names.
  let caches: [(cache: IconThemeCache, directories: [Int?])?]
  /// The directories listed (of roots without a cache) and their modification times.
  let listed: [(path: String, modified: Int)]
  /// The icon files of the listed directories by name (without extension).
  let files: [String: [Entry]]

  /// The largest `index.theme` read, in bytes (hicolor's is about 55 KiB).
  static let maximumIndexSize = 1 << 20

  /// The modification times of `name`'s directory under each base directory.
  static func stamp(of name: String, in searchPath: IconSearchPath) -> [Int?] {
    searchPath.themeDirectories.map { modificationTime(of: $0 + "/" + name) }
  }

  /// Reads the theme; nil when no base directory has its `index.theme`.
  init?(name: String, searchPath: IconSearchPath, stamp: [Int?]) {
    let roots = zip(searchPath.themeDirectories, stamp).compactMap {
      $1 == nil ? nil : $0 + "/" + name
    }
    guard
      let text = roots.lazy.compactMap({
        readSmallFile($0 + "/index.theme", limit: Self.maximumIndexSize)
      }).first
    else { return nil }
    self.name = name
    index = IconThemeIndex(parsing: String(decoding: text, as: UTF8.self))
    let numbers = Dictionary(
      index.directories.enumerated().map { ($1.path, $0) }, uniquingKeysWith: { first, _ in first })
    var caches: [(cache: IconThemeCache, directories: [Int?])?] = []
    var listed: [(path: String, modified: Int)] = []
    var files: [String: [Entry]] = [:]
    for (rootNumber, root) in roots.enumerated() {
      if let cache = IconThemeCache(root: root) {
        caches.append((cache, cache.directories.map { numbers[$0] }))
        continue
      }
      caches.append(nil)
      for (number, directory) in index.directories.enumerated() {
        let path = root + "/" + directory.path
        guard let listing = readDirectory(path) else { continue }
        listed.append((path, listing.modified))
        for file in listing.names {
          let isSVG = file.hasSuffix(".svg")
          guard isSVG || file.hasSuffix(".png") else { continue }
          let stem = String(file.dropLast(4))
          // GTK's own pre-drawn symbolic icons (NAME.symbolic.png) are not the specification's.
          guard !stem.isEmpty, !stem.hasSuffix(".symbolic") else { continue }
          files[stem, default: []].append(
            Entry(directory: Int32(number), root: Int16(rootNumber), isSVG: isSVG))
        }
      }
    }
    self.roots = roots
    self.caches = caches
    self.listed = listed
    self.files = files
  }

  /// Whether every directory listed still has the modification time it had
  /// (a cache is as current as its root, which the stamp covers).
  var isUnchanged: Bool {
    listed.allSatisfy { modificationTime(of: $0.path) == $0.modified }
  }

  /// Every file of `name` in the theme, in the specification's order.
  func entries(_ name: String) -> [Entry] {
    var entries = files[name] ?? []
    for (root, cached) in caches.enumerated() {
      guard let cached else { continue }
      for image in cached.cache.images(of: name) {
        guard let number = cached.directories[image.directory] else { continue }
        for (suffix, isSVG) in [(IconThemeCache.Suffixes.png, false), (.svg, true)]
        where image.suffixes.contains(suffix) {
          entries.append(Entry(directory: Int32(number), root: Int16(root), isSVG: isSVG))
        }
      }
    }
    return entries.sorted { $0.order < $1.order }
  }

  /// The best file for `name` in this theme: the first in a directory made
  /// for the size and scale, else the nearest (an SVG or a larger bitmap
  /// before a smaller bitmap, which would be enlarged).
  func find(_ name: String, size: Int, scale: Int, pixels: Int) -> (
    path: String, directory: IconDirectory
  )? {
    var best: (path: String, directory: IconDirectory, key: (Int, Int))?
    for entry in entries(name) {
      let directory = index.directories[Int(entry.directory)]
      let path =
        roots[Int(entry.root)] + "/" + directory.path + "/" + name + (entry.isSVG ? ".svg" : ".png")
      if directory.matches(size: size, scale: scale) { return (path, directory) }
      let enlarged = !entry.isSVG && directory.pixelRange.upperBound < pixels
      let key = (enlarged ? 1 : 0, directory.distance(pixels: pixels))
      if best.map({ key < $0.key }) ?? true { best = (path, directory, key) }
    }
    return best.map { ($0.path, $0.directory) }
  }
}

// MARK: - Small file helpers

/// Whether `path` is a regular file (following symbolic links).
func isFile(_ path: String) -> Bool {
  var info = stat()
  return stat(path, &info) == 0 && info.st_mode & S_IFMT == S_IFREG
}

/// The modification time of a directory in nanoseconds; nil when there is
/// none at `path`.
func modificationTime(of path: String) -> Int? {
  var info = stat()
  guard stat(path, &info) == 0, info.st_mode & S_IFMT == S_IFDIR else { return nil }
  return info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec
}

/// The names in a directory (without `.` and `..`) and its modification
/// time; nil when it is not a directory that can be read.
func readDirectory(_ path: String) -> (names: [String], modified: Int)? {
  guard let directory = opendir(path) else { return nil }
  defer { closedir(directory) }
  var info = stat()
  guard fstat(dirfd(directory), &info) == 0 else { return nil }
  var names: [String] = []
  while let entry = readdir(directory) {
    let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
      String(cString: raw.bindMemory(to: CChar.self).baseAddress!)
    }
    if name != "." && name != ".." { names.append(name) }
  }
  return (names, info.st_mtim.tv_sec * 1_000_000_000 + info.st_mtim.tv_nsec)
}

/// The bytes of a regular file of at most `limit` bytes; nil otherwise.
func readSmallFile(_ path: String, limit: Int) -> [UInt8]? {
  try? readIconFile(path, limit: limit).get().bytes
}

/// The bytes of a regular file of at most `limit` bytes, and its stamp.
func readIconFile(_ path: String, limit: Int) -> Result<
  (bytes: [UInt8], stamp: FileStamp), FileReadError
> {
  readRegularFile(path, limit: limit).map { ($0.bytes, FileStamp($0.status)) }
}

extension StringProtocol {
  /// The text without spaces, tabs and carriage returns at either end.
  var trimmingWhitespace: String {
    var bytes = Substring(self).utf8
    let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 || $0 == 0x0d }
    while let first = bytes.first, blank(first) { bytes.removeFirst() }
    while let last = bytes.last, blank(last) { bytes.removeLast() }
    return String(Substring(bytes))
  }
}
