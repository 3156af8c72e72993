import Bus
import CGio
import SystemSupport
import ToastModel

/// The announcer's gate (see ``ScreenReaderAnnouncer``): whether a screen
/// reader is on, as the session bus says, and while one is, the connection to
/// the accessibility bus: its address, the registration in the registry's
/// desktop, and which event screen readers hear a toast by.
///
/// Every call to a peer has the announcer's ``callLimit``; one that gets no
/// answer in time is a failure like any error. A peer's signals never make
/// more than one call wait: a read asked while one waits is made once more
/// after its answer; the launcher's calls are forgotten when another owner
/// takes `org.a11y.Bus`.
extension ScreenReaderAnnouncer {
  /// What the session bus has said of the accessibility bus and the screen reader.
  enum Status: Equatable {
    /// ``start()`` has not been called: nothing asked.
    case notStarted
    /// Asked (again, after the session bus went), not fully answered yet;
    /// `busRuns` once `NameHasOwner` said the accessibility bus runs.
    case asking(busRuns: Bool)
    /// Answered: whether the accessibility bus runs, and the flags of its
    /// `org.a11y.Status` (`IsEnabled`, `ScreenReaderEnabled`).
    case known(busRuns: Bool, isEnabled: Bool, screenReaderEnabled: Bool)

    /// Whether the accessibility bus runs, as far as is known.
    var busRuns: Bool {
      switch self {
      case .notStarted: false
      case .asking(let busRuns), .known(let busRuns, _, _): busRuns
      }
    }

    /// Whether a screen reader says it is on.
    var screenReaderIsOn: Bool {
      guard case .known(true, let isEnabled, let screenReaderEnabled) = self else { return false }
      return isEnabled || screenReaderEnabled
    }
  }

  /// The event a screen reader hears a toast by.
  enum Event {
    /// `object:announcement`: some client listens for it, and every client
    /// that listens for `showing` does too.
    case announcement
    /// The child's `object:state-changed:showing`.
    case showing
  }

  /// Where the connection to the accessibility bus stands.
  enum Link {
    /// None; one is made when a toast or the status wants it.
    case idle
    /// Asking the session bus for the accessibility bus's address.
    case askingAddress
    /// Connected (or connecting), not yet registered; the tree once the bus said hello.
    case registering(BusConnection, AccessibleTree?)
    /// Registered in the registry's desktop, knowing which event to send.
    case ready(BusConnection, AccessibleTree, Event)
    /// The last connection failed or broke: not tried again before the
    /// status changes (no loop of attempts against a broken bus).
    case failed
  }

  /// Starts watching the session bus for a screen reader (once; a toast
  /// shown later tries a missing or lost session bus again).
  package func start() {
    guard status == .notStarted else { return }
    status = .asking(busRuns: false)
    watchSessionBus()
  }

  /// A toast shown or changed with no session bus tries it again after this long since
  /// the last try: a bus that starts after the owner, or comes back, is found.
  package static let sessionRetryInterval: Duration = .seconds(1)

  /// Tries the session bus again when there is none and the last try is
  /// ``sessionRetryInterval`` old.
  func retrySessionBusIfDue() {
    guard status != .notStarted, session == nil, let tried = sessionTried,
      MonotonicTime.now - tried >= Self.sessionRetryInterval
    else { return }
    status = .asking(busRuns: false)
    watchSessionBus()
  }

  /// Connects to the session bus and asks whether a screen reader is on. A
  /// bus that does not answer the handshake or `NameHasOwner` in time is
  /// closed, and is no session bus (quietly, as one that is missing).
  private func watchSessionBus() {
    sessionTried = .now
    guard let address = sessionAddress(),
      let connection = BusConnection(address: address, loop: loop, callLimit: callLimit)
    else {
      noSessionBus()
      return
    }
    session = connection
    connection.onClose = { [unowned self] in
      session = nil
      noSessionBus()
    }
    connection.onSignal = { [unowned self] signal in sessionSignal(signal) }
    connection.onReady = { [unowned self, unowned connection] in
      // Listen first, then ask: no change can fall between the answer and the watch.
      connection.addMatch(
        "type='signal',sender='org.freedesktop.DBus',interface='org.freedesktop.DBus',"
          + "member='NameOwnerChanged',arg0='org.a11y.Bus'")
      connection.addMatch(
        "type='signal',sender='org.a11y.Bus',interface='org.freedesktop.DBus.Properties',"
          + "member='PropertiesChanged',path='/org/a11y/bus',arg0='org.a11y.Status'")
      connection.call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", member: "NameHasOwner",
        body: Variant.tuple([Variant.string("org.a11y.Bus")]), limit: .bus
      ) { [unowned self] result in
        if case .success(let reply) = result, reply.argument(0, Variant.bool) == true {
          status =
            statusKnown
            ? .known(busRuns: true, isEnabled: false, screenReaderEnabled: false)
            : .asking(busRuns: true)
          readStatus()
        } else {
          status = .known(busRuns: false, isEnabled: false, screenReaderEnabled: false)
          statusChanged()
        }
      }
    }
  }

  // MARK: - The session bus: is a screen reader on?

  private func noSessionBus() {
    status = .known(busRuns: false, isEnabled: false, screenReaderEnabled: false)
    statusChanged()
  }

  /// Reads `org.a11y.Status` (`GetAll`); while that waits, once more after
  /// its answer. No answer in time is both flags off.
  private func readStatus() {
    guard statusCall == nil else {
      statusAgain = true
      return
    }
    let serial = session?.call(
      destination: "org.a11y.Bus", path: "/org/a11y/bus",
      interface: "org.freedesktop.DBus.Properties", member: "GetAll",
      body: Variant.tuple([Variant.string("org.a11y.Status")])
    ) { [unowned self] result in
      statusCall = nil
      var flags: [String: Bool] = [:]
      if case .success(let reply) = result,
        let answered = reply.argument(0, { Variant.booleans($0) })
      {
        flags = answered
      }
      status = .known(
        busRuns: status.busRuns, isEnabled: flags["IsEnabled"] ?? false,
        screenReaderEnabled: flags["ScreenReaderEnabled"] ?? false)
      statusChanged()
      if statusAgain {
        statusAgain = false
        readStatus()
      }
    }
    if let serial { statusCall = serial }
  }

  /// Forgets what the launcher was asked: another owner has `org.a11y.Bus`
  /// (or none has), whose answers are the ones that count.
  private func forgetLauncherCalls() {
    if let statusCall { session?.forget(statusCall) }
    statusCall = nil
    statusAgain = false
    if let addressCall { session?.forget(addressCall) }
    addressCall = nil
    if case .askingAddress = link { link = .idle }
  }

  private func sessionSignal(_ signal: BusMessage) {
    switch (signal.interface, signal.member) {
    case ("org.freedesktop.DBus", "NameOwnerChanged"):
      guard signal.argument(0, Variant.text) == "org.a11y.Bus" else { return }
      let busRuns = !(signal.argument(2, Variant.text) ?? "").isEmpty
      forgetLauncherCalls()
      status =
        statusKnown
        ? .known(busRuns: busRuns, isEnabled: false, screenReaderEnabled: false)
        : .asking(busRuns: busRuns)
      if busRuns {
        readStatus()
      } else {
        statusChanged()
      }
    case ("org.freedesktop.DBus.Properties", "PropertiesChanged"):
      guard signal.argument(0, Variant.text) == "org.a11y.Status" else { return }
      let changed = signal.argument(1, { Variant.booleans($0) }) ?? [:]
      if case .known(let busRuns, let isEnabled, let screenReaderEnabled) = status {
        status = .known(
          busRuns: busRuns, isEnabled: changed["IsEnabled"] ?? isEnabled,
          screenReaderEnabled: changed["ScreenReaderEnabled"] ?? screenReaderEnabled)
      }
      let invalidated = signal.argument(2, { Variant.children($0, Variant.text) }) ?? []
      if !invalidated.isEmpty {
        readStatus()
      } else {
        statusChanged()
      }
    default:
      break
    }
  }

  private func statusChanged() {
    if case .failed = link { link = .idle }
    refresh()
  }

  // MARK: - The accessibility bus

  /// Whether the toast's object belongs in the tree now.
  func qualifies(_ entry: Entry) -> Bool {
    switch entry.mode {
    case .on: status.busRuns
    case .automatic: status.screenReaderIsOn
    case .off: false
    }
  }

  /// Connects or disconnects as the status and the toasts want, then brings
  /// the tree up to date.
  func refresh() {
    // A toast shown while no screen reader was on is not announced when one
    // starts later (it joins the tree quietly); only its updates are.
    if statusKnown {
      for (id, entry) in toasts where entry.owed && !qualifies(entry) { toasts[id]?.owed = false }
    }
    let wanted =
      status.busRuns && toasts.values.contains(where: qualifies)
      || status.screenReaderIsOn
    switch link {
    case .idle where wanted && session != nil: connect()
    case .registering, .ready: if !wanted { disconnect() }
    default: break
    }
    if isConnected { syncTree() }
  }

  /// Asks the launcher for the accessibility bus's address, unless
  /// `AT_SPI_BUS_ADDRESS` names it, and connects.
  private func connect() {
    if let given = BusAddress.accessibilityOverride() {
      open(given)
      return
    }
    link = .askingAddress
    let serial = session?.call(
      destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus",
      member: "GetAddress"
    ) { [unowned self] result in
      addressCall = nil
      guard case .askingAddress = link else { return }
      guard case .success(let reply) = result, let text = reply.argument(0, Variant.text) else {
        link = .failed
        return
      }
      open(BusAddress(text))
    }
    if let serial, case .askingAddress = link { addressCall = serial }
  }

  /// Connects to the accessibility bus at `address`; registers once the bus says hello.
  private func open(_ address: BusAddress) {
    guard let connection = BusConnection(address: address, loop: loop, callLimit: callLimit)
    else {
      link = .failed
      return
    }
    link = .registering(connection, nil)
    connection.onClose = { [unowned self] in
      lostBus()
      link = .failed
    }
    connection.onMethodCall = { [unowned self] call in
      tree?.answer(call)
    }
    connection.onSignal = { [unowned self] signal in
      if signal.interface == "org.a11y.atspi.Registry" { readRegisteredEvents() }
    }
    connection.onReady = { [unowned self, unowned connection] in register(connection) }
    // The status may have changed while the address was on its way.
    refresh()
  }

  /// Embeds the application in the registry's desktop, then learns which
  /// events screen readers listen for.
  private func register(_ connection: BusConnection) {
    guard case .registering(let current, nil) = link, current === connection else { return }
    let tree = AccessibleTree(applicationName: applicationName, version: version)
    tree.busName = connection.uniqueName ?? ""
    tree.onAction = { [weak self] id, action in self?.actionRequested(id: id, action: action) }
    link = .registering(connection, tree)
    connection.addMatch(
      "type='signal',interface='org.a11y.atspi.Registry',path='/org/a11y/atspi/registry'")
    connection.call(
      destination: "org.a11y.atspi.Registry", path: AccessibleTree.rootPath,
      interface: "org.a11y.atspi.Socket", member: "Embed",
      body: Variant.tuple([tree.reference(AccessibleTree.rootPath)])
    ) { [unowned self] result in
      if case .success(let reply) = result, let desktop = Self.desktop(in: reply) {
        tree.desktop = desktop
      }
      readRegisteredEvents()
    }
  }

  /// Asks the registry which events screen readers listen for; while that
  /// waits, once more after its answer. A registry that cannot say while
  /// registering (an error, or no answer in time) fails the connection; once
  /// ready, the event chosen stays.
  private func readRegisteredEvents() {
    guard let connection = bus else { return }
    guard !eventsWaiting else {
      eventsAgain = true
      return
    }
    eventsWaiting = true
    connection.call(
      destination: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/registry",
      interface: "org.a11y.atspi.Registry", member: "GetRegisteredEvents"
    ) { [unowned self, unowned connection] result in
      // The answer on a connection since replaced is no one's.
      guard connection === bus else { return }
      eventsWaiting = false
      guard let tree else { return }
      guard case .success(let reply) = result else {
        if case .registering = link, !connection.isClosed {
          disconnect()
          link = .failed
        } else if eventsAgain {
          eventsAgain = false
          readRegisteredEvents()
        }
        return
      }
      let event: Event =
        Self.announcementsReachEveryone(Self.registeredEvents(in: reply))
        ? .announcement : .showing
      let wasReady = isConnected
      link = .ready(connection, tree, event)
      if !wasReady { syncTree() }
      if eventsAgain {
        eventsAgain = false
        readRegisteredEvents()
      }
    }
  }

  /// The desktop object in the registry's answer to `Socket.Embed`, `((so))`.
  package static func desktop(in reply: BusMessage) -> (bus: String, path: String)? {
    reply.argument(0) { reference -> (String, String)? in
      let parts = Variant.children(reference, Variant.text)
      return parts.count == 2 ? (parts[0], parts[1]) : nil
    }
  }

  /// The registrations in the registry's answer to `GetRegisteredEvents`,
  /// `(a(ss))`: which client listens for which event.
  package static func registeredEvents(in reply: BusMessage) -> [(client: String, event: String)] {
    reply.argument(0) { list in
      Variant.children(list) { pair -> (String, String)? in
        let parts = Variant.children(pair, Variant.text)
        return parts.count == 2 ? (parts[0], parts[1]) : nil
      }
    } ?? []
  }

  /// Whether `object:announcement` is the event to send, from the registry's
  /// list of (client, event) registrations: some client registered for it by
  /// name (Orca 45.2 and later do), and every client that hears `showing`
  /// hears announcements too. Orca 43 hears `showing` only: with it running,
  /// the showing path is taken, whoever else listens.
  package static func announcementsReachEveryone(_ registrations: [(client: String, event: String)])
    -> Bool
  {
    func segments(_ event: String) -> [Substring] {
      event.lowercased().filter { $0 != "-" }.split(separator: ":")
    }
    let announcement: [Substring] = ["object", "announcement"]
    let showing: [Substring] = ["object", "statechanged", "showing"]
    /// Whether a registration covers an event: it is the event or a prefix of it.
    func covers(_ registration: [Substring], _ event: [Substring]) -> Bool {
      !registration.isEmpty && event.starts(with: registration)
    }
    var clients: [String: [[Substring]]] = [:]
    for (client, event) in registrations { clients[client, default: []].append(segments(event)) }
    let named = clients.values.contains { $0.contains(announcement) }
    let nobodyMissesIt = clients.values.allSatisfy { events in
      !events.contains { covers($0, showing) } || events.contains { covers($0, announcement) }
    }
    return named && nobodyMissesIt
  }

  private func lostBus() {
    link = .idle
    eventsWaiting = false
    eventsAgain = false
    for id in toasts.keys { toasts[id]?.inTree = false }
  }

  private func disconnect() {
    bus?.close(notifying: false)
    lostBus()
  }
}
