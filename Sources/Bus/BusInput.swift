/// What a bus sends on a ``BusConnection``, read without the socket: the
/// answer to the `EXTERNAL` handshake (`OK <guid>` on one line), then
/// messages, each framed by its first 16 bytes (GIO's
/// `g_dbus_message_bytes_needed`) and decoded whole (``BusMessage/decode(_:count:)``).
///
/// The connection appends what it receives and takes messages until the
/// reader needs more bytes; a ``Failure`` ends the connection. How the bytes
/// arrive (in one piece or many) changes nothing: the same messages come out,
/// or the same failure.
package struct BusInput {
  /// Why the bytes cannot be read on: the connection ends.
  package enum Failure: Error, Equatable {
    /// The handshake's answer is not `OK`: the bus refused us.
    case refused
    /// More than ``BusInput/maximumLineLength`` bytes without a line feed
    /// before the first message.
    case lineTooLong
    /// The next 16 bytes do not start a message GIO can frame.
    case unframed
    /// A whole message that GIO does not decode.
    case undecodable
  }

  /// The longest answer to the handshake taken (`OK` and a 32-digit guid take 37 bytes).
  package static let maximumLineLength = 1024

  /// The bytes received and not yet taken; those before `start` are taken.
  private var bytes: [UInt8] = []
  private var start = 0
  /// Whether the bus has answered `OK` to the handshake.
  package private(set) var isAuthenticated = false
  /// How many bytes were taken in all: the handshake's line and whole messages.
  package private(set) var consumed = 0

  /// An empty reader, before the handshake's answer.
  package init() {}

  /// How many bytes were received and not taken yet.
  package var pending: Int { bytes.count - start }

  /// Adds bytes received from the bus.
  package mutating func append(_ received: some Collection<UInt8>) {
    if start > 0 {
      bytes.removeFirst(start)
      start = 0
    }
    bytes += received
  }

  /// The next whole message; nil when more bytes are needed first.
  ///
  /// - Throws: A ``Failure`` when the bytes cannot be read on; the reader
  ///   must not be used after.
  package mutating func next() throws(Failure) -> BusMessage? {
    if !isAuthenticated {
      guard let end = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) else {
        if pending > Self.maximumLineLength { throw .lineTooLong }
        return nil
      }
      // As long a line is refused whether it came in one read or several.
      guard end - start <= Self.maximumLineLength else { throw .lineTooLong }
      let line = bytes[start..<end]
      take(end + 1 - start)
      guard line.starts(with: Array("OK ".utf8)) else { throw .refused }
      isAuthenticated = true
    }
    guard pending >= 16 else { return nil }
    let size = bytes.withUnsafeMutableBufferPointer {
      BusMessage.size(of: $0.baseAddress! + start)
    }
    guard let size else { throw .unframed }
    guard pending >= size else { return nil }
    let message = bytes.withUnsafeMutableBufferPointer {
      BusMessage.decode($0.baseAddress! + start, count: size)
    }
    take(size)
    guard let message else { throw .undecodable }
    return message
  }

  private mutating func take(_ count: Int) {
    start += count
    consumed += count
  }
}
