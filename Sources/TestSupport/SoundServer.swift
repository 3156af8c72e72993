import Glibc
import SystemSupport

/// A sound server of one test's own, speaking PulseAudio's protocol on a
/// socket in a private directory, with a private home and runtime directory
/// (nothing of the user's), and null devices (``Devices``): by default a
/// null sink named `toast` as its default sink. What it plays is recorded
/// from the null sink's monitor with `parec` (``record()``).
///
/// - ``Kind/pulseAudio``: Debian's `pulseaudio` with no default script
///   (`-n`), no D-Bus and no shared memory. It warns when it runs as root
///   (a CI container's user) and runs all the same in this per-user mode;
///   `--system` is not needed.
/// - ``Kind/pipeWire``: `pipewire`, its session manager `wireplumber` and
///   `pipewire-pulse` on a private session bus (WirePlumber needs one), the
///   null sinks loaded through `pactl` (no null source: sources are the
///   sinks' monitors).
///
/// ``restart()`` kills the server and starts it again on the same socket.
package final class SoundServer {
  /// Which server.
  package enum Kind: Sendable {
    /// PulseAudio.
    case pulseAudio
    /// PipeWire with its PulseAudio server.
    case pipeWire
  }

  /// The null devices a server has: the first sink is the default output,
  /// the first source the default input.
  package struct Devices: Sendable {
    /// The sinks' names and descriptions (nil: the server's own).
    package var sinks: [(name: String, description: String?)]
    /// The sources' names and descriptions (PulseAudio only).
    package var sources: [(name: String, description: String)]

    /// One sink, `toast`, whose monitor ``record()`` records.
    package static let toast = Devices(sinks: [("toast", nil)], sources: [])
    /// Two outputs, `speakers` ("Speakers", the default) and `headphones`
    /// ("Headphones"), and an input, `mic` ("Microphone").
    package static let speakersAndHeadphones = Devices(
      sinks: [("speakers", "Speakers"), ("headphones", "Headphones")],
      sources: [("mic", "Microphone")])

    /// `load-module` arguments for each device of a `kind` server.
    func modules(_ kind: Kind) -> [[String]] {
      var modules = sinks.map { sink in
        ["module-null-sink", "sink_name=\(sink.name)"]
          + (sink.description.map { ["sink_properties=device.description=\($0)"] } ?? [])
          + (kind == .pulseAudio ? ["rate=44100", "channels=2"] : [])
      }
      if kind == .pulseAudio {
        modules += sources.map {
          ["module-null-source", "source_name=\($0.name)", "description=\($0.description)"]
        }
      }
      return modules
    }
  }

  /// The private directory: the socket, the home, the logs, the recordings.
  package let directory: String
  /// The native protocol's socket.
  package let socket: String
  /// Which server.
  package let kind: Kind
  /// Its devices.
  package let devices: Devices
  private var processes: [ChildProcess] = []
  /// The private session bus of a PipeWire server, kept across restarts.
  private var bus: ChildProcess?
  private var environment: [String: String]
  private var stopped = false

  /// What a client of this server needs: `PULSE_SERVER` names the socket
  /// (libpulse then neither looks elsewhere nor starts a server), a cookie
  /// file in the server's directory (libpulse writes one where none is),
  /// and libcanberra is held to its PulseAudio driver, so that no ALSA
  /// device of the machine's plays instead.
  package var clientEnvironment: [String: String] {
    var environment = Self.clientEnvironment(socket)
    environment["PULSE_COOKIE"] = directory + "/home/cookie"
    return environment
  }

  /// ``clientEnvironment`` of a server on `socket`.
  private static func clientEnvironment(_ socket: String) -> [String: String] {
    ["PULSE_SERVER": "unix:" + socket, "CANBERRA_DRIVER": "pulse"]
  }

  /// What a client needs to find no sound server at all: a socket path
  /// where none listens, and the PulseAudio driver alone.
  package static var absentEnvironment: [String: String] {
    ["PULSE_SERVER": "unix:/nonexistent/wl-toast-no-sound-server", "CANBERRA_DRIVER": "pulse"]
  }

  /// Stops the server's process (`SIGSTOP`) until ``resume()``: a server
  /// that accepts connections and never answers. PulseAudio only.
  package func pause() {
    Glibc.kill(processes[0].pid, SIGSTOP)
  }

  /// Lets a server stopped by ``pause()`` go on.
  package func resume() {
    Glibc.kill(processes[0].pid, SIGCONT)
  }

  /// Starts the server and waits until it answers (`pactl info`) with its
  /// devices, the first sink the default.
  package init(_ kind: Kind = .pulseAudio, devices: Devices = .toast) throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-sound")
    chmod(directory, 0o700)
    self.directory = directory
    self.kind = kind
    self.devices = devices
    for name in ["home", "runtime", "config", "state"] { mkdir(directory + "/" + name, 0o700) }
    socket = directory + (kind == .pulseAudio ? "/native" : "/runtime/pulse/native")
    var environment = currentEnvironment(without: [
      "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER",
    ])
    environment["HOME"] = directory + "/home"
    environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
    environment["XDG_CONFIG_HOME"] = directory + "/config"
    environment["XDG_STATE_HOME"] = directory + "/state"
    environment[rigMarker] = directory
    self.environment = environment
    do {
      if kind == .pipeWire {
        let (bus, _) = try startPrivateSessionBus(in: directory, environment: environment)
        self.bus = bus
        self.environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
      }
      try launch()
    } catch {
      endRig(directory, startedWith: processes + (bus.map { [$0] } ?? []))
      removeTree(directory)
      throw error
    }
  }

  deinit { stop() }

  /// Starts the server's processes and waits until its devices are there.
  private func launch() throws {
    switch kind {
    case .pulseAudio:
      let script =
        devices.modules(kind).map { "load-module " + $0.joined(separator: " ") }
        + ["load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1"]
        + ["set-default-sink \(devices.sinks[0].name)"]
        + devices.sources.prefix(1).map { "set-default-source \($0.name)" }
      try writeFile(directory + "/server.pa", script.joined(separator: "\n") + "\n")
      processes.append(
        try ChildProcess(
          [
            "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm",
            "--use-pid-file=no", "--log-target=stderr", "-F", directory + "/server.pa",
          ], environment: environment, logPath: directory + "/pulseaudio.log"))
    case .pipeWire:
      // WirePlumber gives up at once when PipeWire does not answer on its
      // socket yet, and pipewire-pulse loads no module: PipeWire goes
      // first, and the others once its socket takes a connection (the file
      // of a killed PipeWire's socket, left behind, takes none).
      let core = directory + "/runtime/pipewire-0"
      unlink(core)
      unlink(core + ".lock")
      for program in ["pipewire", "wireplumber", "pipewire-pulse"] {
        processes.append(
          try ChildProcess(
            [program], environment: environment, logPath: directory + "/\(program).log"))
        guard program == "pipewire" else { continue }
        let pipeWire = processes[processes.count - 1]
        try waitUntil("PipeWire's socket \(core)", timeout: 20) {
          guard pipeWire.isRunning else { throw ended(pipeWire) }
          return Self.takesConnections(core)
        }
      }
    }
    let started = processes
    try waitUntil("the sound server to answer on \(socket) (see \(directory))", timeout: 20) {
      if let process = started.first(where: { !$0.isRunning }) { throw ended(process) }
      return access(socket, F_OK) == 0 && (try? pactl(["info"]))?.status == 0
    }
    if kind == .pipeWire {
      // The sinks appear a moment after their modules are loaded, and
      // WirePlumber names its own default first.
      for module in devices.modules(kind) {
        _ = try runTool(["pactl", "load-module"] + module, environment: client)
      }
      let first = devices.sinks[0].name
      try waitUntil("PipeWire's null sink '\(first)' to be the default", timeout: 20) {
        _ = try? pactl(["set-default-sink", first])
        return (try? pactl(["get-default-sink"]))?.output == first + "\n"
      }
    }
  }

  /// Why the server did not start: `process` ended, with the end of its log
  /// (the directory goes with the server).
  private func ended(_ process: ChildProcess) -> HarnessError {
    let name = process.arguments[0]
    let log = readFile(directory + "/\(name).log").map {
      String(decoding: $0.suffix(600), as: UTF8.self)
    }
    return HarnessError("\(name) ended with status \(process.exitStatus ?? -1): \(log ?? "no log")")
  }

  /// Whether the Unix stream socket at `path` takes a connection.
  private static func takesConnections(_ path: String) -> Bool {
    let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    return withUnixAddress(path) { connect(fd, $0, $1) } == 0
  }

  /// The environment of a client run by the harness (`pactl`).
  private var client: [String: String] {
    environment.merging(clientEnvironment) { $1 }
  }

  /// Runs `pactl` with `arguments` on this server: its status and output.
  package func pactl(_ arguments: [String]) throws -> (status: Int32, output: String) {
    try runCommand(["pactl"] + arguments, environment: client)
  }

  /// Runs `pactl` with `arguments` on this server; throws when it fails.
  package func control(_ arguments: [String]) throws {
    let result = try pactl(arguments)
    guard result.status == 0 else {
      throw HarnessError("pactl \(arguments.joined(separator: " ")) failed: \(result.output)")
    }
  }

  /// Kills the server (SIGKILL: no goodbye to its clients) and waits until
  /// its processes are gone.
  package func kill() {
    for process in processes.reversed() {
      Glibc.kill(process.pid, SIGKILL)
      _ = process.wait(timeout: 10)
    }
    processes = []
    unlink(socket)
  }

  /// Kills the server if it runs and starts it again with the same devices
  /// on the same socket (their volumes at the server's default again).
  package func restart() throws {
    kill()
    try launch()
  }

  /// Ends the server (and the recorders it still has) and removes its directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    endRig(directory, startedWith: processes + (bus.map { [$0] } ?? []))
    removeTree(directory)
  }

  /// Starts recording the null sink's monitor: what every client plays.
  package func record() throws -> SoundRecording {
    try SoundRecording(server: self)
  }

  /// The environment a recorder runs with.
  fileprivate var recorderEnvironment: [String: String] {
    var environment = currentEnvironment(without: ["DISPLAY", "WAYLAND_DISPLAY"])
    environment[rigMarker] = directory
    return environment.merging(clientEnvironment) { $1 }
  }

  private var recordings = 0

  /// A new file in the directory for a recording.
  fileprivate func recordingPath() -> String {
    recordings += 1
    return directory + "/recording-\(recordings).raw"
  }
}

extension Desk {
  /// Starts `wl-toast watch audio` on the desk as a client of `server`
  /// (the desk's commands, and the owner, become its clients too); its
  /// standard output and error go to the returned log.
  package func watchAudio(on server: SoundServer) throws -> (watcher: ChildProcess, log: String) {
    environment.merge(server.clientEnvironment) { $1 }
    let log = scratch("watch-audio") + ".log"
    return (try run(["watch", "audio"], logPath: log), log)
  }
}

/// What `parec` records from a ``SoundServer``'s null sink: 16-bit samples,
/// one channel at 8 kHz, into a file read while it grows.
package final class SoundRecording {
  /// The recording's file.
  package let path: String
  private let recorder: ChildProcess
  /// Samples a second.
  package static let rate = 8000

  fileprivate init(server: SoundServer) throws {
    path = server.recordingPath()
    recorder = try ChildProcess(
      [
        "parec", "--device=\(server.devices.sinks[0].name).monitor", "--raw", "--format=s16le",
        "--channels=1",
        "--rate=\(Self.rate)", "--latency-msec=20", path,
      ], environment: server.recorderEnvironment, logPath: path + ".log")
    // Recording once samples (silence) arrive: what plays from now on is in it.
    try waitUntil("parec to record from toast.monitor (package pulseaudio-utils)", timeout: 20) {
      guard recorder.isRunning else {
        let log = readFile(path + ".log") ?? []
        throw HarnessError("parec ended: " + String(decoding: log, as: UTF8.self))
      }
      return seconds > 0.05
    }
  }

  deinit { recorder.terminate() }

  /// The samples recorded so far.
  package var samples: [Int16] {
    let bytes = readFile(path) ?? []
    return stride(from: 0, to: bytes.count - 1, by: 2).map {
      Int16(bitPattern: UInt16(bytes[$0]) | UInt16(bytes[$0 + 1]) << 8)
    }
  }

  /// Seconds recorded so far.
  package var seconds: Double {
    var info = stat()
    guard stat(path, &info) == 0 else { return 0 }
    return Double(info.st_size / 2) / Double(Self.rate)
  }

  /// The largest magnitude among the samples from `start` seconds into the
  /// recording, from 0 (silence) to 1.
  package func peak(from start: Double = 0) -> Double {
    let all = samples
    let first = min(all.count, Int(start * Double(Self.rate)))
    let largest = all[first...].reduce(0) { max($0, Int($1.magnitude)) }
    return Double(largest) / 32768
  }

  /// Whether anything louder than the null sink's silence was recorded
  /// from `start` seconds in: a sound's samples reach far above this.
  package func heardSound(from start: Double = 0) -> Bool { peak(from: start) > 0.01 }

  /// Stops recording.
  package func stop() { recorder.terminate() }
}
