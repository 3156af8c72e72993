import CGio
import Glibc
import SystemSupport

/// A connection to a D-Bus message bus that lives in the presenter's
/// ``EventLoop``: its socket is one more descriptor in the loop's `poll()`,
/// so it needs no thread and wakes the loop only when a message arrives.
///
/// GIO's own `GDBusConnection` cannot work that way: every connection does
/// its reading and writing in GIO's shared `gdbus` thread (with a `gmain`
/// worker beside it), which start with the first connection and stay for the
/// life of the process. Only GIO's message format is used here.
///
/// The connection authenticates with `EXTERNAL` (the peer's uid), says
/// `Hello`, and then carries method calls (each answered through its reply
/// handler), signals and calls to our own objects. A bus that accepts the
/// socket but does not finish the handshake (the authentication and `Hello`)
/// within ``answerLimit`` is closed as unanswered (``closedUnanswered``).
/// Every call has a limit (by default ``callLimit``), so no call waits for
/// ever: its reply handler hears, once, the answer, an error, that no answer
/// came in time, or the connection's close (unless the connection is
/// abandoned, or closes for a ``AnswerLimit/closing(after:)`` limit). A
/// timer exists only while a call waits: none when idle.
package final class BusConnection {
  /// A failed call: the D-Bus error's name and text, or why no answer came.
  package struct CallError: Error, CustomStringConvertible {
    package var name: String
    package var message: String
    package var description: String { "\(name): \(message)" }

    /// No answer came within `limit` (D-Bus's own name for that).
    package static func noAnswer(within limit: Duration) -> CallError {
      CallError(
        name: "org.freedesktop.DBus.Error.NoReply",
        message: "no answer within \(BusConnection.words(limit))")
    }

    /// Whether the call failed for want of an answer in time.
    package var isNoAnswer: Bool { name == "org.freedesktop.DBus.Error.NoReply" }
  }

  /// How long the bus has for the handshake (the authentication and
  /// `Hello`), and for each call made with a limit: 5 s. A bus answers in
  /// about a millisecond, so one that has not answered in 5 s is stuck; and a
  /// command waiting for an owner's answer gives up after 10 s (GIO's 25 s
  /// default would come after it).
  package static let answerLimit: Duration = .seconds(5)

  /// How long a peer other than the bus has to answer a call made without
  /// a limit of its own: 25 s, GDBus's and libdbus's default, so a slow
  /// peer is given as long as any GLib client gives it; then the reply
  /// hears ``CallError/noAnswer(within:)``. A peer that owns a name and
  /// never answers cannot keep a caller waiting, or its calls piling up.
  package static let callLimit: Duration = .seconds(25)

  /// One line for a bus that did not answer in time: `the session bus at
  /// /run/user/1000/bus did not answer within 5 s`, for `bus` "the session bus".
  package static func unansweredLine(_ bus: String, at address: BusAddress) -> String {
    "\(bus) at \(address.socketList) did not answer within \(words(answerLimit))"
  }

  /// How long a call waits for its answer, and what then.
  package enum AnswerLimit: Sendable {
    /// Then the reply hears ``CallError/noAnswer(within:)``; the connection
    /// stays open.
    case failing(after: Duration)
    /// Then the connection closes as unanswered (``closedUnanswered``), and
    /// the reply is dropped unheard: for a call the connection's owner cannot
    /// do without, as `Hello`.
    case closing(after: Duration)

    /// ``answerLimit``, then the connection closes: a bus that has not
    /// answered by then is stuck.
    package static let bus = AnswerLimit.closing(after: answerLimit)
  }

  /// A limit in words: `5 s`, or `300 ms` when it is no whole number of seconds.
  private static func words(_ limit: Duration) -> String {
    let (seconds, attoseconds) = limit.components
    let milliseconds = seconds * 1000 + attoseconds / 1_000_000_000_000_000
    return milliseconds % 1000 == 0 ? "\(seconds) s" : "\(milliseconds) ms"
  }

  private let loop: EventLoop
  /// The socket; nil once the connection is closed.
  private var socket: FileDescriptor?
  private var watch: EventLoop.Token?
  private var watchesWrites = false
  private var input = BusInput()
  /// Where `recv` writes, kept for the connection's life: neither allocated
  /// nor zeroed again for each read.
  private var readBuffer = [UInt8](repeating: 0, count: 16_384)
  private var output: [UInt8] = []
  private var nextSerial: UInt32 = 1
  private var replies: [UInt32: (Result<BusMessage, CallError>) -> Void] = [:]
  /// The timers of the calls waiting for an answer, by serial.
  private var deadlines: [UInt32: EventLoop.Token] = [:]
  /// The limit of a call made without one of its own.
  private let callLimit: Duration
  /// How many calls wait for an answer.
  package var waitingCalls: Int { replies.count }
  /// This connection's unique name on the bus (`:1.42`), once `Hello` answered.
  package private(set) var uniqueName: String?
  /// Whether the connection has closed.
  package var isClosed: Bool { socket?.rawValue == nil }
  /// Whether the connection was closed because the bus did not answer in
  /// time: the handshake, or a call made with a ``AnswerLimit/closing(after:)`` limit.
  package private(set) var closedUnanswered = false

  /// Called once the bus has answered `Hello`.
  package var onReady: (() -> Void)?
  /// Called once when the connection ends (the bus went away, or a protocol error).
  package var onClose: (() -> Void)?
  /// Called with each signal that arrives.
  package var onSignal: ((BusMessage) -> Void)?
  /// Called with each method call to this connection's objects; the handler
  /// returns the answer (nil: an UnknownMethod error), sent unless the caller
  /// expects none.
  package var onMethodCall: ((BusMessage) -> BusMessage?)?

  /// Connects to the bus at `address` and starts authenticating; nil when no
  /// socket of the address accepts. The handshake has ``answerLimit`` to
  /// finish; then the connection closes unanswered. A call made without a
  /// limit of its own has `callLimit` (tests give a shorter one).
  package init?(address: BusAddress, loop: EventLoop, callLimit: Duration = BusConnection.callLimit)
  {
    guard let connected = address.connect() else { return nil }
    let fd = connected.rawValue
    socket = consume connected
    self.loop = loop
    self.callLimit = callLimit
    // The credentials go with the socket; the uid in hex digits of its decimal text.
    let uid = Array(String(getuid()).utf8).map { byte in
      let digits = Array("0123456789abcdef".utf8)
      return String(decoding: [digits[Int(byte >> 4)], digits[Int(byte & 15)]], as: UTF8.self)
    }.joined()
    // The whole handshake at once (as sd-bus does): the bus answers OK, then
    // reads BEGIN and the first message.
    output = [0] + Array("AUTH EXTERNAL \(uid)\r\nBEGIN\r\n".utf8)
    watch = loop.addSource(fd: fd) { [unowned self] events in handle(events) }
    // The limit of `Hello` starts now: it covers the authentication too.
    call(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: "Hello", limit: .bus
    ) { [unowned self] result in
      guard case .success(let reply) = result,
        let name = reply.argument(0, Variant.text)
      else {
        close()
        return
      }
      uniqueName = name
      onReady?()
    }
  }

  deinit { abandon() }

  /// Calls a method; `reply` hears, once, the answer, or an error (also
  /// when the connection ends first); no answer within `limit` (by default
  /// `.failing(after:)` the connection's call limit) does what the limit
  /// says. Returns the call's serial, for ``forget(_:)``; nil when the
  /// connection is closed (`reply` has heard so).
  @discardableResult
  package func call(
    destination: String?, path: String, interface: String, member: String,
    body: OpaquePointer? = nil, limit: AnswerLimit? = nil,
    reply: @escaping (Result<BusMessage, CallError>) -> Void = { _ in }
  ) -> UInt32? {
    let message = BusMessage.call(
      destination: destination, path: path, interface: interface, member: member, body: body)
    guard let serial = send(message) else {
      reply(.failure(CallError(name: "closed", message: "the connection is closed")))
      return nil
    }
    replies[serial] = reply
    switch limit ?? .failing(after: callLimit) {
    case .failing(let after):
      deadlines[serial] = loop.addTimer(after: after) { [unowned self] in
        deadlines[serial] = nil
        replies.removeValue(forKey: serial)?(.failure(.noAnswer(within: after)))
      }
    case .closing(let after):
      deadlines[serial] = loop.addTimer(after: after) { [unowned self] in
        deadlines[serial] = nil
        replies[serial] = nil
        closedUnanswered = true
        close()
      }
    }
    return serial
  }

  /// Forgets the call with `serial`: its reply handler is dropped unheard
  /// with its timer, and an answer that comes later is ignored. For a call
  /// whose answer no longer matters (its peer was replaced).
  package func forget(_ serial: UInt32) {
    if let deadline = deadlines.removeValue(forKey: serial) { loop.remove(deadline) }
    replies[serial] = nil
  }

  /// Asks the bus to deliver signals that match `rule` (D-Bus match syntax).
  package func addMatch(_ rule: String) {
    call(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", member: "AddMatch",
      body: Variant.tuple([Variant.string(rule)]))
  }

  /// Sends a message; returns its serial, or nil when the connection is closed.
  @discardableResult
  package func send(_ message: BusMessage) -> UInt32? {
    guard !isClosed else { return nil }
    let serial = nextSerial
    nextSerial = nextSerial == UInt32.max ? 1 : nextSerial + 1
    guard let bytes = message.encoded(serial: serial) else { return nil }
    output += bytes
    flush()
    return isClosed ? nil : serial
  }

  /// Closes the connection: what is still unsent is dropped, calls waiting
  /// for an answer hear that it closed; `onClose` is called unless `notifying` is false.
  package func close(notifying: Bool = true) {
    guard !isClosed else { return }
    if let watch { loop.remove(watch) }
    watch = nil
    socket = nil  // closes it
    for (_, deadline) in deadlines { loop.remove(deadline) }
    deadlines.removeAll()
    let waiting = replies
    replies.removeAll()
    for (_, reply) in waiting.sorted(by: { $0.key < $1.key }) {
      reply(.failure(CallError(name: "closed", message: "the connection closed")))
    }
    if notifying { onClose?() }
  }

  /// Closes the connection without a word to anyone: the calls waiting for
  /// an answer are dropped unheard and no handler is called again. For the
  /// connection's owner as it goes away itself (and for the connection's own
  /// deinit): the handlers reach their owner through unowned references, which
  /// must not be read once it is being deinitialized (Swift stops the process).
  package func abandon() {
    replies.removeAll()
    onReady = nil
    onClose = nil
    onSignal = nil
    onMethodCall = nil
    close(notifying: false)
  }

  // MARK: - Reading and writing

  private func handle(_ events: Int16) {
    if events & Int16(POLLOUT) != 0 { flush() }
    if events & Int16(POLLIN | POLLHUP | POLLERR) != 0 { read() }
  }

  private func flush() {
    while !output.isEmpty, let fd = socket?.rawValue {
      let sent = output.withUnsafeBytes { buffer in
        retryingOnInterrupt {
          Glibc.send(fd, buffer.baseAddress, buffer.count, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
        }
      }
      if sent < 0 {
        if errno == EAGAIN { break }
        close()
        return
      }
      output.removeFirst(sent)
    }
    // Watch for room to write only while something waits to be written.
    let wantsWrites = !output.isEmpty
    guard let fd = socket?.rawValue, wantsWrites != watchesWrites else { return }
    if let watch { loop.remove(watch) }
    watchesWrites = wantsWrites
    watch = loop.addSource(
      fd: fd, events: Int16(POLLIN) | (wantsWrites ? Int16(POLLOUT) : 0)
    ) { [unowned self] events in handle(events) }
  }

  /// The most bytes one pass takes from the socket before the messages
  /// they complete are handled: a bus that keeps the socket full (a client
  /// sending large calls in a burst) is read a pass at a time, the loop
  /// turning between passes, so what waits in the input stays bounded.
  static let readPassLimit = 1 << 20

  private func read() {
    var taken = 0
    while taken < Self.readPassLimit, let fd = socket?.rawValue {
      let (count, size) = readBuffer.withUnsafeMutableBytes { buffer in
        (
          retryingOnInterrupt {
            recv(fd, buffer.baseAddress, buffer.count, Int32(MSG_DONTWAIT))
          }, buffer.count
        )
      }
      if count < 0 && errno == EAGAIN { break }
      guard count > 0 else {
        close()
        return
      }
      readBuffer.withUnsafeBufferPointer { input.append($0[0..<count]) }
      taken += count
      if count < size { break }
    }
    // Messages until more bytes are needed; a handler may close the connection.
    do {
      while !isClosed, let message = try input.next() { dispatch(message) }
    } catch {
      close()
    }
  }

  private func dispatch(_ message: BusMessage) {
    switch message.type {
    case G_DBUS_MESSAGE_TYPE_METHOD_RETURN:
      answered(message.replySerial)?(.success(message))
    case G_DBUS_MESSAGE_TYPE_ERROR:
      let text = message.argument(0, Variant.text) ?? ""
      answered(message.replySerial)?(
        .failure(CallError(name: message.errorName ?? "error", message: text)))
    case G_DBUS_MESSAGE_TYPE_SIGNAL:
      onSignal?(message)
    case G_DBUS_MESSAGE_TYPE_METHOD_CALL:
      let answer =
        onMethodCall?(message)
        ?? message.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method")
      if message.expectsReply, let answer { send(answer) }
    default:
      break
    }
  }

  /// The reply handler of the call with `serial`, taken with its timer.
  private func answered(_ serial: UInt32) -> ((Result<BusMessage, CallError>) -> Void)? {
    if let deadline = deadlines.removeValue(forKey: serial) { loop.remove(deadline) }
    return replies.removeValue(forKey: serial)
  }
}
