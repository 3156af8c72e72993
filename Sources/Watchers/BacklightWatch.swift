import SystemSupport
import ToastModel

/// `wl-toast watch backlight`: not yet built; it ends the watch with a line.
package final class BacklightWatch: Watcher {
  /// A watcher of the backlight source.
  package init() throws(WatchError) {}

  /// Ends the watch at once: the source is not followed yet.
  package func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void) {
    end(.failed("watch backlight: not available in this build"))
  }

  /// Nothing to stop.
  package func stop() {}
}
