import Glibc
import SystemSupport
import ToastModel
import ToastProtocol

/// The configuration file, `$XDG_CONFIG_HOME/wl-toast/config` (INI, like
/// wob.ini and avizo's config.ini): a `[default]` section and `[preset NAME]`
/// sections, each of `key = value` lines whose keys are the command's options
/// without their dashes (`timeout = 1.5`, `no-animation = true`); and for
/// notifications' cards, a `[notifications]` section and criteria sections
/// (`[app-name=Firefox]`, ``NotificationCriteria``) of a toast's settings.
///
/// Reading never fails on a bad line: each is reported as `FILE:LINE: message`
/// in ``problems`` and skipped, and the rest loads.
package struct Config: Equatable, Sendable {
  /// One `key = value` line.
  package struct Entry: Equatable, Sendable {
    /// The key: an option's name without its dashes.
    package var key: String
    /// The value as written (without surrounding quotes).
    package var value: String
    /// The line it is on, from 1.
    package var line: Int
  }

  /// The file's path, for messages.
  package let path: String
  /// The `[default]` section's lines, in order.
  package private(set) var defaults: [Entry] = []
  /// Each `[preset NAME]` section's lines, by name.
  package private(set) var presets: [String: [Entry]] = [:]
  /// The `[notifications]` and criteria sections, in the file's order.
  package private(set) var notificationSections: [NotificationSection] = []
  /// What was wrong with the file, one `FILE:LINE: message` line each.
  package internal(set) var problems: [String] = []

  /// The preset names, sorted.
  package var presetNames: [String] { presets.keys.sorted() }

  /// Parses the text of the file at `path`.
  package init(text: String, path: String) {
    self.path = path
    enum Section {
      case none
      case defaults
      case preset(String)
      /// The index of a notification section.
      case notifications(Int)
      /// A criteria section whose header is broken (reported): its lines
      /// are skipped without a word.
      case broken
    }
    var section = Section.none
    var number = 0
    // A byte order mark is no part of the first line; "\r\n" is one
    // Character, a line end as "\n" is.
    let body = text.first == "\u{FEFF}" ? text.dropFirst() : Substring(text)
    for rawLine in body.split(
      omittingEmptySubsequences: false,
      whereSeparator: {
        $0 == "\n" || $0 == "\r\n"
      })
    {
      number += 1
      let line = rawLine.drop { $0 == " " || $0 == "\t" }.reversed().drop {
        $0 == " " || $0 == "\t" || $0 == "\r"
      }.reversed()
      let trimmed = String(line)
      if trimmed.isEmpty || trimmed.hasPrefix("#") || trimmed.hasPrefix(";") { continue }
      if trimmed.hasPrefix("[") {
        guard trimmed.hasSuffix("]") else {
          problem(number, "a section header ends with ']'")
          section = .none
          continue
        }
        let inside = String(trimmed.dropFirst().dropLast())
        let name = inside.split(separator: " ", omittingEmptySubsequences: true)
        if name == ["notifications"] || NotificationCriteria.isCriteria(inside) {
          section = .none
          var criteria: NotificationCriteria?
          if name != ["notifications"] {
            do throws(NotificationCriteria.Problem) {
              criteria = try NotificationCriteria(parsing: inside)
            } catch {
              problem(number, "section \(Toast.quoted(trimmed)): \(error.message)")
              section = .broken
              continue
            }
          }
          section = .notifications(notificationSections.count)
          notificationSections.append(NotificationSection(criteria: criteria, line: number))
        } else if name == ["default"] {
          section = .defaults
        } else if name.count == 2, name[0] == "preset" {
          let preset = String(name[1])
          section = .preset(preset)
          if presets[preset] == nil { presets[preset] = [] }
        } else {
          problem(number, "unknown section \(Toast.quoted(trimmed)) (expected \(Config.sections))")
          section = .none
        }
        continue
      }
      guard let equals = trimmed.firstIndex(of: "=") else {
        problem(number, "expected KEY = VALUE, got \(Toast.quoted(trimmed))")
        continue
      }
      let key = String(trimmed[..<equals]).trimmingSpaces
      var value = String(trimmed[trimmed.index(after: equals)...]).trimmingSpaces
      if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
        value = String(value.dropFirst().dropLast())
      }
      guard !key.isEmpty else {
        problem(number, "a key is missing before '='")
        continue
      }
      let entry = Entry(key: key, value: value, line: number)
      switch section {
      case .none: problem(number, "\(key): outside a section (\(Config.sections))")
      case .defaults: defaults.append(entry)
      case .preset(let name): presets[name, default: []].append(entry)
      case .notifications(let index): notificationSections[index].entries.append(entry)
      case .broken: break
      }
    }
  }

  /// The sections a file may have, as messages list them.
  static let sections =
    "[default], [preset NAME], [notifications] or criteria such as [app-name=NAME]"

  /// Sets the entries that passed their checks.
  mutating func replaceEntries(
    defaults: [Entry], presets: [String: [Entry]], notificationSections: [NotificationSection]
  ) {
    self.defaults = defaults
    self.presets = presets
    self.notificationSections = notificationSections
  }

  /// Records a problem on a line. A control character the message carries
  /// from the file (a key is shown as written) is escaped, so the problem
  /// stays one line.
  mutating func problem(_ line: Int, _ message: String) {
    problems.append(Toast.escapingLineBreaks("\(path):\(line): \(message)"))
  }

  /// Where the file is: `$XDG_CONFIG_HOME/wl-toast/config`, or
  /// `~/.config/wl-toast/config`; nil when neither variable is set.
  package static var defaultPath: String? {
    if let config = environment("XDG_CONFIG_HOME"), config.hasPrefix("/") {
      return config + "/wl-toast/config"
    }
    return environment("HOME").map { $0 + "/.config/wl-toast/config" }
  }

  /// The longest file read, in bytes.
  package static let maximumSize = 1 << 20

  /// Reads the file at `path`; nil when there is none (ENOENT), an error
  /// message when it cannot be read.
  package static func load(path: String) -> Result<Config?, ConfigError> {
    // Opened without blocking: a FIFO nobody writes to would hold the open
    // for ever. A pipe then blocks again, so `--config <(…)` is read whole.
    let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)
    guard fd >= 0 else {
      if errno == ENOENT { return .success(nil) }
      return .failure(ConfigError(path: path, reason: "\(Errno.current)"))
    }
    defer { close(fd) }
    _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK)
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 16_384)
    while true {
      let count = retryingOnInterrupt { read(fd, &buffer, buffer.count) }
      if count < 0 { return .failure(ConfigError(path: path, reason: "\(Errno.current)")) }
      if count == 0 { break }
      bytes += buffer[0..<count]
      if bytes.count > maximumSize {
        return .failure(ConfigError(path: path, reason: "larger than \(maximumSize) bytes"))
      }
    }
    return .success(Config(text: String(decoding: bytes, as: UTF8.self), path: path))
  }
}

extension Config {
  /// A `[notifications]` section or a criteria section (`[app-name=Firefox]`):
  /// a toast's settings for the cards of the notifications it applies to.
  package struct NotificationSection: Equatable, Sendable {
    /// Whom the section applies to; nil for `[notifications]`, all of them.
    package var criteria: NotificationCriteria?
    /// The line of its header, from 1.
    package var line: Int
    /// Its lines, in order.
    package var entries: [Entry] = []
  }
}

/// A configuration file that exists but cannot be read.
package struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
  /// The file.
  package var path: String
  /// Why.
  package var reason: String

  /// `cannot read PATH: REASON`.
  package var description: String { "cannot read \(path): \(reason)" }
}

/// An environment variable's value, nil when unset or empty.
func environment(_ name: String) -> String? {
  guard let value = getenv(name) else { return nil }
  let text = String(cString: value)
  return text.isEmpty ? nil : text
}

extension String {
  /// The string without spaces and tabs at either end.
  var trimmingSpaces: String {
    String(
      drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
  }
}
