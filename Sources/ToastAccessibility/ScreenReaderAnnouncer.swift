import CGio
import SystemSupport
import ToastModel

/// Tells screen readers about toasts, through AT-SPI on the accessibility bus.
///
/// **Gate.** Nothing is done until ``start()``, which the presenter calls once
/// its first frame is on screen (so start-up is never slower). Then one
/// connection to the session bus asks, without starting anything, whether the
/// accessibility bus runs (`NameHasOwner("org.a11y.Bus")`) and whether a
/// screen reader is on (`org.a11y.Status`: `IsEnabled` or
/// `ScreenReaderEnabled`), and keeps listening for both to change. Only when
/// one is on (or a toast asks for ``ToastModel/Toast/Accessibility/on``) does
/// it connect to the accessibility bus; when that ends, it disconnects.
///
/// **Tree and events.** On the accessibility bus the presenter is an
/// application named `wl-toast` (registered with the registry's
/// `Socket.Embed`) with one `notification` child per toast shown, named what
/// the toast says. A toast that appears is announced with the event the
/// running screen reader listens for: `object:announcement` when a client
/// registered for it and every client that hears `showing` hears it too
/// (`Registry.GetRegisteredEvents`: Orca 45.2 and later), otherwise the
/// child's `object:state-changed:showing` (which Orca 43 speaks as
/// "notification TEXT"); one or the other, never both. An update
/// announces again; updates closer than ``mergeInterval`` merge into one
/// announcement of the latest text. A hidden toast's child sends showing off
/// and leaves the tree.
///
/// Everything runs in the presenter's event loop; the connections' sockets
/// are watched by its `poll()` and wake it only when a message arrives.
package final class ScreenReaderAnnouncer {
  /// Announcements of one toast closer than this merge into one, of the latest text.
  package static let mergeInterval: Duration = .milliseconds(150)

  private struct Entry {
    /// The toast as last shown or changed.
    var toast: Toast
    /// What a screen reader says for it: worked out only when it is said,
    /// so that with no screen reader an update costs nothing here.
    var spoken: String { toast.spokenText }
    var mode: Toast.Accessibility { toast.accessibility }
    /// Whether the next announcement is still owed.
    var owed: Bool
    var inTree = false
    var lastAnnounced: MonotonicTime?
    var timer: EventLoop.Token?
  }

  /// What the session bus has said of the accessibility bus and the screen reader.
  private enum Status: Equatable {
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
  private enum Event {
    /// `object:announcement`: some client listens for it, and every client
    /// that listens for `showing` does too.
    case announcement
    /// The child's `object:state-changed:showing`.
    case showing
  }

  /// Where the connection to the accessibility bus stands.
  private enum Link {
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

  private let loop: EventLoop
  private let applicationName: String
  private let version: String
  private var session: BusConnection?
  private var status = Status.notStarted
  private var link = Link.idle
  private var toasts: [Int: Entry] = [:]
  /// When the session bus was last tried.
  private var sessionTried: MonotonicTime?
  /// Where the session bus is (`DBUS_SESSION_BUS_ADDRESS` or the runtime
  /// directory's `bus`); tests give another.
  package var sessionAddress: () -> BusAddress? = { BusAddress.session() }

  /// How many announcements were sent, by event (for tests and benchmarks).
  package private(set) var sent: (announcements: Int, showing: Int) = (0, 0)

  /// An announcer for the presenter's loop; it starts nothing yet.
  package init(loop: EventLoop, applicationName: String = "wl-toast", version: String) {
    self.loop = loop
    self.applicationName = applicationName
    self.version = version
  }

  deinit {
    // The calls still waiting for an answer and the merge timers hold handlers
    // that reach this announcer unowned: dropped unheard, never run on it as it
    // goes (closing the connections would call the waiting ones with an error).
    for entry in toasts.values { if let timer = entry.timer { loop.remove(timer) } }
    bus?.abandon()
    session?.abandon()
  }

  /// Whether a screen reader says it is on (as last heard from the session bus).
  package var screenReaderIsOn: Bool { status.screenReaderIsOn }

  /// Whether the accessibility bus connection is open and registered.
  package var isConnected: Bool {
    if case .ready = link { true } else { false }
  }

  /// The accessibility bus connection, registered or not.
  private var bus: BusConnection? {
    switch link {
    case .registering(let bus, _), .ready(let bus, _, _): bus
    case .idle, .askingAddress, .failed: nil
    }
  }

  /// The accessible tree, once the accessibility bus said hello.
  private var tree: AccessibleTree? {
    switch link {
    case .registering(_, let tree): tree
    case .ready(_, let tree, _): tree
    case .idle, .askingAddress, .failed: nil
    }
  }

  /// Whether the session bus has fully answered whether a screen reader is on.
  private var statusKnown: Bool {
    if case .known = status { true } else { false }
  }

  /// Where the announcer stands, for `wl-toast status`: `starting` (the
  /// session bus has not answered yet), `no-screen-reader`, `connecting`,
  /// `connected` (on the accessibility bus), `failed` (the accessibility bus
  /// refused or broke; tried again when the status changes).
  package var state: String {
    switch (link, status) {
    case (.ready, _): "connected"
    case (.registering, _), (.askingAddress, _): "connecting"
    case (_, .notStarted), (_, .asking): "starting"
    case (.failed, .known): "failed"
    case (.idle, .known): "no-screen-reader"
    }
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
  private func retrySessionBusIfDue() {
    guard status != .notStarted, session == nil, let tried = sessionTried,
      MonotonicTime.now - tried >= Self.sessionRetryInterval
    else { return }
    status = .asking(busRuns: false)
    watchSessionBus()
  }

  /// Connects to the session bus and asks whether a screen reader is on.
  private func watchSessionBus() {
    sessionTried = .now
    guard let address = sessionAddress(),
      let connection = BusConnection(address: address, loop: loop)
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
        body: Variant.tuple([Variant.string("org.a11y.Bus")])
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

  /// A toast appeared on screen.
  package func show(id: Int, toast: Toast) {
    guard toast.accessibility != .off else { return }
    retrySessionBusIfDue()
    var entry = Entry(toast: toast, owed: false)
    entry.owed = !statusKnown || qualifies(entry)
    toasts[id] = entry
    refresh()
  }

  /// A toast on screen changed (new text, new progress): it is announced again.
  package func update(id: Int, toast: Toast) {
    guard toast.accessibility != .off else {
      hide(id: id)
      return
    }
    guard var entry = toasts[id] else {
      show(id: id, toast: toast)
      return
    }
    retrySessionBusIfDue()
    entry.toast = toast
    entry.owed = !statusKnown || qualifies(entry)
    toasts[id] = entry
    refresh()
  }

  /// A toast left the screen: its object sends showing off and leaves the tree.
  package func hide(id: Int) {
    guard let entry = toasts.removeValue(forKey: id) else { return }
    if let timer = entry.timer { loop.remove(timer) }
    if entry.inTree, isConnected, let tree {
      let path = AccessibleTree.path(of: id)
      emit("StateChanged", from: path, detail: "showing", 0, 0, Variant.int32(0))
      if let index = tree.remove(id: id) {
        emit(
          "ChildrenChanged", from: AccessibleTree.rootPath, detail: "remove", Int32(index), 0,
          tree.reference(path))
      }
    }
    refresh()
  }

  // MARK: - The session bus: is a screen reader on?

  private func noSessionBus() {
    status = .known(busRuns: false, isEnabled: false, screenReaderEnabled: false)
    statusChanged()
  }

  private func readStatus() {
    session?.call(
      destination: "org.a11y.Bus", path: "/org/a11y/bus",
      interface: "org.freedesktop.DBus.Properties", member: "GetAll",
      body: Variant.tuple([Variant.string("org.a11y.Status")])
    ) { [unowned self] result in
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
    }
  }

  private func sessionSignal(_ signal: BusMessage) {
    switch (signal.interface, signal.member) {
    case ("org.freedesktop.DBus", "NameOwnerChanged"):
      guard signal.argument(0, Variant.text) == "org.a11y.Bus" else { return }
      let busRuns = !(signal.argument(2, Variant.text) ?? "").isEmpty
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
  private func qualifies(_ entry: Entry) -> Bool {
    switch entry.mode {
    case .on: status.busRuns
    case .automatic: status.screenReaderIsOn
    case .off: false
    }
  }

  /// Connects or disconnects as the status and the toasts want, then brings
  /// the tree up to date.
  private func refresh() {
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
    session?.call(
      destination: "org.a11y.Bus", path: "/org/a11y/bus", interface: "org.a11y.Bus",
      member: "GetAddress"
    ) { [unowned self] result in
      guard case .askingAddress = link else { return }
      guard case .success(let reply) = result, let text = reply.argument(0, Variant.text) else {
        link = .failed
        return
      }
      open(BusAddress(text))
    }
  }

  /// Connects to the accessibility bus at `address`; registers once the bus says hello.
  private func open(_ address: BusAddress) {
    guard let connection = BusConnection(address: address, loop: loop) else {
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

  private func readRegisteredEvents() {
    bus?.call(
      destination: "org.a11y.atspi.Registry", path: "/org/a11y/atspi/registry",
      interface: "org.a11y.atspi.Registry", member: "GetRegisteredEvents"
    ) { [unowned self] result in
      guard case .success(let reply) = result, let bus, let tree else { return }
      let event: Event =
        Self.announcementsReachEveryone(Self.registeredEvents(in: reply))
        ? .announcement : .showing
      let wasReady = isConnected
      link = .ready(bus, tree, event)
      if !wasReady { syncTree() }
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
    for id in toasts.keys { toasts[id]?.inTree = false }
  }

  private func disconnect() {
    bus?.close(notifying: false)
    lostBus()
  }

  /// Puts the toasts that qualify into the tree (announcing those owed), and
  /// takes out those that no longer do.
  private func syncTree() {
    guard let tree else { return }
    for id in toasts.keys.sorted() {
      guard var entry = toasts[id] else { continue }
      let path = AccessibleTree.path(of: id)
      if qualifies(entry) && !entry.inTree {
        let index = tree.add(id: id, name: entry.spoken)
        entry.inTree = true
        toasts[id] = entry
        emit(
          "ChildrenChanged", from: AccessibleTree.rootPath, detail: "add", Int32(index), 0,
          tree.reference(path))
      } else if !qualifies(entry) && entry.inTree {
        emit("StateChanged", from: path, detail: "showing", 0, 0, Variant.int32(0))
        if let index = tree.remove(id: id) {
          emit(
            "ChildrenChanged", from: AccessibleTree.rootPath, detail: "remove", Int32(index), 0,
            tree.reference(path))
        }
        entry.inTree = false
        entry.owed = false
        toasts[id] = entry
      }
      if toasts[id]?.inTree == true && toasts[id]?.owed == true { announce(id) }
    }
  }

  /// Announces a toast now, or at the end of its merge interval.
  private func announce(_ id: Int) {
    guard var entry = toasts[id], entry.timer == nil else { return }
    if let last = entry.lastAnnounced, MonotonicTime.now - last < Self.mergeInterval {
      entry.timer = loop.addTimer(at: last + Self.mergeInterval) { [unowned self] in
        toasts[id]?.timer = nil
        if isConnected, toasts[id]?.owed == true { announceNow(id) }
      }
      toasts[id] = entry
      return
    }
    announceNow(id)
  }

  private func announceNow(_ id: Int) {
    guard var entry = toasts[id], entry.inTree, let tree else { return }
    entry.owed = false
    entry.lastAnnounced = .now
    toasts[id] = entry
    let path = AccessibleTree.path(of: id)
    // The name first, so that a screen reader with the old one cached reads the new.
    let spoken = entry.spoken
    if tree.rename(id: id, to: spoken) {
      emit(
        "PropertyChange", from: path, detail: "accessible-name", 0, 0, Variant.string(spoken))
    }
    guard !spoken.isEmpty else { return }
    if case .ready(_, _, .announcement) = link {
      // detail1 is the politeness: 1, polite (ATSPI_LIVE_POLITE).
      emit("Announcement", from: path, detail: "", 1, 0, Variant.string(spoken))
      sent.announcements += 1
    } else {
      emit("StateChanged", from: path, detail: "showing", 1, 0, Variant.int32(0))
      sent.showing += 1
    }
  }

  /// Sends an `org.a11y.atspi.Event.Object` signal from our object at `path`;
  /// `data` (a floating reference) is taken, whether it is sent or not.
  private func emit(
    _ member: String, from path: String, detail: String, _ detail1: Int32, _ detail2: Int32,
    _ data: OpaquePointer
  ) {
    // The connection can close while a sync or an announcement is under way
    // (a send that fails closes it): what is left to send is dropped, and its
    // data, which no message took, released.
    guard let bus else {
      g_variant_unref(g_variant_ref_sink(data))
      return
    }
    bus.send(
      BusMessage.signal(
        path: path, interface: "org.a11y.atspi.Event.Object", member: member,
        body: Variant.tuple([
          Variant.string(detail), Variant.int32(detail1), Variant.int32(detail2),
          Variant.boxed(data), Variant.noProperties(),
        ])))
  }
}
