import Glibc
import SystemSupport

/// A sound server that speaks no PulseAudio: `scripts/fake-pulse.py` on a
/// socket of its own, answering a client with random bytes, a frame that
/// announces 4 GiB, or nothing at all (``Mode``). It counts the connections
/// it accepts (``connections``).
package final class HostileSoundServer {
  /// How it answers.
  package enum Mode: String, Sendable {
    /// 4 KiB of random bytes.
    case garbage
    /// A frame header announcing 4 GiB.
    case hugeFrame = "hugeframe"
    /// Nothing: it reads and never answers.
    case stall
  }

  /// The private directory: the socket and the log.
  package let directory: String
  /// The socket.
  package let socket: String
  private let process: ChildProcess

  /// What a client of this server needs (as ``SoundServer/clientEnvironment``).
  package var clientEnvironment: [String: String] {
    ["PULSE_SERVER": "unix:" + socket, "PULSE_COOKIE": directory + "/cookie"]
  }

  /// The script, in the repository.
  static let script = repositoryDirectory + "/scripts/fake-pulse.py"

  /// Starts the server and waits until it listens.
  package init(_ mode: Mode) throws {
    directory = try makeTemporaryDirectory(prefix: "wl-toast-hostile-sound")
    socket = directory + "/native"
    var environment = currentEnvironment()
    environment[rigMarker] = directory
    do {
      process = try ChildProcess(
        ["/usr/bin/python3", Self.script, socket, mode.rawValue], environment: environment,
        logPath: directory + "/server.log")
    } catch {
      removeTree(directory)
      throw error
    }
    let process = process
    let socket = socket
    try waitUntil("fake-pulse.py to listen on \(socket)") {
      guard process.isRunning else { throw HarnessError("fake-pulse.py ended") }
      return access(socket, F_OK) == 0
    }
  }

  deinit {
    endRig(directory, startedWith: [process])
    removeTree(directory)
  }

  /// How many connections it has accepted.
  package var connections: Int {
    let log = String(decoding: readFile(directory + "/server.log") ?? [], as: UTF8.self)
    return log.split(separator: "\n").filter { $0.hasPrefix("connection ") }.count
  }
}
