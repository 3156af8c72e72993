import SystemSupport
import ToastModel

/// `wl-toast watch backlight`: follows the backlight devices through udev's
/// events of the `backlight` subsystem and shows the brightness HUD (tag
/// `brightness`) when one's level changes, whoever changed it. Devices that
/// appear later are followed; the watch never ends for the backlight.
package final class BacklightWatch: Watcher {
  private let monitor: UdevMonitor
  private var state = BacklightState()
  private var events: (loop: EventLoop, token: EventLoop.Token)?

  /// Opens libudev and its monitor of the `backlight` subsystem.
  ///
  /// - Throws: When libudev cannot be opened or the monitor cannot listen.
  package init() throws(WatchError) {
    monitor = try UdevMonitor()
  }

  /// Takes the devices present as the baseline, then shows their changes.
  package func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void) {
    // Receiving started before the devices are read: no change falls between.
    for device in monitor.present() { state.baseline(device.path, device.reading) }
    events = (
      loop,
      loop.addSource(fd: monitor.fileDescriptor) { [unowned self] _ in
        // A burst read at once (a held key) is one update, to the last level.
        var last: Toast?
        for device in monitor.receive() { last = handle(device) ?? last }
        if let last { feed.show(last, tag: BacklightState.tag) }
      }
    )
  }

  /// Stops following the devices.
  package func stop() {
    if let events { events.loop.remove(events.token) }
    events = nil
  }

  /// What `device`'s event shows, if anything; its line, if any, is written.
  private func handle(_ device: UdevDevice) -> Toast? {
    switch device.action {
    case "remove":
      state.removed(device.path)
    case "add":
      state.baseline(device.path, device.reading)
    default:
      switch state.changed(device.path, device.reading) {
      case .show(let toast): return toast
      case .report(let line): printError("wl-toast: " + line)
      case nil: break
      }
    }
    return nil
  }
}
