/// A session bus that accepts connections and never answers:
/// `scripts/silent-bus.py` on a socket of its own, saying nothing at all, or
/// answering the authentication and nothing after it (``Mode``). It counts
/// the connections it accepted and those the client closed.
package final class SilentBus {
  /// How far it answers.
  package enum Mode: String, Sendable, CaseIterable {
    /// Nothing: it reads and never answers.
    case silent
    /// The authentication (`OK` and a GUID), then nothing: `Hello` waits.
    case authenticationOnly = "auth"
  }

  private let peer: ScriptedPeer

  /// The socket.
  package var socket: String { peer.socket }
  /// The bus address, for `DBUS_SESSION_BUS_ADDRESS`.
  package var address: String { "unix:path=" + peer.socket }

  /// Starts the bus and waits until it listens.
  package init(_ mode: Mode) throws {
    peer = try ScriptedPeer(
      script: "silent-bus.py", mode: mode.rawValue, socketName: "bus",
      prefix: "wl-toast-silent-bus")
  }

  /// How many connections it has accepted.
  package var connections: Int { peer.lines(startingWith: "connection ") }
  /// How many of those the client has closed.
  package var closedConnections: Int { peer.lines(startingWith: "closed ") }
}
