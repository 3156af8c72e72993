import SystemSupport
import ToastModel

/// `wl-toast watch audio`: the volume HUD for every change of the default
/// output's volume or mute, whoever made it, the new output's name when the
/// default changes, and the default input's mute, from the user's sound
/// server (PulseAudio, or PipeWire's PulseAudio server) through libpulse
/// (``PulseConnection``). What shows is ``AudioState``'s: nothing at start,
/// one toast (tag `volume`) updated in place for a burst of changes. The
/// server away or gone: one line, and the watch goes on trying.
package final class AudioWatch: Watcher {
  private let library: PulseLibrary
  private var connection: PulseConnection?
  private var state = AudioState()

  /// A watcher of the sound server, with libpulse opened.
  ///
  /// - Throws: When libpulse is not installed.
  package init() throws(WatchError) {
    library = try PulseLibrary()
  }

  /// Connects to the sound server and shows its changes through `feed`;
  /// ends the watch only when libpulse cannot run at all.
  package func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void) {
    let connection: PulseConnection
    do throws(WatchError) {
      connection = try PulseConnection(library: library, loop: loop)
    } catch {
      end(.failed(error.description))
      return
    }
    connection.onConnected = { [unowned self] in state.reset() }
    connection.onSnapshot = { [unowned self] snapshot in
      if let toast = state.update(snapshot) { feed.show(toast, tag: AudioState.tag) }
    }
    connection.onLine = { printError("wl-toast: " + $0) }
    self.connection = connection
    connection.start()
  }

  /// Disconnects from the sound server.
  package func stop() {
    connection?.stop()
    connection = nil
  }
}
