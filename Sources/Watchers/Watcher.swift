import SystemSupport
import ToastModel

/// Where a watcher hands its toasts: the display's owner (the watch's feed),
/// with the looks of the watcher's preset applied (``PresetFeed``). A toast
/// with a tag that is showing updates it in place.
package protocol ToastFeed: AnyObject {
  /// Shows `toast` with `tag`, or updates the toast showing with `tag` in place.
  func show(_ toast: Toast, tag: String)
  /// Hides the toast with `tag`, if one shows.
  func hide(tag: String)
}

extension Toast.Timeout {
  /// How long a watcher's HUD (the volume, the brightness) stays after the
  /// last change: 1.5 s, as a key binding's HUD would.
  package static let watcherHUD: Toast.Timeout = .init(seconds: 1.5)
}

/// How a source ended its watch (``Watcher/start(in:feed:end:)``'s `end`).
package enum WatchEnd: Equatable, Sendable {
  /// As it should: the compositor followed went away.
  case finished
  /// A failure, as one line without the program's name (`watch sway: …`).
  case failed(String)
}

/// One source of `wl-toast watch` (sway, river, the sound server, media
/// players, the backlight), followed in the watch's one event loop.
///
/// A watcher is created before the watch reaches the display's owner: its
/// initializer throws when the watch cannot run at all (river's status
/// protocol missing, no session bus), so that nothing starts an owner for it.
/// Once started, only changes show: the state found at start is the baseline.
/// A source that is absent or goes away for a while (a sound server
/// restarting) is no reason to end: the watcher writes one line and tries
/// again on a timer, with no other wake-up while it waits.
package protocol Watcher: AnyObject {
  /// Starts following the source in `loop`, handing toasts to `feed`; `end`
  /// ends the whole watch (the compositor followed went away, or failed).
  func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void)
  /// Stops following: removes the watcher's sources and timers from the
  /// loop and closes its connections. The watch calls it once, at its end.
  func stop()
}

/// Why a watcher cannot start: one line, without the program's name, that
/// starts with the watch (`watch media: no session bus: …`).
package struct WatchError: Error, Equatable, CustomStringConvertible {
  /// What is wrong.
  package var description: String

  /// An error that says `description`.
  package init(_ description: String) { self.description = description }
}
