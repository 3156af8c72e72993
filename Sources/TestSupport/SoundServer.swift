import Glibc
import SystemSupport

/// A sound server of one test's own, speaking PulseAudio's protocol on a
/// socket in a private directory, with a private home and runtime directory
/// (nothing of the user's), and a null sink named `toast` as its default
/// sink. What it plays is recorded from the null sink's monitor with `parec`
/// (``record()``).
///
/// - ``Kind/pulseAudio``: Debian's `pulseaudio` with no default script
///   (`-n`), no D-Bus and no shared memory. It warns when it runs as root
///   (a CI container's user) and runs all the same in this per-user mode;
///   `--system` is not needed.
/// - ``Kind/pipeWire``: `pipewire`, its session manager `wireplumber` and
///   `pipewire-pulse` on a private session bus (WirePlumber needs one), the
///   null sink loaded through `pactl`.
package final class SoundServer {
  /// Which server.
  package enum Kind: Sendable {
    /// PulseAudio.
    case pulseAudio
    /// PipeWire with its PulseAudio server.
    case pipeWire
  }

  /// The private directory: the socket, the home, the logs, the recordings.
  package let directory: String
  /// The native protocol's socket.
  package let socket: String
  private let processes: [ChildProcess]
  private var stopped = false

  /// What a client of this server needs: `PULSE_SERVER` names the socket
  /// (libpulse then neither looks elsewhere nor starts a server), and
  /// libcanberra is held to its PulseAudio driver, so that no ALSA device
  /// of the machine's plays instead.
  package var clientEnvironment: [String: String] { Self.clientEnvironment(socket) }

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
    kill(processes[0].pid, SIGSTOP)
  }

  /// Lets a server stopped by ``pause()`` go on.
  package func resume() {
    kill(processes[0].pid, SIGCONT)
  }

  /// Starts the server and waits until it answers (`pactl info`) with its
  /// null sink.
  package init(_ kind: Kind = .pulseAudio) throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-sound")
    chmod(directory, 0o700)
    self.directory = directory
    for name in ["home", "runtime"] { mkdir(directory + "/" + name, 0o700) }
    let socket = directory + (kind == .pulseAudio ? "/native" : "/runtime/pulse/native")
    self.socket = socket
    var environment = currentEnvironment(without: [
      "DISPLAY", "WAYLAND_DISPLAY", "DBUS_SESSION_BUS_ADDRESS", "PULSE_SERVER",
    ])
    environment["HOME"] = directory + "/home"
    environment["XDG_RUNTIME_DIR"] = directory + "/runtime"
    environment[rigMarker] = directory
    var started: [ChildProcess] = []
    do {
      switch kind {
      case .pulseAudio:
        try writeFile(
          directory + "/server.pa",
          """
          load-module module-null-sink sink_name=toast rate=44100 channels=2
          load-module module-native-protocol-unix socket=\(socket) auth-anonymous=1
          set-default-sink toast

          """)
        started.append(
          try ChildProcess(
            [
              "pulseaudio", "-n", "--daemonize=no", "--exit-idle-time=-1", "--disable-shm",
              "--use-pid-file=no", "--log-target=stderr", "-F", directory + "/server.pa",
            ], environment: environment, logPath: directory + "/pulseaudio.log"))
      case .pipeWire:
        let (bus, _) = try startPrivateSessionBus(in: directory, environment: environment)
        started.append(bus)
        environment["DBUS_SESSION_BUS_ADDRESS"] = "unix:path=\(directory)/bus"
        for program in ["pipewire", "wireplumber", "pipewire-pulse"] {
          started.append(
            try ChildProcess(
              [program], environment: environment, logPath: directory + "/\(program).log"))
        }
      }
      let client = environment.merging(Self.clientEnvironment(socket)) { $1 }
      try waitUntil("the sound server to answer on \(socket) (see \(directory))", timeout: 20) {
        if let ended = started.first(where: { !$0.isRunning }) {
          throw HarnessError("\(ended.arguments[0]) ended (see its log in \(directory))")
        }
        return access(socket, F_OK) == 0
          && (try? runCommand(["pactl", "info"], environment: client))?.status == 0
      }
      if kind == .pipeWire {
        // The sink appears a moment after the module is loaded.
        _ = try runTool(
          ["pactl", "load-module", "module-null-sink", "sink_name=toast"], environment: client)
        try waitUntil("PipeWire's null sink to be the default", timeout: 20) {
          _ = try? runCommand(["pactl", "set-default-sink", "toast"], environment: client)
          let sink = try? runCommand(["pactl", "get-default-sink"], environment: client)
          return sink?.output == "toast\n"
        }
      }
    } catch {
      endRig(directory, startedWith: started)
      removeTree(directory)
      throw error
    }
    processes = started
  }

  deinit { stop() }

  /// Ends the server (and the recorders it still has) and removes its directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    endRig(directory, startedWith: processes)
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
        "parec", "--device=toast.monitor", "--raw", "--format=s16le", "--channels=1",
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
