import Glibc
import SystemSupport
import TestSupport
import Testing

@testable import Bus

/// The handshake's limit, on real sockets: a bus that accepts and does not
/// answer is closed as unanswered once ``BusConnection/answerLimit`` has
/// passed; a bus that answered leaves no timer to wake the loop.
struct BusDeadlineTests {
  @Test(arguments: SilentBus.Mode.handshakeUnanswered)
  func aBusThatDoesNotAnswerTheHandshakeIsClosedUnansweredAtTheLimit(_ mode: SilentBus.Mode)
    throws
  {
    let bus = try SilentBus(mode)
    let loop = try EventLoop(signals: [])
    let started = MonotonicTime.now
    let connection = try #require(BusConnection(address: BusAddress(bus.address), loop: loop))
    var closedAfter: Duration?
    var ready = false
    connection.onClose = { closedAfter = MonotonicTime.now - started }
    connection.onReady = { ready = true }
    try waitUntil("the connection to close", timeout: 30) {
      try loop.iterate(timeout: .milliseconds(100))
      return closedAfter != nil
    }
    #expect(connection.closedUnanswered)
    #expect(!ready && connection.uniqueName == nil)
    #expect(try #require(closedAfter) >= BusConnection.answerLimit)
    try waitUntil("the bus to see the connection closed") {
      bus.connections == 1 && bus.closedConnections == 1
    }
    #expect(
      BusConnection.unansweredLine("the session bus", at: BusAddress(bus.address))
        == "the session bus at \(bus.socket) did not answer within 5 s")
  }

  @Test func aCallWithALimitUnansweredHearsNoAnswerAndTheConnectionStays() throws {
    let bus = try SilentBus(.helloOnly)
    let loop = try EventLoop(signals: [])
    let connection = try greetedConnection(to: bus.address, loop: loop)
    var closed = false
    connection.onClose = { closed = true }
    #expect(connection.uniqueName == ":1.1")
    var answer: Result<BusMessage, BusConnection.CallError>?
    connection.call(
      destination: BusConnection.busName, path: "/org/freedesktop/DBus",
      interface: BusConnection.busName, member: "ListNames",
      limit: .failing(after: .milliseconds(300))
    ) { answer = $0 }
    try waitUntil("the call's limit to pass") {
      try loop.iterate(timeout: .milliseconds(50))
      return answer != nil
    }
    guard case .failure(let error) = answer else {
      Issue.record("answered: \(String(describing: answer))")
      return
    }
    #expect(error.isNoAnswer && error.message == "no answer within 300 ms")
    #expect(!closed && !connection.isClosed && !connection.closedUnanswered)
  }

  @Test func aCallWithoutALimitHearsNoAnswerOnceAfterTheConnectionsCallLimit() throws {
    let bus = try SilentBus(.helloOnly)
    let loop = try EventLoop(signals: [])
    let connection = try greetedConnection(
      to: bus.address, loop: loop, callLimit: .milliseconds(300))
    var answers: [Result<BusMessage, BusConnection.CallError>] = []
    let started = MonotonicTime.now
    connection.call(
      destination: ":1.7", path: "/", interface: "org.example.Peer", member: "Never"
    ) { answers.append($0) }
    #expect(connection.waitingCalls == 1)
    try waitUntil("the call's limit to pass") {
      try loop.iterate(timeout: .milliseconds(50))
      return !answers.isEmpty
    }
    #expect(MonotonicTime.now - started >= .milliseconds(300))
    // Twice the limit more: heard once, nothing left waiting.
    let after = MonotonicTime.now
    while MonotonicTime.now - after < .milliseconds(600) {
      try loop.iterate(timeout: .milliseconds(50))
    }
    #expect(answers.count == 1)
    guard case .failure(let error) = answers.first else {
      Issue.record("answered: \(answers)")
      return
    }
    #expect(error.isNoAnswer && error.message == "no answer within 300 ms")
    #expect(connection.waitingCalls == 0 && !connection.isClosed)
  }

  @Test func aForgottenCallIsNeverHeard() throws {
    let bus = try SilentBus(.helloOnly)
    let loop = try EventLoop(signals: [])
    let connection = try greetedConnection(
      to: bus.address, loop: loop, callLimit: .milliseconds(200))
    var heard = 0
    let serial = try #require(
      connection.call(
        destination: ":1.7", path: "/", interface: "org.example.Peer", member: "Never"
      ) { _ in heard += 1 })
    connection.forget(serial)
    #expect(connection.waitingCalls == 0)
    // Past the limit: no timer fires (the loop sleeps the whole wait).
    let before = loop.wakeUps
    let start = MonotonicTime.now
    try loop.iterate(timeout: .milliseconds(500))
    #expect(MonotonicTime.now - start >= .milliseconds(450), "a whole sleep, no timer at 200 ms")
    #expect(loop.wakeUps - before == 1 && heard == 0)
    connection.close()
    #expect(heard == 0, "not heard when the connection closes either")
  }

  @Test func aBusThatAnsweredLeavesNoTimerToWakeTheLoop() throws {
    let bus = try NotificationBus()
    let loop = try EventLoop(signals: [])
    let connection = try greetedConnection(to: bus.address, loop: loop)
    // What the bus sends after Hello (NameAcquired) read first: until the
    // loop sleeps a whole 0.3 s.
    try waitUntil("the bus to fall quiet") {
      let start = MonotonicTime.now
      try loop.iterate(timeout: .milliseconds(300))
      return MonotonicTime.now - start >= .milliseconds(300)
    }
    // Past the handshake's limit: one sleep, not woken by its timer.
    let wait = BusConnection.answerLimit + .seconds(1)
    let before = loop.wakeUps
    let start = MonotonicTime.now
    try loop.iterate(timeout: wait)
    #expect(MonotonicTime.now - start >= wait - .milliseconds(50))
    #expect(loop.wakeUps - before == 1)
    #expect(!connection.isClosed && !connection.closedUnanswered)
  }
}
