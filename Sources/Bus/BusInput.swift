/// What a bus sends on a ``BusConnection``, read without the socket: the
/// answer to the `EXTERNAL` handshake (`OK <guid>` on one line), then
/// messages, each framed by its first 16 bytes (``BusMessage/size(of:)``)
/// and decoded whole (``BusMessage/decode(_:)``).
///
/// The connection appends what it receives and takes messages until the
/// reader needs more bytes; a ``Failure`` ends the connection. How the bytes
/// arrive (in one piece or many) changes nothing: the same messages come out,
/// or the same failure.
///
/// Memory stays bounded: a message longer than ``maximumMessageSize`` is
/// skipped, its bytes dropped as they arrive (never held), and the messages
/// after it are read on; the storage a long message took is let go once it
/// is taken, down to ``retainedStorage``.
package struct BusInput {
  /// Why the bytes cannot be read on: the connection ends.
  package enum Failure: Error, Equatable {
    /// The handshake's answer is not `OK`: the bus refused us.
    case refused
    /// More than ``BusInput/maximumLineLength`` bytes without a line feed
    /// before the first message.
    case lineTooLong
    /// The next 16 bytes do not start a message.
    case unframed
    /// A whole message whose header does not read.
    case undecodable
  }

  /// The longest answer to the handshake taken (`OK` and a 32-digit guid take 37 bytes).
  package static let maximumLineLength = 1024

  /// The longest message read by default, 64 MiB: a `Notify` call with the
  /// largest body and image the notification server keeps takes far less
  /// (the specification allows 128 MiB; a session bus passes up to 1 GB).
  package static let defaultMaximumMessageSize = 64 << 20

  /// The most storage kept once every byte received is taken: more is let go.
  package static let retainedStorage = 64 << 10

  /// The longest message read; a longer one is skipped.
  package let maximumMessageSize: Int
  /// The bytes received and not yet taken; those before `start` are taken.
  private var bytes: [UInt8] = []
  private var start = 0
  /// Where the first message not yet checked against ``maximumMessageSize``
  /// begins (at or after `start`, once authenticated).
  private var checked = 0
  /// The size of the message at `checked`, whose bytes have not all come
  /// (0: none known).
  private var awaited = 0
  /// How many bytes of a skipped message are still to come: dropped.
  private var skipping = 0
  /// Whether the bus has answered `OK` to the handshake.
  package private(set) var isAuthenticated = false
  /// How many bytes were taken in all: the handshake's line, whole messages
  /// and those of skipped messages.
  package private(set) var consumed = 0
  /// How many messages were skipped for their size.
  package private(set) var skipped = 0

  /// An empty reader, before the handshake's answer, that skips messages
  /// longer than `maximumMessageSize` bytes.
  package init(maximumMessageSize: Int = BusInput.defaultMaximumMessageSize) {
    self.maximumMessageSize = maximumMessageSize
  }

  /// How many bytes were received and not taken yet.
  package var pending: Int { bytes.count - start }

  /// The bytes of storage held.
  package var storage: Int { bytes.capacity }

  /// Adds bytes received from the bus.
  package mutating func append(_ received: some Collection<UInt8>) {
    var received = received[...]
    if skipping > 0 {
      let dropped = min(skipping, received.count)
      received = received.dropFirst(dropped)
      skipping -= dropped
      consumed += dropped
    }
    if start > 0 {
      // A long message's storage goes with it.
      if bytes.capacity > Self.retainedStorage {
        bytes = Array(bytes[start...])
      } else {
        bytes.removeFirst(start)
      }
      checked -= start
      start = 0
    }
    let needed = bytes.count + received.count
    if needed > bytes.capacity && awaited > Self.retainedStorage && bytes.count < checked + awaited
    {
      // A long message takes its own size (and room for what follows it in
      // the same read), not twice as much.
      bytes.reserveCapacity(max(needed, checked + awaited) + Self.retainedStorage)
    }
    bytes += received
    if isAuthenticated { skim() }
  }

  /// Frames the messages received from `checked` on, and drops those longer
  /// than ``maximumMessageSize``, with what is still to come of the last.
  private mutating func skim() {
    awaited = 0
    while bytes.count - checked >= 16 {
      let size = bytes.withUnsafeBufferPointer {
        BusMessage.size(of: $0.baseAddress! + checked)
      }
      // Bytes that frame nothing: ``next()`` fails there.
      guard let size else { return }
      let received = bytes.count - checked
      if size > maximumMessageSize {
        let dropped = min(size, received)
        bytes.removeSubrange(checked..<checked + dropped)
        consumed += dropped
        skipping = size - dropped
        skipped += 1
        continue
      }
      guard received >= size else {
        awaited = size
        return
      }
      checked += size
    }
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
      checked = start
      skim()
    }
    guard pending >= 16 else { return nil }
    let size = bytes.withUnsafeBufferPointer {
      BusMessage.size(of: $0.baseAddress! + start)
    }
    guard let size else { throw .unframed }
    guard pending >= size else { return nil }
    let message = BusMessage.decode(Array(bytes[start..<start + size]))
    take(size)
    guard let message else { throw .undecodable }
    return message
  }

  private mutating func take(_ count: Int) {
    start += count
    consumed += count
    guard start == bytes.count else { return }
    // Everything taken: a long message's storage goes at once.
    if bytes.capacity > Self.retainedStorage {
      bytes = []
    } else {
      bytes.removeAll(keepingCapacity: true)
    }
    start = 0
    checked = 0
  }
}
