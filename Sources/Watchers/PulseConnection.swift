import CPulse
import Glibc
import SystemSupport

/// A connection to the user's sound server through libpulse, served by the
/// watch's one event loop: it reports the default output and input
/// (``AudioSnapshot``) each time they may have changed, and keeps trying to
/// reach the server while it is away.
///
/// libpulse runs its own `pa_mainloop`, whose poll function here only
/// captures the descriptors and the timeout it wants: the event loop sleeps
/// on those descriptors and one timer, and after each wake-up the main loop
/// runs until it would sleep again. While nothing changes nothing wakes.
///
/// - The server's events (sink, source, server) are only hints: each asks
///   for the object's state again, one question in flight per object
///   (``RequestGate``), and the snapshot goes out once every answer is in.
/// - Not ready within ``readyLimit``, failed or terminated: one line, then
///   another attempt after a delay (``Backoff``); a new connection gives a
///   new baseline (``onConnected``). Only the first failure of a series
///   says a line.
package final class PulseConnection {
  /// How long the server has to get the connection ready.
  package static let readyLimit: Duration = .seconds(5)

  /// Called when the connection is ready: the next snapshot is a baseline.
  package var onConnected: () -> Void = {}
  /// Called with the state each time every question asked is answered.
  package var onSnapshot: (AudioSnapshot) -> Void = { _ in }
  /// Called with one line (without the program's name) when the server
  /// could not be reached or went away.
  package var onLine: (String) -> Void = { _ in }

  private let library: PulseLibrary
  private let loop: EventLoop
  private let mainloop: OpaquePointer
  private var context: OpaquePointer?

  /// What the last poll function call asked for.
  private var captured: [pollfd] = []
  private var capturedTimeout: Int32 = -1
  /// The descriptors watched in the event loop, and libpulse's timer.
  private var watched: [(fd: Int32, events: Int16, token: EventLoop.Token)] = []
  private var timer: EventLoop.Token?
  private var retry: EventLoop.Token?
  private var readyDeadline: EventLoop.Token?
  private var pumping = false

  private var backoff = Backoff()
  /// Why the connection was lost, until it is handled after the dispatch.
  private var lost: String?
  /// Whether the series of failures has said its line.
  private var reported = false

  private var server = RequestGate()
  private var answered = false
  /// The default output and input, as followed.
  private var devices = [Followed(), Followed()]
  private var snapshot = AudioSnapshot()

  /// A connection through `library`, served by `loop`; ``start()`` connects.
  package init(library: PulseLibrary, loop: EventLoop) throws(WatchError) {
    guard let mainloop = library.mainloopNew() else {
      throw WatchError("watch audio: cannot create PulseAudio's main loop")
    }
    self.library = library
    self.loop = loop
    self.mainloop = mainloop
    library.mainloopSetPollFunc(
      mainloop,
      { descriptors, count, timeout, userdata in
        PulseConnection.from(userdata).capture(descriptors, count: Int(count), timeout: timeout)
      }, Unmanaged.passUnretained(self).toOpaque())
  }

  deinit {
    disconnect()
    library.mainloopFree(mainloop)
  }

  private static func from(_ userdata: UnsafeMutableRawPointer?) -> PulseConnection {
    Unmanaged<PulseConnection>.fromOpaque(userdata!).takeUnretainedValue()
  }

  /// Connects to the server.
  package func start() { connect() }

  /// Disconnects and removes the connection's sources and timers from the loop.
  package func stop() {
    for token in [retry, readyDeadline, timer].compactMap({ $0 }) { loop.remove(token) }
    retry = nil
    readyDeadline = nil
    timer = nil
    for source in watched { loop.remove(source.token) }
    watched = []
    disconnect()
  }

  // MARK: Connecting

  private func connect() {
    retry = nil
    let properties = library.proplistNew()
    _ = library.proplistSets(properties, "application.name", "wl-toast")
    _ = library.proplistSets(properties, "application.id", "wl-toast")
    let api = library.mainloopGetAPI(mainloop)
    let context = library.contextNewWithProplist(api, "wl-toast", properties)
    library.proplistFree(properties)
    guard let context else {
      lost = "cannot create a PulseAudio context"
      pump()
      return
    }
    self.context = context
    let me = Unmanaged.passUnretained(self).toOpaque()
    library.contextSetStateCallback(
      context, { context, userdata in PulseConnection.from(userdata).stateChanged(context) }, me)
    readyDeadline = loop.addTimer(after: Self.readyLimit) { [unowned self] in
      readyDeadline = nil
      lost = "no answer from the sound server within \(Self.readyLimit.components.seconds) s"
      pump()
    }
    // A failure at once has already called the state callback with FAILED:
    // it is handled there, once.
    _ = library.contextConnect(context, nil, PA_CONTEXT_NOAUTOSPAWN, nil)
    pump()
  }

  private func stateChanged(_ changed: OpaquePointer?) {
    guard let context, changed == context else { return }
    let state = library.contextGetState(context)
    if state == PA_CONTEXT_READY {
      if let readyDeadline { loop.remove(readyDeadline) }
      readyDeadline = nil
      lost = nil
      onConnected()
      let me = Unmanaged.passUnretained(self).toOpaque()
      library.contextSetSubscribeCallback(
        context,
        { _, event, index, userdata in
          PulseConnection.from(userdata).received(event: event.rawValue, index: index)
        }, me)
      let mask =
        PA_SUBSCRIPTION_MASK_SINK.rawValue | PA_SUBSCRIPTION_MASK_SOURCE.rawValue
        | PA_SUBSCRIPTION_MASK_SERVER.rawValue
      release(library.contextSubscribe(context, pa_subscription_mask_t(rawValue: mask), nil, nil))
      askServer()
    } else if state == PA_CONTEXT_FAILED || state == PA_CONTEXT_TERMINATED {
      let reason = library.strerror(library.contextErrno(context)).map { String(cString: $0) }
      lost = "the sound server: " + (reason ?? "failed")
    }
  }

  /// After a loss: one line for the first of a series, the context let go,
  /// the next attempt on a timer.
  private func handleLoss() {
    guard let reason = lost else { return }
    lost = nil
    disconnect()
    let delay = backoff.delay()
    if !reported {
      reported = true
      onLine("watch audio: \(reason); trying again in \(delay.inSeconds) s, then less often")
    }
    retry = loop.addTimer(after: delay) { [unowned self] in connect() }
  }

  private func disconnect() {
    if let readyDeadline { loop.remove(readyDeadline) }
    readyDeadline = nil
    if let context {
      library.contextSetStateCallback(context, nil, nil)
      library.contextSetSubscribeCallback(context, nil, nil)
      library.contextDisconnect(context)
      library.contextUnref(context)
    }
    context = nil
    server.reset()
    answered = false
    devices = [Followed(), Followed()]
    snapshot = AudioSnapshot()
  }

  // MARK: Questions and answers

  private func received(event: UInt32, index: UInt32) {
    let facility = event & PA_SUBSCRIPTION_EVENT_FACILITY_MASK.rawValue
    let isChange =
      event & PA_SUBSCRIPTION_EVENT_TYPE_MASK.rawValue
      == PA_SUBSCRIPTION_EVENT_CHANGE.rawValue
    switch facility {
    case PA_SUBSCRIPTION_EVENT_SERVER.rawValue:
      askServer()
    case PA_SUBSCRIPTION_EVENT_SINK.rawValue:
      // Another device's change is not the default's.
      if isChange, let known = devices[Role.sink.rawValue].index, known != index { return }
      ask(.sink)
    case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
      if isChange, let known = devices[Role.source.rawValue].index, known != index { return }
      ask(.source)
    default:
      break
    }
  }

  private func askServer() {
    guard let context, server.request() else { return }
    let operation = library.contextGetServerInfo(
      context,
      { _, info, userdata in PulseConnection.from(userdata).serverAnswered(info) },
      Unmanaged.passUnretained(self).toOpaque())
    if operation == nil { serverAnswered(nil) } else { release(operation) }
  }

  private func serverAnswered(_ info: UnsafePointer<pa_server_info>?) {
    answered = true
    if let info {
      named(.sink, info.pointee.default_sink_name)
      named(.source, info.pointee.default_source_name)
    }
    if server.answered() {
      askServer()
    }
    deliverWhenSettled()
  }

  /// The server names the default device of `role`: another one is asked about.
  private func named(_ role: Role, _ name: UnsafePointer<CChar>?) {
    let name = name.map { String(cString: $0) } ?? ""
    guard name != devices[role.rawValue].name else { return }
    devices[role.rawValue].name = name
    devices[role.rawValue].index = nil
    snapshot[role] = nil
    ask(role)
  }

  /// Asks about the default device of `role`, unless a question is in flight.
  private func ask(_ role: Role) {
    guard let context, let name = devices[role.rawValue].name, !AudioState.isPlaceholder(name),
      devices[role.rawValue].gate.request()
    else { return }
    devices[role.rawValue].pending = nil
    devices[role.rawValue].asked = name
    let me = Unmanaged.passUnretained(self).toOpaque()
    let operation =
      switch role {
      case .sink:
        library.contextGetSinkInfoByName(
          context, name,
          { _, info, last, userdata in
            let connection = PulseConnection.from(userdata)
            guard last == 0, let info = info?.pointee else { return connection.answerEnded(.sink) }
            connection.read(
              .sink, index: info.index, name: info.name, description: info.description,
              volume: info.volume, isMuted: info.mute != 0, isMonitor: false)
          }, me)
      case .source:
        library.contextGetSourceInfoByName(
          context, name,
          { _, info, last, userdata in
            let connection = PulseConnection.from(userdata)
            guard last == 0, let info = info?.pointee else {
              return connection.answerEnded(.source)
            }
            connection.read(
              .source, index: info.index, name: info.name, description: info.description,
              volume: info.volume, isMuted: info.mute != 0,
              isMonitor: info.monitor_of_sink != UInt32.max)
          }, me)
      }
    if operation == nil { answerEnded(role) } else { release(operation) }
  }

  /// A device of an answer, kept until the answer ends.
  private func read(
    _ role: Role, index: UInt32, name: UnsafePointer<CChar>?, description: UnsafePointer<CChar>?,
    volume: pa_cvolume, isMuted: Bool, isMonitor: Bool
  ) {
    let loudest = withUnsafePointer(to: volume) { library.cvolumeMax($0) }
    let device = AudioSnapshot.Device(
      name: name.map { String(cString: $0) } ?? "",
      displayName: description.map { String(cString: $0) } ?? "",
      percent: AudioState.percent(ofVolume: loudest), isMuted: isMuted, isMonitor: isMonitor)
    devices[role.rawValue].pending = (device, index)
  }

  /// The answer about `role`'s device ended: with the device read, or
  /// without (none by that name). An answer about a device that stopped
  /// being the default while it was asked about is not kept: the question
  /// about the new one follows, and until it is answered a change is told
  /// by any device's index.
  private func answerEnded(_ role: Role) {
    answered = true
    if devices[role.rawValue].asked == devices[role.rawValue].name {
      let pending = devices[role.rawValue].pending
      snapshot[role] = pending?.device
      devices[role.rawValue].index = pending?.index
    }
    if devices[role.rawValue].gate.answered() {
      ask(role)
    }
    deliverWhenSettled()
  }

  /// Hands the snapshot on once no question is in flight.
  private func deliverWhenSettled() {
    guard answered, !server.inFlight, !devices.contains(where: \.gate.inFlight) else { return }
    answered = false
    // The server answered every question: the connection works, and the
    // next loss starts a new series of tries (one that fails once ready
    // keeps growing its waits).
    backoff.reset()
    reported = false
    onSnapshot(snapshot)
  }

  private func release(_ operation: OpaquePointer?) {
    if let operation { library.operationUnref(operation) }
  }

  // MARK: The main loop on the event loop

  /// libpulse's poll function: records what it would wait for, and looks
  /// without waiting.
  private func capture(_ descriptors: UnsafeMutablePointer<pollfd>?, count: Int, timeout: Int32)
    -> Int32
  {
    captured = descriptors.map { Array(UnsafeBufferPointer(start: $0, count: count)) } ?? []
    capturedTimeout = timeout
    return poll(descriptors, nfds_t(count), 0)
  }

  /// Runs libpulse's main loop until it would sleep, handles a loss, and
  /// has the event loop wait for what it waits for.
  private func pump() {
    guard !pumping else { return }
    pumping = true
    defer { pumping = false }
    turn()
    if lost != nil {
      handleLoss()
      turn()
    }
    follow()
  }

  /// Iterations of the main loop, without sleeping, until nothing is due.
  private func turn() {
    for _ in 0..<50 {
      guard library.mainloopPrepare(mainloop, -1) >= 0, library.mainloopPoll(mainloop) >= 0
      else { return }
      let dispatched = library.mainloopDispatch(mainloop)
      if dispatched < 0 || (dispatched == 0 && capturedTimeout != 0) { return }
    }
  }

  /// Points the event loop at the descriptors and the timeout captured.
  private func follow() {
    let wanted = captured.map { (fd: $0.fd, events: $0.events) }
    watched.removeAll { source in
      let keep = wanted.contains { $0.fd == source.fd && $0.events == source.events }
      if !keep { loop.remove(source.token) }
      return !keep
    }
    for descriptor in wanted
    where !watched.contains(where: { $0.fd == descriptor.fd && $0.events == descriptor.events }) {
      let token = loop.addSource(fd: descriptor.fd, events: descriptor.events) {
        [unowned self] _ in pump()
      }
      watched.append((descriptor.fd, descriptor.events, token))
    }
    if let timer { loop.remove(timer) }
    timer = nil
    if capturedTimeout >= 0 {
      // A time due in less than a millisecond comes as 0: wait that millisecond.
      let delay = Duration.milliseconds(max(Int64(capturedTimeout), 1))
      timer = loop.addTimer(after: delay) { [unowned self] in
        timer = nil
        pump()
      }
    }
  }
}

/// Which default device: the output or the input.
private enum Role: Int {
  case sink
  case source
}

/// A default device followed: its name on the server, its index once read,
/// the question about it, and the device of the answer being read.
private struct Followed {
  var name: String?
  var index: UInt32?
  var gate = RequestGate()
  /// The name the question in flight asked about: its answer is the
  /// default's only while that is still the default's name.
  var asked: String?
  var pending: (device: AudioSnapshot.Device, index: UInt32)?
}

extension AudioSnapshot {
  /// The device of `role`.
  fileprivate subscript(role: Role) -> Device? {
    get { role == .sink ? sink : source }
    set {
      if role == .sink { sink = newValue } else { source = newValue }
    }
  }
}
