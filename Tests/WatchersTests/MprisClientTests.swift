import Bus
import Glibc
import SystemSupport
import TestSupport
import Testing

@testable import Watchers

/// The MPRIS client on a private bus with players that never answer
/// `GetAll`: at most one call waits for each, whatever its signals.
@Suite(.serialized)
struct MprisClientTests {
  @Test func aMutePlayerTakingItsNameAgainAndAgainKeepsOneCallWaiting() throws {
    let players = try MediaPlayers()
    let mute = try players.startTestPlayer("mute", answersGetAll: false)
    let loop = try EventLoop(signals: [])
    let client = try #require(
      MprisClient(address: BusAddress(players.address), loop: loop, callLimit: .seconds(3)))
    var changedTitles: [String: [String]] = [:]
    var appeared = 0
    client.onEvent = { event in
      switch event {
      case .appeared: appeared += 1
      case .changed(let player, let properties):
        changedTitles[player, default: []].append(properties.track?.title ?? "")
      default: break
      }
    }
    var mostWaiting = 0
    func turn() throws {
      try loop.iterate(timeout: .milliseconds(20))
      mostWaiting = max(mostWaiting, client.waitingCalls)
    }
    try waitUntil("the client to ask the mute player") {
      try turn()
      return mute.getAllUnanswered >= 1
    }
    // Subscribed (its calls to the bus answered): from now on, only the mute player's.
    try waitUntil("the client's calls to the bus answered") {
      try turn()
      return client.waitingCalls == 1
    }
    mostWaiting = 0
    // 2,000 times the name dropped and taken again, then a flood of changes;
    // a change after both tells when the client has read them all.
    try mute.send(#"{"rename": 2000}"#)
    try mute.send(#"{"flood": 10000}"#)
    try mute.send(#"{"n": 1, "title": "Last", "artist": "A"}"#)
    try waitUntil("the client to read every signal", timeout: 60) {
      try turn()
      return changedTitles.values.contains { $0.last == "Last" }
    }
    #expect(appeared == 2001, "each time the name was taken")
    #expect(mostWaiting == 1, "one GetAll at a time: \(mostWaiting)")

    // A player that answers, on the same bus, is read and followed.
    let good = try players.startTestPlayer("good")
    try waitUntil("the good player to appear") {
      try turn()
      return appeared == 2002
    }
    try good.send(#"{"n": 2, "title": "Good", "artist": "A"}"#)
    try waitUntil("the good player's change") {
      try turn()
      return changedTitles.values.contains { $0.last == "Good" }
    }
    // The mute player's last GetAll heard no answer within the limit: none waits.
    try waitUntil("the mute player's call to run out", timeout: 20) {
      try turn()
      return client.waitingCalls == 0
    }
    client.close()
  }

  @Test func playerctldIsNoPlayerAndAnAnswerAfterThePatienceIsStillTheBaseline() throws {
    let players = try MediaPlayers()
    let slow = try players.startTestPlayer("slow")
    try slow.send(#"{"n": 1, "title": "Before", "artist": "A", "status": "Playing"}"#)
    try slow.sync()
    try players.startPlayerctld()
    // The player found at start answers only after the client's patience.
    kill(slow.process.pid, SIGSTOP)
    defer { kill(slow.process.pid, SIGCONT) }
    let loop = try EventLoop(signals: [])
    let client = try #require(MprisClient(address: BusAddress(players.address), loop: loop))
    var events: [MprisClient.Event] = []
    client.onEvent = { events.append($0) }
    let patience = Double(MprisClient.baselinePatience.components.seconds)
    let resumed = now() + patience + 1
    while now() < resumed { try loop.iterate(timeout: .milliseconds(50)) }
    kill(slow.process.pid, SIGCONT)
    try waitUntil("the slow player's answer") {
      try loop.iterate(timeout: .milliseconds(20))
      return events.contains {
        switch $0 {
        case .baseline, .changed: true
        default: false
        }
      }
    }
    let appeared = events.filter {
      if case .appeared = $0 { return true }
      return false
    }
    #expect(appeared.count == 1, "the test player alone: \(events)")
    #expect(
      events.contains {
        if case .baseline(_, let properties) = $0 { return properties.track?.title == "Before" }
        return false
      }, "\(events)")
    client.close()
  }
}
