import Bus
import SystemSupport
import ToastModel

/// `wl-toast watch media`: the MPRIS players on the session bus
/// (``MprisClient``). A new track of a playing player shows a banner
/// "Title — Artist" with its cover when that is a local file the owner can
/// draw (``MediaCover``); play, pause and stop show their icon with the
/// title. One toast, tag `media`, updated in place; the players' state at
/// start shows nothing. A burst of changes is one toast: the last.
///
/// The session bus going away is one line; the watcher then connects again
/// on a timer (1 s, doubling up to a minute), and the players it finds then
/// are a new baseline. A bus that does not answer in time
/// (``BusConnection/answerLimit``), or closes the connection before it has
/// answered, is one that cannot be reached: at start it ends the watch with
/// one line, later it is tried again.
package final class MediaWatch: Watcher {
  /// The tag of the watcher's toast.
  package static let tag = "media"

  private let address: BusAddress
  private var state = MediaState()
  private var client: MprisClient?
  private var running: (loop: EventLoop, feed: any ToastFeed, end: (WatchEnd) -> Void)?
  /// The change to show once the loop has read every message waiting.
  private var pending: MediaChange?
  private var pendingTimer: EventLoop.Token?
  private var retryTimer: EventLoop.Token?
  /// The waits between attempts to reach the session bus again: 1 s,
  /// doubling up to a minute.
  private var backoff = Backoff(first: .seconds(1), limit: .seconds(60))
  /// Whether the line that the bus went away was written since the last
  /// connection that worked: one line for each time it goes away.
  private var saidGone = false
  /// Whether a connection was made since the watch started: only the first
  /// one's bus not answering ends the watch.
  private var triedOnce = false

  /// Finds the session bus (`DBUS_SESSION_BUS_ADDRESS`, or else
  /// `$XDG_RUNTIME_DIR/bus`) and makes sure it accepts a connection.
  package init() throws(WatchError) {
    guard let address = BusAddress.session() else {
      throw WatchError("watch media: " + BusAddress.noSessionBus)
    }
    guard address.connect() != nil else {
      throw WatchError("watch media: cannot connect to the session bus at \(address.socketList)")
    }
    self.address = address
  }

  /// Connects to the session bus in `loop` and follows the players.
  package func start(in loop: EventLoop, feed: any ToastFeed, end: @escaping (WatchEnd) -> Void) {
    running = (loop, feed, end)
    connect()
  }

  /// Leaves the bus and removes the timers.
  package func stop() {
    client?.close()
    client = nil
    if let running {
      for token in [pendingTimer, retryTimer].compactMap({ $0 }) { running.loop.remove(token) }
    }
    pendingTimer = nil
    retryTimer = nil
    running = nil
  }

  private func connect() {
    guard let loop = running?.loop else { return }
    // The connection that closed goes here, outside its own handlers.
    client?.close()
    client = nil
    state = MediaState()
    let first = !triedOnce
    triedOnce = true
    guard let client = MprisClient(address: address, loop: loop) else {
      return retryLater()
    }
    self.client = client
    var answered = false
    client.onReady = { [unowned self] in
      answered = true
      backoff.reset()
      saidGone = false
    }
    client.onEvent = { [unowned self] event in handle(event) }
    client.onClose = { [unowned self, unowned client] in
      if client.closedUnanswered || !answered {
        // As a bus that cannot be reached: at start, the end; later, quietly again.
        guard first else { return retryLater() }
        let line =
          client.closedUnanswered
          ? BusConnection.unansweredLine("the session bus", at: address)
          : "the session bus at \(address.socketList) closed the connection before answering"
        running?.end(.failed("watch media: " + line))
        return
      }
      if !saidGone {
        printError("wl-toast: watch media: the session bus went away; trying again")
        saidGone = true
      }
      retryLater()
    }
  }

  private func retryLater() {
    guard let loop = running?.loop else { return }
    retryTimer = loop.addTimer(after: backoff.delay()) { [unowned self] in
      retryTimer = nil
      connect()
    }
  }

  private func handle(_ event: MprisClient.Event) {
    switch event {
    case .baseline(let player, let properties):
      state.record(player, playback: properties.playback, track: properties.track)
    case .appeared(let player):
      state.add(player)
    case .left(let player):
      state.remove(player)
    case .changed(let player, let properties):
      if let change = state.change(
        player, playback: properties.playback, track: properties.track)
      {
        show(change)
      }
    }
  }

  /// Shows `change` once the messages read with it are handled: of a
  /// burst, only the last change goes to the owner (its cover looked up
  /// then, once).
  private func show(_ change: MediaChange) {
    pending = change
    guard pendingTimer == nil, let loop = running?.loop else { return }
    pendingTimer = loop.addTimer(after: .zero) { [unowned self] in
      pendingTimer = nil
      guard let change = pending else { return }
      pending = nil
      running?.feed.show(Self.toast(for: change), tag: Self.tag)
    }
  }

  /// The toast for `change`: a banner with the track, its cover as the
  /// icon when it has a drawable local one; or the playback's icon with the
  /// title. Each stays as long as its text takes to read (`--timeout auto`).
  package static func toast(for change: MediaChange) -> Toast {
    switch change {
    case .track(let track):
      var toast = Toast(text(of: track), style: .banner, timeout: .automatic)
      toast.icon = track.artURL.flatMap(MediaCover.file(of:))
      return toast
    case .playback(let playback, let title):
      var toast = Toast(title ?? playback.rawValue, style: .banner, timeout: .automatic)
      toast.icon = playback.iconName
      if title != nil { toast.accessibleText = "\(playback.rawValue): \(toast.text)" }
      return toast
    }
  }

  /// "Title — Artist, Artist"; the title alone without artists.
  package static func text(of track: MediaTrack) -> String {
    let title = track.displayTitle ?? "Unknown track"
    return track.artists.isEmpty ? title : title + " — " + track.artists.joined(separator: ", ")
  }
}
