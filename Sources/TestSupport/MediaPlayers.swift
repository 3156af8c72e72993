import CSystem
import Glibc
import SystemSupport

/// MPRIS players on a private session bus, for `wl-toast watch media`: the
/// bus itself (`dbus-daemon` without service activation), mpv with Debian's
/// MPRIS plug-in (mpv-mpris) playing two generated tracks beside a cover,
/// `playerctl` to drive it, and ``TestPlayer``s (`scripts/mpris-player.py`)
/// that publish whatever a test writes them, hostile values too.
///
/// mpv plays to its null audio output (`--ao=null`, which keeps time as a
/// real output does): no sound server is needed for its playback and its
/// MPRIS signals.
package final class MediaPlayers {
  /// The private directory: the bus's socket and logs, the music.
  package let directory: String
  /// The bus address, for clients' `DBUS_SESSION_BUS_ADDRESS`.
  package let address: String
  /// The tracks' directory, with `cover.jpg` beside them.
  package var music: String { directory + "/music" }
  /// The cover's one colour, which its pixels on screen show.
  package static let coverColor = RGB(255, 0, 255)
  /// The titles and artists of the two tracks mpv plays, in order.
  package static let tracks = [
    (title: "First Song", artist: "Test Artist"), (title: "Second Song", artist: "Other Artist"),
  ]
  private var daemon: ChildProcess
  private var session: SessionBus
  private var players: [ChildProcess] = []
  private var stopped = false

  /// Starts the bus, and writes the two tracks (60 s of tone each, tagged
  /// with ``tracks``; `sox`) and a 64×64 `cover.jpg` of ``coverColor``, as
  /// players' covers mostly are.
  package init() throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-media")
    chmod(directory, 0o700)
    self.directory = directory
    address = "unix:path=\(directory)/bus"
    var environment = currentEnvironment(without: ["DISPLAY", "WAYLAND_DISPLAY"])
    environment["DBUS_SESSION_BUS_ADDRESS"] = address
    environment[rigMarker] = directory
    (daemon, session) = try startPrivateSessionBus(in: directory, environment: environment)
    mkdir(directory + "/music", 0o700)
    for (index, track) in Self.tracks.enumerated() {
      let result = try runCommand(
        [
          "sox", "-n", "-r", "44100", "-c", "2", "--comment", "TITLE=\(track.title)",
          "--add-comment", "ARTIST=\(track.artist)", music + "/\(index + 1).ogg", "synth", "60",
          "sine", "\(440 + 220 * index)", "vol", "0.3",
        ], environment: environment)
      guard result.status == 0 else {
        throw HarnessError("sox could not write track \(index + 1) (package sox): \(result)")
      }
    }
    let color = Self.coverColor
    try writeBytes(
      music + "/cover.jpg",
      jpegFile(width: 64, height: 64, rgb: [color.red, color.green, color.blue]))
  }

  deinit { stop() }

  /// What a client of this bus needs in its environment.
  package var clientEnvironment: [String: String] {
    ["DBUS_SESSION_BUS_ADDRESS": address, "GSETTINGS_BACKEND": "memory", "NO_AT_BRIDGE": "1"]
  }

  private var environment: [String: String] {
    var environment = currentEnvironment(without: ["DISPLAY", "WAYLAND_DISPLAY"])
    environment.merge(clientEnvironment) { $1 }
    environment[rigMarker] = directory
    return environment
  }

  /// Starts mpv on the two tracks with its MPRIS plug-in, and waits until
  /// it owns `org.mpris.MediaPlayer2.mpv`.
  @discardableResult
  package func startMPV() throws -> ChildProcess {
    let mpv = try ChildProcess(
      [
        "mpv", "--no-config", "--no-terminal", "--no-video", "--ao=null",
        "--script=/etc/mpv/scripts/mpris.so", music + "/1.ogg", music + "/2.ogg",
      ], environment: environment, logPath: directory + "/mpv.log")
    players.append(mpv)
    try waitUntil("mpv on the bus (packages mpv, mpv-mpris)", timeout: 20) {
      guard mpv.isRunning else { throw HarnessError("mpv exited: \(log("mpv.log"))") }
      return try session.nameHasOwner("org.mpris.MediaPlayer2.mpv")
    }
    return mpv
  }

  /// Starts playerctld (package playerctl), which owns
  /// `org.mpris.MediaPlayer2.playerctld` and sends the other players'
  /// changes again as its own, and waits until it owns its name.
  @discardableResult
  package func startPlayerctld() throws -> ChildProcess {
    let daemon = try ChildProcess(
      ["playerctld"], environment: environment, logPath: directory + "/playerctld.log")
    players.append(daemon)
    try waitUntil("playerctld on the bus (package playerctl)") {
      guard daemon.isRunning else {
        throw HarnessError("playerctld exited: \(log("playerctld.log"))")
      }
      return try session.nameHasOwner("org.mpris.MediaPlayer2.playerctld")
    }
    return daemon
  }

  /// Runs `playerctl` with `arguments` on the bus to its end; its output.
  @discardableResult
  package func playerctl(_ arguments: [String]) throws -> String {
    let result = try runCommand(["playerctl"] + arguments, environment: environment)
    guard result.status == 0 else {
      throw HarnessError("playerctl \(arguments.joined(separator: " ")) failed: \(result)")
    }
    return result.output
  }

  /// Starts a ``TestPlayer`` that owns `org.mpris.MediaPlayer2.NAME`, and
  /// waits until it does; unless `answersGetAll`, it never answers `GetAll`.
  package func startTestPlayer(_ name: String, answersGetAll: Bool = true) throws -> TestPlayer {
    let player = try TestPlayer(
      name: name, answersGetAll: answersGetAll, environment: environment, log: directory)
    players.append(player.process)
    try waitUntil("the test player on the bus (package python3-dbus)", timeout: 20) {
      guard player.process.isRunning else {
        throw HarnessError("the test player exited: \(log("player-\(name).log"))")
      }
      return try session.nameHasOwner("org.mpris.MediaPlayer2." + name)
    }
    return player
  }

  /// How many match rules the connections of process `pid` have on the
  /// bus (`org.freedesktop.DBus.Debug.Stats`): a watcher has subscribed
  /// once its rules are there.
  package func matchRules(of pid: Int32) -> Int {
    let connections = (try? session.connections(of: pid)) ?? []
    return connections.reduce(0) { total, connection in
      let reply =
        (try? runCommand(
          [
            "dbus-send", "--bus=\(address)", "--print-reply", "--dest=org.freedesktop.DBus",
            "/org/freedesktop/DBus", "org.freedesktop.DBus.Debug.Stats.GetConnectionStats",
            "string:\(connection)",
          ], environment: environment))?.output ?? ""
      // `string "MatchRules"` then, on the next line, `variant uint32 N`.
      let lines = reply.split(separator: "\n")
      guard let index = lines.firstIndex(where: { $0.contains("\"MatchRules\"") }),
        index + 1 < lines.count, let count = lines[index + 1].split(separator: " ").last
      else { return total }
      return total + (Int(count) ?? 0)
    }
  }

  /// Stops the bus's daemon, as a session ending does, and starts another
  /// at the same address; the players on the first are gone with it.
  package func restartBus() throws {
    for player in players { player.terminate() }
    players = []
    daemon.terminate()
    (daemon, session) = try startPrivateSessionBus(in: directory, environment: environment)
  }

  /// Stops the players and the bus, and removes the directory.
  package func stop() {
    guard !stopped else { return }
    stopped = true
    for player in players { player.terminate() }
    daemon.terminate()
    removeTree(directory)
  }

  private func log(_ name: String) -> String {
    readFile(directory + "/" + name).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }
}

/// `scripts/mpris-player.py`: an MPRIS player that turns each JSON line
/// written to it into one `PropertiesChanged` (the script tells the lines).
package final class TestPlayer {
  /// The player's process.
  package let process: ChildProcess
  /// Its standard input's writing end.
  private let input: Int32
  /// Where it writes.
  private let log: String
  private var syncs = 0

  init(name: String, answersGetAll: Bool, environment: [String: String], log directory: String)
    throws
  {
    log = directory + "/player-\(name).log"
    var fds: [Int32] = [0, 0]
    guard wlt_pipe(&fds) == 0 else { throw HarnessError("pipe failed: \(Errno.current)") }
    defer { close(fds[0]) }
    do {
      process = try ChildProcess(
        [
          Array("/usr/bin/python3".utf8),
          Array((repositoryDirectory + "/scripts/mpris-player.py").utf8), Array(name.utf8),
        ] + (answersGetAll ? [] : [Array("mute".utf8)]),
        environment: environment, stdin: .descriptor(fds[0]),
        stdout: .file(log), stderr: .file(log))
    } catch {
      close(fds[1])
      throw error
    }
    input = fds[1]
  }

  deinit {
    close(input)
    process.terminate()
  }

  /// Waits until the player has sent the signals of every line written before.
  package func sync() throws {
    syncs += 1
    let word = "sent-\(syncs)"
    try send(#"{"print": "\#(word)"}"#)
    try waitUntil("the test player to send its signals", timeout: 20) {
      guard process.isRunning else { throw HarnessError("the test player exited") }
      return output.split(separator: "\n").contains { $0 == word }
    }
  }

  /// Waits until the player has answered `GetAll` (a watcher read its properties).
  package func waitForGetAll() throws {
    try waitUntil("the test player to answer GetAll", timeout: 20) {
      guard process.isRunning else { throw HarnessError("the test player exited") }
      return output.split(separator: "\n").contains("GetAll")
    }
  }

  /// How many times a mute player was asked `GetAll` (and did not answer).
  package var getAllUnanswered: Int {
    output.split(separator: "\n").filter { $0 == "GetAll asked" }.count
  }

  private var output: String {
    readFile(log).map { String(decoding: $0, as: UTF8.self) } ?? ""
  }

  /// Writes one line (a JSON object) to the player.
  package func send(_ line: String) throws {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
      let count = bytes[written...].withUnsafeBytes { raw in
        retryingOnInterrupt { write(input, raw.baseAddress, raw.count) }
      }
      guard count > 0 else {
        throw HarnessError("cannot write to the test player: \(Errno.current)")
      }
      written += count
    }
  }
}

/// Writes `bytes` to a new file at `path` (0644).
package func writeBytes(_ path: String, _ bytes: [UInt8]) throws {
  let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
  guard fd >= 0 else { throw HarnessError("cannot create \(path): \(Errno.current)") }
  defer { close(fd) }
  guard write(fd, bytes, bytes.count) == bytes.count else {
    throw HarnessError("cannot write \(path): \(Errno.current)")
  }
}
