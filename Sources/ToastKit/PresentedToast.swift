import Glibc
import SystemSupport
import ToastRendering
import Wayland

/// One toast on screen: what it shows, its timeline and timers, and its layer
/// surfaces (one per output with `--output all`, otherwise one).
///
/// Surfaces come and go with outputs: a toast on the compositor's choice moves
/// to another output when its own goes away, or waits for one when none is
/// left; one pinned to a named output ends with it; one on all outputs gains
/// and loses surfaces as outputs come and go. Its timers run on throughout.
final class PresentedToast {
  private(set) var toast: Toast
  private let session: Session
  private(set) var views: [LayerView] = []
  private(set) var timeline: Timeline?
  /// The timeout's timer (restarted by updates, stopped while the timeout
  /// is paused).
  private var expiryTimer: EventLoop.Token?
  /// The timeout as the countdown line shows it: set wherever the timeout
  /// (re)starts; nil without a timeout.
  private(set) var countdown: Countdown?
  /// The timeout as it runs: its length, start and what pauses it; nil for
  /// a toast without one, or before its first frame.
  private(set) var timeout: ToastTimeout?
  /// The timer of an explicit `hide(after:)`.
  private var hideTimer: EventLoop.Token?
  /// How the toast ends, once it has started leaving (its exit animation).
  private(set) var exitOutcome: ToastOutcome?
  private var safetyTimer: EventLoop.Token?
  /// The grace time's timer, while the toast waits to appear (or the one
  /// that ends a toast fullscreen suppresses).
  private var graceTimer: EventLoop.Token?
  /// Whether the toast waits for the compositor's first list of windows to
  /// know whether a fullscreen window covers its output.
  private var awaitsWindowList = false
  /// When the first frame was committed (for the minimum show time).
  private var shownAt: MonotonicTime?
  /// The user's input: the buttons' focus and press, a bar's details.
  private var input: ToastInput
  /// Whether the toast was given the keyboard (``takeKeyboard()``): one of
  /// its surfaces holds it until the toast ends.
  private var keyboardTaken = false

  /// The labels of the buttons the toast shows, in their order (Tab's): its
  /// own, then a bar's details button (for screen readers).
  var buttonLabels: [String] {
    toast.buttons
      + (input.hasDetailsButton ? [toast.detailsButton ?? Design.Bar.detailsButton] : [])
  }

  /// The button with the keyboard focus: the focused one while the toast has
  /// the keyboard, nil otherwise (for screen readers).
  var keyboardFocus: Int? { input.keyboardFocus }

  /// Called when the keyboard focus moves to another button, and when the
  /// toast gets or loses the keyboard, with ``keyboardFocus`` (for screen readers).
  var onFocusMoved: ((Int?) -> Void)?
  /// Asked when a button of ``Toast/buttons`` is chosen: whether the toast ends.
  var onChoice: ((Int) -> ButtonResponse)?
  /// Asked when a card's body is activated: whether it ends (activated).
  var onActivate: (() -> ButtonResponse)?
  private(set) var isGone = false
  /// Whether the toast is fading out (or gone).
  var isExiting: Bool { isGone || exitOutcome != nil }
  /// Called once when the toast is gone, with how it ended, and a reason when
  /// it could not be shown (it ends as hidden). Its surfaces still exist
  /// during the call (an activation token asked for then names one), and go
  /// right after it, unless it sets ``keepsSurfaces``.
  var onGone: ((ToastOutcome, _ failure: ToastFailure?) -> Void)?
  /// Set by ``onGone`` to keep the surfaces of a toast that is gone until
  /// ``releaseSurfaces()``: nothing draws on them, nothing reaches them.
  var keepsSurfaces = false
  /// Called after each committed frame.
  var onFrame: (() -> Void)?
  /// Where its sound stands (`waiting`, `playing`, `played`, `failed`) and
  /// why it failed; nil without one (the presenter keeps it, for `status`).
  var soundState: (state: String, problem: String?)?

  /// Shows `toast`; fails at once (through `onGone`, after `start()`) when its
  /// output does not exist.
  init(toast: Toast, session: Session) {
    self.toast = toast
    self.session = session
    input = ToastInput(toast: toast)
  }

  /// Creates the surfaces (or waits for its grace time or for outputs); a
  /// toast whose named output does not exist ends as hidden with the reason.
  func start() {
    if case .named(let name) = toast.output, session.output(named: name) == nil {
      fail(.unknownOutput(name, among: session.outputNames))
      return
    }
    if let grace = toast.grace, grace > 0 {
      // Shown only if still wanted after its grace time: hidden before, never.
      graceTimer = session.loop.addTimer(after: .seconds(clamping: grace)) { [weak self] in
        guard let self else { return }
        graceTimer = nil
        appear()
      }
      return
    }
    appear()
  }

  /// Creates the surfaces, or waits for an output (the timeout counting from
  /// now) or for fullscreen to end (counting once it appears); a toast that
  /// fullscreen suppresses ends. A toast that minds fullscreen first waits
  /// for the compositor's list of windows, when it is not known yet.
  private func appear() {
    if toast.effectiveFullscreenPolicy != .show {
      session.fullscreenWindows.startWatching()
      if session.fullscreenWindows.isLearning {
        awaitsWindowList = true
        return
      }
    }
    if toast.effectiveFullscreenPolicy == .suppress && isCoveredEverywhere {
      // In the next iteration, so that whoever showed it hears the outcome as
      // of any toast's (`show` does not end the toast it makes).
      graceTimer = session.loop.addTimer(after: .zero) { [weak self] in
        self?.graceTimer = nil
        self?.finish(.suppressed)
      }
      return
    }
    syncViews()
    if views.isEmpty && !isCoveredEverywhere { scheduleHide() }
  }

  /// Whether a fullscreen window holds the toast back from `output` (nil:
  /// the compositor's choice).
  private func isHeld(on output: OutputInfo?) -> Bool {
    toast.effectiveFullscreenPolicy != .show && session.isCoveredByFullscreen(output)
  }

  /// Whether fullscreen windows cover every output the toast would show on.
  private var isCoveredEverywhere: Bool {
    switch toast.output {
    case .automatic: return isHeld(on: nil)
    case .named(let name): return isHeld(on: session.output(named: name))
    case .all:
      let described = session.outputs.filter(\.isDescribed)
      return !described.isEmpty && described.allSatisfy { isHeld(on: $0) }
    }
  }

  /// A window entered or left fullscreen (or the first list of windows came
  /// in): a toast held back appears where it no longer is.
  func fullscreenChanged() {
    guard !isGone, exitOutcome == nil, graceTimer == nil else { return }
    if awaitsWindowList {
      awaitsWindowList = false
      appear()
      onDecided?()
      return
    }
    guard toast.effectiveFullscreenPolicy != .show else { return }
    syncViews()
  }

  deinit {
    stop()
    releaseSurfaces()
  }

  /// Whether the toast waits to appear: for its grace time, for an output,
  /// or for fullscreen to end (not while it learns whether it must).
  var isWaitingToAppear: Bool { !isGone && views.isEmpty && !awaitsWindowList }
  /// Called when a toast that waited for the list of windows knows where
  /// it stands: shown, waiting for fullscreen to end, or suppressed.
  var onDecided: (() -> Void)?

  /// Makes the surfaces match the toast's output choice and the outputs there are.
  private func syncViews() {
    guard !isGone, exitOutcome == nil, graceTimer == nil, !awaitsWindowList else { return }
    let described = session.outputs.filter(\.isDescribed)
    switch toast.output {
    case .automatic:
      if views.isEmpty && !described.isEmpty && !isHeld(on: nil) { addView(on: nil) }
    case .named(let name):
      if views.isEmpty, let output = session.output(named: name), !isHeld(on: output) {
        addView(on: output)
      }
    case .all:
      for output in described
      where !views.contains(where: { $0.requestedOutput === output }) && !isHeld(on: output) {
        addView(on: output)
      }
    }
    holdKeyboardIfTaken()
  }

  /// Gives one of the surfaces (the first) the keyboard from now until the
  /// toast ends, as a key binding asks (``ToastPresenter/focus(tag:)``):
  /// false when the toast is not on screen, or is going.
  func takeKeyboard() -> Bool {
    guard !isExiting, !views.isEmpty else { return false }
    keyboardTaken = true
    holdKeyboardIfTaken()
    return true
  }

  /// A toast given the keyboard keeps it on one surface as surfaces come
  /// and go with outputs.
  private func holdKeyboardIfTaken() {
    guard keyboardTaken, !isExiting, !views.contains(where: { $0.keyboardHold == .held })
    else { return }
    views.first?.setKeyboardHold(.held)
  }

  /// A toast given the keyboard goes back to its own mode (another was given it).
  func releaseKeyboard() {
    guard keyboardTaken, !isGone else { return }
    keyboardTaken = false
    for view in views where view.keyboardHold == .held { view.setKeyboardHold(.toastsOwn) }
  }

  /// A toast that was given the keyboard gives it back (as it starts to go).
  private func giveKeyboardBack() {
    guard keyboardTaken else { return }
    for view in views where view.keyboardHold == .held { view.setKeyboardHold(.givenBack) }
  }

  /// The surface an activation token for this toast names after `press`:
  /// the one the press reached, otherwise the first; nil once the surfaces
  /// are gone.
  func activationSurface(after press: InputPress?) -> WlSurface? {
    let surfaces = views.map(\.waylandSurface)
    if let reached = press?.surface, surfaces.contains(where: { $0 === reached }) { return reached }
    return surfaces.first
  }

  private func addView(on output: OutputInfo?) {
    let view = LayerView(toast: toast, session: session, output: output, shift: 0)
    view.onClosed = { [unowned self, unowned view] in closed(view) }
    views.append(view)
  }

  /// The compositor closed a surface: its output went away (or was disabled).
  private func closed(_ view: LayerView) {
    views.removeAll { $0 === view }
    view.destroy()
    switch toast.output {
    case .named(let name):
      if let exitOutcome {
        finish(exitOutcome)
      } else {
        fail(.outputRemoved(name))
      }
    case .automatic, .all:
      if exitOutcome != nil && views.isEmpty {
        finish(exitOutcome ?? .hidden)
      } else {
        syncViews()
      }
    }
  }

  /// Outputs appeared, changed or went away.
  func outputsChanged() {
    guard !isGone else { return }
    // Surfaces on outputs that are gone: the compositor closes them too, but
    // drop them now so nothing is drawn for an output that no longer exists.
    for view in views {
      if let output = view.requestedOutput, !session.outputs.contains(where: { $0 === output }) {
        closed(view)
        if isGone { return }
      }
    }
    // Its output went away before it had a surface there (in its grace
    // time, or held back by a fullscreen window): it ends as one shown there does.
    if views.isEmpty, exitOutcome == nil, case .named(let name) = toast.output,
      session.output(named: name) == nil
    {
      fail(.outputRemoved(name))
      return
    }
    syncViews()
    for view in views { view.outputsChanged() }
  }

  /// Changes what the toast shows, in place: no new surface, no new entry
  /// animation. An update that names no output keeps the toast's.
  func update(_ newToast: Toast) {
    guard !isGone else { return }
    var newToast = newToast
    if newToast.output == .automatic { newToast.output = toast.output }
    let moved = newToast.output != toast.output
    toast = newToast
    input.toastChanged(newToast)
    if moved {
      for view in views { view.destroy() }
      views.removeAll()
      if case .named(let name) = toast.output, session.output(named: name) == nil {
        fail(.unknownOutput(name, among: session.outputNames))
        return
      }
      syncViews()
    } else {
      for view in views { view.update(newToast) }
    }
    if timeline != nil && exitOutcome == nil { scheduleHide() }
  }

  /// Starts hiding: the exit animation, then the surfaces go away. A toast
  /// still in its grace time ends without ever showing; one shown for less
  /// than its minimum show time (hidden by the program, not dismissed by the
  /// user) stays until that time is up, unless the program ends
  /// (`endingProgram`).
  func hide(_ outcome: ToastOutcome, animated: Bool = true, endingProgram: Bool = false) {
    guard !isGone, exitOutcome == nil else { return }
    if graceTimer != nil {
      finish(outcome)
      return
    }
    if outcome == .hidden, !endingProgram, let shownAt, let minimum = toast.minimumShow,
      minimum > 0
    {
      let remaining = shownAt + .seconds(clamping: minimum) - .now
      if remaining > .zero {
        hide(after: remaining, outcome: outcome)
        return
      }
    }
    exitOutcome = outcome
    cancelHideTimer()
    giveKeyboardBack()
    guard animated, var timeline, toast.isAnimated, !views.isEmpty else {
      finish(outcome)
      return
    }
    timeline.beginExit(at: session.clock())
    self.timeline = timeline
    for view in views { view.setNeedsDraw() }
    // Frame callbacks drive the fade; the timer ends it even if none come (a
    // compositor that stops sending frame callbacks for a hidden output).
    let exit = Duration.seconds(clamping: timeline.exitDuration)
    safetyTimer = session.loop.addTimer(after: exit + Self.frameCallbackGrace) { [weak self] in
      self?.finish(outcome)
    }
  }

  /// How long past the end of its exit a toast waits for frame callbacks
  /// before it goes without them.
  static let frameCallbackGrace: Duration = .milliseconds(500)

  /// Hides after `delay` (replacing an earlier `hide(after:)`).
  func hide(after delay: Duration, outcome: ToastOutcome) {
    if let hideTimer { session.loop.remove(hideTimer) }
    hideTimer = session.loop.addTimer(after: max(.zero, delay)) { [weak self] in
      self?.hide(outcome)
    }
  }

  /// (Re)starts the timeout, counted from the end of the entry, or from now
  /// while the toast waits for an output; paused at once by what holds
  /// the toast now (the user idle, the pointer or a finger on it).
  private func scheduleHide() {
    let length = toast.effectiveTimeout
    guard length > .zero else {
      timeout = nil
      countdown = nil
      armExpiry()
      return
    }
    let now = session.clock()
    var pauses: Set<ToastTimeout.PauseReason> = []
    if isIdleNow { pauses.insert(.idle) }
    if input.pointerOnBox { pauses.insert(.pointer) }
    if input.fingerOnBox { pauses.insert(.touch) }
    timeout = ToastTimeout(
      length: length.inSeconds, startingAt: max(timeline?.restingAt ?? now, now), pauses: pauses)
    startCountdown(length: length)
    if !pauses.isEmpty { countdownPaused(at: now) }
    armExpiry()
  }

  /// Sets the timer for the timeout's deadline; none while it is paused.
  private func armExpiry() {
    if let expiryTimer { session.loop.remove(expiryTimer) }
    expiryTimer = nil
    guard let deadline = timeout?.deadline else { return }
    let delay = Duration.seconds(clamping: deadline - session.clock())
    expiryTimer = session.loop.addTimer(after: max(.zero, delay)) { [weak self] in
      self?.hide(.expired)
    }
  }

  /// The countdown of a timeout of `length` that starts now, or when the
  /// entry ends: full, and running (a timeout that starts paused says so
  /// with ``countdownPaused(at:)``).
  private func startCountdown(length: Duration) {
    let now = session.clock()
    countdown = Countdown(length: length.inSeconds, startedAt: max(now, timeline?.restingAt ?? now))
    redrawCountdown()
  }

  /// The timeout paused at `time` (the animation clock's): the countdown
  /// line stops where it is, and no frames are drawn for it until
  /// ``countdownRestarted(at:)``. The timeout's own timer is the caller's.
  func countdownPaused(at time: Double) {
    guard countdown?.isPaused == false else { return }
    countdown?.pause(at: time)
    redrawCountdown()
  }

  /// The timeout started again at its full length at `time` (a pause
  /// ended): the countdown line is full and shrinks again.
  func countdownRestarted(at time: Double) {
    guard countdown != nil else { return }
    countdown?.restart(at: time)
    redrawCountdown()
  }

  /// Marks the surfaces for a frame when the toast shows a countdown line
  /// (one without draws no frame for it).
  private func redrawCountdown() {
    guard toast.drawsCountdown else { return }
    for view in views { view.setNeedsDraw() }
  }

  /// `reason` holds the timeout or lets it go (from its full length, once
  /// nothing holds it).
  private func hold(_ reason: ToastTimeout.PauseReason, _ holds: Bool) {
    guard !isExiting, var timeout else { return }
    let change = timeout.set(reason, holds, at: session.clock())
    self.timeout = timeout
    guard let change else { return }
    switch change {
    case .paused: countdownPaused(at: session.clock())
    case .restarted: countdownRestarted(at: timeout.startedAt)
    }
    armExpiry()
  }

  /// The idle threshold that pauses this toast's timeout, in seconds; nil
  /// when none does (0, or a critical toast).
  private var idleThreshold: Double? {
    let seconds = toast.idleThreshold ?? Toast.standardIdleThreshold
    return seconds > 0 && toast.urgency != .critical ? seconds : nil
  }

  /// Whether the user is idle past the toast's threshold, watching from now
  /// on when no toast has asked for it before.
  private var isIdleNow: Bool {
    guard let idleThreshold else { return false }
    return session.isIdle(after: idleThreshold) ?? false
  }

  /// The user went idle (or came back) for a threshold in milliseconds:
  /// a toast with that threshold pauses (or starts its timeout again).
  func idleChanged(milliseconds: UInt32, isIdle: Bool) {
    guard let idleThreshold, IdleWatch.milliseconds(idleThreshold) == milliseconds else { return }
    hold(.idle, isIdle)
  }

  private func cancelHideTimer() {
    for timer in [hideTimer, expiryTimer].compactMap({ $0 }) { session.loop.remove(timer) }
    hideTimer = nil
    expiryTimer = nil
  }

  /// Input on one of this toast's surfaces.
  func handle(_ event: InputEvent, on surface: WlSurface) {
    guard !isGone, exitOutcome == nil, let view = views.first(where: { $0.owns(surface) })
    else { return }
    respond(to: input.handle(event, layout: view.layout, now: session.clock()))
    hold(.pointer, input.pointerOnBox)
    hold(.touch, input.fingerOnBox)
  }

  /// Chooses `button` (its index among ``buttonLabels``) as a click on it
  /// does: a screen reader's action on it. Nothing happens once the toast is
  /// going, or for a button it does not show.
  func activate(button: Int) {
    guard !isGone, exitOutcome == nil else { return }
    respond(to: input.activate(button: button, now: session.clock()))
  }

  /// Clicks a card's body as a screen reader's action on the card does: a
  /// left click is its default action, a right click (`secondary`)
  /// dismisses it. Nothing happens once the toast is going, or to a toast
  /// that is no card.
  func clickBody(secondary: Bool) {
    guard !isGone, exitOutcome == nil else { return }
    respond(to: input.clickBody(secondary: secondary))
  }

  /// Does what the input asks: draws again, tells screen readers where the
  /// focus is, ends the toast with a chosen button, as dismissed or as a
  /// card's default action, opens a bar's details.
  private func respond(to response: InputResponse) {
    if response.redraws { for view in views { view.setNeedsDraw() } }
    switch response.action {
    case nil: break
    case .focusMoved: onFocusMoved?(keyboardFocus)
    case .chose(let button):
      if onChoice?(button) ?? .end == .end { hide(.chose(button: button)) }
    case .detailsToggled(let open):
      // Opening: the surface takes the details' size first, then they open in it.
      if open { for view in views { view.setDetailsOpen(true) } }
      for view in views { view.setNeedsDraw() }
    case .dismiss: hide(.dismissed)
    case .activate: if onActivate?() ?? .end == .end { hide(.activated) }
    }
  }

  /// Whether `object` is one of this toast's surfaces.
  func owns(_ object: WlSurface) -> Bool { views.contains { $0.owns(object) } }

  /// Draws a frame on every surface that needs one.
  func drawIfNeeded() {
    guard !isGone, !views.isEmpty else { return }
    let now = session.clock()
    if let timeline, timeline.isFinished(at: now), let exitOutcome {
      finish(exitOutcome)
      return
    }
    let timeline =
      self.timeline ?? Timeline(style: toast.style, animated: toast.isAnimated, shownAt: now)
    var appearance = timeline.appearance(at: now)
    let line = Countdown.line(of: countdown, shown: toast.drawsCountdown, at: now)
    appearance.countdown = line.remaining
    let details = input.advanceDetails(at: now)
    // Closed: the surface gives their room back.
    if details.closed { for view in views { view.setDetailsOpen(false) } }
    let moving =
      timeline.isMoving(at: now) || toast.showsSpinner && toast.style == .hud || details.moving
      || line.moving
    let interaction = input.interaction(at: now)
    var committed = false
    for view in views {
      switch view.draw(
        toast, appearance: appearance, buttons: interaction, moving: moving, now: now)
      {
      case .idle: break
      case .committed: committed = true
      case .failed(let reason):
        // No buffer for this toast (too large, no shared memory): it alone ends.
        fail(.cannotDraw(reason))
        return
      }
    }
    guard committed else { return }
    if shownAt == nil { shownAt = .now }
    if self.timeline == nil {
      self.timeline = timeline
      scheduleHide()
    }
    onFrame?()
  }

  /// Ends the toast because it cannot be shown; the others stay.
  private func fail(_ reason: ToastFailure) {
    end(.hidden, failure: reason)
  }

  private func finish(_ outcome: ToastOutcome) {
    end(outcome, failure: nil)
  }

  /// The toast is gone: its timers stop, ``onGone`` hears how it ended, then
  /// its surfaces go (unless ``keepsSurfaces``).
  private func end(_ outcome: ToastOutcome, failure: ToastFailure?) {
    guard !isGone else { return }
    stop()
    giveKeyboardBack()
    onGone?(outcome, failure)
    if !keepsSurfaces { releaseSurfaces() }
  }

  /// Destroys the surfaces of a toast that is gone.
  func releaseSurfaces() {
    for view in views { view.destroy() }
    views.removeAll()
  }

  /// Marks the toast gone and stops its timers.
  private func stop() {
    isGone = true
    cancelHideTimer()
    if let safetyTimer { session.loop.remove(safetyTimer) }
    if let graceTimer { session.loop.remove(graceTimer) }
    graceTimer = nil
  }
}
