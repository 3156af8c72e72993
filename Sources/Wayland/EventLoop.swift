import CWaylandClient
import Glibc
import SystemSupport

/// One thread's event loop: a single `poll()` over the Wayland connection, a
/// timerfd for deadlines, a signalfd for SIGINT and SIGTERM, and any other
/// file descriptors the program adds.
///
/// While nothing is due the loop sleeps in `poll()` without waking up.
public final class EventLoop {
  /// Identifies a timer or a file descriptor source, for removal.
  public struct Token: Hashable, Sendable {
    let value: UInt64
  }

  private struct Timer {
    var token: Token
    var deadline: MonotonicTime
    var handler: () -> Void
  }

  private struct Source {
    var token: Token
    var fd: Int32
    var events: Int16
    var handler: (Int16) -> Void
  }

  /// The connection the loop serves.
  public let display: Display
  /// Called with the signal number when SIGINT or SIGTERM arrives.
  public var onSignal: ((Int32) -> Void)?
  /// Called before the loop sleeps, after events are dispatched: the place to
  /// draw what became dirty.
  public var beforeSleep: (() -> Void)?

  private let timerFD: Int32
  private let signalFD: Int32
  private var savedMask = sigset_t()
  private var timers: [Timer] = []
  private var sources: [Source] = []
  private var nextToken: UInt64 = 1
  private var armedDeadline: MonotonicTime?
  private var stopped = false
  private var failure: WaylandError?
  /// How many times the loop has woken from `poll()`: a measure of idle wake-ups.
  public private(set) var wakeUps = 0

  /// Creates a loop over a display and starts catching SIGINT and SIGTERM.
  public init(display: Display, signals: [Int32] = [SIGINT, SIGTERM]) throws(WaylandError) {
    self.display = display
    timerFD = timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
    guard timerFD >= 0 else { throw .system(call: "timerfd_create", errno: errno) }
    var mask = sigset_t()
    sigemptyset(&mask)
    for signal in signals { sigaddset(&mask, signal) }
    pthread_sigmask(SIG_BLOCK, &mask, &savedMask)
    signalFD = signalfd(-1, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK))
    guard signalFD >= 0 else {
      let code = errno
      close(timerFD)
      throw .system(call: "signalfd", errno: code)
    }
  }

  deinit {
    close(timerFD)
    close(signalFD)
    pthread_sigmask(SIG_SETMASK, &savedMask, nil)
  }

  /// Runs `handler` once at `deadline` (or at the next iteration if it has passed).
  @discardableResult
  public func addTimer(at deadline: MonotonicTime, _ handler: @escaping () -> Void) -> Token {
    let token = makeToken()
    timers.append(Timer(token: token, deadline: deadline, handler: handler))
    return token
  }

  /// Runs `handler` once after `delay`.
  @discardableResult
  public func addTimer(after delay: Duration, _ handler: @escaping () -> Void) -> Token {
    addTimer(at: .now + delay, handler)
  }

  /// Watches a file descriptor; `handler` gets the `revents` bits.
  @discardableResult
  public func addSource(
    fd: Int32, events: Int16 = Int16(POLLIN), _ handler: @escaping (Int16) -> Void
  ) -> Token {
    let token = makeToken()
    sources.append(Source(token: token, fd: fd, events: events, handler: handler))
    return token
  }

  /// Cancels a timer or stops watching a source; unknown tokens are ignored.
  public func remove(_ token: Token) {
    timers.removeAll { $0.token == token }
    sources.removeAll { $0.token == token }
  }

  /// Makes `run` return after the current iteration.
  public func stop() { stopped = true }

  /// Makes `run` (or `iterate`) throw `error` after the current handler: for
  /// failures met inside event handlers.
  public func fail(_ error: WaylandError) {
    failure = error
    stopped = true
  }

  /// Runs until `stop()` is called or `condition` becomes true.
  public func run(until condition: () -> Bool = { false }) throws(WaylandError) {
    stopped = false
    while !stopped && !condition() {
      try iterate()
    }
    try throwFailure()
  }

  private func throwFailure() throws(WaylandError) {
    if let failure {
      self.failure = nil
      throw failure
    }
  }

  /// One iteration: dispatch queued events, flush, sleep in `poll()` until
  /// something happens or `timeout` passes (nil: no limit), then handle it.
  public func iterate(timeout: Duration? = nil) throws(WaylandError) {
    let wl = display.pointer
    try display.dispatchPending()
    fireDueTimers()
    beforeSleep?()
    // A handler may have stopped the loop: do not go to sleep then.
    if stopped {
      _ = wl_display_flush(wl)
      try throwFailure()
      return
    }
    while wl_display_prepare_read(wl) != 0 {
      try display.dispatchPending()
    }
    var wantWrite = false
    if wl_display_flush(wl) < 0 {
      if errno == EAGAIN {
        wantWrite = true
      } else if errno != EINTR {
        wl_display_cancel_read(wl)
        throw display.currentError()
      }
    }
    armTimer()
    var fds: [pollfd] = [
      pollfd(
        fd: wl_display_get_fd(wl), events: Int16(POLLIN) | (wantWrite ? Int16(POLLOUT) : 0),
        revents: 0),
      pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0),
      pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0),
    ]
    let watched = sources
    for source in watched {
      fds.append(pollfd(fd: source.fd, events: source.events, revents: 0))
    }
    let ready = poll(&fds, nfds_t(fds.count), Duration.pollTimeout(timeout))
    wakeUps += 1
    if ready < 0 {
      let code = errno
      wl_display_cancel_read(wl)
      if code == EINTR { return }
      throw .system(call: "poll", errno: code)
    }
    let displayEvents = fds[0].revents
    if displayEvents & Int16(POLLIN) != 0 {
      if wl_display_read_events(wl) < 0 { throw display.currentError() }
    } else {
      wl_display_cancel_read(wl)
      if displayEvents & Int16(POLLERR | POLLHUP) != 0 {
        // Read whatever the compositor said last (often the protocol error).
        _ = wl_display_dispatch(wl)
        try display.checkError()
        throw .connectionLost(reason: "the compositor closed the connection")
      }
    }
    try display.dispatchPending()
    if fds[1].revents != 0 {
      var expirations: UInt64 = 0
      _ = read(timerFD, &expirations, 8)
      armedDeadline = nil
    }
    fireDueTimers()
    if fds[2].revents != 0 { readSignals() }
    for (index, source) in watched.enumerated() where fds[3 + index].revents != 0 {
      // A handler may have removed this source during the iteration.
      guard sources.contains(where: { $0.token == source.token }) else { continue }
      source.handler(fds[3 + index].revents)
    }
  }

  private func makeToken() -> Token {
    defer { nextToken += 1 }
    return Token(value: nextToken)
  }

  private func fireDueTimers() {
    let now = MonotonicTime.now
    let due = timers.filter { $0.deadline <= now }
    guard !due.isEmpty else { return }
    timers.removeAll { $0.deadline <= now }
    for timer in due { timer.handler() }
  }

  /// Points the timerfd at the earliest deadline, touching it only when that changed.
  private func armTimer() {
    let earliest = timers.map(\.deadline).min()
    guard earliest != armedDeadline else { return }
    armedDeadline = earliest
    var spec = itimerspec()
    if let earliest {
      // Zero would disarm the timer; a deadline at the epoch fires at once anyway.
      let nanoseconds = max(earliest.nanoseconds, 1)
      spec.it_value.tv_sec = Int(nanoseconds / 1_000_000_000)
      spec.it_value.tv_nsec = Int(nanoseconds % 1_000_000_000)
    }
    timerfd_settime(timerFD, Int32(TFD_TIMER_ABSTIME), &spec, nil)
  }

  private func readSignals() {
    var info = signalfd_siginfo()
    while read(signalFD, &info, MemoryLayout<signalfd_siginfo>.size)
      == MemoryLayout<signalfd_siginfo>.size
    {
      onSignal?(Int32(info.ssi_signo))
    }
  }
}
