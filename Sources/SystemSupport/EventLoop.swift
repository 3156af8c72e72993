import CSystem
import Glibc

/// A connection whose messages the program reads into a queue of its own and
/// dispatches from there, as libwayland's display does: the loop dispatches the
/// queue before it sleeps, flushes, and reads after `poll()`.
///
/// A plain descriptor needs none of this: see ``EventLoop/addSource(fd:events:_:)``.
public protocol QueuedConnection: AnyObject {
  /// Dispatches the messages already read.
  func dispatchQueued() throws(EventLoopError)
  /// Gets ready to sleep: dispatches until nothing is queued, takes the read
  /// intent and flushes what was sent; returns the descriptor and the events
  /// to wait for (`POLLOUT` too when the flush could not finish).
  func prepareToSleep() throws(EventLoopError) -> (fd: Int32, events: Int16)
  /// After `poll()`: reads what arrived (`revents`), or gives the read intent
  /// back when nothing did (`revents` 0, also when `poll()` failed).
  func finishSleep(revents: Int16) throws(EventLoopError)
  /// Sends what is buffered, as far as it goes without blocking (the loop
  /// stops without sleeping).
  func flush()
}

/// Why an event loop stopped with an error.
public enum EventLoopError: Error, CustomStringConvertible {
  /// A system call of the loop failed.
  case system(call: String, errno: Int32)
  /// A connection or a handler failed, with its own error.
  case failed(any Error)

  /// One line.
  public var description: String {
    switch self {
    case .system(let call, let code): "\(call) failed: \(Errno(rawValue: code))"
    case .failed(let error): "\(error)"
    }
  }
}

/// One thread's event loop: a single `poll()` over a timerfd for deadlines, a
/// signalfd for SIGINT and SIGTERM, the connections added with
/// ``add(_:)`` (a Wayland display) and any other file descriptors.
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

  /// Called with the signal number when SIGINT or SIGTERM arrives.
  public var onSignal: ((Int32) -> Void)?
  /// Called before the loop sleeps, after events are dispatched: the place to
  /// draw what became dirty.
  public var beforeSleep: (() -> Void)?

  /// The timers of the batch being fired that no handler has cancelled.
  private var firing: Set<Token> = []
  private let timerFD: Int32
  private let signalFD: Int32
  private var savedMask = sigset_t()
  private var connections: [QueuedConnection] = []
  private var timers: [Timer] = []
  private var sources: [Source] = []
  private var nextToken: UInt64 = 1
  private var armedDeadline: MonotonicTime?
  private var stopped = false
  private var failure: EventLoopError?
  /// How many times the loop has woken from `poll()`: a measure of idle wake-ups.
  public private(set) var wakeUps = 0

  /// Creates a loop and starts catching `signals` (SIGINT and SIGTERM).
  public init(signals: [Int32] = [SIGINT, SIGTERM]) throws(EventLoopError) {
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

  /// Serves a queued connection (a Wayland display) in every iteration, first.
  public func add(_ connection: QueuedConnection) {
    connections.append(connection)
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
  /// A timer due in the batch that is firing, cancelled by an earlier
  /// handler of that batch, does not fire.
  public func remove(_ token: Token) {
    timers.removeAll { $0.token == token }
    sources.removeAll { $0.token == token }
    firing.remove(token)
  }

  /// Makes `run` return after the current iteration.
  public func stop() { stopped = true }

  /// Makes `run` (or `iterate`) throw `error` after the current handler: for
  /// failures met inside event handlers.
  public func fail(_ error: any Error) {
    failure = error as? EventLoopError ?? .failed(error)
    stopped = true
  }

  /// Runs until `stop()` is called or `condition` becomes true.
  public func run(until condition: () -> Bool = { false }) throws(EventLoopError) {
    stopped = false
    while !stopped && !condition() {
      try iterate()
    }
    try throwFailure()
  }

  private func throwFailure() throws(EventLoopError) {
    if let failure {
      self.failure = nil
      throw failure
    }
  }

  /// One iteration: dispatch queued events, flush, sleep in `poll()` until
  /// something happens or `timeout` passes (nil: no limit), then handle it.
  public func iterate(timeout: Duration? = nil) throws(EventLoopError) {
    for connection in connections { try connection.dispatchQueued() }
    fireDueTimers()
    beforeSleep?()
    // A handler may have stopped the loop: flush, but do not go to sleep then.
    if stopped {
      for connection in connections { connection.flush() }
      try throwFailure()
      return
    }
    var fds: [pollfd] = []
    fds.reserveCapacity(2 + connections.count + sources.count)
    for (index, connection) in connections.enumerated() {
      do throws(EventLoopError) {
        let (fd, events) = try connection.prepareToSleep()
        fds.append(pollfd(fd: fd, events: events, revents: 0))
      } catch {
        for prepared in connections[..<index] { try? prepared.finishSleep(revents: 0) }
        throw error
      }
    }
    armTimer()
    let first = fds.count
    fds.append(pollfd(fd: timerFD, events: Int16(POLLIN), revents: 0))
    fds.append(pollfd(fd: signalFD, events: Int16(POLLIN), revents: 0))
    let watched = sources
    for source in watched {
      fds.append(pollfd(fd: source.fd, events: source.events, revents: 0))
    }
    let ready = poll(&fds, nfds_t(fds.count), Duration.pollTimeout(timeout))
    wakeUps += 1
    if ready < 0 {
      let code = errno
      for connection in connections { try connection.finishSleep(revents: 0) }
      if code == EINTR { return }
      throw .system(call: "poll", errno: code)
    }
    for (index, connection) in connections.enumerated() {
      try connection.finishSleep(revents: fds[index].revents)
    }
    for connection in connections { try connection.dispatchQueued() }
    if fds[first].revents != 0 {
      var expirations: UInt64 = 0
      _ = read(timerFD, &expirations, 8)
      armedDeadline = nil
    }
    fireDueTimers()
    if fds[first + 1].revents != 0 { readSignals() }
    for (index, source) in watched.enumerated() where fds[first + 2 + index].revents != 0 {
      // A handler may have removed this source during the iteration.
      guard sources.contains(where: { $0.token == source.token }) else { continue }
      source.handler(fds[first + 2 + index].revents)
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
    guard due.count > 1 else { return due[0].handler() }
    firing = Set(due.map(\.token))
    defer { firing = [] }
    for timer in due where firing.contains(timer.token) { timer.handler() }
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
