import Bus
import Glibc
import Notifications
import SystemSupport
import ToastKit
import ToastModel
import ToastProtocol

/// The owner's side of `org.freedesktop.Notifications` 1.2 on the session
/// bus: each notification a card among the owner's toasts (one presenter,
/// one stack), its end told to the application exactly once.
///
/// The bus connection lives in the presenter's event loop. Calls are
/// answered at once; what they change on screen (cards shown, updated,
/// taken away) and the signals that follow are carried out right after, in
/// the next turn of the loop, so an application always hears the id
/// `Notify` returns before any signal about it. ``NotificationStack`` keeps
/// the rules of which cards show, wait and end.
final class NotificationServer {
  /// The bus name and the object path of the specification.
  static let busName = "org.freedesktop.Notifications"
  static let objectPath = "/org/freedesktop/Notifications"

  /// A notification as held: the application's request and its card.
  struct Held {
    var request: NotificationRequest
    var toast: Toast
  }

  private let presenter: ToastPresenter
  /// The configuration's rules, applied to every notification from now on;
  /// their `max-history` sets how many ended notifications are kept.
  var rules: [NotificationRule] {
    didSet { stack.history.limit = Self.historyLimit(rules) }
  }
  private var connection: BusConnection?
  /// Connections closed from inside their own handlers, let go of in the next turn.
  private var retired: [BusConnection] = []
  private let objects = BusObjects()
  private var ids = NotificationIDs()
  private var stack = NotificationStack<Held>()
  /// The notifications whose sound was heard (or silenced by
  /// do-not-disturb): a card shown again (after do-not-disturb, or from the
  /// queue) is silent; a new call with the id is heard again.
  private var sounded: Set<UInt32> = []
  /// What calls changed, carried out in the next turn of the loop.
  private var pending: [NotificationStack<Held>.Effect] = []
  private var flushScheduled = false
  /// The card whose content is being shown (``apply(_:)``).
  private var showingTag: String?
  /// Who waits to hear whether the name is the server's.
  private var startAnswers: [(String?) -> Void] = []
  /// Whether the server owns the name and answers calls.
  private(set) var isServing = false
  /// Called with one line when the server stops serving after it started
  /// (another took the name, the bus went away); toasts go on.
  var onStop: ((String) -> Void)?

  /// What a server leaves to the next one of its owner (after the name was
  /// lost and asked for again): the count of ids, so that the owner never
  /// gives an id twice in its life, and the history.
  struct Memory {
    fileprivate var ids: NotificationIDs
    fileprivate var history: NotificationHistory<NotificationStack<Held>.Entry>
  }

  /// This server's ids and history, for the next server (``Memory``).
  var memory: Memory { Memory(ids: ids, history: stack.history) }

  /// A server for `presenter`'s toasts, not yet on the bus
  /// (``start(replace:answer:)``), going on from an earlier server's `memory`.
  init(presenter: ToastPresenter, rules: [NotificationRule], memory: Memory? = nil) {
    self.presenter = presenter
    self.rules = rules
    if let memory {
      ids = memory.ids
      stack.history = memory.history
    }
    stack.history.limit = Self.historyLimit(rules)
    objects.serve(Self.interface, at: Self.objectPath) { [unowned self] method, call in
      answer(method, call)
    }
  }

  deinit { connection?.abandon() }

  /// Connects to the session bus and asks for the name, allowing a later
  /// server with `--replace` to take it (and taking it, with `replace`, from
  /// one that allows it); `answer` hears nil once the name is this
  /// server's, or one line saying why not: also when the bus does not answer
  /// the handshake or `RequestName` within ``BusConnection/answerLimit``.
  func start(replace: Bool, answer: @escaping (String?) -> Void) {
    guard !isServing else {
      answer(nil)
      return
    }
    // Starting already: this request hears how that ends.
    startAnswers.append(answer)
    guard connection == nil else { return }
    guard let address = BusAddress.session() else {
      startAnswers.removeAll()
      answer(BusAddress.noSessionBus)
      return
    }
    guard let connection = BusConnection(address: address, loop: presenter.eventLoop) else {
      startAnswers.removeAll()
      answer("cannot connect to the session bus at \(address.socketList)")
      return
    }
    self.connection = connection
    func once(_ reason: String?) {
      let answers = startAnswers
      startAnswers.removeAll()
      for answer in answers { answer(reason) }
    }
    connection.onMethodCall = { [unowned self] call in objects.answer(call) }
    connection.onSignal = { [unowned self] signal in
      if case .lost(Self.busName)? = signal.nameOwnership, isServing {
        stopServing("lost \(Self.busName) to another server; notifications end here")
      }
    }
    connection.onClose = { [unowned self] in
      if isServing {
        stopServing("the session bus went away; notifications end here")
      } else {
        let unanswered = connection.closedUnanswered
        retireConnection()
        once(
          unanswered
            ? BusConnection.unansweredLine("the session bus", at: address)
            : "the session bus closed the connection")
      }
    }
    connection.onReady = { [unowned self] in
      var flags: NameRequestFlags = [.allowReplacement, .doNotQueue]
      if replace { flags.insert(.replaceExisting) }
      connection.requestName(Self.busName, flags: flags) { [unowned self] result in
        switch result {
        case .success(let reply) where reply.owns:
          isServing = true
          once(nil)
        case .success:
          connection.describeOwner(of: Self.busName) { [unowned self] owner in
            let refusal =
              "\(Self.busName) is owned by \(owner ?? "another program")"
              + (replace ? ", which does not allow replacement" : "")
            retireConnection()
            once(refusal)
          }
        case .failure(let error):
          retireConnection()
          once("cannot own \(Self.busName): \(error.message)")
        }
      }
    }
  }

  /// Tells the actions whose tokens are on their way (without them), ends
  /// every notification (reason 4) and leaves the bus: the owner stops.
  func stop() {
    settleInvocations()
    applyPendingSignals()
    apply(stack.closeAll(reason: .other))
    if isServing { connection?.releaseName(Self.busName) }
    isServing = false
    retireConnection()
  }

  private func stopServing(_ reason: String) {
    settleInvocations()
    applyPendingSignals()
    apply(stack.closeAll(reason: .other))
    isServing = false
    retireConnection()
    onStop?(reason)
  }

  /// Closes the bus connection and lets go of it in the next turn of the
  /// loop: it may be the one calling (its handlers run inside its reading).
  private func retireConnection() {
    guard let connection else { return }
    connection.abandon()
    self.connection = nil
    // Kept by the server, not by the timer: a timer that never fires (the
    // loop ends first) would keep the connection and its loop holding each other.
    retired.append(connection)
    presenter.eventLoop.addTimer(after: .zero) { [weak self] in self?.retired.removeAll() }
  }

  // MARK: - The bus interface

  static let interface = BusInterface(
    busName,
    methods: [
      .init(
        "Notify",
        inputs: [
          .init("app_name", "s"), .init("replaces_id", "u"), .init("app_icon", "s"),
          .init("summary", "s"), .init("body", "s"), .init("actions", "as"),
          .init("hints", "a{sv}"), .init("expire_timeout", "i"),
        ], outputs: [.init("id", "u")]),
      .init("CloseNotification", inputs: [.init("id", "u")]),
      .init("GetCapabilities", outputs: [.init("capabilities", "as")]),
      .init(
        "GetServerInformation",
        outputs: [
          .init("name", "s"), .init("vendor", "s"), .init("version", "s"),
          .init("spec_version", "s"),
        ]),
    ],
    signals: [
      .init("NotificationClosed", [.init("id", "u"), .init("reason", "u")]),
      .init("ActionInvoked", [.init("id", "u"), .init("action_key", "s")]),
      .init("ActivationToken", [.init("id", "u"), .init("activation_token", "s")]),
    ])

  /// What the server can do: only what is built.
  static let capabilities = ["actions", "body", "body-markup", "icon-static", "sound"]

  private func answer(_ method: String, _ call: BusMessage) -> BusMessage? {
    switch method {
    case "Notify":
      let request: NotificationRequest
      do {
        request = try NotificationRequest(decoding: call)
      } catch {
        return call.error(error.name, error.message)
      }
      let id = notify(request)
      return call.reply(Variant.tuple([Variant.uint32(id)]))
    case "CloseNotification":
      // An id no notification has: success and no signal, as mako and dunst
      // answer (the specification asks for an empty error).
      if let id = call.argument(0, Variant.uint32(of:)) {
        schedule(stack.close(id, reason: .closedByCall))
      }
      return call.reply()
    case "GetCapabilities":
      return call.reply(
        Variant.tuple([Variant.array("s", Self.capabilities.map(Variant.string))]))
    case "GetServerInformation":
      return call.reply(
        Variant.tuple(
          ["wl-toast", "wl-toast", Toast.version, "1.2"].map(Variant.string)))
    default:
      return nil
    }
  }

  /// Takes a notification in; returns its id.
  private func notify(_ request: NotificationRequest) -> UInt32 {
    let id = ids.assign(requested: request.replacesID) { [stack] in stack.isLive($0) }
    // An ended notification's id given again: its application hears how
    // the old one ended first.
    settleInvocations(of: id)
    var (toast, keepsHistory) = NotificationCard.card(for: request, rules: rules)
    // Do-not-disturb holds notifications back here (they wait, never end
    // unseen), and a fullscreen window delays them rather than drop them.
    toast.doNotDisturb = .show
    if toast.fullscreen == .suppress { toast.fullscreen = .delay }
    // A card never takes the keyboard by itself: `notifications focus` hands it over.
    toast.keyboard = .never
    let text =
      [request.appName, request.appIcon, request.summary, request.body]
      + request.actions.flatMap { [$0.key, $0.label] }
    let cost = 256 + 2 * text.reduce(0) { $0 + $1.utf8.count } + (toast.image?.rgba.count ?? 0)
    let entry = NotificationStack<Held>.Entry(
      id: id, appName: request.appName, stackTag: request.hints.stackTag,
      isCritical: request.hints.urgency == .critical, isTransient: request.hints.transient,
      keepsHistory: keepsHistory, cost: cost, payload: Held(request: request, toast: toast))
    // One that waits for do-not-disturb to end comes out silent.
    if stack.isHeld && request.hints.urgency != .critical {
      sounded.insert(id)
    } else {
      sounded.remove(id)
    }
    schedule(stack.notify(entry))
    return id
  }

  // MARK: - Cards

  /// Carries `effects` out in the next turn of the loop, after the answer.
  private func schedule(_ effects: [NotificationStack<Held>.Effect]) {
    guard !effects.isEmpty else { return }
    pending += effects
    guard !flushScheduled else { return }
    flushScheduled = true
    presenter.eventLoop.addTimer(after: .zero) { [weak self] in
      guard let self else { return }
      flushScheduled = false
      let effects = pending
      pending.removeAll()
      apply(effects)
    }
  }

  /// Sends the signals the calls of this turn left for the next, as the
  /// server stops (the cards they would show are about to go): a
  /// `CloseNotification` answered just before its end is still told.
  private func applyPendingSignals() {
    let effects = pending
    pending.removeAll()
    apply(
      effects.filter {
        if case .show = $0 { return false }
        return true
      })
  }

  private func apply(_ effects: [NotificationStack<Held>.Effect]) {
    for effect in effects {
      switch effect {
      case .show(let id, let tag):
        // Only while the card still has that tag: a change carried out
        // before this one (do-not-disturb, a close) may have taken it away.
        guard stack.tag(of: id) == tag, let held = stack.entry(id)?.payload else { continue }
        var toast = held.toast
        if !sounded.insert(id).inserted { toast.sound = nil }
        // A rule's output that is not there (unplugged): the card shows
        // where a card without one does, never ended unseen.
        if case .named(let name) = toast.output, !presenter.outputNames.contains(name) {
          toast.output = .automatic
        }
        // A card leaving with the tag (it expired or was dismissed a moment
        // ago) makes way, its end reported during the call: that end is not
        // the notification's, which goes on in the new card.
        showingTag = tag
        _ = presenter.showOrUpdate(accepted: toast, tag: tag)
        showingTag = nil
      case .hide(let tag):
        presenter.hide(tag: tag)
      case .closed(let id, let reason):
        sounded.remove(id)
        emit("NotificationClosed", [Variant.uint32(id), Variant.uint32(reason.rawValue)])
      }
    }
  }

  private func emit(_ member: String, _ arguments: [OpaquePointer]) {
    guard isServing, let connection else { return }
    connection.emit(
      path: Self.objectPath, interface: Self.busName, member: member,
      body: Variant.tuple(arguments))
  }

  /// An action chosen whose `ActivationToken` is on its way: its
  /// `ActionInvoked`, then the `NotificationClosed` its choice brought,
  /// wait for the token.
  private struct Invocation {
    let number: Int
    let id: UInt32
    let key: String
    let closings: [NotificationStack<Held>.Effect]
  }

  /// The invocations waiting for their tokens, oldest first.
  private var invocations: [Invocation] = []
  private var invocationsMade = 0

  /// Tells the application of `id` that the user chose its action `key`:
  /// `ActionInvoked`, preceded by `ActivationToken` when the compositor
  /// gives one for the input on the card with `tag` (so the application may
  /// raise its window), then the signals of `effects` (what the choice
  /// changed). Without a card (a notification waiting), or with no token to
  /// be had, at once.
  ///
  /// While the token is on its way (one round trip to the compositor,
  /// five seconds at most), the cards of `effects` change at once and only the
  /// signals wait; a new call with the id, or the server's end, tells them
  /// first (``settleInvocations(of:)``), so the application hears of the
  /// old notification before its id is used again or the server goes.
  private func invoke(
    _ id: UInt32, key: String, card tag: String?,
    effects: [NotificationStack<Held>.Effect] = []
  ) {
    let closings = effects.filter {
      if case .closed = $0 { return true }
      return false
    }
    invocationsMade += 1
    let number = invocationsMade
    invocations.append(Invocation(number: number, id: id, key: key, closings: closings))
    if let tag {
      presenter.requestActivationToken(tag: tag) { [weak self] token in
        self?.settle(number, token: token)
      }
    } else {
      settle(number, token: nil)
    }
    apply(effects.filter { !closings.contains($0) })
  }

  /// Tells the application of the invocation `number`, when it still waits,
  /// that its action was chosen (with `token`), then how its notification ended.
  private func settle(_ number: Int, token: String?) {
    guard let index = invocations.firstIndex(where: { $0.number == number }) else { return }
    let invocation = invocations.remove(at: index)
    if let token {
      emit("ActivationToken", [Variant.uint32(invocation.id), Variant.string(token)])
    }
    emit("ActionInvoked", [Variant.uint32(invocation.id), Variant.string(invocation.key)])
    apply(invocation.closings)
  }

  /// Tells the invocations still waiting for a token without it: those of
  /// notification `id`, or all (nil).
  private func settleInvocations(of id: UInt32? = nil) {
    for invocation in invocations where id == nil || invocation.id == id {
      settle(invocation.number, token: nil)
    }
  }

  /// Whether `tag` is a notification's card (no toast's tag can be).
  static func isCardTag(_ tag: String) -> Bool {
    tag.hasPrefix(NotificationStack<Held>.tagPrefix)
  }

  /// A button of the card with `tag` was chosen: its action is invoked;
  /// the notification ends (as dismissed) at once, its card going, unless
  /// it is resident. (At once: an application that closes its notification
  /// as it hears the action, as `notify-send --wait` does, finds it closed.)
  func buttonChosen(tag: String, button: Int) -> ButtonResponse {
    guard let id = stack.id(forTag: tag), let held = stack.entry(id)?.payload else { return .end }
    let actions = NotificationCard.buttonActions(in: held.request)
    guard actions.indices.contains(button) else { return .end }
    if held.request.hints.resident {
      invoke(id, key: actions[button].key, card: tag)
      return .stay
    }
    invoke(
      id, key: actions[button].key, card: tag,
      effects: stack.cardEnded(tag: tag, reason: .dismissed))
    return .end
  }

  /// The body of the card with `tag` was clicked (its default action): a
  /// resident notification's action is invoked and its card stays; any
  /// other card ends (activated), and ``cardEnded(tag:outcome:)`` invokes
  /// its action.
  func bodyActivated(tag: String) -> ButtonResponse {
    guard let id = stack.id(forTag: tag), let held = stack.entry(id)?.payload,
      held.request.hints.resident,
      let key = NotificationCard.defaultActionKey(in: held.request)
    else { return .end }
    invoke(id, key: key, card: tag)
    return .stay
  }

  /// The card with `tag` ended on screen as `outcome`. A click on its body
  /// (`activated`) invokes its default action, when it has one, before the
  /// notification ends as dismissed.
  func cardEnded(tag: String, outcome: ToastOutcome) {
    guard tag != showingTag else { return }
    let reason: NotificationCloseReason?
    switch outcome {
    case .expired: reason = .expired
    case .dismissed, .chose, .activated: reason = .dismissed
    case .hidden, .suppressed: reason = .other
    case .replaced: reason = nil
    }
    let id = stack.id(forTag: tag)
    let request = id.flatMap { stack.entry($0)?.payload.request }
    let effects = stack.cardEnded(tag: tag, reason: reason)
    guard outcome == .activated, let id, let request,
      let key = NotificationCard.defaultActionKey(in: request)
    else {
      apply(effects)
      return
    }
    invoke(id, key: key, card: tag, effects: effects)
  }

  /// Do-not-disturb turned on or off: non-critical notifications wait while it is on.
  func hold(_ held: Bool) {
    apply(stack.hold(held))
  }

  // MARK: - Commands

  /// The notifications as a listing found them (``list()``, ``history()``):
  /// each with whether it was on screen. The entries share their text with
  /// the server's, so a snapshot costs little whatever the bodies.
  struct Listing {
    fileprivate var listed: [(entry: NotificationStack<Held>.Entry, shown: Bool)]

    /// Each notification's object, made as it is read: a page of the list
    /// makes only its own.
    var objects: some Collection<JSONValue> {
      listed.lazy.map { NotificationServer.listed($0.entry, shown: $0.shown) }
    }
  }

  /// The notifications as `wl-toast notifications list` prints them, one
  /// object each: on screen (newest first), then waiting (a card that a
  /// fullscreen window holds back first, then the queue); the summary and
  /// body as the call gave them, cut to ``Toast/Limits/textLength``
  /// characters (``NotificationListing/page(of:from:)`` cuts an object
  /// longer than a page can hold). The owner keeps it for the command's
  /// later pages, so that they page through the list as it was.
  func list() -> Listing {
    var shown: [(entry: NotificationStack<Held>.Entry, shown: Bool)] = []
    var waiting: [(entry: NotificationStack<Held>.Entry, shown: Bool)] = []
    for entry in stack.ordered {
      if let tag = stack.tag(of: entry.id), !presenter.isWaitingToAppear(tag: tag) {
        shown.append((entry, true))
      } else {
        waiting.append((entry, false))
      }
    }
    return Listing(listed: shown + waiting)
  }

  /// A notification's object in `notifications list` and `history`: its
  /// stack tag the one it holds (a restored notification holds none).
  fileprivate static func listed(_ entry: NotificationStack<Held>.Entry, shown: Bool)
    -> JSONValue
  {
    let id = entry.id
    let request = entry.payload.request
    var actions: [String: JSONValue] = [:]
    for action in request.actions { actions[action.key] = .string(action.label) }
    return JSONValue.object([
      "id": .number(Double(id)), "app": .string(request.appName),
      "summary": .string(Toast.truncated(request.summary)),
      "body": .string(Toast.truncated(request.body)),
      "urgency": .string(request.hints.urgency.rawValue), "actions": .object(actions),
      "tag": entry.stackTag.map(JSONValue.string) ?? .null,
      "category": request.hints.category.map(JSONValue.string) ?? .null,
      "shown": .bool(shown),
    ])
  }

  /// The history as `wl-toast notifications history` prints it: the
  /// notifications that ended by expiry or by the user, newest first, each
  /// object as ``list()`` makes it (`shown` false).
  func history() -> Listing {
    Listing(listed: stack.history.entries.map { ($0, false) })
  }

  /// How many ended notifications `rules` keep: the last `max-history` of
  /// `[notifications]`, or mako's default, 5.
  private static func historyLimit(_ rules: [NotificationRule]) -> Int {
    rules.last { $0.criteria == nil && $0.maxHistory != nil }?.maxHistory ?? 5
  }

  /// Shows the newest notification of the history again, out of the history
  /// (`wl-toast notifications restore`): silent, with its id, content and
  /// actions; nothing when the history is empty.
  func restore() {
    guard let restored = stack.restore() else { return }
    sounded.insert(restored.id)
    apply(restored.effects)
  }

  /// Dismisses the notification with `id`, or all (nil); the reason it
  /// cannot, or nil.
  func dismiss(id: UInt32?) -> String? {
    guard let id else {
      // All at once: none waiting is shown on the way.
      apply(stack.closeAll(reason: .dismissed))
      return nil
    }
    guard stack.isLive(id) else { return "no notification with id \(id)" }
    apply(stack.close(id, reason: .dismissed))
    return nil
  }

  /// Invokes the action `key` (nil: the default action) of the notification
  /// with `id`, as a click would; the reason it cannot, or nil.
  func invoke(id: UInt32, action key: String?) -> String? {
    guard let held = stack.entry(id)?.payload else { return "no notification with id \(id)" }
    let request = held.request
    guard let key = key ?? NotificationCard.defaultActionKey(in: request) else {
      return "notification \(id) has no default action"
    }
    guard request.actions.contains(where: { $0.key == key }) else {
      let keys = request.actions.map { Toast.quoted($0.key) }
      return "notification \(id) has no action \(Toast.quoted(key)) (actions: "
        + (keys.isEmpty ? "none" : keys.joined(separator: ", ")) + ")"
    }
    let tag = stack.tag(of: id)
    guard !request.hints.resident else {
      invoke(id, key: key, card: tag)
      return nil
    }
    invoke(id, key: key, card: tag, effects: stack.close(id, reason: .dismissed))
    return nil
  }

  /// Hands the keyboard to the newest card with buttons, until it ends; the
  /// reason it cannot, or nil.
  func focus() -> String? {
    for entry in stack.ordered {
      guard let tag = stack.tag(of: entry.id),
        !NotificationCard.buttonActions(in: entry.payload.request).isEmpty
      else { continue }
      if presenter.focus(tag: tag) { return nil }
    }
    return "no notification with actions shows"
  }
}
