import Foundation

/// A set of protocol files installed by a Debian package.
struct ProtocolSet: Sendable, CustomStringConvertible {
  /// What the set is, for test names and messages.
  var name: String
  /// The Debian package that installs it.
  var package: String
  /// The directories whose XML files, at any depth, make up the set.
  var directories: [URL]

  var description: String { name }

  /// Whether the package is installed.
  var isInstalled: Bool {
    !directories.isEmpty
      && directories.allSatisfy { FileManager.default.fileExists(atPath: $0.path) }
  }

  /// The set's XML files, sorted by path.
  var files: [String] { directories.flatMap(xmlFiles(under:)) }

  /// wayland-protocols, which `make deps` installs.
  static let waylandProtocols = ProtocolSet(
    name: "wayland-protocols", package: "wayland-protocols",
    directories: [URL(filePath: "/usr/share/wayland-protocols")])

  /// KDE's protocols.
  static let plasma = ProtocolSet(
    name: "Plasma protocols", package: "plasma-wayland-protocols",
    directories: [URL(filePath: "/usr/share/plasma-wayland-protocols")])

  /// Weston's own protocols.
  static let weston = ProtocolSet(
    name: "Weston protocols", package: "libweston-10-dev",
    directories: [URL(filePath: "/usr/share/libweston-10/protocols")])

  /// wlr-protocols and the misc protocols that Debian ships inside the source of the
  /// Rust crate wayland-protocols; the crate's own copy of wayland-protocols is older
  /// than the package above and left aside.
  static let wlrAndMisc = ProtocolSet(
    name: "wlr and misc protocols", package: "librust-wayland-protocols-dev",
    directories: rustCrateDirectory.map {
      [$0.appending(path: "wlr-protocols"), $0.appending(path: "misc")]
    } ?? [])

  /// Every set this test target knows.
  static let all = [waylandProtocols, plasma, weston, wlrAndMisc]
}

/// The newest `wayland-protocols-*` crate source in Debian's cargo registry.
private let rustCrateDirectory: URL? = {
  let registry = URL(filePath: "/usr/share/cargo/registry")
  let names = (try? FileManager.default.contentsOfDirectory(atPath: registry.path)) ?? []
  return names.filter {
    $0.hasPrefix("wayland-protocols-") && $0.dropFirst(18).first?.isNumber == true
  }
  .max { $0.compare($1, options: .numeric) == .orderedAscending }
  .map { registry.appending(path: $0) }
}()

/// The XML files under a directory, at any depth, sorted by path.
func xmlFiles(under directory: URL) -> [String] {
  let enumerator = FileManager.default.enumerator(atPath: directory.path)
  var files: [String] = []
  while let path = enumerator?.nextObject() as? String {
    if path.hasSuffix(".xml") { files.append(directory.appending(path: path).path) }
  }
  return files.sorted()
}

/// An executable: the first of `candidates` that exists, else `name` on the PATH.
func executable(_ name: String, preferring candidates: [String] = []) -> URL? {
  let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
  let all = candidates + path.split(separator: ":").map { "\($0)/\(name)" }
  return all.first { FileManager.default.isExecutableFile(atPath: $0) }.map { URL(filePath: $0) }
}
