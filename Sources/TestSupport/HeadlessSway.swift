import Glibc
import ToastProtocol
import Wayland

/// A headless sway of its own for one test or suite: private runtime
/// directory, pixman renderer, one 1280x720 output, no input devices.
///
/// sway refuses to run as root, so as root it runs as uid 65534 through
/// `setpriv`; clients connect to the absolute socket path either way.
package final class HeadlessSway: CapturedCompositor {
  /// The runtime directory sway uses (its sockets and the log live here).
  package let runtimeDirectory: String
  /// The absolute path of the Wayland socket.
  package let socketPath: String
  /// The absolute path of the sway IPC socket.
  package let ipcSocketPath: String
  /// The output's size in pixels.
  package let outputWidth: Int
  /// The output's size in pixels.
  package let outputHeight: Int
  /// The background colour of the output.
  package static let background = RGB(0x20, 0x40, 0x80)

  private let process: ChildProcess
  private var stopped = false

  /// Starts sway and waits until its IPC answers. `extraConfig` is appended to
  /// the config; `environment` adds or replaces variables of sway (and so of
  /// the programs its bindings run).
  ///
  /// With `nestedIn`, this sway runs as a client of another one, with `outputs`
  /// outputs that are windows there: closing such a window unplugs that output
  /// (what a headless output cannot do).
  package init(
    width: Int = 1280, height: Int = 720, extraConfig: String = "",
    environment extra: [String: String] = [:], nestedIn outer: HeadlessSway? = nil,
    outputs: Int = 2
  ) throws {
    outputWidth = width
    outputHeight = height
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-sway")
    runtimeDirectory = directory
    let asRoot = geteuid() == 0
    let config = directory + "/config"
    try writeFile(
      config,
      """
      xwayland disable
      output HEADLESS-1 mode \(width)x\(height) position 0 0
      output * bg #204080 solid_color
      default_border none
      focus_follows_mouse no
      \(extraConfig)

      """)
    let log = directory + "/sway.log"
    if asRoot {
      chown(directory, 65534, 65534)
      chown(config, 65534, 65534)
    }
    chmod(directory, 0o700)
    var environment = headlessCompositorEnvironment(directory: directory)
    if let outer {
      environment["WLR_BACKENDS"] = "wayland"
      environment["WLR_WL_OUTPUTS"] = String(outputs)
      environment["WAYLAND_DISPLAY"] = outer.socketPath
    }
    environment.merge(extra) { $1 }
    let command =
      (asRoot ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] : [])
      + ["sway", "-c", config]
    let process = try ChildProcess(command, environment: environment, logPath: log)
    self.process = process

    var wayland: String?
    var ipc: String?
    var failure: String?
    do {
      try waitUntil(
        wayland == nil
          ? "its Wayland socket" : ipc == nil ? "its IPC socket" : "an answer on its IPC socket",
        timeout: 15
      ) {
        guard process.isRunning else { return true }
        let entries = listDirectory(directory)
        wayland = entries.first { $0.hasPrefix("wayland-") && !$0.hasSuffix(".lock") }
          .map { directory + "/" + $0 }
        ipc = entries.first { $0.hasPrefix("sway-ipc.") && $0.hasSuffix(".sock") }
          .map { directory + "/" + $0 }
        guard let ipc, wayland != nil else { return false }
        let answer = try runCommand(
          ["swaymsg", "-s", ipc, "-t", "get_version"], environment: currentEnvironment())
        return answer.status == 0
      }
      if let status = process.exitStatus { failure = "it exited with status \(status)" }
    } catch {
      failure = "\(error)"
    }
    guard failure == nil, let wayland, let ipc else {
      process.terminate()
      let tail = readFile(log).map { String(decoding: $0.suffix(2000), as: UTF8.self) } ?? ""
      removeTree(directory)
      throw HarnessError(
        "headless sway did not start: \(failure ?? "no sockets"); its log ends with:\n\(tail)")
    }
    socketPath = wayland
    ipcSocketPath = ipc
  }

  deinit { stop() }

  /// Sends a sway command or message through IPC and returns the reply.
  @discardableResult
  package func swaymsg(_ arguments: [String]) throws -> String {
    try runTool(["swaymsg", "-s", ipcSocketPath] + arguments, environment: currentEnvironment())
  }

  /// The environment for a client of this sway.
  package var clientEnvironment: [String: String] {
    var environment = currentEnvironment()
    environment["WAYLAND_DISPLAY"] = socketPath
    environment["SWAYSOCK"] = ipcSocketPath
    // No configuration file of the user's: wl-toast's defaults only.
    environment["XDG_CONFIG_HOME"] = runtimeDirectory + "/no-config"
    return environment
  }

  /// Whether sway still runs (`swaymsg exit` ends it).
  package var isRunning: Bool { process.isRunning }

  /// sway's exit status once it has ended (0 after `swaymsg exit`, 128 plus
  /// the signal after a crash); nil while it runs.
  package var exitStatus: Int32? { process.exitStatus }

  /// Stops sway's process (`SIGSTOP`) until ``resume()``: a compositor that
  /// accepts connections on its Wayland and IPC sockets and never answers.
  package func pause() {
    kill(process.pid, SIGSTOP)
  }

  /// Lets a sway stopped by ``pause()`` go on.
  package func resume() {
    kill(process.pid, SIGCONT)
  }

  /// Stops sway and removes its runtime directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    process.terminate()
    removeTree(runtimeDirectory)
  }
}

/// A headless weston (which has no wlr-layer-shell), for tests of that case.
package final class HeadlessWeston {
  /// The absolute path of the Wayland socket.
  package let socketPath: String
  private let directory: String
  private let process: ChildProcess

  /// Starts weston and waits until its socket accepts a client.
  package init() throws {
    directory = try makeTemporaryDirectory(prefix: "wl-toast-weston")
    chmod(directory, 0o700)
    var environment = currentEnvironment()
    environment.removeValue(forKey: "WAYLAND_DISPLAY")
    environment.removeValue(forKey: "DISPLAY")
    environment["XDG_RUNTIME_DIR"] = directory
    socketPath = directory + "/weston-test"
    let process = try ChildProcess(
      ["weston", "--backend=headless-backend.so", "--socket=weston-test", "--idle-time=0"],
      environment: environment, logPath: directory + "/weston.log")
    self.process = process
    let path = socketPath
    var failure: String?
    do {
      try waitUntil("its Wayland socket to accept a client", timeout: 15) {
        guard process.isRunning else { return true }
        // The socket file appears at bind(); ready means a client can connect.
        return access(path, F_OK) == 0 && (try? Display(name: path)) != nil
      }
      if let status = process.exitStatus { failure = "it exited with status \(status)" }
    } catch {
      failure = "\(error)"
    }
    if let failure {
      let tail =
        readFile(directory + "/weston.log").map { String(decoding: $0.suffix(2000), as: UTF8.self) }
        ?? ""
      process.terminate()
      removeTree(directory)
      throw HarnessError("headless weston did not start: \(failure); its log ends with:\n\(tail)")
    }
  }

  deinit {
    process.terminate()
    removeTree(directory)
  }
}

/// The environment a headless wlroots compositor of the tests (sway, river)
/// runs with: none of the caller's displays, `directory` as its home and
/// runtime directory, the headless backend with no input devices and the
/// pixman renderer.
func headlessCompositorEnvironment(directory: String) -> [String: String] {
  // No session bus unless a test gives one: what a compositor starts (an
  // example config's notification server) must not reach the user's own.
  var environment = currentEnvironment(without: [
    "WAYLAND_DISPLAY", "SWAYSOCK", "DISPLAY", "I3SOCK", "DBUS_SESSION_BUS_ADDRESS",
  ])
  environment["XDG_RUNTIME_DIR"] = directory
  environment["HOME"] = directory
  environment["WLR_BACKENDS"] = "headless"
  environment["WLR_LIBINPUT_NO_DEVICES"] = "1"
  environment["WLR_RENDERER"] = "pixman"
  return environment
}

extension HeadlessSway {
  /// A screenshot of one output, by name.
  package func screenshot(output name: String) throws -> Image {
    guard let rect = try outputs()[name]?.rect else {
      throw HarnessError("no output \(name): sway has \(try outputs().keys.sorted())")
    }
    return try screenshot(x: rect.x, y: rect.y, width: rect.width, height: rect.height)
  }

  /// The outputs sway has, by name: their place and size in the layout
  /// (logical pixels), and whether they are active.
  package func outputs() throws -> [String: (rect: Box, active: Bool, scale: Double)] {
    let reply = try JSONValue.parse(swaymsg(["-t", "get_outputs"]))
    var outputs: [String: (rect: Box, active: Bool, scale: Double)] = [:]
    guard case .array(let items) = reply else { return outputs }
    for item in items {
      guard let name = item["name"]?.stringValue, let rect = item["rect"] else { continue }
      func number(_ key: String) -> Int { Int(rect[key]?.doubleValue ?? 0) }
      outputs[name] = (
        Box(x: number("x"), y: number("y"), width: number("width"), height: number("height")),
        item["active"]?.boolValue ?? false, item["scale"]?.doubleValue ?? 1
      )
    }
    return outputs
  }

  /// Adds a headless output of 1280x720 at `x`, 0 with `scale`, and returns its name.
  @discardableResult
  package func addOutput(x: Int, scale: Int = 1) throws -> String {
    let before = Set(try outputs().keys)
    try swaymsg(["create_output"])
    var name: String?
    try waitUntil("a new output") {
      name = try outputs().keys.first { !before.contains($0) }
      return name != nil
    }
    try swaymsg([
      "output", name!, "mode", "1280x720", "position", String(x), "0", "scale", String(scale),
    ])
    return name!
  }
}
