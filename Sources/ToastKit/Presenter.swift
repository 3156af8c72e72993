import SystemSupport
import ToastAccessibility
import ToastRendering
import Wayland

/// Toasts that share a stack: one position of one output.
private struct StackKey: Hashable {
  var output: ObjectIdentifier?
  var position: Toast.Position
}

/// Why a toast could not be shown, in one line a user can act on.
public struct ToastError: Error, CustomStringConvertible {
  /// The message.
  public let description: String
  /// The compositor-level error behind it, when there is one.
  public let underlying: WaylandError?

  init(_ error: WaylandError) {
    description = error.description
    underlying = error
  }
}

/// Shows toasts on a Wayland compositor: the public face of ToastKit.
///
/// Toasts are grouped by tag: one toast per tag is on screen at a time, and
/// showing another with the same tag replaces it, as a singleton message box
/// would. Different tags show side by side. Everything runs on the calling
/// thread, in the presenter's event loop.
///
/// Screen readers hear each toast as it appears and as it changes (see
/// ``ToastModel/Toast/accessibility`` and ``ToastModel/Toast/accessibleText``):
/// the presenter is an AT-SPI application with a notification per toast and
/// a push button per button (focused as Tab moves, pressed by the screen
/// reader's action as by a click), connected to the accessibility bus only
/// while a screen reader is on. It looks for one only after its first frame
/// is on screen, and never with `announcesToScreenReaders: false`.
///
/// A toast's sound (``ToastModel/Toast/sound``) plays after its first
/// frame, through libcanberra on a thread of the presenter's own, loaded at
/// the first sound; why one cannot play reaches ``onSoundProblem``.
///
/// ```swift
/// let presenter = try ToastPresenter()
/// presenter.show(Toast("Saved"))
/// let outcome = try presenter.runUntilHidden()
/// ```
public final class ToastPresenter {
  private let session: Session
  private var surfaces: [String: PresentedToast] = [:]
  /// The order toasts appeared in, which is their order in a stack.
  private var appearance: [ObjectIdentifier: Int] = [:]
  private var appeared = 0
  private var lastOutcome: ToastOutcome?
  /// How many activation tokens are on their way for each toast (by its
  /// number in ``appearance``).
  private var tokensOnTheWay: [Int: Int] = [:]
  /// Toasts gone while tokens asked for them were on their way: their
  /// completion waits for those tokens, their surfaces with it.
  private var heldEnds: [Int: (toast: PresentedToast, report: () -> Void)] = [:]
  /// The toasts whose completion (or failure) is being reported, by tag:
  /// an activation token asked for in the handler names their surface.
  private var ending: [String: (toast: PresentedToast, number: Int)] = [:]
  /// Toasts still leaving whose tag a newer toast took (``makeWay(forTag:)``),
  /// by the key they are kept under in ``surfaces`` until gone (drawn,
  /// stacked and waited for as any): their end was reported when the newer
  /// one came, and is not again.
  private var leavingKeys: [ObjectIdentifier: String] = [:]
  private var leavingCount = 0
  /// What the keys of toasts kept by ``leavingKeys`` start with; no tag does.
  private static let leavingPrefix = "\u{0}leaving "
  /// Tells screen readers about the toasts; nil when the program said not to.
  package let announcer: ScreenReaderAnnouncer?
  private var announcerStarting = false
  /// Called whenever a toast ends, with its tag and how it ended.
  public var onCompletion: ((_ tag: String, _ outcome: ToastOutcome) -> Void)?
  /// Asked when the user chooses a button of a toast (its index in
  /// ``ToastModel/Toast/buttons``), before anything else happens: whether the toast ends
  /// with ``ToastModel/ToastOutcome/chose(button:)`` (`.end`, and without this handler)
  /// or stays (`.stay`: a button that does something and leaves the toast up,
  /// as swaynag's `--button` does).
  public var onButton: ((_ tag: String, _ button: Int) -> ButtonResponse)?
  /// Asked when the user clicks or taps a card's body (its default action,
  /// by pointer, touch or a screen reader's action): whether the card ends
  /// with ``ToastModel/ToastOutcome/activated`` (`.end`, and without this
  /// handler) or stays (`.stay`: a resident notification's).
  public var onActivate: ((_ tag: String) -> ButtonResponse)?
  /// Called after any toast committed a frame, with its tag (for benchmarks).
  package var onFrame: ((String) -> Void)?
  /// Called when a toast's sound (``ToastModel/Toast/sound``) cannot play,
  /// with its tag and why, in one line: no sound server (`no sound server
  /// at /run/user/1000/pulse/native`), a name the sound theme lacks, a file
  /// that is no sound. The toast shows all the same. A sound file that is
  /// missing, a directory, a FIFO or too large is found before the toast
  /// shows: the call that showed it returns ``ToastWarning/soundLeftOut(_:)``.
  public var onSoundProblem: ((_ tag: String, _ problem: String) -> Void)?
  /// Called when a toast's sound starts playing, with its tag (for the
  /// owner's trace).
  package var onSoundStarted: ((String) -> Void)?
  /// Called when a toast's sound is settled: it played, it failed (why), or
  /// it was given up on (``soundPatience``), or its toast went before it
  /// started; with its tag, and whether the toast showing with the tag is
  /// the one it was played for (for the owner's waiting commands).
  package var onSoundSettled: ((_ tag: String, _ problem: String?, _ ofShownToast: Bool) -> Void)?
  /// Plays the toasts' sounds; made at the first sound, so that a program
  /// whose toasts have none loads nothing for them.
  private var sounds: SoundPlayer?
  /// The sounds asked for and not settled yet, by number.
  private var soundsInFlight: [Int: SoundRequest] = [:]
  private var soundsAsked = 0
  /// Why the sound of a tag's last toast failed, once that toast has gone,
  /// until a toast with the tag shows again (for `wl-toast status`).
  private var lastSoundProblems: [String: String] = [:]

  /// How long a sound is waited for: to start (then it failed, `the sound
  /// server did not answer`), and to end once started (then it is no
  /// longer waited for).
  package static let soundPatience = (start: Duration.seconds(5), end: Duration.seconds(10))

  /// Whether a sound was asked for and has not settled (at most
  /// ``soundPatience``): an owner stays for it.
  package var hasSoundsInFlight: Bool { !soundsInFlight.isEmpty }

  /// Whether a sound of a toast with `tag` has not settled.
  package func hasSoundInFlight(tag: String) -> Bool {
    soundsInFlight.values.contains { $0.tag == tag }
  }
  /// Called when a toast that waited for the compositor's list of windows
  /// (its ``ToastModel/Toast/fullscreen`` policy asks) knows where it
  /// stands: about to show, waiting for fullscreen to end
  /// (``isWaitingToAppear(tag:)``), or gone as suppressed.
  package var onDecided: ((String) -> Void)?

  /// Do-not-disturb: while `.on`, only critical toasts show. Turning it on
  /// ends the others on screen (they fade out, ``ToastModel/ToastOutcome/suppressed``);
  /// a toast shown while it is on does not appear, and the call returns
  /// ``ToastWarning/suppressed``. Off by default: a program (or the owner of
  /// `wl-toast`'s toasts, from `wl-toast dnd`) sets it.
  public var doNotDisturb: DoNotDisturb = .off {
    didSet {
      for surface in surfaces.values where doNotDisturb.silences(surface.toast) {
        surface.hide(.suppressed)
      }
    }
  }
  /// Called when a toast ends without being shown to its end, with its tag
  /// and why (its output does not exist or went away, it cannot be drawn),
  /// before its completion (as hidden); the other toasts stay.
  public var onFailure: ((_ tag: String, _ failure: ToastFailure) -> Void)?

  /// Connects to the compositor named by `display` (a socket name or path), or by
  /// `WAYLAND_DISPLAY`, and binds what toasts need.
  ///
  /// With `announcesToScreenReaders` false the presenter never tells screen
  /// readers anything (for a program that announces its toasts itself).
  ///
  /// - Throws: ``ToastError`` when there is no compositor, or it lacks wlr-layer-shell.
  public convenience init(display: String? = nil, announcesToScreenReaders: Bool = true)
    throws(ToastError)
  {
    try self.init(
      display: display, layerShellVersion: nil,
      announcesToScreenReaders: announcesToScreenReaders)
  }

  /// Connects binding wlr-layer-shell at most at `layerShellVersion`, as an
  /// older compositor would offer it (for tests).
  package init(
    display: String?, layerShellVersion: UInt32?, announcesToScreenReaders: Bool = true
  ) throws(ToastError) {
    // Pango's font set-up runs in its own thread while the compositor answers.
    TextBlock.startFontSetUp()
    do {
      session = try Session(displayName: display, layerShellVersion: layerShellVersion)
    } catch {
      throw ToastError(error)
    }
    announcer =
      announcesToScreenReaders
      ? ScreenReaderAnnouncer(loop: session.loop, version: Toast.version) : nil
    // A screen reader's action on a button chooses it as a click does; one
    // on a card clicks its body.
    announcer?.onAction = { [unowned self] id, action in
      guard let surface = surfaces.values.first(where: { appearance[ObjectIdentifier($0)] == id })
      else { return }
      switch action {
      case .button(let button): surface.activate(button: button)
      case .activate: surface.clickBody(secondary: false)
      case .dismiss: surface.clickBody(secondary: true)
      }
    }
    session.onInput = { [unowned self] surface, event in
      surfaces.values.first { $0.owns(surface) }?.handle(event, on: surface)
    }
    session.onOutputsChanged = { [unowned self] in
      for surface in surfaces.values { surface.outputsChanged() }
    }
    session.fullscreenWindows.onChange = { [unowned self] in
      for surface in surfaces.values { surface.fullscreenChanged() }
    }
    session.idleWatch.onChange = { [unowned self] milliseconds, isIdle in
      for surface in surfaces.values {
        surface.idleChanged(milliseconds: milliseconds, isIdle: isIdle)
      }
    }
    session.loop.beforeSleep = { [unowned self] in
      passDeadline = nil
      readDuringPass = false
      restack()
      for (index, surface) in surfaces.values.enumerated() {
        surface.drawIfNeeded()
        sendAsItGoes(index)
      }
      startAnnouncerWhenDrawn()
      // Events read while sending (a frame's done, a configure) ask for a
      // draw this pass did not make: the loop turns again at once for it.
      if readDuringPass { session.loop.addTimer(after: .zero) {} }
    }
    session.loop.onSignal = { [unowned self] _ in
      if surfaces.isEmpty {
        session.loop.stop()
      } else {
        hideAllAtOnce()
      }
    }
  }

  /// The event loop the presenter runs in; add timers or file descriptors to it.
  public var eventLoop: EventLoop { session.loop }

  /// The presenter's connection to the compositor (for the owner's watchers,
  /// which bind globals of their own on it).
  package var display: Display { session.display }

  /// The clock that animations (entries, exits, stack moves, a bar's
  /// details) read, in seconds: the monotonic clock unless a test sets its
  /// own, to draw a frame of an animation at an instant it chooses. Timeouts
  /// run on the event loop's timers whatever it says.
  package var animationClock: () -> Double {
    get { session.clock }
    set { session.clock = newValue }
  }

  /// Whether any toast is on screen (or still fading out).
  public var isPresenting: Bool { !surfaces.isEmpty }

  /// Whether a toast with `tag` is on screen (or still fading out).
  public func isPresenting(tag: String) -> Bool { surfaces[tag] != nil }

  /// Whether the toast with `tag` is leaving (its exit animation runs): new
  /// content for the tag shows as a new toast, not as an update.
  package func isLeaving(tag: String) -> Bool { surfaces[tag]?.isExiting ?? false }

  /// The tags of the toasts on screen (not those of toasts leaving whose
  /// tag a newer toast took).
  public var tags: [String] { surfaces.keys.filter { !$0.hasPrefix(Self.leavingPrefix) }.sorted() }

  /// How many toasts this presenter has created surfaces for (in-place
  /// updates create none).
  package private(set) var surfacesCreated = 0

  /// The names of the outputs (`DP-1`, `HEADLESS-2`), which
  /// ``ToastModel/Toast/OutputChoice/named(_:)`` takes.
  public var outputNames: [String] { session.outputNames }

  /// How the surfaces of the toast with `tag` were last drawn: output, scale,
  /// logical and buffer sizes (for `wl-toast status` and tests).
  package func drawnSurfaces(tag: String) -> [DrawnSurface] {
    surfaces[tag]?.views.compactMap(\.drawn) ?? []
  }

  /// Where the sound of the toast with `tag` stands (`waiting` for its
  /// first frame, `playing`, `played` or `failed`) and, when it failed, why;
  /// nil when it has none or no such toast shows (for `wl-toast status`).
  package func soundState(tag: String) -> (state: String, problem: String?)? {
    guard let surface = surfaces[tag] else { return lastSoundProblems[tag].map { ("failed", $0) } }
    return surface.soundState
  }

  /// Whether the toast with `tag` waits to appear: for its grace time to
  /// pass, or for an output (none is connected, or its own went away and no
  /// other is left).
  package func isWaitingToAppear(tag: String) -> Bool {
    surfaces[tag]?.isWaitingToAppear ?? false
  }

  /// Why a toast for `output` cannot show, or nil when it can: a named output
  /// that does not exist (with the outputs that do).
  public func problem(with output: Toast.OutputChoice) -> ToastFailure? {
    guard case .named(let name) = output, session.output(named: name) == nil else { return nil }
    return .unknownOutput(name, among: session.outputNames)
  }

  /// Why the presenter refuses `toast` (``show(_:tag:)`` and the other calls
  /// return it as ``ToastWarning/refused(_:)``), or nil when it does not: a
  /// message marked as markup that is not valid Pango markup.
  public static func refusal(of toast: Toast) -> ToastRefusal? {
    guard toast.isMarkup, let problem = TextBlock.markupError(toast.text) else { return nil }
    return .invalidMarkup(problem)
  }

  /// The toast on screen with `tag`, if any.
  public func toast(tag: String = Toast.defaultTag) -> Toast? { surfaces[tag]?.toast }

  /// Shows `toast` as a new toast: the one on screen with `tag` ends at once
  /// (`ToastOutcome.replaced`) and the new one enters. A banner shown over a
  /// banner is the exception, as in its design: it takes the new text and width
  /// without sliding in again.
  ///
  /// - Returns: What of the toast cannot be shown (its icon); it shows without
  ///   it. Or why it does not show at all: refused (see ``refusal(of:)``), or
  ///   suppressed.
  @discardableResult
  public func show(_ toast: Toast, tag: String = Toast.defaultTag) -> [ToastWarning] {
    if let refusal = Self.refusal(of: toast) { return [.refused(refusal)] }
    if doNotDisturb.silences(toast) { return suppressed() }
    let (toast, warnings) = showable(toast.normalized())
    if let current = surfaces[tag], !current.isExiting, current.toast.style == .banner,
      toast.style == .banner, current.toast.isModal == toast.isModal
    {
      current.update(toast)
      announceChange(of: current)
      noteLeftOutSound(warnings, of: current)
      // A new toast, though shown in the banner's surface: it sounds.
      if current.timeline != nil { playSound(of: current, tag: tag) }
      return warnings
    }
    makeWay(forTag: tag)
    present(toast, tag: tag, warnings: warnings)
    return warnings
  }

  /// Makes way for a new toast with `tag`: the one showing goes at once
  /// (replaced). One already leaving (its exit animation running: it
  /// expired, or was dismissed, a moment ago) goes on leaving, but is no
  /// longer the tag's: its end is reported now, as it ended (a button
  /// chosen stays chosen), and not again once it is gone, so that the new
  /// toast's end is the only one the tag reports from now on.
  private func makeWay(forTag tag: String) {
    guard let current = surfaces[tag] else { return }
    guard current.isExiting else {
      current.hide(.replaced, animated: false)
      return
    }
    leavingCount += 1
    let key = Self.leavingPrefix + String(leavingCount)
    surfaces[tag] = nil
    surfaces[key] = current
    leavingKeys[ObjectIdentifier(current)] = key
    let outcome = current.exitOutcome ?? .replaced
    lastOutcome = outcome
    onCompletion?(tag, outcome)
  }

  /// Changes the toast on screen with `tag` to `toast` in place (no new surface,
  /// no entry animation, the timeout starts again), or shows `toast` as new when
  /// none is on screen: what a key held down wants.
  ///
  /// - Returns: What of the toast cannot be shown (its icon); it shows without
  ///   it. Or why it does not show at all: refused (see ``refusal(of:)``; the
  ///   toast on screen stays as it is), or suppressed.
  @discardableResult
  public func showOrUpdate(_ toast: Toast, tag: String = Toast.defaultTag) -> [ToastWarning] {
    if let refusal = Self.refusal(of: toast) { return [.refused(refusal)] }
    return showOrUpdate(accepted: toast, tag: tag)
  }

  /// ``showOrUpdate(_:tag:)`` of a toast ``refusal(of:)`` has accepted
  /// already (the owner asks first, to answer before anything else).
  package func showOrUpdate(accepted toast: Toast, tag: String) -> [ToastWarning] {
    if doNotDisturb.silences(toast) { return suppressed() }
    let (toast, warnings) = showable(toast.normalized())
    if let current = surfaces[tag], !current.isExiting {
      current.update(toast)
      announceChange(of: current)
      updated(current, tag: tag, warnings: warnings)
    } else {
      makeWay(forTag: tag)
      present(toast, tag: tag, warnings: warnings)
    }
    return warnings
  }

  /// Changes the toast on screen with `tag` in place (text, progress, spinner,
  /// timeout…); does nothing when none is on screen.
  ///
  /// - Returns: What of the changed toast cannot be shown (its icon); or why
  ///   it is refused (see ``refusal(of:)``: the toast stays as it was).
  @discardableResult
  public func update(tag: String = Toast.defaultTag, _ change: (inout Toast) -> Void)
    -> [ToastWarning]
  {
    guard let current = surfaces[tag], !current.isExiting else { return [] }
    var toast = current.toast
    change(&toast)
    if let refusal = Self.refusal(of: toast) { return [.refused(refusal)] }
    if doNotDisturb.silences(toast) {
      current.hide(.suppressed)
      return [.suppressed]
    }
    let (shown, warnings) = showable(toast.normalized())
    current.update(shown)
    announceChange(of: current)
    updated(current, tag: tag, warnings: warnings)
    return warnings
  }

  /// A toast do-not-disturb holds back: nothing changes on screen, and
  /// ``runUntilHidden()`` says so.
  private func suppressed() -> [ToastWarning] {
    if surfaces.isEmpty { lastOutcome = .suppressed }
    return [.suppressed]
  }

  /// `toast`, or when its icon cannot be shown (not found, unreadable,
  /// corrupt), `toast` without it and the warning that says why. The icon is
  /// loaded at the highest scale of the outputs, which the first frame draws
  /// at, so that the frame finds it loaded.
  /// A sound file that cannot be played (``SoundPlayer/problem(with:)``)
  /// is left out the same way.
  private func showable(_ toast: Toast) -> (Toast, [ToastWarning]) {
    var shown = toast
    var warnings: [ToastWarning] = []
    if let sound = toast.sound, let problem = SoundPlayer.problem(with: sound) {
      shown.sound = nil
      warnings.append(.soundLeftOut(problem + "; the toast shows without it"))
    }
    guard toast.icon != nil else { return (shown, warnings) }
    let scale = session.outputs.map(\.renderScale).max() ?? .one
    guard let problem = toast.iconProblem(scale: scale.factor) else { return (shown, warnings) }
    shown.icon = nil
    return (shown, [.iconLeftOut(problem)] + warnings)
  }

  /// A toast on screen changed in place: its sound plays again when it
  /// asks (``ToastModel/Toast/soundOnUpdate``), once it has had a first
  /// frame (before that, the first frame plays it).
  private func updated(_ surface: PresentedToast, tag: String, warnings: [ToastWarning]) {
    noteLeftOutSound(warnings, of: surface)
    if surface.toast.soundOnUpdate && surface.timeline != nil {
      playSound(of: surface, tag: tag)
    }
  }

  /// A sound left out of `surface`'s toast (``showable(_:)``) is what
  /// `status` says of its sound.
  private func noteLeftOutSound(_ warnings: [ToastWarning], of surface: PresentedToast) {
    for case .soundLeftOut(let problem) in warnings { surface.soundState = ("failed", problem) }
  }

  /// Plays the sound of `surface`'s toast, if it has one, in the next
  /// iteration of the loop: after the frame just committed has gone to the
  /// compositor (the sound never delays a frame). The player's thread does
  /// the rest; problems come back through ``onSoundProblem``.
  private func playSound(of surface: PresentedToast, tag: String) {
    guard surface.toast.sound != nil else { return }
    surface.soundState = ("waiting", nil)
    soundsAsked += 1
    let number = soundsAsked
    let request = SoundRequest(tag: tag, surface: surface)
    soundsInFlight[number] = request
    session.loop.addTimer(after: .zero) { [weak self, weak surface] in
      guard let self else { return }
      guard let surface, let sound = surface.toast.sound else {
        settleSound(number, problem: nil)
        return
      }
      let player = sounds ?? SoundPlayer(loop: session.loop)
      sounds = player
      let description = surface.toast.accessibleText ?? surface.toast.text
      request.id = player.play(sound, description: description) { [weak self] event in
        guard let self else { return }
        switch event {
        case .started:
          request.started = true
          request.surface?.soundState = ("playing", nil)
          onSoundStarted?(tag)
        case .finished:
          request.surface?.soundState = ("played", nil)
          settleSound(number, problem: nil)
        case .failed(let problem):
          request.surface?.soundState = ("failed", problem)
          settleSound(number, problem: problem)
        }
      }
    }
    // A server that does not answer: given up on, the owner free to go.
    session.loop.addTimer(after: Self.soundPatience.start) { [weak self] in
      guard let self, soundsInFlight[number] != nil else { return }
      guard request.started else {
        let seconds = Self.soundPatience.start.components.seconds
        let problem = "the sound server did not answer within \(seconds) s"
        request.surface?.soundState = ("failed", problem)
        settleSound(number, problem: problem)
        return
      }
      session.loop.addTimer(after: Self.soundPatience.end - Self.soundPatience.start) {
        [weak self] in self?.settleSound(number, problem: nil)
      }
    }
  }

  /// Sound `number` is settled (once): its problem reaches ``onSoundProblem``
  /// while its toast shows, else `status` keeps it while no toast has the tag.
  private func settleSound(_ number: Int, problem: String?) {
    guard let request = soundsInFlight.removeValue(forKey: number) else { return }
    if let id = request.id { sounds?.forget(id) }
    let tag = request.tag
    let shown = request.surface != nil && surfaces[tag] === request.surface
    if let problem {
      if shown {
        onSoundProblem?(tag, problem)
      } else if surfaces[tag] == nil {
        lastSoundProblems[tag] = problem
      }
    }
    onSoundSettled?(tag, problem, shown)
  }

  /// The sounds of `surface`, gone, that the player's thread has not come
  /// to yet: withdrawn (settled, without a problem).
  private func withdrawSounds(of surface: PresentedToast) {
    for (number, request) in soundsInFlight where request.surface === surface {
      guard let id = request.id, !request.started, sounds?.withdraw(id) == true else { continue }
      settleSound(number, problem: nil)
    }
  }

  /// Hides the toast with `tag`, fading it out unless `animated` is false.
  public func hide(tag: String = Toast.defaultTag, animated: Bool = true) {
    surfaces[tag]?.hide(.hidden, animated: animated)
  }

  /// Takes every toast away now, as hidden: without their exit animation,
  /// or what is left of their minimum show time (the program ends).
  package func hideAllAtOnce() {
    for surface in surfaces.values { surface.hide(.hidden, animated: false, endingProgram: true) }
  }

  /// Hides the toast with `tag` after `delay` (a later call replaces the delay).
  public func hide(tag: String = Toast.defaultTag, after delay: Duration) {
    surfaces[tag]?.hide(after: delay, outcome: .hidden)
  }

  /// Asks the compositor for an activation token (xdg_activation_v1) on
  /// behalf of the toast with `tag`, for the input the user gave it last:
  /// what a program answered through the toast passes on, so that its
  /// window may come to the front (a notification's `ActivationToken`).
  ///
  /// The token names the serial of the latest press of a pointer button, a
  /// finger or a key, with its seat, and the toast's surface that press
  /// reached (when that surface has the seat's keyboard focus: wlroots makes
  /// a token that cannot be used for a surface without it). Whether the
  /// token lets a window come forward is the compositor's choice. Nothing is
  /// bound for it before the first call.
  ///
  /// `completion` gets the token from the event loop (this call never waits
  /// for it), or nil: at once, during this call, when the compositor offers
  /// no xdg_activation_v1 or no toast with `tag` has a surface (gone, or not
  /// yet on screen); later when the compositor gives none within five seconds.
  ///
  /// Ask in ``onButton`` (a button chosen by click, touch, key or a screen
  /// reader's action) or in ``onCompletion`` (how the toast ended, as a
  /// click on it): the toast's surface is still there in both. The
  /// completions of tokens asked for a toast run before that toast's own
  /// ``onFailure`` and ``onCompletion``: asked in ``onButton``, the token and
  /// what the button does come before the toast's end is reported, even for
  /// a toast that ends at once (without its exit animation).
  public func requestActivationToken(
    tag: String, completion: @escaping (_ token: String?) -> Void
  ) {
    let press = session.lastPress
    guard
      let (toast, number) = ending[tag]
        ?? surfaces[tag].flatMap({ toast in
          appearance[ObjectIdentifier(toast)].map { (toast, $0) }
        }),
      let surface = toast.activationSurface(after: press)
    else {
      completion(nil)
      return
    }
    let named = press.map { session.hasKeyboardFocus(surface, of: $0.seat) } ?? true
    let asked = session.activationTokens.request(press: press, surface: named ? surface : nil) {
      [weak self] token in
      completion(token)
      self?.tokenFinished(for: number)
    }
    guard asked else {
      completion(nil)
      return
    }
    tokensOnTheWay[number, default: 0] += 1
  }

  /// Gives the toast with `tag` the keyboard until it ends, as a key bound
  /// to "answer the notification" asks: Tab, Shift+Tab and the arrows move
  /// between its buttons, Enter or space chooses one, Escape dismisses it,
  /// and screen readers hear the focused button. A toast takes the keyboard
  /// by itself only as ``ToastModel/Toast/keyboard`` says.
  ///
  /// Its layer surface (the first, on all outputs) asks for the keyboard
  /// exclusively, the one mode that makes the compositor hand it over at
  /// once on every layer-shell version (sway gives an on-demand surface the
  /// keyboard only at a click, KWin 5.27 has no on-demand); the toast gives
  /// it back (none) as it starts to go. A toast given the keyboard earlier
  /// goes back to its own mode: one toast holds it at a time.
  ///
  /// - Returns: false when no toast with `tag` is on screen (or it is going);
  ///   the keyboard stays where it was.
  @discardableResult
  public func focus(tag: String) -> Bool {
    guard let toast = surfaces[tag], toast.takeKeyboard() else { return false }
    for other in surfaces.values where other !== toast { other.releaseKeyboard() }
    return true
  }

  /// Runs the event loop until no toast is presenting, and returns how the last one ended.
  ///
  /// - Throws: ``ToastError`` when the connection fails, or when the
  ///   compositor does not answer within 5 s that the surfaces are gone.
  public func runUntilHidden() throws(ToastError) -> ToastOutcome {
    do {
      try session.loop.run(until: { surfaces.isEmpty })
    } catch {
      throw ToastError(error.waylandError)
    }
    // The surfaces' end reaches the compositor (unless it stopped answering).
    do {
      try session.display.roundtrip(within: Display.answerLimit)
    } catch {
      throw ToastError(error)
    }
    return lastOutcome ?? .hidden
  }

  /// Runs one iteration of the event loop, waiting at most `timeout` (nil: no limit).
  public func dispatch(timeout: Duration? = nil) throws(ToastError) {
    do {
      try session.loop.iterate(timeout: timeout)
    } catch {
      throw ToastError(error.waylandError)
    }
  }

  /// Waits until the compositor has handled everything sent so far, and
  /// dispatches what it sent back (for tests).
  package func roundtrip() throws(ToastError) {
    do {
      try session.display.roundtrip()
    } catch {
      throw ToastError(error)
    }
  }

  /// Runs the event loop until `stop()` is called on it or `condition` holds.
  public func run(until condition: () -> Bool = { false }) throws(ToastError) {
    do {
      try session.loop.run(until: condition)
    } catch {
      throw ToastError(error.waylandError)
    }
  }

  /// The most toasts on screen at once, a notification's cards apart (the
  /// notification server holds those to its own limit): past it the oldest
  /// gives way, as ``ToastModel/ToastOutcome/replaced``. Each toast is a
  /// surface with its buffers, and each one that comes moves the others of
  /// its stack, so a script's burst stays within what a compositor takes.
  public static let maximumToasts = 32

  /// Ends the oldest toast when `toast` would be one past ``maximumToasts``.
  private func makeRoom(for toast: Toast) {
    guard toast.style != .card else { return }
    let live = surfaces.values.filter { !$0.isGone && !$0.isExiting && $0.toast.style != .card }
    guard live.count >= Self.maximumToasts else { return }
    let oldest = live.min {
      appearance[ObjectIdentifier($0), default: 0] < appearance[ObjectIdentifier($1), default: 0]
    }
    oldest?.hide(.replaced, animated: false)
  }

  private func present(_ toast: Toast, tag: String, warnings: [ToastWarning] = []) {
    makeRoom(for: toast)
    let surface = PresentedToast(toast: toast, session: session)
    lastSoundProblems[tag] = nil
    if toast.sound != nil { surface.soundState = ("waiting", nil) }
    noteLeftOutSound(warnings, of: surface)
    surfacesCreated += 1
    appeared += 1
    let id = appeared
    surface.onGone = { [unowned self, unowned surface] outcome, failure in
      if surfaces[tag] === surface {
        surfaces[tag] = nil
        // Why its sound failed stays for `status`.
        if let sound = surface.soundState, sound.state == "failed", let problem = sound.problem {
          lastSoundProblems[tag] = problem
        }
      }
      withdrawSounds(of: surface)
      if appearance[ObjectIdentifier(surface)] != nil { announcer?.hide(id: id) }
      appearance[ObjectIdentifier(surface)] = nil
      // A toast whose tag a newer one took reported its end then.
      let leavingKey = leavingKeys.removeValue(forKey: ObjectIdentifier(surface))
      if let leavingKey { surfaces[leavingKey] = nil }
      let reports = leavingKey == nil
      if reports { lastOutcome = outcome }
      guard tokensOnTheWay[id] == nil else {
        // Its activation tokens first: their completions run before its own.
        surface.keepsSurfaces = true
        heldEnds[id] = (
          surface,
          { [unowned self] in
            guard reports else { return }
            reportEnd(of: surface, number: id, tag: tag, outcome: outcome, failure: failure)
          }
        )
        return
      }
      if reports {
        reportEnd(of: surface, number: id, tag: tag, outcome: outcome, failure: failure)
      }
    }
    surfaces[tag] = surface
    appearance[ObjectIdentifier(surface)] = id
    var announced = false
    surface.onChoice = { [unowned self] button in onButton?(tag, button) ?? .end }
    surface.onActivate = { [unowned self] in onActivate?(tag) ?? .end }
    surface.onFrame = { [unowned self, unowned surface] in
      // On screen: screen readers hear of it now (updates announce again),
      // and of the button with the keyboard focus once it has one.
      if !announced {
        announced = true
        announcer?.show(id: id, toast: surface.toast, buttons: surface.buttonLabels)
        announcer?.focus(id: id, button: surface.keyboardFocus)
        playSound(of: surface, tag: tag)
      }
      // A toast leaving under another key (new content took its tag): its
      // frames are not the tag's.
      if surfaces[tag] === surface { onFrame?(tag) }
    }
    surface.onFocusMoved = { [unowned self] button in announcer?.focus(id: id, button: button) }
    surface.onDecided = { [unowned self] in onDecided?(tag) }
    surface.start()
  }

  /// Tells the program how a toast ended (``onFailure``, then
  /// ``onCompletion``), its surfaces still there for an activation token
  /// asked for meanwhile.
  private func reportEnd(
    of toast: PresentedToast, number: Int, tag: String, outcome: ToastOutcome,
    failure: ToastFailure?
  ) {
    let outer = ending[tag]
    ending[tag] = (toast, number)
    if let failure { onFailure?(tag, failure) }
    onCompletion?(tag, outcome)
    ending[tag] = outer
  }

  /// An activation token asked for the toast `number` came (or none did):
  /// when it was the last on its way and the toast has ended meanwhile, its
  /// completion is reported now and its surfaces go.
  private func tokenFinished(for number: Int) {
    let left = (tokensOnTheWay[number] ?? 1) - 1
    tokensOnTheWay[number] = left > 0 ? left : nil
    guard left <= 0, let held = heldEnds.removeValue(forKey: number) else { return }
    held.report()
    held.toast.releaseSurfaces()
  }

  /// Screen readers hear a toast's new content, once it is on screen (before
  /// that, its first frame announces the latest).
  private func announceChange(of surface: PresentedToast) {
    guard let announcer, surface.timeline != nil,
      let id = appearance[ObjectIdentifier(surface)]
    else { return }
    announcer.update(id: id, toast: surface.toast, buttons: surface.buttonLabels)
    // An update with fewer buttons can move the focus back to the first.
    announcer.focus(id: id, button: surface.keyboardFocus)
  }

  /// Starts looking for a screen reader once a first frame is on screen (or
  /// while there is nothing to show), in a later iteration, after that frame
  /// went to the compositor: start-up is not slowed by it.
  private func startAnnouncerWhenDrawn() {
    guard let announcer, !announcerStarting,
      surfaces.isEmpty || surfaces.values.contains(where: { $0.timeline != nil })
    else { return }
    announcerStarting = true
    session.loop.addTimer(after: .zero) { announcer.start() }
  }

  /// After every few surfaces of a pass, what they asked for goes to the
  /// compositor: libwayland queues only 4 KiB of requests, and a pass over
  /// hundreds of toasts would fill it (``Wayland/Display/flush(until:)``).
  private func sendAsItGoes(_ index: Int) {
    guard index % 8 == 7 else { return }
    // One limit for the whole pass: a compositor that stopped reading holds
    // it up once, not once every eight surfaces.
    let deadline = passDeadline ?? MonotonicTime.now + Display.answerLimit
    passDeadline = deadline
    let result = session.display.flush(until: deadline)
    if result.readEvents { readDuringPass = true }
  }

  /// The limit of this pass's sending (``sendAsItGoes(_:)``), from its first wait.
  private var passDeadline: MonotonicTime?
  /// Whether this pass's sending read events, which it did not dispatch.
  private var readDuringPass = false

  /// Puts every toast in its place: toasts at one position of one output
  /// stack in the order they appeared (a stack of cards the newest first),
  /// moving when a neighbour goes or changes size (see ``Stacking``).
  private func restack() {
    let toasts = surfaces.values.filter { !$0.isGone }.sorted {
      appearance[ObjectIdentifier($0), default: 0] < appearance[ObjectIdentifier($1), default: 0]
    }
    // A surface the compositor has not placed yet most likely goes where the
    // latest placed one went (the focused output), so it enters its stack at once.
    let guess =
      toasts.reversed().lazy.filter { $0.toast.output == .automatic }.flatMap(\.views)
      .compactMap(\.output).first ?? session.likelyOutput
    var stacks: [StackKey: [(view: LayerView, animated: Bool, isCard: Bool)]] = [:]
    // Bars reserve their room: the compositor places the others beside them.
    for toast in toasts where !toast.toast.isModal && toast.toast.style != .bar {
      for view in toast.views {
        let key = StackKey(
          output: (view.output ?? guess).map(ObjectIdentifier.init),
          position: toast.toast.effectivePosition)
        stacks[key, default: []].append(
          (view, toast.toast.isAnimated, toast.toast.style == .card))
      }
    }
    let now = session.clock()
    for (key, stack) in stacks {
      let shifts = Stacking.shifts(
        extents: stack.map(\.view.stackExtent), position: key.position,
        newestFirst: stack.allSatisfy(\.isCard))
      for (index, (entry, shift)) in zip(stack, shifts).enumerated() {
        entry.view.moveInStack(to: shift, animated: entry.animated, now: now)
        sendAsItGoes(index)
      }
    }
  }
}

/// What a chosen button (``ToastPresenter/onButton``) or a card's activated
/// body (``ToastPresenter/onActivate``) does to its toast.
public enum ButtonResponse: Equatable, Sendable {
  /// The toast ends, with ``ToastModel/ToastOutcome/chose(button:)`` (or
  /// ``ToastModel/ToastOutcome/activated``).
  case end
  /// The toast stays as it is.
  case stay
}

/// A sound asked for by a toast, until it settles.
private final class SoundRequest {
  let tag: String
  weak var surface: PresentedToast?
  /// The player's number for it, once handed over.
  var id: UInt32?
  var started = false

  init(tag: String, surface: PresentedToast) {
    self.tag = tag
    self.surface = surface
  }
}
