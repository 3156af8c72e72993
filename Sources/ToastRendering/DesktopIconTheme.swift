import Glibc
import SystemSupport
import ToastModel

/// The icon theme the desktop chose, found as GTK finds it, for a toast that
/// names none (`--icon-theme`, the `icon-theme` key): `gtk-icon-theme-name`
/// in `$XDG_CONFIG_HOME/gtk-3.0/settings.ini`, then `gtk-4.0/settings.ini`,
/// then the same files under each of `$XDG_CONFIG_DIRS`; otherwise Adwaita
/// when it is installed; otherwise none (hicolor alone, the specification's
/// fallback, which every lookup ends in anyway).
public enum DesktopIconTheme {
  /// The desktop's theme for this process, read once (as the icon search path is).
  public static let current: String? = name(
    environment: processEnvironment(), readFile: { readSmallFile($0, limit: 65_536) },
    isInstalled: { IconLookup().themeChain($0).first == $0 })

  /// The theme the settings files name, or Adwaita when `isInstalled` says
  /// it is, or nil. A file that cannot be read, or names no theme or a name
  /// no theme can have, counts as absent.
  public static func name(
    environment: [String: String], readFile: (String) -> [UInt8]?,
    isInstalled: (String) -> Bool
  ) -> String? {
    let home = environment["HOME"].flatMap { $0.isEmpty ? nil : $0 }
    let configHome =
      environment["XDG_CONFIG_HOME"].flatMap { $0.hasPrefix("/") ? $0 : nil }
      ?? home.map { $0 + "/.config" }
    let configDirs =
      (environment["XDG_CONFIG_DIRS"].flatMap { $0.isEmpty ? nil : $0 } ?? "/etc/xdg")
      .split(separator: ":").map(String.init).filter { $0.hasPrefix("/") }
    for directory in (configHome.map { [$0] } ?? []) + configDirs {
      for version in ["gtk-3.0", "gtk-4.0"] {
        if let bytes = readFile("\(directory)/\(version)/settings.ini"),
          let theme = iconThemeName(in: bytes)
        {
          return theme
        }
      }
    }
    return isInstalled("Adwaita") ? "Adwaita" : nil
  }

  /// `gtk-icon-theme-name` of the `[Settings]` group of a GTK settings file
  /// (a GKeyFile: `key = value` lines, `#` comments), when it names a theme
  /// by ``ToastModel/Toast/checkedIconTheme(_:)``'s rule.
  static func iconThemeName(in bytes: [UInt8]) -> String? {
    guard let text = String(validating: bytes, as: UTF8.self) else { return nil }
    var group = ""
    var found: String?
    for raw in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
      let line = raw.drop { $0 == " " || $0 == "\t" }
      if line.hasPrefix("#") { continue }
      if line.hasPrefix("[") {
        group = String(line.dropFirst().prefix { $0 != "]" })
        continue
      }
      guard group == "Settings", let equals = line.firstIndex(of: "=") else { continue }
      let key = line[..<equals].trimmingWhitespace
      guard key == "gtk-icon-theme-name" else { continue }
      var value = Substring(line[line.index(after: equals)...].trimmingWhitespace)
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = value.dropFirst().dropLast()
      }
      found = String(value)  // the last of the group counts, as in a GKeyFile
    }
    return found.flatMap { try? Toast.checkedIconTheme($0) }
  }
}
