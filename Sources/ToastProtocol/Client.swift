import CSystem
import Glibc
import SystemSupport
import ToastModel

/// The command side: hands content to the owner of the display's toasts,
/// becoming that owner (in a background process) when there is none. The
/// command and the watchers (`OwnerFeed`, which keeps its connection open)
/// use it.
package final class Client {
  /// What a delivery came to.
  package enum Result: Equatable {
    /// The owner took the content (and, for the first command, showed its first frame).
    case accepted
    /// The toast ended this way (only when waiting).
    case outcome(ToastOutcome)
  }

  private let rendezvous: Rendezvous
  private let linger: Double
  /// The connection to the owner, kept for the next request (`--follow`).
  private var connection: FileDescriptor?
  /// The owner this command started, while it has not answered yet.
  private var startedOwner: pid_t?
  /// The owners this client started that have not been collected yet
  /// (``collectOwners()``).
  private var startedOwners: [pid_t] = []
  /// How many connections this client has opened so far: a new number tells
  /// a caller that keeps its connection (`OwnerFeed`) that its requests now
  /// reach an owner (or a connection) that heard none of the earlier ones.
  package private(set) var connectionsOpened = 0
  /// The notices printed so far: each is printed once (a `--follow` command
  /// asks for the same missing icon with every line).
  private var printedNotices: Set<String> = []
  /// How long a hand-over may take in all (finding or starting the owner,
  /// connecting, sending and hearing the answer) before the command gives up.
  package var replyTimeout: Duration = .seconds(10)

  /// A client for the display in `WAYLAND_DISPLAY`.
  package init(rendezvous: Rendezvous, linger: Double = 1) {
    self.rendezvous = rendezvous
    self.linger = linger
  }

  /// Shows `toast` with `tag`: hands it to the running owner, or starts one.
  /// Returns once the owner accepted it (an owner this command started: once a
  /// frame with the toast is committed), or with `wait`, once the toast is gone.
  package func show(_ toast: Toast, tag: String, wait: Bool) throws(CommandError) -> Result {
    // The owner runs in `/`: a relative icon path is the command's.
    var toast = toast
    toast.icon = toast.icon.map(absoluteIconPath)
    toast.sound = toast.sound.map(absoluteIconPath)
    let delivered = try deliver { startsOwner in
      .show(tag: tag, toast: toast, wait: wait, whenShown: startsOwner)
    }
    guard let (reply, fd) = delivered else { throw .ownerKeepsLeaving }
    switch reply {
    case .accepted where wait:
      return try awaitOutcome(on: fd)
    default:
      return .accepted
    }
  }

  /// Says `hold` on the connection kept, which keeps the display's owner
  /// running while it is open, connecting first when there is none: to the
  /// owner running, or (`startingOwner`) to one it starts when none runs.
  /// Without `startingOwner` and with no owner running, nothing is sent
  /// (``connectedDescriptor`` stays nil). The connection's descriptor
  /// becomes readable when the owner goes away.
  ///
  /// - Throws: ``CommandError/ownerOlder(pid:)`` when the owner does not know
  ///   `hold`.
  package func hold(startingOwner: Bool = true) throws(CommandError) {
    try send(.hold, startingOwner: startingOwner)
  }

  /// Sends `request` (`hide`) on the connection kept, connecting first when
  /// there is none: to the owner running, or (`startingOwner`) to one it
  /// starts when none runs; without `startingOwner` and with no owner
  /// running, nothing is sent. Returns once the owner carried it out.
  package func send(_ request: OwnerRequest, startingOwner: Bool = true) throws(CommandError) {
    let delivered = try deliver(startingOwner: startingOwner) { _ in request }
    if delivered == nil && startingOwner { throw .ownerKeepsLeaving }
  }

  /// Collects the owners this client started that have ended (they are its
  /// children); those still running are collected by a later call.
  package func collectOwners() {
    startedOwners.removeAll { waitpid($0, nil, WNOHANG) != 0 }
  }

  /// The connection kept: its descriptor, or nil when there is none.
  package var connectedDescriptor: Int32? { connection?.rawValue }

  /// Closes the connection kept (its owner went away); the next request finds
  /// or starts another.
  package func disconnect() {
    connection = nil
    startedOwner = nil
  }

  /// Sends the request `makeRequest` returns on the connection kept, first
  /// connecting to the owner running or (`startingOwner`) starting one;
  /// `makeRequest` hears whether this command starts it. Returns the owner's
  /// answer, after the notices before it, and the connection; nil when the
  /// owner went away each time, or (without `startingOwner`) none runs. A
  /// failure closes the connection: whatever the owner says later answers
  /// nothing asked.
  private func deliver(
    startingOwner: Bool = true, _ makeRequest: (_ startsOwner: Bool) -> OwnerRequest
  ) throws(CommandError) -> (OwnerReply, Int32)? {
    do {
      return try deliverOnce(startingOwner: startingOwner, makeRequest)
    } catch {
      disconnect()
      throw error
    }
  }

  private func deliverOnce(
    startingOwner: Bool, _ makeRequest: (_ startsOwner: Bool) -> OwnerRequest
  ) throws(CommandError) -> (OwnerReply, Int32)? {
    let deadline = MonotonicTime.now + replyTimeout
    for _ in 0..<3 {
      var request = makeRequest(false)
      if connection?.rawValue == nil {
        if startingOwner {
          let election = try elect(until: deadline)
          switch consume election {
          case .connected(let socket):
            connection = consume socket
          case .owner(let listener):
            request = makeRequest(true)
            connection = try startOwner(listener: listener)
          }
        } else {
          guard let running = try connectToRunning(until: deadline) else { return nil }
          connection = consume running
        }
        connectionsOpened += 1
      }
      guard let fd = connection?.rawValue else { continue }
      guard var reply = try exchange(request, on: fd, until: deadline) else {
        if startedOwner != nil { throw .ownerGone("before showing the toast") }
        // The owner may be exiting just now: then it closes without an answer; try again.
        connection = nil
        continue
      }
      // Warnings about the content (an icon it shows without) come before the answer.
      while case .notice(let text) = reply {
        printNotice(text)
        guard let next = try receive(on: fd, until: deadline) else {
          throw .ownerGone("before showing the toast")
        }
        reply = next
      }
      let startedHere = startedOwner != nil
      startedOwner = nil
      if request == .hold && Client.isOlderOwner(answeringHold: reply, startedHere: startedHere) {
        throw .ownerOlder(pid: runningOwnerPID())
      }
      return (try reply.checked(), fd)
    }
    return nil
  }

  /// Whether `reply`, an owner's answer to `hold`, says that the owner is
  /// older than this client: it fails or refuses `hold`, which it does not
  /// know. An owner this client started is as new as it (its failure is its
  /// own).
  package static func isOlderOwner(answeringHold reply: OwnerReply, startedHere: Bool) -> Bool {
    switch reply {
    case .failed, .refused: !startedHere
    default: false
    }
  }

  /// The process id of the owner running, as its `status` tells it; nil
  /// when it does not answer.
  private func runningOwnerPID() -> Int32? {
    guard case .status(_, let pid, _, _, _, _)? = try? request(.status(tag: Toast.defaultTag))
    else { return nil }
    return pid
  }

  /// Sends a request that needs no new owner (`hide`, `status`); nil when no
  /// owner runs.
  package func request(_ request: OwnerRequest) throws(CommandError) -> OwnerReply? {
    let deadline = MonotonicTime.now + replyTimeout
    guard let fd = try connectToRunning(until: deadline) else { return nil }
    let reply = try exchange(request, on: fd.rawValue, until: deadline)
    try? fd.close()  // nothing more is sent on it: a failed close loses nothing
    return reply
  }

  /// The notifications the owner serves (`notifications list`), or its
  /// history (`notifications history`), asked for page after page on one
  /// connection; nil when no owner runs.
  package func listNotifications(history: Bool = false) throws(CommandError) -> [JSONValue]? {
    let deadline = MonotonicTime.now + replyTimeout
    guard let fd = try connectToRunning(until: deadline) else { return nil }
    var notifications: [JSONValue] = []
    while true {
      let from = notifications.count
      let request = OwnerRequest.notifications(
        history ? .history(from: from) : .list(from: from))
      guard let reply = try exchange(request, on: fd.rawValue, until: deadline) else {
        throw .ownerGone("before the list ended")
      }
      guard case .listed(let page, let more) = try reply.checked() else {
        throw .badReply(.notAMessage("not a page of the notifications' list"))
      }
      notifications += page
      // A page without anything ends the list too: nothing more can come.
      guard more && !page.isEmpty else { return notifications }
    }
  }

  // MARK: - Owner election

  /// A connection to the owner running, nil when none runs.
  private func connectToRunning(until deadline: MonotonicTime) throws(CommandError)
    -> FileDescriptor?
  {
    do {
      return try rendezvous.connect(until: deadline)
    } catch {
      throw .rendezvous(error)
    }
  }

  private func elect(until deadline: MonotonicTime) throws(CommandError) -> Rendezvous.Election {
    do {
      return try rendezvous.connectOrListen(until: deadline)
    } catch {
      throw .rendezvous(error)
    }
  }

  /// Becomes the first client of a new owner: connects to the socket this
  /// command won (the connection waits in its backlog), then forks the owner,
  /// which accepts it like any other. Returns the connection.
  private func startOwner(listener: consuming Rendezvous.Listener) throws(CommandError)
    -> FileDescriptor
  {
    let connected: FileDescriptor?
    do {
      connected = try rendezvous.connect()
    } catch {
      rendezvous.retire(listener)
      throw .rendezvous(error)
    }
    guard let fd = connected else {
      let error = RendezvousError.system("connect to", rendezvous.socketPath)
      rendezvous.retire(listener)
      throw .rendezvous(error)
    }
    let pid = fork()
    if pid == 0 { runOwner(listener: listener) }
    guard pid > 0 else {
      let code = errno
      rendezvous.retire(listener)
      throw .system("start the owner", errno: code)
    }
    // The owner has the listener and holds the lock now: this process's
    // descriptors close with its listener.
    _ = consume listener
    startedOwner = pid
    startedOwners.append(pid)
    return fd
  }

  /// Becomes the display's resident owner in this process (`wl-toast daemon`):
  /// wins the election, then turns into `wl-toast-owner`, which keeps running
  /// after its last toast, and with `notifications` (a
  /// ``NotificationsRequest/serve(replace:rules:)``) serves applications'
  /// notifications too. When an owner already runs, `notifications` is
  /// handed to it instead (it stays resident and takes the bus name), and
  /// the call returns once it did; without, that is an error. Otherwise it
  /// returns only by throwing: the owner program cannot be started, or the
  /// running owner could not take the name (its reason).
  package func becomeResidentOwner(notifications: NotificationsRequest? = nil)
    throws(CommandError)
  {
    let deadline = MonotonicTime.now + replyTimeout
    let election: Rendezvous.Election
    do {
      election = try rendezvous.connectOrListen(until: deadline)
    } catch {
      throw .rendezvous(error)
    }
    let listener: Rendezvous.Listener
    switch consume election {
    case .connected(let socket):
      guard let notifications else { throw .ownerRunning(rendezvous.socketPath) }
      guard
        let reply = try exchange(
          .notifications(notifications), on: socket.rawValue, until: deadline)
      else { throw .ownerGone("before it answered") }
      _ = try reply.checked()
      return
    case .owner(let won):
      listener = won
    }
    // Standard error stays: the compositor's log (or the terminal) hears the owner.
    _ = chdir("/")
    let arguments = execOwner(listener, linger: nil, notifications: notifications)
    let code = errno
    rendezvous.retire(listener)
    throw .system("start \(arguments[0])", errno: code)
  }

  /// The owner process: detached from the terminal and the caller's output, it
  /// becomes `wl-toast-owner`, which links Wayland, Pango and Cairo (this
  /// command does not, so that updates start fast).
  private func runOwner(listener: consuming Rendezvous.Listener) -> Never {
    setsid()
    // Keep no directory of the caller's busy (an unmountable disk, say).
    _ = chdir("/")
    let null = open("/dev/null", O_RDWR)
    if null >= 0 {
      for fd: Int32 in [0, 1, 2] { dup2(null, fd) }
      if null > 2 { close(null) }
    }
    // Keep nothing of the caller's but the listener and the lock: an inherited
    // pipe would keep a caller's `$(...)` or test harness waiting.
    let numbers = listener.numbers
    wlt_close_other_fds(numbers.fd, numbers.lockFD ?? numbers.fd)
    // A watcher's event loop blocks SIGINT and SIGTERM (it reads them from a
    // signalfd): the owner starts with none blocked, as from a shell.
    var unblocked = sigset_t()
    sigemptyset(&unblocked)
    sigprocmask(SIG_SETMASK, &unblocked, nil)
    let arguments = execOwner(listener, linger: linger)
    // No owner program: leave the socket to the next command, then tell
    // whoever is waiting (who may start again at once).
    let failure = OwnerReply.failed("cannot start \(arguments[0]): \(Errno.current)")
    rendezvous.retire(listener)
    refuseClients(of: listener) { _ in failure }
    _exit(ExitCode.error)
  }

  /// Turns this process into `wl-toast-owner` serving `listener`, whose
  /// descriptors it keeps across the exec; returns (the owner's command
  /// line, with `errno` set) only when it cannot.
  private func execOwner(
    _ listener: borrowing Rendezvous.Listener, linger: Double?,
    notifications: NotificationsRequest? = nil
  ) -> [String] {
    let numbers = listener.numbers
    wlt_set_cloexec(numbers.fd, 0)
    if let lock = numbers.lockFD { wlt_set_cloexec(lock, 0) }
    let arguments =
      [ownerProgram()]
      + OwnerLaunch.serve(numbers, linger: linger, notifications: notifications).arguments
    execProgram(arguments)
    return arguments
  }

  // MARK: - Messages

  /// Sends `request` and reads the answer, both before `deadline`; nil when
  /// the owner closed the connection without one.
  private func exchange(_ request: OwnerRequest, on fd: Int32, until deadline: MonotonicTime)
    throws(CommandError) -> OwnerReply?
  {
    var message = request.encoded + "\n"
    guard message.utf8.count <= maximumMessageSize else { throw .messageTooLarge }
    // The socket is non-blocking: a stopped owner's full buffer is waited out
    // until the deadline, not forever.
    while message.withUTF8({ bytes in
      retryingOnInterrupt { Glibc.send(fd, bytes.baseAddress, bytes.count, Int32(MSG_NOSIGNAL)) }
    }) < 0 {
      guard errno == EAGAIN else { return nil }
      try awaitReady(fd, for: Int16(POLLOUT), until: deadline)
    }
    return try receive(on: fd, until: deadline)
  }

  /// Waits until `fd` is ready for `events`; throws when `deadline` passes
  /// first, stopping an owner this command started (a frozen compositor).
  private func awaitReady(_ fd: Int32, for events: Int16, until deadline: MonotonicTime?)
    throws(CommandError)
  {
    var pfd = pollfd(fd: fd, events: events, revents: 0)
    let timeout = deadline.map { Duration.pollTimeout(max(.zero, $0 - .now)) } ?? -1
    guard retryingOnInterrupt({ poll(&pfd, 1, timeout) }) > 0 else {
      if let startedOwner {
        kill(startedOwner, SIGKILL)
        throw .ownerFrozen
      }
      throw .noAnswer
    }
  }

  private func awaitOutcome(on fd: Int32) throws(CommandError) -> Result {
    while true {
      guard let reply = try receive(on: fd, until: nil) else {
        throw .ownerGone("before the toast ended")
      }
      switch reply {
      case .outcome(let outcome): return .outcome(outcome)
      case .failed(let reason): throw .failed(reason)
      case .notice(let text): printNotice(text)
      default: continue
      }
    }
  }

  /// Prints a notice of the owner's as one line on standard error, once.
  private func printNotice(_ text: String) {
    guard printedNotices.insert(text).inserted else { return }
    printError("wl-toast: " + text.split(whereSeparator: \.isNewline).joined(separator: " "))
  }

  /// One reply packet, waiting until `deadline` (nil: as long as it takes);
  /// nil when the owner closed the connection.
  private func receive(on fd: Int32, until deadline: MonotonicTime?) throws(CommandError)
    -> OwnerReply?
  {
    // Not zero-filled: recv writes the bytes that are read, and only those are read.
    let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: maximumMessageSize)
    defer { buffer.deallocate() }
    while true {
      try awaitReady(fd, for: Int16(POLLIN), until: deadline)
      let count = retryingOnInterrupt { recv(fd, buffer.baseAddress, buffer.count, 0) }
      if count < 0 && errno == EAGAIN { continue }
      guard count > 0 else { return nil }
      var text = String(
        decoding: UnsafeBufferPointer(start: buffer.baseAddress, count: count), as: UTF8.self)
      if text.hasSuffix("\n") { text.removeLast() }
      return try decodeReply(text)
    }
  }
}

/// A reply, or the error that it is none.
private func decodeReply(_ text: String) throws(CommandError) -> OwnerReply {
  do {
    return try OwnerReply(decoding: text)
  } catch {
    throw .badReply(error)
  }
}

/// `icon` (or a sound) made absolute when it is a relative path (it holds a
/// slash), against the current directory; a name, or a path too long, unchanged.
func absoluteIconPath(_ icon: String) -> String {
  guard icon.contains("/"), !icon.hasPrefix("/"), let directory = getcwd(nil, 0) else {
    return icon
  }
  defer { free(directory) }
  var relative = Substring(icon)
  while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
  let path = String(cString: directory) + "/" + relative
  return path.utf8.count <= Toast.Limits.iconLength ? path : icon
}
