/// Why a toast shows, but not all of it (or not at all): ``ToastPresenter/show(_:tag:)``,
/// ``ToastPresenter/showOrUpdate(_:tag:)`` and ``ToastPresenter/update(tag:_:)``
/// return these for the toast they were given.
public enum ToastWarning: Equatable, Sendable, CustomStringConvertible {
  /// The toast's icon cannot be shown (not in the icon themes, unreadable,
  /// or not an image), so the toast shows without it; the reason as a line,
  /// such as `icon 'x' not found in Adwaita, hicolor; the toast shows without it`.
  case iconLeftOut(String)
  /// The toast's sound file cannot be played (missing, a directory, a FIFO
  /// or a device, larger than ``ToastModel/Toast/Limits/soundFileBytes``,
  /// unreadable), so the toast shows without it; the reason as a line.
  /// (A sound that fails later, as it plays, is reported to
  /// ``ToastPresenter/onSoundProblem``.)
  case soundLeftOut(String)
  /// The toast does not show at all: do-not-disturb is on
  /// (``ToastPresenter/doNotDisturb``) and the toast is not critical.
  case suppressed
  /// The toast does not show at all: the presenter refuses it, for this
  /// reason; whatever shows with its tag stays as it is.
  case refused(ToastRefusal)

  /// One line for the user.
  public var description: String {
    switch self {
    case .iconLeftOut(let reason), .soundLeftOut(let reason): reason
    case .suppressed: "do-not-disturb is on: the toast is not shown"
    case .refused(let refusal): refusal.description
    }
  }
}

/// Why the presenter refuses a toast, whose content is wrong: it does not
/// show (``ToastPresenter/show(_:tag:)`` and the other calls return
/// ``ToastWarning/refused(_:)``), and whatever shows with its tag stays.
/// ``ToastPresenter/refusal(of:)`` tells it ahead.
public enum ToastRefusal: Error, Equatable, Sendable, CustomStringConvertible {
  /// The message is marked as Pango markup (``ToastModel/Toast/isMarkup``)
  /// and is not valid markup: Pango's complaint.
  case invalidMarkup(String)

  /// One line for the user.
  public var description: String {
    switch self {
    case .invalidMarkup(let problem): "the message is not valid Pango markup: \(problem)"
    }
  }
}

/// Why a toast ended without being shown to its end, reported to
/// ``ToastPresenter/onFailure`` with its tag before its completion (as
/// ``ToastModel/ToastOutcome/hidden``); the other toasts stay.
public enum ToastFailure: Equatable, Sendable, CustomStringConvertible {
  /// The output the toast names does not exist: its name and the outputs that do.
  case unknownOutput(String, among: [String])
  /// The output the toast was on went away (a toast on a named output ends with it).
  case outputRemoved(String)
  /// The toast could not be drawn (a buffer too large to share, Cairo refused it).
  case cannotDraw(String)

  /// One line for the user.
  public var description: String {
    switch self {
    case .unknownOutput(let name, let names):
      "no output named \(Toast.quoted(name)) (outputs: "
        + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")"
    case .outputRemoved(let name): "output \(Toast.quoted(name)) went away; toast hidden"
    case .cannotDraw(let reason): reason
    }
  }
}
