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

  private let peer: ScriptedPeer

  /// The private directory: the socket and the log.
  package var directory: String { peer.directory }
  /// The socket.
  package var socket: String { peer.socket }

  /// What a client of this server needs (as ``SoundServer/clientEnvironment``).
  package var clientEnvironment: [String: String] {
    ["PULSE_SERVER": "unix:" + socket, "PULSE_COOKIE": directory + "/cookie"]
  }

  /// Starts the server and waits until it listens.
  package init(_ mode: Mode) throws {
    peer = try ScriptedPeer(
      script: "fake-pulse.py", mode: mode.rawValue, socketName: "native",
      prefix: "wl-toast-hostile-sound")
  }

  /// How many connections it has accepted.
  package var connections: Int { peer.lines(startingWith: "connection ") }
}
