import ToastModel
import ToastNagOptions

/// The configuration files swaynag looks for when `-c` names none, in its
/// order (swaynag_get_config_path): the first that can be read is read.
/// `XDG_CONFIG_HOME`, when unset or empty, is `$HOME/.config`; an unset
/// `HOME` is empty, as the shell's expansion has it.
func nagConfigCandidates(environment: [String: String]) -> [String] {
  let home = environment["HOME"] ?? ""
  let configHome = environment["XDG_CONFIG_HOME"].flatMap { $0.isEmpty ? nil : $0 }
  return [
    home + "/.swaynag/config",
    (configHome ?? home + "/.config") + "/swaynag/config",
    "/etc/swaynag/config",
  ]
}

extension NagParser {
  /// Reads a configuration file as swaynag_load_config does: each line that
  /// is not empty and does not start with `#` either starts a type's section
  /// (`[name]`: the type of that name, in any case, or a new one) or is the
  /// option `--LINE` (so `key=value`), applied to the current type: the
  /// global part (`<config>`) before the first section. Buttons and messages
  /// apply to the bar, as in swaynag (a button never has its action, the
  /// next word, so it fails). `contents` nil: a warning, and no file.
  mutating func loadConfig(
    path: String, contents: [UInt8]?, inOrder: Bool, readStandardInput: () -> [UInt8]
  ) throws(NagStop) {
    let quotedPath = Toast.quoted(path, cutAfter: nil)
    guard let contents else {
      bar.warnings.append("failed to read config file \(quotedPath), running without it")
      return
    }
    types.append(NagType(name: "<config>"))
    var current = types.count - 1
    var lineNumber = 0
    var start = contents.startIndex
    while start < contents.endIndex {
      let end = contents[start...].firstIndex(of: UInt8(ascii: "\n")) ?? contents.endIndex
      let line = contents[start..<end]
      start = end + 1
      lineNumber += 1
      // swaynag skips a line that is empty or starts with '#' or NUL, and
      // then sees the rest as a C string: up to its first NUL.
      guard let first = line.first, first != 0, first != UInt8(ascii: "#") else { continue }
      let bytes = line.prefix { $0 != 0 }
      do throws(NagStop) {
        guard let text = String(validating: bytes, as: UTF8.self) else {
          throw .failed("not UTF-8")
        }
        if first == UInt8(ascii: "[") {
          guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else {
            throw .failed("closing bracket not found", status: NagError.failureStatus)
          }
          let name = String(decoding: bytes[(bytes.startIndex + 1)..<close], as: UTF8.self)
          if let index = types.firstIndex(named: name) {
            current = index
          } else {
            types.append(NagType(name: name))
            current = types.count - 1
          }
          continue
        }
        let scan = scanNagOptions(["--" + text], inOrder: inOrder)
        for occurrence in scan.occurrences {
          try apply(occurrence, to: current, readStandardInput: readStandardInput)
        }
        if let failure = scan.failure { throw .failed(failure) }
      } catch {
        guard case .failed(let failure) = error else { throw error }
        throw .failed(
          "config file \(quotedPath), line \(lineNumber): \(failure.message)",
          status: failure.exitStatus)
      }
    }
  }
}
