import Wayland

/// Whether the user has been away from the seat, as the compositor tells:
/// `ext_idle_notifier_v1` when offered (KWin 5.27, sway 1.8 and later),
/// otherwise `org_kde_kwin_idle` (KWin, sway up to 1.8). Never polled: the
/// compositor sends an event when idleness begins and when it ends.
///
/// One notification object per threshold asked for, made at the first ask
/// (the compositor's idle timer starts then) and kept while the program
/// runs, so that a later toast knows at once whether the user is away.
/// At most ``thresholdsKept`` thresholds are watched: asking for another
/// destroys the object of the one asked for least recently, and a toast
/// that idleness held on it runs again as when input comes back (five
/// toasts with five different thresholds shown at once are rare; an object
/// per value kept for ever would not be). Nothing is bound until a toast
/// asks: a program that never shows a toast with a timeout costs the
/// compositor nothing.
final class IdleWatch {
  /// The notification object of one threshold, and whether it says idle.
  private final class Watch {
    /// The object: `ext_idle_notification_v1` or `org_kde_kwin_idle_timeout`.
    var object: Proxy?
    var isIdle = false
  }

  /// The most thresholds watched at once.
  static let thresholdsKept = 4

  /// The manager bound: the standard one or KDE's.
  private enum Manager {
    case standard(ExtIdleNotifierV1)
    case kde(OrgKdeKwinIdle)
  }

  private let registry: Registry
  private var manager: Manager?
  private var watches: [UInt32: Watch] = [:]
  /// The thresholds watched, the one asked for least recently first.
  private var recent: [UInt32] = []
  /// Called when the user goes idle (true) or comes back (false) for a
  /// threshold in milliseconds.
  var onChange: ((_ milliseconds: UInt32, _ isIdle: Bool) -> Void)?

  init(registry: Registry) {
    self.registry = registry
  }

  /// Whether `seat` has been without input for `milliseconds`, watching it
  /// from now on when this is the first ask for that threshold (so not
  /// idle yet); nil when the compositor cannot tell.
  func isIdle(after milliseconds: UInt32, on seat: WlSeat) -> Bool? {
    let kept = Self.asking(for: milliseconds, recent: recent)
    if let watch = watches[milliseconds] {
      recent = kept.recent
      return watch.isIdle
    }
    guard let manager = bound() else { return nil }
    recent = kept.recent
    for dropped in kept.dropped { stopWatching(dropped) }
    let watch = Watch()
    let report = { [unowned self, unowned watch] (idle: Bool) in
      changed(watch, milliseconds, idle: idle)
    }
    switch manager {
    case .standard(let notifier):
      let notification = notifier.getIdleNotification(timeout: milliseconds, seat: seat)
      notification.onEvent = { event in report(event == .idled) }
      watch.object = notification
    case .kde(let idle):
      let timeout = idle.getIdleTimeout(seat: seat, timeout: milliseconds)
      timeout.onEvent = { event in report(event == .idle) }
      watch.object = timeout
    }
    watches[milliseconds] = watch
    return false
  }

  /// A threshold in seconds as the protocols take it, in whole
  /// milliseconds (at least a second, at most `UInt32.max`).
  static func milliseconds(_ seconds: Double) -> UInt32 {
    guard seconds.isFinite else { return seconds > 0 ? .max : 1000 }
    return UInt32(min(max((seconds * 1000).rounded(), 1000), Double(UInt32.max)))
  }

  /// The thresholds watched after asking for `threshold`, the one asked for
  /// least recently first, and those no longer watched: at most
  /// ``thresholdsKept`` stay.
  static func asking(for threshold: UInt32, recent: [UInt32]) -> (
    recent: [UInt32], dropped: [UInt32]
  ) {
    let kept = recent.filter { $0 != threshold } + [threshold]
    let excess = max(kept.count - thresholdsKept, 0)
    return (Array(kept.dropFirst(excess)), Array(kept.prefix(excess)))
  }

  /// Destroys the object of `milliseconds`; a toast it held as idle runs
  /// again.
  private func stopWatching(_ milliseconds: UInt32) {
    guard let watch = watches.removeValue(forKey: milliseconds) else { return }
    watch.object?.destroy()
    watch.object = nil
    if watch.isIdle { onChange?(milliseconds, false) }
  }

  private func changed(_ watch: Watch, _ milliseconds: UInt32, idle: Bool) {
    guard watch.isIdle != idle else { return }
    watch.isIdle = idle
    onChange?(milliseconds, idle)
  }

  /// The manager, bound at the first call: the standard one first; nil
  /// when neither is offered.
  private func bound() -> Manager? {
    if let manager { return manager }
    if let global = registry.globals(of: ExtIdleNotifierV1.self).first {
      manager = .standard(registry.bind(global, as: ExtIdleNotifierV1.self))
    } else if let global = registry.globals(of: OrgKdeKwinIdle.self).first {
      manager = .kde(registry.bind(global, as: OrgKdeKwinIdle.self))
    }
    return manager
  }
}
