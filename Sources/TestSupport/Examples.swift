import Glibc

/// The repository this build comes from: its `Examples/` and `scripts/`
/// are used for real by the tests.
package let repositoryDirectory: String = {
  // #filePath is ROOT/Sources/TestSupport/Examples.swift.
  var path = #filePath
  for _ in 0..<3 { path = String(path[..<(path.lastIndex(of: "/") ?? path.startIndex)]) }
  return path
}()

/// The repository's `Examples/` directory, which the tests use for real.
package let examplesDirectory = repositoryDirectory + "/Examples"

/// Which `pactl` the examples' key bindings run.
package enum ExamplePactl: Sendable {
  /// A stand-in that reports the volume at 55% and nothing muted.
  case standIn
  /// The installed one, for a sound server of the test's (``SoundServer``).
  case installed
}

/// A new directory of programs for the examples' key bindings, to put first
/// in PATH: `wl-toast` (this build's) and, unless `pactl` is `.installed`, a
/// stand-in `pactl` (``ExamplePactl/standIn``). The caller removes it.
package func exampleBinDirectory(pactl: ExamplePactl = .standIn) throws -> String {
  let bin = try makeTemporaryDirectory(prefix: "wl-toast-bin")
  chmod(bin, 0o755)
  symlink(builtProduct("wl-toast"), bin + "/wl-toast")
  guard pactl == .standIn else { return bin }
  try writeFile(
    bin + "/pactl",
    """
    #!/bin/sh
    case "$1" in
    get-sink-volume) echo "Volume: front-left: 36044 /  55% / -15.58 dB,   front-right: 36044 /  55% / -15.58 dB" ;;
    get-sink-mute|get-source-mute) echo "Mute: no" ;;
    esac
    exit 0

    """, mode: 0o755)
  return bin
}

/// The default output's volume in percent, as `pactl get-sink-volume` prints
/// it (its first channel), on `server`.
package func defaultSinkPercent(_ server: SoundServer) throws -> Int {
  let output = try server.pactl(["get-sink-volume", "@DEFAULT_SINK@"]).output
  guard let percent = output.split(separator: "/").dropFirst().first,
    let value = Int(percent.filter(\.isNumber))
  else { throw HarnessError("pactl get-sink-volume printed \(output)") }
  return value
}

/// A configuration home for a compositor's session (its `XDG_CONFIG_HOME`)
/// whose `[preset volume]` keeps the volume HUD of `watch audio` on screen,
/// without animation, until the next change: what the tests of the watcher
/// and of the examples look at, however slow the machine. The caller removes it.
package func volumeHUDConfigHome() throws -> String {
  let home = try makeTemporaryDirectory(prefix: "wl-toast-config")
  try makeConfigHome(at: home, config: "[preset volume]\ntimeout = 0\nno-animation = true\n")
  return home
}

/// Makes `path` a configuration home (an `XDG_CONFIG_HOME`) whose wl-toast
/// configuration file holds `text`, readable by a compositor's session of
/// another user (sway as root runs as nobody).
package func makeConfigHome(at path: String, config text: String) throws {
  for directory in [path, path + "/wl-toast"] {
    guard mkdir(directory, 0o755) == 0 || errno == EEXIST else {
      throw HarnessError("cannot make \(directory): \(String(cString: strerror(errno)))")
    }
    chmod(directory, 0o755)
  }
  try writeFile(path + "/wl-toast/config", text, mode: 0o644)
}

/// `PATH` with `bin` (``exampleBinDirectory()``) first: what the examples'
/// key bindings run with.
package func examplePATH(_ bin: String) -> String {
  bin + ":" + (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
}
