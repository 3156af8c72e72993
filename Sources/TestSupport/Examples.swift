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

/// A new directory of programs for the examples' key bindings, to put first
/// in PATH: `wl-toast` (this build's) and a stand-in `pactl` that reports the
/// volume at 55% and nothing muted. The caller removes it.
package func exampleBinDirectory() throws -> String {
  let bin = try makeTemporaryDirectory(prefix: "wl-toast-bin")
  chmod(bin, 0o755)
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
  symlink(builtProduct("wl-toast"), bin + "/wl-toast")
  return bin
}

/// `PATH` with `bin` (``exampleBinDirectory()``) first: what the examples'
/// key bindings run with.
package func examplePATH(_ bin: String) -> String {
  bin + ":" + (getenv("PATH").map { String(cString: $0) } ?? "/usr/bin:/bin")
}
