import Glibc
import SystemSupport
import ToastModel
import ToastProtocol

/// How a watcher (`wl-toast watch sway`, `watch river`) shows its toasts: as
/// values handed to the display's owner, the one every `wl-toast` command
/// uses, so that a display has one stack, one `status` and one `hide` for all
/// its toasts. The watcher draws nothing itself.
///
/// The feed opens one connection to the owner at once, starting an owner as
/// a command does when none runs, says `hold` on it and keeps it open: an
/// owner does not linger out while a connection that said `hold` is open, so
/// it stays resident for as long as the watcher runs, and the next banner
/// finds it warm. Each new connection (after the owner went away, or a
/// failure) hears `hold` and the lasting toasts (a mode still active) before
/// anything else. When the owner goes away (the connection hangs up), the
/// feed finds or starts the next one at once; when that one goes away too
/// before the feed sent it anything, the next toast finds or starts one.
/// Nothing wakes the watcher while nothing happens: the connection is
/// watched by its event loop.
///
/// Its toasts answer the user's own actions (a mode entered, a workspace
/// focused): do-not-disturb does not hold them back
/// (``ToastModel/Toast/DoNotDisturbPolicy/show``).
package final class OwnerFeed {
  private let client: Client
  private let loop: EventLoop
  /// What the feed's messages start with (`watch sway`).
  private let context: String
  /// The connection watched for the owner's hang-up, while there is one.
  private var watched: (fd: Int32, token: EventLoop.Token)?
  /// Whether the connection was opened after a hang-up, with nothing sent on it since.
  private var reopenedUnused = false
  /// The client's count of connections opened (``Client/connectionsOpened``)
  /// when the connection kept heard `hold` and the lasting toasts.
  private var greeted: Int?
  /// The toasts shown until hidden (timeout 0), by tag: shown again by the
  /// next owner, hidden when the feed is closed.
  private var lasting: [String: Toast] = [:]

  /// Opens the connection to the display's owner (in `WAYLAND_DISPLAY`),
  /// starting one when none runs, and watches it in `loop`; `context` starts
  /// the feed's messages.
  ///
  /// - Throws: What kept it from reaching an owner (no compositor, an owner
  ///   older than the watcher).
  package init(loop: EventLoop, context: String) throws(CommandError) {
    do {
      client = Client(rendezvous: try Rendezvous())
    } catch {
      throw .rendezvous(error)
    }
    self.loop = loop
    self.context = context
    try open()
  }

  /// Shows `toast` with `tag`, or updates the one showing in place; a
  /// failure is one line on standard error, and the next toast tries again.
  package func show(_ toast: Toast, tag: String) {
    var toast = toast
    toast.doNotDisturb = .show
    if toast.timeout == .untilDismissed {
      lasting[tag] = toast
    } else {
      lasting[tag] = nil
    }
    deliver(startingOwner: true, tag: tag) { () throws(CommandError) in
      _ = try client.show(toast, tag: tag, wait: false)
    }
  }

  /// Hides the toast with `tag`, on the owner running only: none is started
  /// to hide a toast it cannot show.
  package func hide(tag: String) {
    lasting[tag] = nil
    deliver(startingOwner: false, tag: tag) { () throws(CommandError) in
      try client.send(.hide(tag: tag, after: nil), startingOwner: false)
    }
  }

  /// Hides the lasting toasts, on the owner running only (none is started
  /// to hide them), and lets go of it: the watcher ends.
  package func close() {
    for tag in lasting.keys.sorted() {
      try? client.send(.hide(tag: tag, after: nil), startingOwner: false)
    }
    lasting = [:]
    stopWatching()
    client.disconnect()
  }

  /// Opens the connection, finding or starting an owner, greets it and watches it.
  private func open() throws(CommandError) {
    try greet(startingOwner: true, except: nil)
    watchConnection()
  }

  /// Greets the connection kept when it has not been yet (a new one), and
  /// opens one first when there is none: to the owner running, or
  /// (`startingOwner`) to one started when none runs. It hears `hold`, then
  /// the lasting toasts but `tag`'s, again on the next connection when the
  /// owner went away meanwhile.
  private func greet(startingOwner: Bool, except tag: String?) throws(CommandError) {
    for _ in 0..<3 {
      if client.connectedDescriptor != nil && client.connectionsOpened == greeted { return }
      try client.hold(startingOwner: startingOwner)
      // No owner runs, and none is to be started.
      guard client.connectedDescriptor != nil else { return }
      let opened = client.connectionsOpened
      for (other, toast) in lasting.sorted(by: { $0.key < $1.key }) where other != tag {
        _ = try client.show(toast, tag: other, wait: false)
      }
      if client.connectionsOpened == opened {
        greeted = opened
        return
      }
    }
    throw .ownerKeepsLeaving
  }

  /// Sends what `body` sends for the toast with `tag`, on a greeted
  /// connection (``greet(startingOwner:except:)``), greeting too the new
  /// connection `body` may have reached. A failure closes the connection
  /// (the next toast opens another) and says why in one line.
  private func deliver(
    startingOwner: Bool, tag: String, _ body: () throws(CommandError) -> Void
  ) {
    client.collectOwners()
    do {
      try greet(startingOwner: startingOwner, except: tag)
      try body()
      try greet(startingOwner: startingOwner, except: tag)
      reopenedUnused = false
      watchConnection()
    } catch {
      stopWatching()
      printError("wl-toast: \(context): \(error)")
    }
  }

  /// Watches the connection kept, when it is not yet (a new one after a
  /// failure or a hang-up).
  private func watchConnection() {
    guard let fd = client.connectedDescriptor else { return stopWatching() }
    guard watched?.fd != fd else { return }
    stopWatching()
    let token = loop.addSource(fd: fd) { [unowned self] _ in ownerSpoke(on: fd) }
    watched = (fd, token)
  }

  private func stopWatching() {
    if let watched { loop.remove(watched.token) }
    watched = nil
  }

  /// The connection is readable: the owner hung up (it sends nothing
  /// unasked), or said something no request waits for, which is dropped.
  private func ownerSpoke(on fd: Int32) {
    var byte: UInt8 = 0
    let count = retryingOnInterrupt { recv(fd, &byte, 1, Int32(MSG_DONTWAIT)) }
    if count > 0 || (count < 0 && errno == EAGAIN) { return }
    stopWatching()
    client.disconnect()
    client.collectOwners()
    // The next owner at once, unless the last one went away unused (one
    // that cannot run: the compositor is going, say); then the next toast.
    guard !reopenedUnused else { return }
    do {
      try open()
    } catch {
      // Most often the compositor went with its owner, and the watch hears
      // that itself; otherwise the next toast tries again and says why.
      return
    }
    // Still unused by a new toast: an owner that fails on these is not
    // started again and again.
    reopenedUnused = true
  }
}
