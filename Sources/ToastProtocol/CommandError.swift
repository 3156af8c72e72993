import SystemSupport

/// Why a command could not hand its toast over or hear how it ended. The case
/// decides the exit status (``exitCode``).
package enum CommandError: Error, Equatable, CustomStringConvertible {
  /// The owner refused the content as a usage error (such as invalid markup).
  case refused(String)
  /// The owner could not carry out the request (such as a lost compositor).
  case failed(String)
  /// The private socket directory or socket cannot be used.
  case rendezvous(RendezvousError)
  /// A system call failed: what was being done and the errno.
  case system(String, errno: Int32)
  /// The owner sent something that is not a reply.
  case badReply(MessageError)
  /// The request does not fit in one message.
  case messageTooLarge
  /// The owner did not answer in time.
  case noAnswer
  /// A newly started owner did not show its first toast in time (a frozen compositor?).
  case ownerFrozen
  /// The owner ended while the command still needed it: what it was waiting for.
  case ownerGone(String)
  /// Owners kept exiting while the command tried to hand its toast over.
  case ownerKeepsLeaving
  /// `wl-toast daemon` found an owner already running at this socket.
  case ownerRunning(String)
  /// The owner running (its process id, when known) is older than this
  /// command and does not know its request (a watcher's `hold`).
  case ownerOlder(pid: Int32?)

  /// One line without the program name.
  package var description: String {
    switch self {
    case .refused(let reason), .failed(let reason): reason
    case .rendezvous(let error): error.description
    case .system(let what, let code): "cannot \(what): \(Errno(rawValue: code))"
    case .badReply(let error): "unexpected answer from the toast owner: \(error)"
    case .messageTooLarge: "the message is too large to hand over"
    case .noAnswer: "the toast owner did not answer"
    case .ownerFrozen: "the toast owner did not answer; is the compositor responding?"
    case .ownerGone(let moment): "the toast owner exited \(moment)"
    case .ownerKeepsLeaving: "the owner of the toasts keeps going away; try again"
    case .ownerRunning(let path): "daemon: an owner already serves this display at \(path)"
    case .ownerOlder(let pid):
      "the toast owner running\(pid.map { " (pid \($0))" } ?? "") is older than this wl-toast:"
        + " restart it (end it, then start wl-toast daemon again if it ran as one)"
    }
  }

  /// The exit status of `wl-toast` for this error.
  package var exitCode: Int32 {
    switch self {
    case .refused: ExitCode.usage
    default: ExitCode.error
    }
  }
}
