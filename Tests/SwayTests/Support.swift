import CompositorCases
import Glibc
import SystemSupport
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastRendering

/// The colour of the HUD's box over sway's desktop.
let hudColor = Looks.hudColor(HeadlessSway.self)

/// A sway desk whose commands keep do-not-disturb's state in a runtime
/// directory of their own (the state is per user: other suites must not see it).
func deskWithOwnRuntime() throws -> Desk<HeadlessSway> {
  let desk = try Desk<HeadlessSway>()
  let runtime = desk.sway.runtimeDirectory + "/user-runtime"
  #expect(mkdir(runtime, 0o700) == 0)
  desk.environment["XDG_RUNTIME_DIR"] = runtime
  return desk
}

/// A sway desk whose commands (and so their owner) use `bus`'s session bus.
func deskOnBus(_ bus: AccessibilityBus) throws -> Desk<HeadlessSway> {
  let desk = try Desk<HeadlessSway>()
  desk.environment.merge(bus.clientEnvironment) { $1 }
  return desk
}

/// Runs the presenter's loop for `duration` and returns how often it woke up.
func wakeUps(of presenter: ToastPresenter, during duration: Duration) throws -> Int {
  let before = presenter.eventLoop.wakeUps
  var done = false
  presenter.eventLoop.addTimer(after: duration) { done = true }
  while !done { try presenter.dispatch() }
  return presenter.eventLoop.wakeUps - before
}

/// Runs the presenter's loop until a quarter second passes in which only
/// the timer that ends it wakes the loop: the compositor's last replies
/// (buffer releases, a frame callback, a window list) have arrived, however
/// late a loaded machine delivers them.
func settle(_ presenter: ToastPresenter) throws {
  try waitUntil("the presenter's loop to go quiet", timeout: 20) {
    try wakeUps(of: presenter, during: .milliseconds(250)) <= 1
  }
}

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
  try sendRaw(bytes, on: fd)
  return try receiveRaw(on: fd)
}

/// Sends raw bytes to the owner on a connected socket.
func sendRaw(_ bytes: [UInt8], on fd: Int32) throws {
  guard send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else {
    throw HarnessError("cannot send to the owner: \(Errno.current)")
  }
}

/// The owner's next answer on a connected socket (waiting up to 5 s for it).
func receiveRaw(on fd: Int32) throws -> String {
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
