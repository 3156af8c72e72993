import Glibc
import ToastKit
import ToastProtocol

/// `wl-toast watch sway`: follows sway's IPC events and shows the binding mode
/// (and, when asked, workspace changes) as toasts, until sway exits or a signal.
///
/// Returns the exit status; errors are one line on standard error.
package func runSwayWatch(_ options: SwayWatchOptions) -> Int32 {
  var watcher = SwayWatcher(options: options)
  let connection: SwayIPCConnection
  let presenter: ToastPresenter
  do {
    connection = try SwayIPCConnection(socketPath: nil)
    try connection.subscribe(to: watcher.subscriptions)
  } catch {
    printError("wl-toast: watch sway: \(error)")
    return ExitCode.error
  }
  do {
    presenter = try ToastPresenter()
  } catch {
    printError("wl-toast: \(error)")
    return ExitCode.error
  }
  var failure: String?
  let loop = presenter.eventLoop
  loop.onSignal = { _ in loop.stop() }
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
        let toast = Toast(text, style: .banner, timeout: sticky ? 0 : 1)
        presenter.showOrUpdate(toast, tag: sticky ? "sway-mode" : "sway-workspace")
      case .hide:
        presenter.hide(tag: "sway-mode")
      case .layout(let name):
        presenter.showOrUpdate(Toast(name, timeout: 1), tag: "sway-layout")
      case nil:
        break
      }
    }
  }
  let events = loop.addSource(fd: connection.fileDescriptor) { _ in readEvents() }
  // Events that arrived while subscribing are already buffered.
  if connection.hasBufferedMessages { readEvents() }
  do {
    try presenter.run()
  } catch {
    failure = error.description
  }
  // The loop's handlers hold the presenter, which holds the loop: let go.
  loop.remove(events)
  loop.onSignal = nil
  if let failure {
    printError("wl-toast: watch sway: \(failure)")
    return ExitCode.error
  }
  return ExitCode.success
}

/// `wl-toast watch river`: follows river's status protocol on the presenter's
/// own connection and shows the mode (and, when asked, focused tags and urgent
/// tags) as toasts, until river goes away (status 0) or a signal arrives.
///
/// Returns the exit status; errors are one line on standard error.
package func runRiverWatch(_ options: RiverWatchOptions) -> Int32 {
  var watcher = RiverWatcher(options: options)
  let presenter: ToastPresenter
  do {
    presenter = try ToastPresenter()
  } catch {
    printError("wl-toast: \(error)")
    return ExitCode.error
  }
  let loop = presenter.eventLoop
  let status: RiverStatus
  do {
    status = try RiverStatus(display: presenter.display) { event in
      switch watcher.handle(event) {
      case .show(let text, let tag, let sticky):
        presenter.showOrUpdate(Toast(text, style: .banner, timeout: sticky ? 0 : 1), tag: tag)
      case .hide(let tag):
        presenter.hide(tag: tag)
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
  loop.onSignal = { _ in loop.stop() }
  var failure: String?
  do {
    try presenter.run()
  } catch {
    // River going away ends the watch as it should; anything else is an error.
    if case .connectionLost? = error.underlying {} else { failure = error.description }
  }
  loop.onSignal = nil
  withExtendedLifetime(status) {}
  if let failure {
    printError("wl-toast: watch river: \(failure)")
    return ExitCode.error
  }
  return ExitCode.success
}
