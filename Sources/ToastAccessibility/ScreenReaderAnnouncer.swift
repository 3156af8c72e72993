import Bus
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
/// **Buttons.** A toast's buttons are `push button` children of its
/// notification, named by their labels. The one with the keyboard focus (while
/// the toast has the keyboard) is `focused`, and sends
/// `object:state-changed:focused` as the focus reaches it, so a screen reader
/// says it as Tab moves; its action (`DoAction`) chooses it as a click does,
/// through ``onAction``.
///
/// **A card's actions.** A notification's card (``ToastModel/Toast/Style/card``)
/// takes clicks on its body, and its own object has them as actions:
/// `activate` (a left click: its default action, named by
/// ``ToastModel/Toast/defaultActionLabel``, only when it has one) and
/// `dismiss` (a right click), through ``onAction`` too.
///
/// Everything runs in the presenter's event loop; the connections' sockets
/// are watched by its `poll()` and wake it only when a message arrives.
package final class ScreenReaderAnnouncer {
  /// Announcements of one toast closer than this merge into one, of the latest text.
  package static let mergeInterval: Duration = .milliseconds(150)

  /// One toast, as the announcer knows it. (This type and the state below are
  /// internal, not private: the gate, in ScreenReaderGate.swift, shares them.)
  struct Entry {
    /// The toast as last shown or changed.
    var toast: Toast
    /// What a screen reader says for it: worked out only when it is said,
    /// so that with no screen reader an update costs nothing here.
    var spoken: String { toast.spokenText }
    var mode: Toast.Accessibility { toast.accessibility }
    /// Whether the next announcement is still owed.
    var owed: Bool
    var inTree = false
    /// The labels of its buttons, in Tab order.
    var buttons: [String] = []
    /// The actions of its own object: a card's clicks on its body.
    var actions: [NamedAction] {
      guard toast.style == .card else { return [] }
      return AccessibleTree.cardActions(defaultAction: toast.defaultActionLabel)
    }
    /// The button with the keyboard focus; nil while the toast has no keyboard.
    var focus: Int?
    var lastAnnounced: MonotonicTime?
    var timer: EventLoop.Token?
  }

  /// The presenter's loop: the buses' sockets and the merge timers.
  let loop: EventLoop
  /// The application's name and toolkit version on the accessibility bus.
  let applicationName: String
  let version: String
  /// The session bus connection, while there is one.
  var session: BusConnection?
  /// What the session bus has said of the accessibility bus and screen readers.
  var status = Status.notStarted
  /// Where the accessibility bus connection stands.
  var link = Link.idle
  /// The toasts on screen that screen readers may hear, by the presenter's number.
  var toasts: [Int: Entry] = [:]
  /// When the session bus was last tried.
  var sessionTried: MonotonicTime?
  /// Where the session bus is (`DBUS_SESSION_BUS_ADDRESS` or the runtime
  /// directory's `bus`); tests give another.
  package var sessionAddress: () -> BusAddress? = { BusAddress.session() }
  /// How long a peer (the launcher, the registry) has to answer a call;
  /// tests give a shorter limit than ``Bus/BusConnection/callLimit``.
  package var callLimit = BusConnection.callLimit
  /// The session bus's `GetAll` of `org.a11y.Status` waiting for an answer,
  /// and whether it is to be read again once answered.
  var statusCall: UInt32?
  var statusAgain = false
  /// The launcher's `GetAddress` waiting for an answer.
  var addressCall: UInt32?
  /// Whether the registry's `GetRegisteredEvents` waits for an answer, and
  /// whether it is to be read again once answered.
  var eventsWaiting = false
  var eventsAgain = false

  /// How many announcements were sent, by event (for tests and benchmarks).
  package private(set) var sent: (announcements: Int, showing: Int) = (0, 0)
  /// Called when a screen reader does an action of a toast's button or of
  /// a card (the toast's number, what the action asks), once the answer to
  /// it has gone out: the presenter does what a click would.
  package var onAction: ((_ id: Int, _ action: AccessibleAction) -> Void)?

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
  var bus: BusConnection? {
    switch link {
    case .registering(let bus, _), .ready(let bus, _, _): bus
    case .idle, .askingAddress, .failed: nil
    }
  }

  /// The accessible tree, once the accessibility bus said hello.
  var tree: AccessibleTree? {
    switch link {
    case .registering(_, let tree): tree
    case .ready(_, let tree, _): tree
    case .idle, .askingAddress, .failed: nil
    }
  }

  /// Whether the session bus has fully answered whether a screen reader is on.
  var statusKnown: Bool {
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

  /// A toast appeared on screen, with `buttons` (their labels, in Tab order;
  /// a bar's details button included).
  package func show(id: Int, toast: Toast, buttons: [String]) {
    guard toast.accessibility != .off else { return }
    retrySessionBusIfDue()
    var entry = Entry(toast: toast, owed: false, buttons: buttons)
    entry.owed = !statusKnown || qualifies(entry)
    toasts[id] = entry
    refresh()
  }

  /// A toast on screen changed (new text, new progress, other buttons): it
  /// is announced again.
  package func update(id: Int, toast: Toast, buttons: [String]) {
    guard toast.accessibility != .off else {
      hide(id: id)
      return
    }
    guard var entry = toasts[id] else {
      show(id: id, toast: toast, buttons: buttons)
      return
    }
    retrySessionBusIfDue()
    entry.toast = toast
    entry.owed = !statusKnown || qualifies(entry)
    let oldButtons = entry.buttons
    entry.buttons = buttons
    if let focus = entry.focus, focus >= buttons.count { entry.focus = nil }
    toasts[id] = entry
    if entry.inTree, isConnected, oldButtons != buttons { replaceButtons(of: id, oldButtons) }
    if entry.inTree { tree?.setActions(entry.actions, of: id) }
    refresh()
  }

  /// The keyboard focus of a toast moved to `button` (its index among the
  /// buttons), or the toast got the keyboard with the focus there; nil: the
  /// toast has no keyboard (or no buttons). A screen reader hears the
  /// button that has it now.
  package func focus(id: Int, button: Int?) {
    guard var entry = toasts[id] else { return }
    let button = button.flatMap { entry.buttons.indices.contains($0) ? $0 : nil }
    guard button != entry.focus else { return }
    let old = entry.focus
    entry.focus = button
    toasts[id] = entry
    if entry.inTree, isConnected { sendFocus(of: id, from: old) }
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

  // MARK: - The tree and its events

  /// Puts the toasts that qualify into the tree (announcing those owed), and
  /// takes out those that no longer do.
  func syncTree() {
    guard let tree else { return }
    for id in toasts.keys.sorted() {
      guard var entry = toasts[id] else { continue }
      let path = AccessibleTree.path(of: id)
      var joined = false
      if qualifies(entry) && !entry.inTree {
        let index = tree.add(
          id: id, name: entry.spoken, buttons: entry.buttons, actions: entry.actions)
        entry.inTree = true
        joined = true
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
      // After its announcement: the button with the focus, when it has one.
      if joined && toasts[id]?.focus != nil { sendFocus(of: id, from: nil) }
    }
  }

  /// Gives the tree the toast's focus, and sends focused off from the button
  /// that had it (`old`) and on from the one that has it now.
  private func sendFocus(of id: Int, from old: Int?) {
    guard let tree, let entry = toasts[id] else { return }
    tree.setFocus(entry.focus, of: id)
    if let old, old < entry.buttons.count {
      emit(
        "StateChanged", from: AccessibleTree.path(of: id, button: old), detail: "focused", 0, 0,
        Variant.int32(0))
    }
    if let focus = tree.focusedButton(of: id) {
      emit(
        "StateChanged", from: AccessibleTree.path(of: id, button: focus), detail: "focused", 1, 0,
        Variant.int32(0))
    }
  }

  /// Gives the toast's object its new buttons: buttons whose label changed
  /// send their new name, those that go or come are removed or added children.
  private func replaceButtons(of id: Int, _ old: [String]) {
    guard let tree, let new = toasts[id]?.buttons else { return }
    tree.setButtons(new, of: id)
    let path = AccessibleTree.path(of: id)
    for index in 0..<min(old.count, new.count) where old[index] != new[index] {
      emit(
        "PropertyChange", from: AccessibleTree.path(of: id, button: index),
        detail: "accessible-name", 0, 0, Variant.string(new[index]))
    }
    for index in (new.count..<max(old.count, new.count)).reversed() {
      emit(
        "ChildrenChanged", from: path, detail: "remove", Int32(index), 0,
        tree.reference(AccessibleTree.path(of: id, button: index)))
    }
    for index in old.count..<max(old.count, new.count) {
      emit(
        "ChildrenChanged", from: path, detail: "add", Int32(index), 0,
        tree.reference(AccessibleTree.path(of: id, button: index)))
    }
  }

  /// A screen reader did an action of a button or a card: the presenter
  /// hears of it once the answer has gone out (the action may end the
  /// toast, and its objects with it, while the call is still being answered).
  func actionRequested(id: Int, action: AccessibleAction) {
    loop.addTimer(after: .zero) { [weak self] in
      guard let self, toasts[id]?.inTree == true else { return }
      onAction?(id, action)
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
      // detail1 is the politeness: polite (ATSPI_LIVE_POLITE, 1), for a
      // critical toast assertive (ATSPI_LIVE_ASSERTIVE, 2: said at once).
      let politeness: Int32 = entry.toast.urgency == .critical ? 2 : 1
      emit("Announcement", from: path, detail: "", politeness, 0, Variant.string(spoken))
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
