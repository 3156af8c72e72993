import Glibc
import SystemSupport
import TestSupport
import ToastCommand

// Start-up alone (--version), binary sizes and shared libraries.

@MainActor func measureSizes() {

  print("--version, sizes, libraries...")
  let versionCommands: [String: [String]] = [
    "wl-toast": [wlToast, "--version"], "wob": ["wob", "--version"],
    "swaynag": ["swaynag", "--version"], "mako": ["notify-send", "--version"],
  ]
  inRounds { round, keep in
    for tool in rotated(toolNames, round) {
      guard let arguments = versionCommands[tool] else { continue }
      var process = must("starting \(arguments[0])") {
        try Launched(arguments, environment: environment)
      }
      guard let (_, exited) = process.wait() else { fail("\(arguments[0]) --version hung") }
      if keep { record("version", tool, Double(exited - process.monotonic) / 1e6) }
    }
  }

  /// The size of a file in bytes.
  @MainActor func fileSize(_ path: String) -> Int? {
    var info = stat()
    return stat(path, &info) == 0 ? Int(info.st_size) : nil
  }

  /// The size in bytes of a stripped copy (`strip`: no symbols, no debug information).
  @MainActor func strippedSize(_ path: String) -> Int? {
    let copy = bench.scratch + "/stripped"
    defer { unlink(copy) }
    guard (try? bench.run(["strip", "-o", copy, path]))?.status == 0 else { return nil }
    return fileSize(copy)
  }

  /// How many shared libraries `ldd` lists (the vDSO not counted).
  @MainActor func libraryCount(_ path: String) -> Int? {
    guard let result = try? bench.run(["ldd", path]) else { return nil }
    if result.output.contains("statically linked") { return 0 }
    return result.output.split(separator: "\n").filter {
      $0.contains("/") && !$0.contains("linux-vdso")
    }.count
  }

  let showingPrograms = [
    "wl-toast": bench.owner, "wob": which("wob")!, "swaynag": which("swaynag")!,
    "mako": which("mako")!,
  ]
  let updatePrograms = ["wl-toast": wlToast, "mako": which("notify-send")!]
  for (tool, path) in showingPrograms {
    record("size-showing", tool, fileSize(path).map { Double($0) / 1024 })
    record("stripped-showing", tool, strippedSize(path).map { Double($0) / 1024 })
    record("libraries-showing", tool, libraryCount(path).map(Double.init))
  }
  for (tool, path) in updatePrograms {
    record("size-update", tool, fileSize(path).map { Double($0) / 1024 })
    record("stripped-update", tool, strippedSize(path).map { Double($0) / 1024 })
    record("libraries-update", tool, libraryCount(path).map(Double.init))
  }

}
