/// A session bus that accepts connections and stops answering:
/// `scripts/silent-bus.py` on a socket of its own, saying nothing at all,
/// answering the authentication and nothing after it, or the authentication
/// and `Hello` and no call after them, or closing the connection at once
/// (``Mode``). It counts the connections it accepted and those closed.
package final class SilentBus {
  /// How far it answers.
  package enum Mode: String, Sendable, CaseIterable {
    /// Nothing: it reads and never answers.
    case silent
    /// The authentication (`OK` and a GUID), then nothing: `Hello` waits.
    case authenticationOnly = "auth"
    /// The authentication and `Hello` (`:1.1`), then nothing: every call
    /// after them (`RequestName`, `ListNames`…) waits.
    case helloOnly = "hello"
    /// It closes the connection as soon as the client has sent something:
    /// the bus lost during the handshake.
    case closing = "close"

    /// The modes whose bus does not finish the handshake.
    package static let handshakeUnanswered: [Mode] = [.silent, .authenticationOnly]
    /// The modes whose bus keeps the connection and stops answering.
    package static let unanswering: [Mode] = [.silent, .authenticationOnly, .helloOnly]
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
  /// How many of those are closed (by the client, or by the bus in
  /// ``Mode/closing``).
  package var closedConnections: Int {
    peer.lines(startingWith: "closed ") + peer.lines(startingWith: "dropped ")
  }
}
