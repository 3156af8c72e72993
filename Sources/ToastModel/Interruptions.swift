/// Do-not-disturb: while it is on, only critical toasts
/// (``Toast/Urgency/critical``) and those that say so
/// (``Toast/DoNotDisturbPolicy/show``) show; the others end as
/// ``ToastOutcome/suppressed``, those already on screen included.
public enum DoNotDisturb: String, Equatable, Sendable, CaseIterable {
  /// Every toast shows (the default).
  case off
  /// Only critical toasts show.
  case on

  /// Whether `toast` is held back: do-not-disturb is on, and the toast is
  /// neither critical nor one that shows through it.
  public func silences(_ toast: Toast) -> Bool {
    self == .on && toast.urgency != .critical && toast.doNotDisturb == .suppress
  }

  /// The other state (what `wl-toast dnd toggle` sets).
  public var toggled: DoNotDisturb { self == .on ? .off : .on }
}

extension Toast {
  /// The fullscreen policy the toast follows: its own, but always
  /// ``FullscreenPolicy/show`` for a critical toast.
  public var effectiveFullscreenPolicy: FullscreenPolicy {
    urgency == .critical ? .show : fullscreen
  }
}
