import Glibc
import SystemSupport
import ToastModel
import ToastProtocol
import Wayland

/// `wl-toast watch sway`: follows sway's IPC events and shows the binding mode
/// (and, when asked, workspace changes and the keyboard layout) as toasts of
/// the display's owner (``OwnerFeed``), until sway exits or a signal.
///
/// Returns the exit status; errors are one line on standard error.
package func runSwayWatch(_ options: SwayWatchOptions) -> Int32 {
  var watcher = SwayWatcher(options: options)
  let connection: SwayIPCConnection
  do {
    connection = try SwayIPCConnection(socketPath: nil)
    try connection.subscribe(to: watcher.subscriptions)
  } catch {
    printError("wl-toast: watch sway: \(error)")
    return ExitCode.error
  }
  guard let (loop, feed) = startWatch("watch sway") else { return ExitCode.error }
  var failure: String?
  let readEvents = {
    let messages: [(type: UInt32, payload: String)]
    do {
      messages = try connection.readAvailable()
    } catch {
      failure = "\(error)"
      loop.stop()
      return
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
  let events = loop.addSource(fd: connection.fileDescriptor) { _ in readEvents() }
  // Events that arrived while subscribing are already buffered.
  if connection.hasBufferedMessages { readEvents() }
  do {
    try loop.run()
  } catch {
    failure = error.description
  }
  // The loop's handlers hold the feed and the loop: let go.
  loop.remove(events)
  return endWatch("watch sway", loop, feed, failure: failure)
}

/// `wl-toast watch river`: follows river's status protocol on a Wayland
/// connection of its own and shows the mode (and, when asked, focused tags
/// and urgent tags) as toasts of the display's owner (``OwnerFeed``), until
/// river goes away (status 0) or a signal arrives.
///
/// Returns the exit status; errors are one line on standard error.
package func runRiverWatch(_ options: RiverWatchOptions) -> Int32 {
  var watcher = RiverWatcher(options: options)
  let display: Display
  do {
    display = try Display()
  } catch {
    printError("wl-toast: \(error)")
    return ExitCode.error
  }
  // Events come only once the loop dispatches, with the feed there.
  var feed: OwnerFeed?
  let status: RiverStatus
  do {
    status = try RiverStatus(display: display) { event in
      switch watcher.handle(event) {
      case .show(let text, let tag, let sticky):
        feed?.show(Toast(text, style: .banner, timeout: sticky ? 0 : 1), tag: tag)
      case .hide(let tag):
        feed?.hide(tag: tag)
      case nil:
        break
      }
    }
  } catch .missingGlobal(let interface) {
    // river 0.4 moved status into its window managers: it offers none of this.
    printError(
      "wl-toast: watch river: the compositor does not offer \(interface), river's status"
        + " protocol, which river 0.2 and 0.3 have; river 0.4 and later leave status to their"
        + " window managers, and other compositors have none")
    return ExitCode.error
  } catch {
    printError("wl-toast: watch river: \(error)")
    return ExitCode.error
  }
  if status.version < 3 {
    printError(
      "wl-toast: watch river: river offers its status protocol at version \(status.version),"
        + " which reports no modes (3 does)")
  }
  guard let (loop, started) = startWatch("watch river") else { return ExitCode.error }
  feed = started
  loop.add(display)
  var failure: String?
  do {
    try loop.run()
  } catch {
    // River going away ends the watch as it should; anything else is an error.
    if case .connectionLost = error.waylandError {} else { failure = error.description }
  }
  withExtendedLifetime(status) {}
  return endWatch("watch river", loop, started, failure: failure)
}

/// The loop of a watch, which a signal stops, and its feed to the display's
/// owner; nil (after one line on standard error) when there is no owner to be had.
private func startWatch(_ context: String) -> (EventLoop, OwnerFeed)? {
  do {
    let loop = try EventLoop()
    loop.onSignal = { _ in loop.stop() }
    return (loop, try OwnerFeed(loop: loop, context: context))
  } catch let error as CommandError {
    printError("wl-toast: \(error)")
  } catch {
    printError("wl-toast: \(context): \(error)")
  }
  return nil
}

/// Ends a watch: hides its lasting toasts, lets go of the owner, and returns
/// the exit status, after `failure` (if any) in one line.
private func endWatch(_ context: String, _ loop: EventLoop, _ feed: OwnerFeed, failure: String?)
  -> Int32
{
  feed.close()
  loop.onSignal = nil
  guard let failure else { return ExitCode.success }
  printError("wl-toast: \(context): \(failure)")
  return ExitCode.error
}
