import Glibc
import ToastCommand
import ToastKit

/// `wl-toast watch sway`: follows sway's IPC events and shows the binding mode
/// (and, when asked, workspace changes) as toasts, until sway exits or a signal.
///
/// Returns the exit status; errors are one line on standard error.
public func runSwayWatch(workspaces: Bool) -> Int32 {
  var watcher = SwayWatcher(options: SwayWatchOptions(workspaces: workspaces))
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
