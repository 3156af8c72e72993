import Glibc
import SystemSupport
import ToastModel
import ToastProtocol
import Watchers
import Wayland

/// `wl-toast watch sway`: follows sway's IPC events and shows the binding mode
/// (and, when asked, workspace changes and the keyboard layout). sway going
/// away ends the watch.
final class SwayWatch: Watcher {
  private var watcher: SwayWatcher
  private let connection: SwayIPCConnection
  private var events: (loop: EventLoop, token: EventLoop.Token)?

  /// Connects to sway (`SWAYSOCK`) and subscribes to its events.
  init(_ options: SwayWatchOptions) throws(WatchError) {
    watcher = SwayWatcher(options: options)
    do {
      connection = try SwayIPCConnection(socketPath: nil)
      try connection.subscribe(to: watcher.subscriptions)
    } catch {
      throw WatchError("watch sway: \(error)")
    }
  }

  func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void) {
    let readEvents = { [unowned self] in
      let messages: [(type: UInt32, payload: String)]
      do throws(SwayIPCError) {
        messages = try connection.readAvailable()
      } catch {
        stop()
        // Sway closing the connection is its exit: the watch's ordinary end.
        switch error {
        case .closed, .cannotRead(Errno(rawValue: ECONNRESET)): return end(.finished)
        default: return end(.failed("watch sway: \(error)"))
        }
      }
      for message in messages {
        switch watcher.handle(eventType: message.type, payload: message.payload) {
        case .show(let text, let sticky):
          feed.show(
            Toast(text, style: .banner, timeout: sticky ? 0 : 1),
            tag: sticky ? "sway-mode" : "sway-workspace")
        case .hide:
          feed.hide(tag: "sway-mode")
        case .layout(let name):
          feed.show(Toast(name, timeout: 1), tag: "sway-layout")
        case nil:
          break
        }
      }
    }
    events = (loop, loop.addSource(fd: connection.fileDescriptor) { _ in readEvents() })
    // Events that arrived while subscribing are already buffered.
    if connection.hasBufferedMessages { readEvents() }
  }

  func stop() {
    if let events { events.loop.remove(events.token) }
    events = nil
  }
}

/// `wl-toast watch river`: follows river's status protocol on a Wayland
/// connection of its own and shows the mode (and, when asked, focused tags
/// and urgent tags). river going away (the connection lost) ends the watch.
final class RiverWatch: Watcher {
  private var watcher: RiverWatcher
  private let display: Display
  private var status: RiverStatus?
  /// Where the events go once started.
  private var feed: (any ToastFeed)?

  /// Connects to river (`WAYLAND_DISPLAY`) and binds its status manager.
  init(_ options: RiverWatchOptions) throws(WatchError) {
    watcher = RiverWatcher(options: options)
    do {
      display = try Display()
    } catch {
      throw WatchError("watch river: \(error)")
    }
    do {
      status = try RiverStatus(display: display) { [unowned self] event in handle(event) }
    } catch .missingGlobal(let interface) {
      // river 0.4 moved status into its window managers: it offers none of this.
      throw WatchError(
        "watch river: the compositor does not offer \(interface), river's status"
          + " protocol, which river 0.2 and 0.3 have; river 0.4 and later leave status to their"
          + " window managers, and other compositors have none")
    } catch {
      throw WatchError("watch river: \(error)")
    }
    if let status, status.version < 3 {
      printError(
        "wl-toast: watch river: river offers its status protocol at version \(status.version),"
          + " which reports no modes (3 does)")
    }
  }

  /// Events come only once the loop dispatches, with the feed there; the
  /// loop's failure on this connection (river gone) ends the watch.
  func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void) {
    self.feed = feed
    loop.add(display)
  }

  func stop() {
    feed = nil
  }

  private func handle(_ event: RiverStatusEvent) {
    switch watcher.handle(event) {
    case .show(let text, let tag, let sticky):
      feed?.show(Toast(text, style: .banner, timeout: sticky ? 0 : 1), tag: tag)
    case .hide(let tag):
      feed?.hide(tag: tag)
    case nil:
      break
    }
  }
}
