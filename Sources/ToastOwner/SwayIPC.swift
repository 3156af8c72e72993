import Glibc
import SystemSupport
import ToastProtocol

/// What went wrong talking to sway over its IPC socket.
package enum SwayIPCError: Error, Equatable, Sendable, CustomStringConvertible {
  /// Neither `SWAYSOCK` nor `I3SOCK` is set, and no path was given.
  case noSocket
  /// The socket path is empty.
  case emptySocketPath
  /// The socket path does not fit in a Unix address.
  case pathTooLong(String)
  /// The connection could not be made: the path and the errno.
  case cannotConnect(String, Errno)
  /// Writing or reading the socket failed.
  case cannotWrite(Errno)
  /// Reading the socket failed.
  case cannotRead(Errno)
  /// Sway closed the connection.
  case closed
  /// Sway (at the socket's path) did not answer a request within the limit:
  /// a stopped or hung sway accepts connections and never answers.
  case noAnswer(String, within: Duration)
  /// Bytes that are no i3-ipc message: what is wrong with them.
  case badMessage(String)
  /// Sway answered a subscription with failure: the events and its reply.
  case subscriptionRefused(String, reply: String)

  /// One line without the program name.
  package var description: String {
    switch self {
    case .noSocket: "neither SWAYSOCK nor I3SOCK is set: is sway running?"
    case .emptySocketPath: "cannot connect to sway: the IPC socket path is empty"
    case .pathTooLong(let path): "cannot connect to \(path): the path is too long"
    case .cannotConnect(let path, let error): "cannot connect to \(path): \(error)"
    case .cannotWrite(let error): "cannot write to sway's IPC socket: \(error)"
    case .cannotRead(let error): "cannot read sway's IPC socket: \(error)"
    case .closed: "sway closed the IPC connection"
    case .noAnswer(let path, let limit):
      "sway did not answer at \(path) in \(limit.components.seconds) s; is it stopped or hung?"
    case .badMessage(let reason): "bad sway IPC message: \(reason)"
    case .subscriptionRefused(let events, let reply):
      "sway refused the subscription to \(events): \(reply)"
    }
  }
}

/// The message and event types of the sway (i3) IPC protocol that wl-toast uses.
package enum SwayIPCMessageType {
  /// Runs the payload as sway commands.
  package static let runCommand: UInt32 = 0
  /// Asks for the list of workspaces.
  package static let getWorkspaces: UInt32 = 1
  /// Subscribes to the events named in the payload, a JSON array of names.
  package static let subscribe: UInt32 = 2
  /// Asks for sway's version.
  package static let getVersion: UInt32 = 7
  /// The bit set in the type of every event (as opposed to a reply).
  package static let eventBit: UInt32 = 0x8000_0000
  /// A workspace event: focus changed, a workspace was created, emptied, renamed...
  package static let workspaceEvent: UInt32 = 0x8000_0000
  /// A binding mode event: the mode changed.
  package static let modeEvent: UInt32 = 0x8000_0002
  /// An input event: a device was added or removed, or changed (its layout).
  package static let inputEvent: UInt32 = 0x8000_0015

  /// Whether a message of this type is an event rather than the reply to a request.
  package static func isEvent(_ type: UInt32) -> Bool {
    type & eventBit != 0
  }
}

/// The frame of every sway IPC message: the magic `i3-ipc`, the payload's
/// length and the message type (both 32-bit, native byte order), then the
/// payload (JSON, or a command).
package enum SwayIPCFrame {
  /// The six bytes every frame starts with.
  package static let magic: [UInt8] = Array("i3-ipc".utf8)
  /// The size of the header: the magic, the length and the type.
  package static let headerSize = 14
  /// The longest payload accepted from sway, in bytes (16 MiB).
  package static let maximumPayloadSize = 16 * 1024 * 1024

  /// The bytes of one message.
  package static func encode(type: UInt32, payload: String) -> [UInt8] {
    let body = Array(payload.utf8)
    var bytes = magic
    bytes.reserveCapacity(headerSize + body.count)
    withUnsafeBytes(of: UInt32(truncatingIfNeeded: body.count)) { bytes.append(contentsOf: $0) }
    withUnsafeBytes(of: type) { bytes.append(contentsOf: $0) }
    bytes.append(contentsOf: body)
    return bytes
  }
}

/// Splits the bytes read from a sway IPC socket into messages, however the
/// reads cut them.
package struct SwayIPCDecoder {
  private var buffer: [UInt8] = []
  /// Where the first byte not yet decoded is in `buffer`.
  private var start = 0

  /// Creates a decoder with nothing buffered.
  package init() {}

  /// The number of bytes received but not yet returned as a message.
  package var bufferedByteCount: Int { buffer.count - start }

  /// Adds bytes read from the socket.
  package mutating func append(_ bytes: [UInt8]) {
    if start > 0 && start >= buffer.count / 2 {
      buffer.removeFirst(start)
      start = 0
    }
    buffer.append(contentsOf: bytes)
  }

  /// The next complete message, or nil when more bytes are needed.
  ///
  /// Throws when the stream cannot be a sway IPC stream: a frame that does not
  /// start with `i3-ipc`, or a payload longer than
  /// ``SwayIPCFrame/maximumPayloadSize``. The stream cannot be resynchronised,
  /// so every later call throws too.
  package mutating func next() throws(SwayIPCError) -> (type: UInt32, payload: String)? {
    let available = buffer.count - start
    let magic = SwayIPCFrame.magic
    for index in 0..<min(available, magic.count) where buffer[start + index] != magic[index] {
      throw .badMessage("it does not start with \"i3-ipc\"")
    }
    guard available >= SwayIPCFrame.headerSize else { return nil }
    let (length, type) = buffer.withUnsafeBytes { raw in
      (
        raw.loadUnaligned(fromByteOffset: start + 6, as: UInt32.self),
        raw.loadUnaligned(fromByteOffset: start + 10, as: UInt32.self)
      )
    }
    guard length <= SwayIPCFrame.maximumPayloadSize else {
      throw .badMessage("a payload of \(length) bytes is over the 16 MiB limit")
    }
    let total = SwayIPCFrame.headerSize + Int(length)
    guard available >= total else { return nil }
    let body = buffer[(start + SwayIPCFrame.headerSize)..<(start + total)]
    let payload = String(decoding: body, as: UTF8.self)
    start += total
    if start == buffer.count {
      buffer.removeAll(keepingCapacity: true)
      start = 0
    }
    return (type, payload)
  }
}

/// A connection to sway's IPC socket (a Unix stream socket).
///
/// Requests and replies go through ``request(type:payload:)``; after a
/// subscription, events arrive on ``fileDescriptor``: wait for it with `poll()`
/// and take them with ``readAvailable()``.
package final class SwayIPCConnection {
  /// The socket, for `poll()`; closed when the connection is released.
  package let fileDescriptor: Int32
  /// The path of the socket.
  package let socketPath: String
  private var decoder = SwayIPCDecoder()
  /// Events that arrived while ``request(type:payload:)`` waited for its reply.
  private var pending: [(type: UInt32, payload: String)] = []
  private var closed = false

  /// Where sway's IPC socket is, as swaymsg finds it: `$SWAYSOCK`, else
  /// `$I3SOCK` (each read by `variable`); nil when both are unset or empty.
  static func environmentSocketPath(
    _ variable: (String) -> String? = { getenv($0).map { String(cString: $0) } }
  ) -> String? {
    ["SWAYSOCK", "I3SOCK"].lazy.compactMap(variable).first { !$0.isEmpty }
  }

  /// Connects to sway at `socketPath`, or when it is nil at the socket
  /// ``environmentSocketPath(_:)`` names.
  package init(socketPath: String?) throws(SwayIPCError) {
    let path: String
    if let socketPath {
      path = socketPath
    } else if let found = Self.environmentSocketPath() {
      path = found
    } else {
      throw .noSocket
    }
    guard !path.isEmpty else {
      throw .emptySocketPath
    }
    guard path.utf8.count <= maximumUnixPathLength else { throw .pathTooLong(path) }
    // A stopped sway accepts nothing: once its backlog (3) is full, a
    // connect waits for room, at most the answer's limit.
    let descriptor: Int32
    do {
      descriptor = try connectUnixStream(to: path, within: Self.answerLimit)
    } catch {
      if error == .wouldBlock { throw .noAnswer(path, within: Self.answerLimit) }
      throw .cannotConnect(path, error)
    }
    fileDescriptor = descriptor
    self.socketPath = path
  }

  deinit {
    close(fileDescriptor)
  }

  /// Whether messages are already decoded and waiting, so that
  /// ``readAvailable()`` returns them without the socket becoming readable
  /// (events that arrived during ``request(type:payload:)``).
  package var hasBufferedMessages: Bool { !pending.isEmpty }

  /// Sends one message.
  package func send(type: UInt32, payload: String) throws(SwayIPCError) {
    let bytes = SwayIPCFrame.encode(type: type, payload: payload)
    var sent = 0
    while sent < bytes.count {
      let result = bytes.withUnsafeBytes { raw in
        Glibc.send(
          fileDescriptor, raw.baseAddress! + sent, raw.count - sent, Int32(MSG_NOSIGNAL))
      }
      if result < 0 {
        if errno == EINTR { continue }
        throw .cannotWrite(.current)
      }
      sent += result
    }
  }

  /// The messages that have arrived, without waiting: an empty array when
  /// nothing complete has arrived yet.
  ///
  /// Throws when sway has closed the connection (once the messages that came
  /// before the end have been returned) or sent something that is not IPC.
  package func readAvailable() throws(SwayIPCError) -> [(type: UInt32, payload: String)] {
    var messages = pending
    pending.removeAll()
    while !closed {
      guard let bytes = try receive() else { break }
      if bytes.isEmpty {
        closed = true
        break
      }
      decoder.append(bytes)
    }
    while let message = try decoder.next() { messages.append(message) }
    if closed && messages.isEmpty {
      throw .closed
    }
    return messages
  }

  /// How long sway has to answer a request.
  package static let answerLimit: Duration = .seconds(5)

  /// Sends a request and waits, at most `limit`, for its reply, returning the
  /// reply's payload.
  ///
  /// Events that arrive meanwhile are kept for ``readAvailable()``.
  package func request(
    type: UInt32, payload: String, within limit: Duration = SwayIPCConnection.answerLimit
  ) throws(SwayIPCError) -> String {
    let deadline = MonotonicTime.now + limit
    try send(type: type, payload: payload)
    while true {
      while let message = try decoder.next() {
        if SwayIPCMessageType.isEvent(message.type) {
          pending.append(message)
        } else {
          return message.payload
        }
      }
      if closed { throw .closed }
      var ready = pollfd(fd: fileDescriptor, events: Int16(POLLIN), revents: 0)
      let count = retryingOnInterrupt {
        poll(&ready, 1, Duration.pollTimeout(max(.zero, deadline - .now)))
      }
      if count == 0 { throw .noAnswer(socketPath, within: limit) }
      if count < 0 { throw .cannotRead(.current) }
      guard let bytes = try receive() else { continue }
      if bytes.isEmpty {
        closed = true
      } else {
        decoder.append(bytes)
      }
    }
  }

  /// Subscribes to the named events (`mode`, `workspace`, ...), checking that
  /// sway answers `{"success": true}`.
  package func subscribe(to events: [String]) throws(SwayIPCError) {
    let payload = JSONValue.array(events.map { .string($0) }).serialized
    let reply = try request(type: SwayIPCMessageType.subscribe, payload: payload)
    let success: Bool?
    do {
      success = try JSONValue.parse(reply)["success"]?.boolValue
    } catch {
      success = nil
    }
    guard success == true else {
      throw .subscriptionRefused(payload, reply: reply)
    }
  }

  /// One read that does not wait: the bytes, an empty array at the end of
  /// the stream, or nil when it finds nothing (or was interrupted).
  private func receive() throws(SwayIPCError) -> [UInt8]? {
    var chunk = [UInt8](repeating: 0, count: 65536)
    let count = chunk.withUnsafeMutableBytes { raw in
      recv(fileDescriptor, raw.baseAddress, raw.count, Int32(MSG_DONTWAIT))
    }
    if count < 0 {
      if errno == EINTR || errno == EAGAIN || errno == EWOULDBLOCK { return nil }
      throw .cannotRead(.current)
    }
    return Array(chunk[0..<count])
  }

}
