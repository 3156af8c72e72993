import Glibc
import SystemSupport

/// The configuration file a command line reads: its path, and whether
/// `--config` named it. Nil when it reads none: a subcommand's (they take
/// nothing from the file, but `daemon --notifications` its notification
/// rules and `watch` its presets, from the standard file), `--no-config`'s,
/// or the standard file's when
/// `standardPath` is nil (neither `XDG_CONFIG_HOME` nor `HOME` set).
package func configFile(
  for arguments: [String], standardPath: @autoclosure () -> String? = Config.defaultPath
) -> (path: String, named: Bool)? {
  if let first = arguments.first, isSubcommand(first) {
    // A subcommand takes no --config: the standard file, when it reads one.
    guard readsConfiguration(arguments), let standard = standardPath() else { return nil }
    return (standard, false)
  }
  switch configChoice(in: arguments) {
  case .none: return nil
  case .file(let chosen): return (chosen, true)
  case .standard:
    guard let standard = standardPath() else { return nil }
    return (standard, false)
  }
}

/// The configuration file for a toast's command line (``configFile(for:standardPath:)``):
/// its problems are reported on standard error (`wl-toast: FILE:LINE:
/// message`) and its good lines kept. A standard file that is missing is no
/// file; one that cannot be read is skipped with a warning. A `--config` file
/// that is missing or cannot be read is thrown: a usage error.
package func loadConfig(
  for arguments: [String], standardPath: @autoclosure () -> String? = Config.defaultPath
) throws(ConfigError) -> Config? {
  guard let (path, named) = configFile(for: arguments, standardPath: standardPath()) else {
    return nil
  }
  switch Config.load(path: path) {
  case .success(let config?):
    let checked = config.checked()
    for problem in checked.problems { printError("wl-toast: \(problem)") }
    return checked
  case .success(nil):
    guard named else { return nil }
    throw ConfigError(path: path, reason: "\(Errno(rawValue: ENOENT))")
  case .failure(let error):
    if named { throw error }
    printError("wl-toast: \(error); going on without it")
    return nil
  }
}
