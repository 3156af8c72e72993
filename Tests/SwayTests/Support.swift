import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import ToastCommand
import ToastKit
import ToastRendering

/// A connection to the running owner, its descriptor the caller's to close;
/// throws when no owner runs.
func connectToOwner(_ rendezvous: Rendezvous) throws -> Int32 {
  guard let connection = try rendezvous.connect() else {
    throw HarnessError("no owner runs at \(rendezvous.socketPath)")
  }
  return connection.take()
}

/// Sends raw bytes to the owner on a connected socket and returns its answer
/// (waiting up to 5 s for it).
func exchangeRaw(_ bytes: [UInt8], on fd: Int32) throws -> String {
  guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
    throw HarnessError("cannot send to the owner: \(Errno.current)")
  }
  var ready = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
  guard poll(&ready, 1, 5000) > 0 else { throw HarnessError("the owner did not answer") }
  var reply = [UInt8](repeating: 0, count: 4096)
  let count = recv(fd, &reply, reply.count, 0)
  return String(decoding: reply[0..<max(count, 0)], as: UTF8.self)
}

extension String {
  /// The string without one trailing newline.
  var trimmingNewline: String { hasSuffix("\n") ? String(dropLast()) : self }
}
