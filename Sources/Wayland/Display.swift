import CWaylandClient
import Glibc
import SystemSupport

/// Owns the `wl_display` pointer; every object holds it, so the connection
/// closes only after the display and all its objects are gone.
final class Connection {
  let pointer: OpaquePointer

  init(_ pointer: OpaquePointer) { self.pointer = pointer }

  deinit { wl_display_disconnect(pointer) }
}

/// A connection to a Wayland compositor.
///
/// Objects created through it keep the connection open while they live.
public final class Display {
  /// The `wl_display` pointer.
  public let pointer: OpaquePointer
  /// The display name that was connected to (a socket name or an absolute path).
  public let name: String
  /// The `wl_display` object, for its requests (`sync`, `getRegistry`).
  public let object: WlDisplay

  /// Connects to the named display, or to `WAYLAND_DISPLAY` (default `wayland-0`).
  ///
  /// The name may be a socket name inside `XDG_RUNTIME_DIR` or an absolute path.
  /// Without a name, a `WAYLAND_SOCKET` set by the compositor that started the
  /// program (sway's `swaynag_command`) wins: libwayland takes that
  /// descriptor, which must be a socket.
  ///
  /// A stopped compositor accepts no connection: once its socket's backlog
  /// is full, connecting waits, at most `limit`.
  ///
  /// - Throws: ``WaylandError/cannotConnect(display:path:reason:)``, or
  ///   ``WaylandError/noAnswer(display:within:)`` when `limit` passes first.
  public convenience init(name: String? = nil, within limit: Duration = Display.answerLimit)
    throws(WaylandError)
  {
    if name == nil, let socket = getenv("WAYLAND_SOCKET").map({ String(cString: $0) }) {
      var status = stat()
      guard let fd = Int32(socket), fd >= 0, fstat(fd, &status) == 0,
        status.st_mode & S_IFMT == S_IFSOCK
      else { throw .notASocket(socket) }
      guard let display = wl_display_connect(nil) else {
        throw .cannotConnect(
          display: "WAYLAND_SOCKET=\(socket)", path: nil, reason: Errno.current.description)
      }
      self.init(adopting: display, name: "WAYLAND_SOCKET=\(socket)")
      return
    }
    let resolved =
      name ?? getenv("WAYLAND_DISPLAY").map { String(cString: $0) }.flatMap {
        $0.isEmpty ? nil : $0
      }
      ?? "wayland-0"
    var path = resolved
    if !resolved.hasPrefix("/") {
      guard let runtime = getenv("XDG_RUNTIME_DIR"), runtime.pointee != 0 else {
        throw .cannotConnect(
          display: resolved, path: nil, reason: "XDG_RUNTIME_DIR is not set")
      }
      path = String(cString: runtime) + "/" + resolved
    }
    // libwayland's own connect would wait without limit: the socket is
    // connected here, with a limit on the wait, and handed over.
    let fd: Int32
    do {
      fd = try connectUnixStream(to: path, within: limit)
    } catch {
      if error == .wouldBlock { throw .noAnswer(display: resolved, within: limit) }
      throw .cannotConnect(display: resolved, path: path, reason: error.description)
    }
    // It takes the descriptor, and closes it if it fails.
    guard let display = wl_display_connect_to_fd(fd) else {
      throw .cannotConnect(display: resolved, path: path, reason: Errno.current.description)
    }
    self.init(adopting: display, name: resolved)
  }

  private init(adopting display: OpaquePointer, name: String) {
    let connection = Connection(display)
    self.pointer = display
    self.name = name
    self.object = WlDisplay(adopting: display)
    object.connection = connection
  }

  /// The connection's file descriptor, for `poll()`.
  public var fileDescriptor: Int32 { wl_display_get_fd(pointer) }

  /// Sends all requests and waits until the compositor has handled them and
  /// every event they caused has been dispatched.
  public func roundtrip() throws(WaylandError) {
    if wl_display_roundtrip(pointer) < 0 { throw currentError() }
  }

  /// How long a compositor has to take the connection and answer each
  /// roundtrip of the handshake (the globals, then the outputs' and seats'
  /// first events) and the last one before the program ends, before the
  /// program gives up on it with ``WaylandError/noAnswer(display:within:)``.
  public static let answerLimit: Duration = .seconds(5)

  /// Sends all requests and waits, at most `limit`, until the compositor has
  /// handled them and every event they caused has been dispatched: a
  /// compositor that accepted the connection but is stopped or hung cannot
  /// keep the program waiting.
  ///
  /// - Throws: ``WaylandError/noAnswer(display:within:)`` when `limit` passes
  ///   first; the connection's error when it fails.
  public func roundtrip(within limit: Duration) throws(WaylandError) {
    let deadline = MonotonicTime.now + limit
    var answered = false
    let callback = object.sync()
    callback.onEvent = { _ in answered = true }
    // Unanswered, the callback is freed here (it would keep the connection
    // alive until its `done`); an answer arriving later is then discarded.
    defer { if !answered { callback.destroy() } }
    while true {
      let sleep: (fd: Int32, events: Int16)
      do {
        try dispatchQueued()
        if answered { return }
        sleep = try prepareToSleep()
      } catch {
        throw error.waylandError
      }
      // Taking the read intent may have dispatched the answer.
      if answered {
        wl_display_cancel_read(pointer)
        return
      }
      var pfd = pollfd(fd: sleep.fd, events: sleep.events, revents: 0)
      let ready = retryingOnInterrupt {
        poll(&pfd, 1, Duration.pollTimeout(max(.zero, deadline - .now)))
      }
      if ready <= 0 {
        let code = errno
        wl_display_cancel_read(pointer)
        throw ready == 0
          ? .noAnswer(display: name, within: limit) : .system(call: "poll", errno: code)
      }
      do {
        try finishSleep(revents: pfd.revents)
      } catch {
        throw error.waylandError
      }
    }
  }

  /// What ``flush(until:)`` did.
  public struct FlushResult: Equatable, Sendable {
    /// Events were read into the queue meanwhile: they wait for a dispatch
    /// (and what they ask for, for the next pass of the loop).
    public var readEvents: Bool
  }

  /// Sends the requests queued, waiting until `deadline` while the
  /// compositor's socket is full. libwayland (before 1.22) queues at most
  /// 4 KiB of requests and gives the connection up when a request finds the
  /// queue and the socket full, so a pass that sends many (hundreds of
  /// toasts moving at once) sends them as it goes. Meanwhile what the
  /// compositor sends is read into the queue, or it would give up on us as
  /// we wait on it. Past the deadline, or once the connection has failed,
  /// what is left waits for the loop's own flush.
  @discardableResult
  public func flush(until deadline: MonotonicTime) -> FlushResult {
    var result = FlushResult(readEvents: false)
    while true {
      guard wl_display_get_error(pointer) == 0 else { return result }
      if wl_display_flush(pointer) >= 0 { return result }
      guard errno == EAGAIN || errno == EINTR else { return result }
      let remaining = deadline - .now
      guard remaining > .zero else { return result }
      let reading = wl_display_prepare_read(pointer) == 0
      let events = Int16(POLLOUT) | (reading ? Int16(POLLIN) : 0)
      var pfd = pollfd(fd: wl_display_get_fd(pointer), events: events, revents: 0)
      _ = poll(&pfd, 1, Duration.pollTimeout(remaining))
      guard reading else { continue }
      if pfd.revents & Int16(POLLIN) != 0 {
        _ = wl_display_read_events(pointer)
        result.readEvents = true
      } else {
        wl_display_cancel_read(pointer)
      }
    }
  }

  /// Dispatches events already read from the connection.
  public func dispatchPending() throws(WaylandError) {
    if wl_display_dispatch_pending(pointer) < 0 { throw currentError() }
  }

  /// Throws if the connection has failed.
  public func checkError() throws(WaylandError) {
    if wl_display_get_error(pointer) != 0 { throw currentError() }
  }

  /// The error that ended the connection, in typed form.
  func currentError() -> WaylandError {
    let code = wl_display_get_error(pointer)
    if code == EPROTO {
      var interface: UnsafePointer<wl_interface>?
      var objectID: UInt32 = 0
      let protocolCode = wl_display_get_protocol_error(pointer, &interface, &objectID)
      let name = interface.map { String(cString: $0.pointee.name) } ?? "unknown interface"
      return .protocolError(interface: name, objectID: objectID, code: protocolCode)
    }
    // EAGAIN: a request found the queue full and the socket too (libwayland
    // before 1.22); the compositor is still there.
    if code == EAGAIN { return .requestsNotTaken }
    let reason =
      code == 0 ? "the compositor closed the connection" : Errno(rawValue: code).description
    return .connectionLost(reason: reason)
  }
}
