import CWaylandClient
import Glibc
import SystemSupport

/// The display as one connection of an `EventLoop` (SystemSupport): queued
/// events are dispatched before the loop sleeps, what was sent is flushed, and
/// the socket is read with libwayland's prepare/read protocol, so that another
/// reader of the same display never steals a wake-up.
extension Display: QueuedConnection {
  /// Dispatches the events already read (`wl_display_dispatch_pending`).
  public func dispatchQueued() throws(EventLoopError) {
    do {
      try dispatchPending()
    } catch {
      throw .failed(error)
    }
  }

  /// Takes the read intent (`wl_display_prepare_read`) and flushes.
  public func prepareToSleep() throws(EventLoopError) -> (fd: Int32, events: Int16) {
    let wl = pointer
    while wl_display_prepare_read(wl) != 0 {
      try dispatchQueued()
    }
    var wantWrite = false
    if wl_display_flush(wl) < 0 {
      if errno == EAGAIN {
        wantWrite = true
      } else if errno != EINTR {
        wl_display_cancel_read(wl)
        throw .failed(currentError())
      }
    }
    return (wl_display_get_fd(wl), Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0))
  }

  /// Reads the events that arrived, or cancels the read; a hang-up is the
  /// compositor's last word (its protocol error, if any) or a lost connection.
  public func finishSleep(revents: Int16) throws(EventLoopError) {
    let wl = pointer
    if revents & Int16(POLLIN) != 0 {
      if wl_display_read_events(wl) < 0 { throw .failed(currentError()) }
      return
    }
    wl_display_cancel_read(wl)
    if revents & Int16(POLLERR | POLLHUP) != 0 {
      // Read whatever the compositor said last (often the protocol error).
      _ = wl_display_dispatch(wl)
      do {
        try checkError()
      } catch {
        throw .failed(error)
      }
      throw .failed(WaylandError.connectionLost(reason: "the compositor closed the connection"))
    }
  }

  /// Flushes what was sent, without waiting.
  public func flush() {
    _ = wl_display_flush(pointer)
  }
}

extension EventLoopError {
  /// The Wayland error the loop stopped with: a connection's, or a system call of the loop's.
  public var waylandError: WaylandError {
    switch self {
    case .system(let call, let code): .system(call: call, errno: code)
    case .failed(let error as WaylandError): error
    case .failed(let error): .connectionLost(reason: "\(error)")
    }
  }
}
