import Glibc
import SystemSupport
import ToastKit
import ToastProtocol

/// Serves toasts on `listener` until the last is gone and `linger` seconds
/// have passed (never, for nil), or the compositor goes away; exits with the
/// owner's status. Without a compositor (or one without layer-shell), every
/// command waiting hears why and the process exits with ``ExitCode/error``.
/// With `notifications`, the owner also serves `org.freedesktop.Notifications`
/// from the start, and ends with ``ExitCode/error`` when it cannot.
package func serve(
  _ listener: consuming Rendezvous.Listener, linger: Double?,
  notifications: NotificationsRequest? = nil
) -> Never {
  let rendezvous: Rendezvous
  do {
    rendezvous = try Rendezvous()
  } catch {
    refuseClients(of: listener) { _ in .failed(error.description) }
    exit(ExitCode.error)
  }
  let status: Int32
  do {
    // The owner (its presenter, its toasts) is released before the process
    // exits, also with toasts still on screen when the compositor went away:
    // `exit(owner.run())` kept them alive to the end, and LeakSanitizer reported
    // the weak-reference side table of such a toast (Swift keeps its address
    // encoded in the object's reference count, where no leak checker finds it).
    let presenter = try ToastPresenter()
    status = Owner(
      presenter: presenter, rendezvous: rendezvous, listener: listener, linger: linger,
      notifications: notifications
    ).run()
  } catch {
    // No compositor, or one without layer-shell: every command waiting hears
    // why, unless its content was wrong in the first place (a usage error).
    // So does `wl-toast daemon`'s standard error (a command's owner has none).
    // The socket's name goes first: a command that heard the failure and
    // starts again (or a daemon) must not find this owner still there.
    printError("wl-toast: \(error.description)")
    rendezvous.retire(listener)
    refuseClients(of: listener) { text in
      if case .show(_, let toast, _, _)? = try? OwnerRequest(decoding: text),
        let problem = Owner.problem(with: toast)
      {
        return .refused(problem)
      }
      return .failed(error.description)
    }
    exit(ExitCode.error)
  }
  exit(status)
}

/// The listening socket systemd passes as descriptor 3 (`LISTEN_FDS=1` for this
/// process), made non-blocking; nil when there is none of the right kind. The
/// socket file is systemd's: the owner leaves it (inode 0 matches no file).
/// `LISTEN_PID`, `LISTEN_FDS` and `LISTEN_FDNAMES` are unset, as
/// `sd_listen_fds(3)` does, found or not.
package func activatedListener() -> Rendezvous.Listener? {
  let fd: Int32 = 3
  defer {
    unsetenv("LISTEN_PID")
    unsetenv("LISTEN_FDS")
    unsetenv("LISTEN_FDNAMES")
  }
  guard let pid = getenv("LISTEN_PID").flatMap({ pid_t(String(cString: $0)) }), pid == getpid(),
    getenv("LISTEN_FDS").map({ String(cString: $0) }) == "1"
  else { return nil }
  guard Rendezvous.Listener.isListeningSocket(fd) else { return nil }
  _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
  _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
  return Rendezvous.Listener(socket: FileDescriptor(fd), inode: 0, lock: nil)
}
