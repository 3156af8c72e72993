import CSystem
import Glibc
import SystemSupport
import ToastKit
import ToastProtocol
import ToastRendering
import Wayland

/// The background process that shows a display's toasts for every command:
/// it listens on the rendezvous socket, applies each command's content to the
/// toast with its tag, answers status questions, tells waiting commands how
/// their toast ended, and exits a little after its last toast is gone.
package final class Owner {
  let presenter: ToastPresenter
  private let rendezvous: Rendezvous
  private let listener: Rendezvous.Listener
  /// Seconds to stay after the last toast; nil for a resident owner (one
  /// serving notifications is).
  var linger: Double?
  /// The server of applications' notifications, while it runs or starts
  /// (``startNotifications(replace:rules:answering:)``).
  var notifications: NotificationServer?
  /// What the last notification server left (its ids and history), for the
  /// next one when the name is asked for again.
  var notificationMemory: NotificationServer.Memory?
  /// The notifications' listing a command pages through, by its connection.
  var listings: [Int32: NotificationServer.Listing] = [:]
  /// The connections of commands waiting to hear whether the notification
  /// server started (the bus answers in its own time): a connection that
  /// goes meanwhile leaves, and its descriptor's number, given to the next
  /// connection, hears nothing meant for it.
  var startWaiters: Set<Int32> = []
  /// A command's connection, watched by the loop; it closes when the owner
  /// lets go of it (``drop(_:)``, or the owner's end).
  private final class Connection {
    let descriptor: FileDescriptor
    let watch: EventLoop.Token

    init(_ descriptor: consuming FileDescriptor, watch: EventLoop.Token) {
      self.descriptor = descriptor
      self.watch = watch
    }
  }
  /// The connections, by descriptor number (what the waiters below keep).
  private var clients: [Int32: Connection] = [:]
  /// The connections that said `hold` (watchers): the owner stays while any is open.
  private var held: Set<Int32> = []
  /// Descriptors waiting for the outcome of the toast with a tag.
  private var waiters: [String: [Int32]] = [:]
  /// A command answered once a frame with its content is committed (the one
  /// that started the owner): `keep` when it waits for the outcome too,
  /// `replaced` once newer content arrived before that frame.
  private struct FrameWaiter {
    var fd: Int32
    var keep: Bool
    var replaced = false
  }
  private var frameWaiters: [String: [FrameWaiter]] = [:]
  /// Commands waiting for the outcome of a toast that ended before its
  /// sound settled, by tag: they hear the sound's problem first, so the
  /// outcome waits for the sound, ``soundWait`` at most.
  private var endedWaiters:
    [String: (outcome: ToastOutcome, fds: [Int32], timer: EventLoop.Token)] =
      [:]
  /// How long after its toast's end a sound is waited for by its waiting commands.
  static let soundWait: Duration = .seconds(5)
  private var lingerTimer: EventLoop.Token?
  /// Connections that have not sent a request yet, and when they are dropped.
  private var requestDeadlines: [Int32: EventLoop.Token] = [:]
  /// How long a new connection may take to send its request: the command's
  /// own limit for a whole hand-over.
  static let requestTimeout: Duration = .seconds(10)
  private var listening: EventLoop.Token?
  /// Why the owner stops with ``ExitCode/error``, once something failed.
  var failure: String?
  /// Why the notification server this owner was started for could not
  /// start: the owner ends with ``ExitCode/error`` once idle.
  var notificationsFailure: String?
  /// Do-not-disturb's state file, followed for the owner's life.
  private var doNotDisturbWatch: DoNotDisturbWatch?

  /// Shows toasts with `presenter` (connected to the compositor) and starts
  /// listening on `listener`, which it owns from now on; the owner ends
  /// `linger` seconds after its last toast, or never (nil, a resident owner).
  package init(
    presenter toastPresenter: ToastPresenter, rendezvous: Rendezvous,
    listener: consuming Rendezvous.Listener, linger: Double?,
    notifications served: NotificationsRequest? = nil
  ) {
    presenter = toastPresenter
    self.rendezvous = rendezvous
    self.listener = listener
    self.linger = linger
    presenter.onCompletion = { [unowned self] tag, outcome in finished(tag, outcome) }
    // A notification's button invokes its action (toasts' buttons just end them).
    presenter.onButton = { [unowned self] tag, button in
      notifications?.buttonChosen(tag: tag, button: button) ?? .end
    }
    // A resident notification's card stays when its default action is invoked.
    presenter.onActivate = { [unowned self] tag in
      notifications?.bodyActivated(tag: tag) ?? .end
    }
    presenter.onFailure = { [unowned self] tag, failure in
      switch failure {
      case .outputRemoved:
        // Its waiting commands say so, then hear the outcome (hidden); those
        // waiting for its first frame, which never came, fail.
        for fd in waiters[tag] ?? [] { send(.notice(failure.description), to: fd) }
        for waiter in frameWaiters.removeValue(forKey: tag) ?? [] {
          send(.failed("cannot show the toast: \(failure)"), to: waiter.fd)
        }
      case .unknownOutput, .cannotDraw:
        // A toast that cannot be shown fails its own commands only.
        for waiter in frameWaiters.removeValue(forKey: tag) ?? [] {
          send(.failed("cannot show the toast: \(failure)"), to: waiter.fd)
        }
        for fd in waiters.removeValue(forKey: tag) ?? [] {
          send(.failed("cannot show the toast: \(failure)"), to: fd)
          drop(fd)
        }
      }
    }
    presenter.onFrame = { [unowned self] tag in
      traceFrame(tag)
      answerFrameWaiters(tag)
    }
    // A sound that cannot play: the toast's waiting commands say why (the
    // others returned at its first frame; `status` tells them).
    presenter.onSoundProblem = { [unowned self] tag, problem in
      for fd in waiters[tag] ?? [] { send(.notice(problem), to: fd) }
    }
    presenter.onSoundStarted = { [unowned self] tag in traceFrame("sound " + tag) }
    // The sound of a toast that has ended: its waiting commands hear how it
    // went, then the outcome; the owner, idle, may go.
    presenter.onSoundSettled = { [unowned self] tag, problem, shown in
      if !shown, let ended = endedWaiters[tag] {
        if let problem { for fd in ended.fds { send(.notice(problem), to: fd) } }
        if !presenter.hasSoundInFlight(tag: tag) { answerEnded(tag) }
      }
      scheduleLingerIfIdle()
    }
    // A toast held back by a fullscreen window: its commands do not wait for it.
    presenter.onDecided = { [unowned self] tag in
      if presenter.isWaitingToAppear(tag: tag) { answerFrameWaiters(tag) }
    }
    // Do-not-disturb as the state file says, now and whenever it changes
    // (followed from before it is first read, so that no change falls between).
    let doNotDisturb = DoNotDisturbState(rendezvous)
    doNotDisturbWatch = DoNotDisturbWatch(doNotDisturb, loop: presenter.eventLoop) {
      [unowned self] state in
      presenter.doNotDisturb = state
      notifications?.hold(state == .on)
    }
    presenter.doNotDisturb = (try? doNotDisturb.read()) ?? .off
    // A signal ends the owner: toasts go at once (outcome hidden), then the loop stops.
    presenter.eventLoop.onSignal = { [unowned self] _ in endAtOnce() }
    listening = presenter.eventLoop.addSource(fd: self.listener.socket.rawValue) {
      [unowned self] _ in acceptClients()
    }
    if case .serve(let replace, let rules)? = served {
      startNotifications(replace: replace, rules: rules, answering: nil)
    }
    // For benchmarks: WL_TOAST_TRACE names a file that gets the monotonic time
    // (nanoseconds) of every committed frame ("TIME TAG"), and of every sound
    // that starts ("TIME sound TAG").
    if let path = getenv("WL_TOAST_TRACE") {
      let trace = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
      if trace >= 0 { self.trace = trace }
    }
  }

  private var trace: Int32?

  /// The commands waiting for the first frame of the toast with `tag` hear
  /// that it was accepted; those waiting for its outcome go on waiting.
  private func answerFrameWaiters(_ tag: String) {
    for waiter in frameWaiters.removeValue(forKey: tag) ?? [] {
      send(.accepted, to: waiter.fd)
      if waiter.keep && waiter.replaced { send(.outcome(.replaced), to: waiter.fd) }
      if waiter.keep && !waiter.replaced { waiters[tag, default: []].append(waiter.fd) }
    }
  }

  private func traceFrame(_ tag: String) {
    guard let trace else { return }
    let line = Array("\(MonotonicTime.now.nanoseconds) \(tag)\n".utf8)
    _ = write(trace, line, line.count)
  }

  /// Why the presenter refuses `toast` (a usage error), in the command's
  /// terms (the option at fault first), or nil.
  package static func problem(with toast: Toast) -> String? {
    guard let refusal = ToastPresenter.refusal(of: toast) else { return nil }
    switch refusal {
    case .invalidMarkup: return "--markup: \(refusal)"
    }
  }

  /// Runs until the last toast is gone and the linger has passed, or the
  /// compositor connection fails; returns the exit status (0 also when the
  /// compositor went away).
  package func run() -> Int32 {
    // The command that started the owner is waiting in the backlog already,
    // its request sent: take it now rather than after a first sleep.
    acceptClients()
    // The compositor went away (the session ended): an owner's ordinary end,
    // though commands still waiting on a toast hear it as their failure.
    var compositorGone = false
    if failure == nil {
      do {
        try presenter.run()
      } catch {
        failure = error.description
        if case .connectionLost? = error.underlying { compositorGone = true }
      }
    }
    notifications?.stop()
    notifications = nil
    rendezvous.retire(listener)
    // `wl-toast daemon`'s standard error hears why it failed (a command's owner has none).
    if let failure, !compositorGone { printError("wl-toast: \(failure)") }
    let reason = failure ?? "the owner stopped"
    for fd in waiters.values.joined() { send(.failed(reason), to: fd) }
    for waiter in frameWaiters.values.joined() { send(.failed(reason), to: waiter.fd) }
    for fd in startWaiters { send(.failed(reason), to: fd) }
    // Those whose toast had ended, waiting for its sound: the outcome is known.
    for ended in endedWaiters.values {
      for fd in ended.fds { send(.outcome(ended.outcome), to: fd) }
    }
    return (failure == nil || compositorGone) && notificationsFailure == nil
      ? ExitCode.success : ExitCode.error
  }

  // MARK: - Clients

  private func acceptClients() {
    while true {
      guard let accepted = FileDescriptor(returnedBy: wlt_accept(listener.socket.rawValue)) else {
        switch errno {
        case EAGAIN, EINTR, ECONNABORTED:
          // All accepted: a linger that ended with a connection waiting,
          // which was refused (another user's), starts again.
          scheduleLingerIfIdle()
          return
        case EMFILE, ENFILE, ENOBUFS, ENOMEM:
          pauseListening()
          return
        default:
          // Not a listening socket (a bad descriptor was handed over): no
          // command can ever reach this owner, so it ends rather than spin.
          failure = "cannot accept connections: \(Errno.current)"
          endAtOnce()
          return
        }
      }
      let fd = accepted.rawValue
      // Only the user's own processes may talk to the owner (another's closes here).
      guard peerUID(fd) == getuid() else { continue }
      cancelLinger()
      let watch = presenter.eventLoop.addSource(fd: fd) { [unowned self] events in
        readRequest(from: fd, events: events)
      }
      clients[fd] = Connection(accepted, watch: watch)
      // A connection that sends nothing must not keep the owner for ever.
      requestDeadlines[fd] = presenter.eventLoop.addTimer(after: Self.requestTimeout) {
        [unowned self] in
        requestDeadlines[fd] = nil
        drop(fd)
      }
      // A request sent before the connection was accepted is read at once.
      readRequest(from: fd, events: Int16(POLLIN))
    }
  }

  /// The buffer requests are received into, one for the owner's life (not
  /// 64 KiB allocated for every update), and never zeroed: only the pages
  /// requests fill become resident.
  private let receiveBuffer = UnsafeMutableRawBufferPointer.allocate(
    byteCount: maximumMessageSize + 1, alignment: 16)

  deinit { receiveBuffer.deallocate() }

  private func readRequest(from fd: Int32, events: Int16) {
    let count = retryingOnInterrupt {
      recv(
        fd, receiveBuffer.baseAddress, receiveBuffer.count,
        Int32(MSG_TRUNC) | Int32(MSG_DONTWAIT))
    }
    if count < 0 && errno == EAGAIN { return }
    guard count > 0 else {
      drop(fd)
      return
    }
    if let deadline = requestDeadlines.removeValue(forKey: fd) {
      presenter.eventLoop.remove(deadline)
    }
    guard count <= maximumMessageSize else {
      send(.failed("message too large (limit \(maximumMessageSize) bytes)"), to: fd)
      return
    }
    var text = String(
      decoding: UnsafeRawBufferPointer(rebasing: receiveBuffer[0..<count]), as: UTF8.self)
    if text.hasSuffix("\n") { text.removeLast() }
    // A command that gave up (and closed) before its request was read is not
    // carried out: it has already told its user that it failed.
    var probe = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
    if poll(&probe, 1, 0) > 0 && probe.revents & Int16(POLLHUP) != 0 {
      drop(fd)
      return
    }
    let request: OwnerRequest
    do {
      request = try OwnerRequest(decoding: text)
    } catch {
      send(.failed("malformed request: \(error.description)"), to: fd)
      return
    }
    handle(request, from: fd)
  }

  private func handle(_ request: OwnerRequest, from fd: Int32) {
    switch request {
    case .show(let tag, let toast, let wait, let whenShown):
      if let problem = Owner.problem(with: toast)
        ?? presenter.problem(with: toast.output)
        .map({ "--output: \($0)" })
      {
        send(.refused(problem), to: fd)
        return
      }
      // A new toast is answered once its first frame is on screen, whoever
      // started the owner (`wl-toast … && grim` sees it, a daemon's too); an
      // update of a showing one at once.
      let isNew = !presenter.isPresenting(tag: tag) || presenter.isLeaving(tag: tag)
      let warnings = presenter.showOrUpdate(accepted: toast, tag: tag)
      // Do-not-disturb held it back (the presenter judges it); whatever shows
      // with the tag stays.
      if warnings.contains(.suppressed) {
        send(.accepted, to: fd)
        if wait {
          send(.outcome(.suppressed), to: fd)
          drop(fd)
        }
        scheduleLingerIfIdle()
        return
      }
      // Commands waiting on the content shown so far learn it was replaced.
      for waiter in waiters.removeValue(forKey: tag) ?? [] where waiter != fd {
        send(.outcome(.replaced), to: waiter)
        drop(waiter)
      }
      if let earlier = frameWaiters[tag] {
        frameWaiters[tag] = earlier.map { FrameWaiter(fd: $0.fd, keep: $0.keep, replaced: true) }
      }
      // A toast without its icon (missing, unreadable): the command says so
      // before it hears that its content was accepted.
      for warning in warnings {
        send(.notice(warning.description), to: fd)
      }
      // Not to be shown yet (its grace time, or no output): the command does not wait.
      if (whenShown || isNew) && !presenter.isWaitingToAppear(tag: tag) {
        frameWaiters[tag, default: []].append(FrameWaiter(fd: fd, keep: wait))
        return
      }
      send(.accepted, to: fd)
      // A waiting connection stays watched, so a command that goes away is dropped.
      if wait { waiters[tag, default: []].append(fd) }
    case .hide(let tag, let after):
      if let after, after > 0 {
        presenter.hide(tag: tag, after: .seconds(after))
      } else {
        presenter.hide(tag: tag)
      }
      send(.accepted, to: fd)
      scheduleLingerIfIdle()
    case .status(let tag):
      let drawn = presenter.drawnSurfaces(tag: tag)
      let sound = presenter.soundState(tag: tag)
      send(
        .status(
          presenter.toast(tag: tag), pid: getpid(), surfaces: presenter.surfacesCreated,
          drawn: drawn, screenReaders: presenter.announcer?.state ?? "disabled",
          sound: sound.map { OwnerReply.Sound(state: $0.state, problem: $0.problem) }),
        to: fd)
      scheduleLingerIfIdle()
    case .hold:
      // A watcher's connection: while it is open the owner does not linger
      // out (``scheduleLingerIfIdle()``).
      held.insert(fd)
      send(.accepted, to: fd)
    case .notifications(let request):
      handle(request, from: fd)
    }
  }

  private func finished(_ tag: String, _ outcome: ToastOutcome) {
    if NotificationServer.isCardTag(tag) { notifications?.cardEnded(tag: tag, outcome: outcome) }
    // A replaced toast's waiters were told when the new content arrived.
    let waiting = waiters.removeValue(forKey: tag) ?? []
    if !waiting.isEmpty && endedWaiters[tag] == nil && presenter.hasSoundInFlight(tag: tag) {
      let timer = presenter.eventLoop.addTimer(after: Self.soundWait) { [unowned self] in
        answerEnded(tag)
      }
      endedWaiters[tag] = (outcome, waiting, timer)
    } else {
      for fd in waiting {
        send(.outcome(outcome), to: fd)
        drop(fd)
      }
    }
    for waiter in frameWaiters.removeValue(forKey: tag) ?? [] {
      // Suppressed (by a fullscreen window) is an answer, not a failure; so
      // is giving way to newer toasts (replaced) or a hide before the first
      // frame (toasts that could not be shown failed their commands already).
      guard outcome == .suppressed || outcome == .replaced || outcome == .hidden else {
        send(.failed("the toast ended before it was shown"), to: waiter.fd)
        continue
      }
      send(.accepted, to: waiter.fd)
      if waiter.keep { send(.outcome(outcome), to: waiter.fd) }
    }
    scheduleLingerIfIdle()
  }

  /// Tells the commands that waited for the sound of the ended toast with
  /// `tag` how that toast ended.
  private func answerEnded(_ tag: String) {
    guard let ended = endedWaiters.removeValue(forKey: tag) else { return }
    presenter.eventLoop.remove(ended.timer)
    for fd in ended.fds {
      send(.outcome(ended.outcome), to: fd)
      drop(fd)
    }
  }

  /// Out of descriptors: stop accepting for a moment instead of spinning.
  private func pauseListening() {
    if let listening { presenter.eventLoop.remove(listening) }
    listening = nil
    presenter.eventLoop.addTimer(after: .milliseconds(100)) { [unowned self] in
      listening = presenter.eventLoop.addSource(fd: listener.socket.rawValue) {
        [unowned self] _ in acceptClients()
      }
    }
  }

  private func drop(_ fd: Int32) {
    // Out of the table, its Connection closes it.
    if let connection = clients.removeValue(forKey: fd) {
      presenter.eventLoop.remove(connection.watch)
    }
    if let deadline = requestDeadlines.removeValue(forKey: fd) {
      presenter.eventLoop.remove(deadline)
    }
    held.remove(fd)
    listings[fd] = nil
    startWaiters.remove(fd)
    // A command that waited for its toast's outcome and went before it (killed,
    // interrupted) takes the toast with it, when no other command waits for it:
    // `--timeout 0` lasts until the command is terminated.
    var leftEarly: Set<String> = []
    for tag in waiters.keys where waiters[tag]?.contains(fd) == true {
      waiters[tag]?.removeAll { $0 == fd }
      leftEarly.insert(tag)
    }
    for tag in endedWaiters.keys { endedWaiters[tag]?.fds.removeAll { $0 == fd } }
    // A first-frame waiter waits for the outcome too unless its toast was replaced.
    func waitsForOutcome(_ waiter: FrameWaiter) -> Bool { waiter.keep && !waiter.replaced }
    for tag in frameWaiters.keys {
      if frameWaiters[tag]?.contains(where: { $0.fd == fd && waitsForOutcome($0) }) == true {
        leftEarly.insert(tag)
      }
      frameWaiters[tag]?.removeAll { $0.fd == fd }
    }
    frameWaiters = frameWaiters.filter { !$0.value.isEmpty }
    for tag in leftEarly
    where waiters[tag]?.isEmpty ?? true
      && !(frameWaiters[tag]?.contains(where: waitsForOutcome) ?? false)
    {
      presenter.hide(tag: tag)
    }
    scheduleLingerIfIdle()
  }

  func send(_ reply: OwnerReply, to fd: Int32) {
    let bytes = Array((reply.encoded + "\n").utf8)
    _ = Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL))
  }

  // MARK: - Lifetime

  /// Starts the linger once the owner is idle (``isIdle``); a connection's
  /// end (``drop(_:)``) comes back here.
  func scheduleLingerIfIdle() {
    guard let linger, isIdle, lingerTimer == nil else { return }
    lingerTimer = presenter.eventLoop.addTimer(after: .seconds(linger)) { [unowned self] in
      lingerTimer = nil
      // A command connecting as the linger ends (the listener ready in the
      // same wake-up, its handler after the timers) is served, not told
      // that the owner stopped: its accept starts the linger again.
      if isIdle && !hasConnectionWaiting { presenter.eventLoop.stop() }
    }
  }

  /// Nothing shows or sounds (a sound for ``ToastKit/ToastPresenter/soundPatience``
  /// at most), no watcher holds the owner, and no command waits for an
  /// answer or has yet to send its request. Another connection left open (a
  /// stopped `--follow`, one that asked for `status`) keeps nothing.
  private var isIdle: Bool {
    !presenter.isPresenting && held.isEmpty && waiters.values.allSatisfy(\.isEmpty)
      && frameWaiters.isEmpty && requestDeadlines.isEmpty && !presenter.hasSoundsInFlight
      && endedWaiters.values.allSatisfy(\.fds.isEmpty) && startWaiters.isEmpty
  }

  /// Whether a connection waits to be accepted (the listener is readable).
  private var hasConnectionWaiting: Bool {
    var pfd = pollfd(fd: listener.socket.rawValue, events: Int16(POLLIN), revents: 0)
    return poll(&pfd, 1, 0) > 0 && pfd.revents & Int16(POLLIN) != 0
  }

  /// Takes every toast away at once (outcome hidden) and stops the loop:
  /// the owner ends (``run()`` returns).
  func endAtOnce() {
    presenter.hideAllAtOnce()
    presenter.eventLoop.stop()
  }

  func cancelLinger() {
    if let lingerTimer { presenter.eventLoop.remove(lingerTimer) }
    lingerTimer = nil
  }
}
