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
  private var sink = RequestGate()
  private var source = RequestGate()
  private var answered = false
  private var sinkName: String?
  private var sourceName: String?
  private var sinkIndex: UInt32?
  private var sourceIndex: UInt32?
  /// The devices of the answers being read, with their indexes.
  private var pendingSink: (device: AudioSnapshot.Device, index: UInt32)?
  private var pendingSource: (device: AudioSnapshot.Device, index: UInt32)?
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
      backoff.reset()
      reported = false
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
    sink.reset()
    source.reset()
    answered = false
    sinkName = nil
    sourceName = nil
    sinkIndex = nil
    sourceIndex = nil
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
      if isChange, let sinkIndex, sinkIndex != index { return }
      askSink()
    case PA_SUBSCRIPTION_EVENT_SOURCE.rawValue:
      if isChange, let sourceIndex, sourceIndex != index { return }
      askSource()
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
      let newSink = info.pointee.default_sink_name.map { String(cString: $0) } ?? ""
      let newSource = info.pointee.default_source_name.map { String(cString: $0) } ?? ""
      if newSink != sinkName {
        sinkName = newSink
        sinkIndex = nil
        snapshot.sink = nil
        askSink()
      }
      if newSource != sourceName {
        sourceName = newSource
        sourceIndex = nil
        snapshot.source = nil
        askSource()
      }
    }
    if server.answered() {
      server.reset()
      askServer()
    }
    deliverWhenSettled()
  }

  private func askSink() {
    guard let context, let sinkName, !AudioState.isPlaceholder(sinkName) else { return }
    guard sink.request() else { return }
    pendingSink = nil
    let operation = library.contextGetSinkInfoByName(
      context, sinkName,
      { _, info, last, userdata in PulseConnection.from(userdata).sinkAnswered(info, last: last) },
      Unmanaged.passUnretained(self).toOpaque())
    if operation == nil { sinkAnswered(nil, last: -1) } else { release(operation) }
  }

  private func sinkAnswered(_ info: UnsafePointer<pa_sink_info>?, last: Int32) {
    if last == 0, let info {
      let volume = withUnsafePointer(to: info.pointee.volume) { library.cvolumeMax($0) }
      let device = AudioSnapshot.Device(
        name: String(cString: info.pointee.name),
        description: info.pointee.description.map { String(cString: $0) } ?? "",
        percent: AudioState.percent(ofVolume: volume), isMuted: info.pointee.mute != 0)
      pendingSink = (device, info.pointee.index)
      return
    }
    answered = true
    snapshot.sink = pendingSink?.device
    sinkIndex = pendingSink?.index
    if sink.answered() {
      sink.reset()
      askSink()
    }
    deliverWhenSettled()
  }

  private func askSource() {
    guard let context, let sourceName, !AudioState.isPlaceholder(sourceName) else { return }
    guard source.request() else { return }
    pendingSource = nil
    let operation = library.contextGetSourceInfoByName(
      context, sourceName,
      { _, info, last, userdata in
        PulseConnection.from(userdata).sourceAnswered(info, last: last)
      }, Unmanaged.passUnretained(self).toOpaque())
    if operation == nil { sourceAnswered(nil, last: -1) } else { release(operation) }
  }

  private func sourceAnswered(_ info: UnsafePointer<pa_source_info>?, last: Int32) {
    if last == 0, let info {
      let volume = withUnsafePointer(to: info.pointee.volume) { library.cvolumeMax($0) }
      let device = AudioSnapshot.Device(
        name: String(cString: info.pointee.name),
        description: info.pointee.description.map { String(cString: $0) } ?? "",
        percent: AudioState.percent(ofVolume: volume), isMuted: info.pointee.mute != 0,
        isMonitor: info.pointee.monitor_of_sink != UInt32.max)
      pendingSource = (device, info.pointee.index)
      return
    }
    answered = true
    snapshot.source = pendingSource?.device
    sourceIndex = pendingSource?.index
    if source.answered() {
      source.reset()
      askSource()
    }
    deliverWhenSettled()
  }

  /// Hands the snapshot on once no question is in flight.
  private func deliverWhenSettled() {
    guard answered, !server.inFlight, !sink.inFlight, !source.inFlight else { return }
    answered = false
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
