import Glibc
import SystemSupport
import ToastProtocol

extension Owner {
  /// Starts serving applications' notifications, from the owner's command
  /// line (`answering` nil: `wl-toast daemon --notifications` became this
  /// owner) or a command's request on `answering`. Once the name is the
  /// server's, the owner is resident and the command hears `accepted`;
  /// otherwise it hears why not in one line, and an owner started for it
  /// prints that line and stops with ``ExitCode/error``.
  func startNotifications(replace: Bool, rules json: JSONValue, answering fd: Int32?) {
    if let fd { startWaiters.insert(fd) }
    let rules: [NotificationRule]
    do {
      rules = try Self.rules(of: json)
    } catch {
      answerStart("notification rules: \(error)", to: fd)
      return
    }
    if let notifications {
      // Serving already (or starting): the newest rules apply from now on.
      notifications.rules = rules
      notifications.start(replace: replace) { [unowned self] reason in
        answerStart(reason, to: fd)
      }
      return
    }
    let server = NotificationServer(
      presenter: presenter, rules: rules, memory: notificationMemory)
    notifications = server
    // The command that asked waits for the bus: the owner does not linger out meanwhile.
    cancelLinger()
    // The server calls from inside itself: it is let go of in the next turn.
    server.onStop = { [unowned self, weak server] reason in
      printError("wl-toast: \(reason)")
      presenter.eventLoop.addTimer(after: .zero) { [unowned self] in
        if let server, notifications === server {
          notificationMemory = server.memory
          notifications = nil
        }
      }
    }
    server.start(replace: replace) { [unowned self, weak server] reason in
      if reason == nil {
        linger = nil
        server?.hold(presenter.doNotDisturb == .on)
      } else {
        presenter.eventLoop.addTimer(after: .zero) { [unowned self] in
          if let server, notifications === server {
            notificationMemory = server.memory
            notifications = nil
          }
        }
      }
      answerStart(reason, to: fd)
    }
  }

  /// Tells the command on `fd` how starting the server went (nil: it
  /// serves); an owner started to serve notifications ends with
  /// ``ExitCode/error`` when it cannot, once the toasts commands asked of it
  /// meanwhile (a key binding pressed as the session starts) are over.
  private func answerStart(_ reason: String?, to fd: Int32?) {
    if let fd {
      // A command that went meanwhile hears nothing (its number may be another's now).
      if startWaiters.remove(fd) != nil {
        send(reason.map(OwnerReply.failed) ?? .accepted, to: fd)
      }
      scheduleLingerIfIdle()
    } else if let reason {
      printError("wl-toast: \(reason)")
      notificationsFailure = reason
      linger = 0
      scheduleLingerIfIdle()
    }
  }

  /// The rules a command sent, as JSON: an array of ``NotificationRule/json``.
  private static func rules(of json: JSONValue) throws(MessageError) -> [NotificationRule] {
    guard case .array(let items) = json else {
      throw .badField("rules", expected: "an array of rules")
    }
    var rules: [NotificationRule] = []
    for item in items { rules.append(try NotificationRule(json: item)) }
    return rules
  }

  /// A notifications request other than `serve`, from `fd`.
  func handle(_ request: NotificationsRequest, from fd: Int32) {
    if case .serve(let replace, let rules) = request {
      startNotifications(replace: replace, rules: rules, answering: fd)
      return
    }
    guard let notifications, notifications.isServing else {
      send(
        .failed(
          "this display's owner serves no notifications (see wl-toast daemon --notifications)"),
        to: fd)
      return
    }
    let problem: String?
    switch request {
    case .serve:
      return
    case .list(let from), .history(let from):
      // The first page takes the listing; the later ones of the same
      // connection page through it as it was, whatever came and went since.
      let listing: NotificationServer.Listing
      if from > 0, let kept = listings[fd] {
        listing = kept
      } else if case .history = request {
        listing = notifications.history()
      } else {
        listing = notifications.list()
      }
      let page = NotificationListing.page(of: listing.objects, from: from)
      if case .listed(_, more: true) = page { listings[fd] = listing } else { listings[fd] = nil }
      send(page, to: fd)
      return
    case .restore:
      notifications.restore()
      problem = nil
    case .dismiss(let id):
      problem = notifications.dismiss(id: id)
    case .invoke(let id, let action):
      problem = notifications.invoke(id: id, action: action)
    case .focus:
      problem = notifications.focus()
    }
    send(problem.map(OwnerReply.failed) ?? .accepted, to: fd)
  }
}
