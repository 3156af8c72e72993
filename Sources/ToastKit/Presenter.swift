import Wayland

/// How a toast ended.
public enum ToastOutcome: String, Equatable, Sendable {
  /// Its timeout ran out.
  case expired
  /// The program hid it (``ToastPresenter/hide(animated:)``, a signal, or the compositor closed it).
  case hidden
  /// The user dismissed it with a click, a tap or Escape.
  case dismissed
  /// A newer toast took its place.
  case replaced
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
/// One presenter shows one toast at a time; showing another replaces it, as a
/// singleton message box would. Everything runs on the calling thread, in the
/// presenter's event loop.
///
/// ```swift
/// let presenter = try ToastPresenter()
/// presenter.show(Toast("Saved"))
/// let outcome = try presenter.runUntilHidden()
/// ```
public final class ToastPresenter {
  private let session: Session
  private var current: ToastSurface?
  private var lastOutcome: ToastOutcome?
  /// Called whenever a toast ends, with how it ended.
  public var onFinish: ((ToastOutcome) -> Void)?
  /// Called when a toast's first frame has been committed to the compositor.
  public var onFirstFrame: (() -> Void)?

  /// Connects to the compositor named by `display` (a socket name or path), or by
  /// `WAYLAND_DISPLAY`, and binds what toasts need.
  ///
  /// - Throws: ``ToastError`` when there is no compositor, or it lacks wlr-layer-shell.
  public init(display: String? = nil) throws(ToastError) {
    do {
      session = try Session(displayName: display)
    } catch {
      throw ToastError(error)
    }
    session.onInput = { [unowned self] surface, event in
      if let current, current.owns(surface) { current.handle(event) }
    }
    session.loop.beforeSleep = { [unowned self] in current?.drawIfNeeded() }
    session.loop.onSignal = { [unowned self] _ in
      if let current {
        current.hide(.hidden, animated: false)
      } else {
        session.loop.stop()
      }
    }
  }

  /// The event loop the presenter runs in; add timers or file descriptors to it.
  public var eventLoop: EventLoop { session.loop }

  /// Whether a toast is on screen (or still fading out).
  public var isPresenting: Bool { current.map { !$0.isGone } ?? false }

  /// How many frames the toast on screen has committed so far (for tests and benchmarks).
  public var framesCommitted: Int { current?.committedFrames ?? 0 }

  /// The toast on screen, if any.
  public var toast: Toast? { isPresenting ? current?.toast : nil }

  /// Shows a toast. A banner shown while a banner is visible takes its text and
  /// width without sliding in again; otherwise the toast on screen is replaced
  /// at once and the new one enters.
  public func show(_ toast: Toast) {
    if let current, !current.isGone, current.toast.style == .banner, toast.style == .banner,
      current.toast.isModal == toast.isModal
    {
      current.update(toast)
      return
    }
    if let current, !current.isGone {
      current.hide(.replaced, animated: false)
    }
    let surface = ToastSurface(toast: toast, session: session)
    surface.onGone = { [unowned self, unowned surface] outcome in
      lastOutcome = outcome
      if current === surface { current = nil }
      onFinish?(outcome)
    }
    surface.onFirstFrame = { [unowned self] in onFirstFrame?() }
    current = surface
  }

  /// Changes the toast on screen in place (text, progress, spinner, timeout…).
  public func update(_ change: (inout Toast) -> Void) {
    guard let current, !current.isGone else { return }
    var toast = current.toast
    change(&toast)
    current.update(toast)
  }

  /// Hides the toast on screen, fading it out unless `animated` is false.
  public func hide(animated: Bool = true) {
    current?.hide(.hidden, animated: animated)
  }

  /// Hides the toast on screen after `delay` seconds.
  public func hide(after delay: Double) {
    current?.hide(after: delay, outcome: .hidden)
  }

  /// Runs the event loop until no toast is presenting, and returns how the last one ended.
  public func runUntilHidden() throws(ToastError) -> ToastOutcome {
    do {
      try session.loop.run(until: { !isPresenting })
      try session.display.roundtrip()
    } catch {
      throw ToastError(error)
    }
    return lastOutcome ?? .hidden
  }

  /// Runs one iteration of the event loop, waiting at most `timeout` seconds (-1: no limit).
  public func dispatch(timeout: Double = -1) throws(ToastError) {
    do {
      try session.loop.iterate(timeoutMilliseconds: timeout < 0 ? -1 : Int32(timeout * 1000))
    } catch {
      throw ToastError(error)
    }
  }
}
