import Glibc
import SystemSupport
import Wayland

/// A headless KWin 5.27 of its own for one test: the one compositor here with
/// wp_fractional_scale_v1 and wp_viewporter (and wlr-layer-shell v3, which has no
/// on-demand keyboard focus).
///
/// It runs on a virtual output with OpenGL on llvmpipe (`KWIN_COMPOSE=O2`: under
/// QPainter screenshots are impossible), with a private runtime directory, a
/// private session bus (no service activation: nothing else starts) and private
/// XDG config, data and cache directories, so no setting carries over. KWin is
/// run from a plain copy of `/usr/bin/kwin_wayland`: the original carries the
/// file capability `cap_sys_resource=ep`, which containers often refuse to exec.
///
/// Sizes: the virtual output's mode is fixed at start (`width` x `height` logical
/// pixels times `scale`); ``setScale(_:timeout:)`` changes the scale and so the
/// logical size, not the mode. Screenshots are in device pixels.
package final class HeadlessKWin {
  /// KWin's runtime directory (its socket, the bus socket and the logs live here).
  package let runtimeDirectory: String
  /// The absolute path of the Wayland socket.
  package let socketPath: String
  /// The address of the private session bus KWin is on.
  package let busAddress: String
  /// The output's mode in device pixels, as KWin's first screenshot had it (fixed
  /// for KWin's life: 1920x1080 for 1280x720 at scale 1.5).
  package let deviceWidth: Int
  /// The output's mode in device pixels (fixed for KWin's life).
  package let deviceHeight: Int
  /// The output's size in logical pixels at the current scale.
  package private(set) var logicalWidth: Int
  /// The output's size in logical pixels at the current scale.
  package private(set) var logicalHeight: Int
  /// The output's scale in effect (as KWin reports it with each screenshot).
  package private(set) var scale: Double
  /// Seconds from starting KWin until its Wayland globals were listed.
  package let waylandReadySeconds: Double
  /// Seconds from starting KWin until it was ready: globals listed and a screenshot
  /// taken (the private bus starts before, in a few milliseconds).
  package let readySeconds: Double
  /// The colour of the screen where no surface is.
  package static let background = RGB(0, 0, 0)

  private let directory: String
  private let clientRuntimeDirectory: String
  private let kwin: ChildProcess
  private let busDaemon: ChildProcess
  private var bus: SessionBus?
  private var stopped = false

  /// Starts a private bus and KWin on a virtual output of `width` x `height`
  /// logical pixels at `scale`, and waits (up to `timeout` seconds: KWin on
  /// llvmpipe is slow, more so on a busy machine) until a client sees
  /// zwlr_layer_shell_v1, wl_output and org_kde_kwin_fake_input and a screenshot works.
  package init(width: Int = 1280, height: Int = 720, scale: Double = 1, timeout: Double = 60)
    throws
  {
    let binary = try kwinBinary()
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-kwin")
    chmod(directory, 0o700)
    for name in ["client", "config", "data", "cache"] {
      mkdir(directory + "/" + name, 0o700)
    }
    let socketPath = directory + "/wayland-kwin"
    let busAddress = "unix:path=\(directory)/bus"
    self.directory = directory
    runtimeDirectory = directory
    clientRuntimeDirectory = directory + "/client"
    self.socketPath = socketPath
    self.busAddress = busAddress
    logicalWidth = width
    logicalHeight = height
    self.scale = scale

    var environment = currentEnvironment()
    for key in [
      "WAYLAND_DISPLAY", "WAYLAND_SOCKET", "DISPLAY", "SWAYSOCK", "I3SOCK", "QT_QPA_PLATFORM",
      "DBUS_SESSION_BUS_ADDRESS", "XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP",
    ] {
      environment.removeValue(forKey: key)
    }
    environment["XDG_RUNTIME_DIR"] = directory
    environment["HOME"] = directory
    environment["XDG_CONFIG_HOME"] = directory + "/config"
    environment["XDG_DATA_HOME"] = directory + "/data"
    environment["XDG_CACHE_HOME"] = directory + "/cache"
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress

    // The bus first: KWin registers its D-Bus services (screenshots) at start.
    let busConfig = directory + "/bus.conf"
    let busLog = directory + "/dbus.log"
    let kwinLog = directory + "/kwin.log"
    func tails() -> String {
      [("KWin", kwinLog), ("dbus-daemon", busLog)].compactMap { name, path in
        guard let data = readFile(path), !data.isEmpty else { return nil }
        return "\(name)'s log ends with:\n" + String(decoding: data.suffix(2500), as: UTF8.self)
      }.joined(separator: "\n")
    }
    var busDaemon: ChildProcess?
    var kwin: ChildProcess?
    var bus: SessionBus?
    var launched = now()
    var waylandReady = 0.0
    var deviceSize = (width: 0, height: 0)
    do {
      try writeFile(busConfig, try privateBusConfiguration(listeningAt: directory + "/bus"))
      let daemon = try ChildProcess(
        ["dbus-daemon", "--nofork", "--nopidfile", "--config-file=\(busConfig)"],
        environment: environment, logPath: busLog)
      busDaemon = daemon
      var lastError = "no attempt"
      try waitUntil("the private bus to accept a connection (last: \(lastError))", timeout: 15) {
        guard daemon.isRunning else {
          throw HarnessError("dbus-daemon exited with status \(daemon.exitStatus ?? -1)")
        }
        guard access(directory + "/bus", F_OK) == 0 else { return false }
        do {
          bus = try SessionBus(address: busAddress)
        } catch {
          lastError = "\(error)"
        }
        return bus != nil
      }

      environment["KWIN_COMPOSE"] = "O2"
      environment["LIBGL_ALWAYS_SOFTWARE"] = "1"
      environment["KWIN_WAYLAND_NO_PERMISSION_CHECKS"] = "1"
      environment["KWIN_SCREENSHOT_NO_PERMISSION_CHECKS"] = "1"
      launched = now()
      let process = try ChildProcess(
        [
          binary, "--virtual", "--width", String(width), "--height", String(height),
          "--scale", String(scale), "--socket", "wayland-kwin", "--no-lockscreen",
          "--no-global-shortcuts", "--no-kactivities",
        ], environment: environment, logPath: kwinLog)
      kwin = process
      let required = ["zwlr_layer_shell_v1", "wl_output", "org_kde_kwin_fake_input"]
      var missing = required
      try waitUntil(
        "KWin to list \(missing.joined(separator: ", ")) to a client", timeout: timeout
      ) {
        guard process.isRunning else {
          throw HarnessError("KWin exited with status \(process.exitStatus ?? -1)")
        }
        guard access(socketPath, F_OK) == 0, let display = try? Display(name: socketPath),
          let registry = try? Registry(display: display)
        else { return false }
        let listed = Set(registry.globals.values.map(\.interface))
        missing = required.filter { !listed.contains($0) }
        return missing.isEmpty
      }
      waylandReady = now() - launched
      var shotError = "no attempt"
      let connected = bus!
      try waitUntil("a screenshot from KWin (last: \(shotError))", timeout: timeout) {
        guard process.isRunning else {
          throw HarnessError("KWin exited with status \(process.exitStatus ?? -1)")
        }
        do {
          let shot = try connected.captureWorkspace(timeout: 10)
          deviceSize = (shot.width, shot.height)
          return true
        } catch {
          shotError = "\(error)"
          return false
        }
      }
    } catch {
      kwin?.terminate()
      bus = nil
      busDaemon?.terminate()
      let logs = tails()
      removeTree(directory)
      throw HarnessError("headless KWin did not start: \(error)\n\(logs)")
    }
    readySeconds = now() - launched
    deviceWidth = deviceSize.width
    deviceHeight = deviceSize.height
    waylandReadySeconds = waylandReady
    self.kwin = kwin!
    self.busDaemon = busDaemon!
    self.bus = bus
  }

  deinit { stop() }

  /// The environment for a client of this KWin: its socket by absolute path, a
  /// private runtime directory of the client's own, and the private bus.
  package var clientEnvironment: [String: String] {
    var environment = currentEnvironment()
    for key in ["WAYLAND_SOCKET", "DISPLAY", "SWAYSOCK", "I3SOCK"] {
      environment.removeValue(forKey: key)
    }
    environment["WAYLAND_DISPLAY"] = socketPath
    environment["XDG_RUNTIME_DIR"] = clientRuntimeDirectory
    environment["DBUS_SESSION_BUS_ADDRESS"] = busAddress
    // No configuration file of the user's: wl-toast's defaults only.
    environment["XDG_CONFIG_HOME"] = clientRuntimeDirectory + "/no-config"
    return environment
  }

  /// Whether KWin is still running.
  package var isRunning: Bool { !stopped && kwin.isRunning }

  /// The whole output at full device resolution (``deviceWidth`` x ``deviceHeight``),
  /// through D-Bus `org.kde.KWin.ScreenShot2.CaptureWorkspace`; no cursor.
  package func screenshot() throws -> Image {
    try capture().image
  }

  /// A region of the output, in device pixels (clipped to the output).
  package func screenshot(deviceRegion region: Box) throws -> Image {
    try screenshot().cropped(to: region)
  }

  /// The colour of one device pixel.
  package func pixel(x: Int, y: Int) throws -> RGB {
    try screenshot().pixel(x: x, y: y)
  }

  /// The logical point at the centre of a device pixel (for input, which is logical).
  package func logicalPoint(deviceX: Int, deviceY: Int) -> (x: Double, y: Double) {
    ((Double(deviceX) + 0.5) / scale, (Double(deviceY) + 0.5) / scale)
  }

  /// The logical point at the centre of a box in device pixels.
  package func logicalCenter(of box: Box) -> (x: Double, y: Double) {
    (
      (Double(box.x) + Double(box.width) / 2) / scale,
      (Double(box.y) + Double(box.height) / 2) / scale
    )
  }

  /// A screenshot with the scale KWin drew it at.
  ///
  /// While KWin sets its compositing up again (after a change of scale) its
  /// screenshot object is gone for a moment, longer on a loaded machine, and
  /// a screenshot asked for meanwhile is cancelled (`Error.Cancelled`): the
  /// call is made again until the object answers, for ``patience``.
  package func capture() throws -> (image: Image, scale: Double) {
    guard let bus, !stopped else { throw HarnessError("KWin was stopped") }
    var shot: KWinScreenshot?
    var absent = ""
    try waitUntil("KWin's screenshot object (last: \(absent))", timeout: patience) {
      do {
        shot = try bus.captureWorkspace()
        return true
      } catch let error
        where "\(error)".contains("UnknownObject") || "\(error)".contains("Error.Cancelled")
      {
        absent = "\(error)"
        return false
      }
    }
    return (try shot!.image(), shot!.scale)
  }

  /// The name of KWin's one output (`Virtual-0`), its logical size and scale, as
  /// `kscreen-doctor -o` reports them.
  package func outputState() throws -> (name: String, width: Int, height: Int, scale: Double) {
    let result = try kscreenDoctor(["-o"], errors: false)
    guard result.status == 0 else {
      throw HarnessError("kscreen-doctor -o failed with status \(result.status): \(result.output)")
    }
    let words = Self.withoutEscapes(result.output).split(whereSeparator: \.isWhitespace).map(
      String.init)
    func after(_ label: String, by offset: Int = 1) -> String? {
      guard let index = words.firstIndex(of: label), index + offset < words.count else {
        return nil
      }
      return words[index + offset]
    }
    let size = after("Geometry:", by: 2)?.split(separator: "x").compactMap { Int($0) } ?? []
    guard words.filter({ $0 == "Output:" }).count == 1, let name = after("Output:", by: 2),
      size.count == 2, let scale = after("Scale:").flatMap(Double.init)
    else {
      throw HarnessError("cannot read one output from kscreen-doctor -o:\n\(result.output)")
    }
    return (name, size[0], size[1], scale)
  }

  /// Changes the output's scale at run time with `kscreen-doctor` and returns once
  /// KWin reports it and draws at it; the logical size changes, the mode does not.
  package func setScale(_ newScale: Double, timeout: Double = 30) throws {
    let output = try outputState()
    let result = try kscreenDoctor(["output.\(output.name).scale.\(newScale)"])
    guard result.status == 0 else {
      throw HarnessError(
        "kscreen-doctor output.\(output.name).scale.\(newScale) failed: \(result.output)")
    }
    var seen = output
    try waitUntil("KWin to report scale \(newScale) (last: \(seen.scale))", timeout: timeout) {
      seen = try outputState()
      return abs(seen.scale - newScale) < 0.001
    }
    var drawn = 0.0
    try waitUntil("a screenshot drawn at scale \(newScale) (last: \(drawn))", timeout: timeout) {
      drawn = try capture().scale
      return abs(drawn - newScale) < 0.001
    }
    scale = seen.scale
    logicalWidth = seen.width
    logicalHeight = seen.height
  }

  /// Stops KWin and the bus and removes the runtime directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    kwin.terminate()
    bus = nil
    busDaemon.terminate()
    removeTree(directory)
  }

  /// Runs kscreen-doctor (a Qt client: QT_QPA_PLATFORM=wayland); it reports on
  /// standard error, which goes into the output or, with `errors` false, nowhere.
  private func kscreenDoctor(_ arguments: [String], errors: Bool = true) throws -> (
    status: Int32, output: String
  ) {
    var environment = clientEnvironment
    environment["QT_QPA_PLATFORM"] = "wayland"
    let redirect = errors ? "2>&1" : "2>/dev/null"
    return try runCommand(
      ["sh", "-c", "exec kscreen-doctor \"$@\" \(redirect)", "sh"] + arguments,
      environment: environment)
  }

  private static func withoutEscapes(_ text: String) -> String {
    var result = ""
    var inEscape = false
    for character in text {
      if inEscape {
        if character.isLetter { inEscape = false }
      } else if character == "\u{1B}" {
        inEscape = true
      } else {
        result.append(character)
      }
    }
    return result
  }

}

/// A plain copy of /usr/bin/kwin_wayland (without its file capability), made once
/// per test process and removed when the process exits.
private let kwinCopy: Result<String, HarnessError> = {
  let directory = kwinCopyDirectory()
  removeTree(directory)
  guard mkdir(directory, 0o700) == 0 else {
    return .failure(HarnessError("cannot create \(directory): \(Errno.current)"))
  }
  let copy = directory + "/kwin_wayland"
  do {
    let result = try runCommand(
      ["cp", "/usr/bin/kwin_wayland", copy], environment: currentEnvironment())
    guard result.status == 0 else {
      return .failure(
        HarnessError(
          "cannot copy /usr/bin/kwin_wayland (package kwin-wayland; make deps installs it)"))
    }
  } catch {
    return .failure(HarnessError("cannot copy /usr/bin/kwin_wayland: \(error)"))
  }
  atexit {
    let directory = kwinCopyDirectory()
    unlink(directory + "/kwin_wayland")
    rmdir(directory)
  }
  return .success(copy)
}()

private func kwinCopyDirectory() -> String { "/tmp/wl-toast-kwin-binary-\(getpid())" }

private func kwinBinary() throws -> String { try kwinCopy.get() }

extension Image {
  /// An image of `width` x `height` from row-major RGB bytes.
  package init(width: Int, height: Int, bytes: [UInt8]) {
    precondition(bytes.count == width * height * 3)
    self.width = width
    self.height = height
    self.bytes = bytes
  }

  /// The part of the image inside `box` (clipped to the image).
  package func cropped(to box: Box) -> Image {
    let left = max(0, box.x)
    let top = max(0, box.y)
    let right = min(width, box.x + box.width)
    let bottom = min(height, box.y + box.height)
    guard right > left, bottom > top else { return Image(width: 0, height: 0, bytes: []) }
    var region: [UInt8] = []
    region.reserveCapacity((right - left) * (bottom - top) * 3)
    for y in top..<bottom {
      region.append(contentsOf: bytes[((y * width + left) * 3)..<((y * width + right) * 3)])
    }
    return Image(width: right - left, height: bottom - top, bytes: region)
  }
}
