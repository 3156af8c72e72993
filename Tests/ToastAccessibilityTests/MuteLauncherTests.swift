import Bus
import SystemSupport
import TestSupport
import Testing
import ToastModel

@testable import ToastAccessibility

/// The announcer beside a launcher that owns `org.a11y.Bus`, says a screen
/// reader is on and never gives the accessibility bus's address
/// (`scripts/mute-launcher.py`, on a private session bus).
@Suite(.serialized)
struct MuteLauncherTests {
  @Test func aLauncherThatNeverGivesTheAddressFailsAtTheLimitAndIsAskedAgainOnAChange() throws {
    let bus = try AccessibilityBus(launcher: false)
    let mute = try bus.startMuteLauncher()
    let loop = try EventLoop(signals: [])
    let announcer = ScreenReaderAnnouncer(loop: loop, version: "0")
    announcer.sessionAddress = { BusAddress(bus.sessionAddress) }
    announcer.callLimit = .seconds(3)
    announcer.start()
    func turn() throws { try loop.iterate(timeout: .milliseconds(20)) }
    try waitUntil("the announcer to ask for the address") {
      try turn()
      return mute.addressAsked == 1
    }
    #expect(announcer.state == "connecting")
    announcer.show(id: 1, toast: Toast("Shown"), buttons: [])
    try waitUntil("the call's limit to pass", timeout: 20) {
      try turn()
      return announcer.state == "failed"
    }
    // Nothing changed: not asked again.
    let failed = MonotonicTime.now
    while MonotonicTime.now - failed < .seconds(1) { try turn() }
    #expect(mute.addressAsked == 1 && announcer.state == "failed")

    // Its status changed: asked again, failed again.
    try mute.sayStatusChanged()
    try waitUntil("the announcer to ask again") {
      try turn()
      return mute.addressAsked == 2
    }
    try waitUntil("the second call's limit to pass", timeout: 20) {
      try turn()
      return announcer.state == "failed"
    }

    // It lets go of the name and at-spi2-core's launcher takes it: connected.
    try mute.release()
    try bus.startLauncher()
    try bus.setScreenReader(true)
    try waitUntil("the announcer on the accessibility bus", timeout: 20) {
      try turn()
      return announcer.state == "connected"
    }
    #expect(mute.addressAsked == 2)
  }

  @Test func aLauncherFloodingStatusChangesIsReadOneCallAtATime() throws {
    let bus = try AccessibilityBus(launcher: false)
    let mute = try bus.startMuteLauncher(answersStatus: false)
    let loop = try EventLoop(signals: [])
    let announcer = ScreenReaderAnnouncer(loop: loop, version: "0")
    announcer.sessionAddress = { BusAddress(bus.sessionAddress) }
    announcer.callLimit = .seconds(10)
    announcer.start()
    var mostWaiting = 0
    // The test's own call to the bus, waiting: not the announcer's.
    var ownCall = 0
    func turn() throws {
      try loop.iterate(timeout: .milliseconds(20))
      mostWaiting = max(mostWaiting, (announcer.session?.waitingCalls ?? 0) - ownCall)
    }
    try waitUntil("the announcer to ask for the status") {
      try turn()
      return mute.statusAsked == 1
    }
    // Its calls to the bus answered: from now on, only the launcher's.
    try waitUntil("the bus's answers") {
      try turn()
      return announcer.session?.waitingCalls == 1
    }
    mostWaiting = 0
    // 1,000 changes that each say to read the status again, read up to a
    // call to the bus made after them: the call still waits, one more to come.
    try mute.floodStatusChanges()
    ownCall = 1
    announcer.session?.call(
      destination: BusConnection.busName, path: "/org/freedesktop/DBus",
      interface: BusConnection.busName, member: "GetId"
    ) { _ in ownCall = 0 }
    try waitUntil("the announcer to read the flood", timeout: 20) {
      try turn()
      return ownCall == 0
    }
    #expect(mostWaiting == 1, "one status read at a time: \(mostWaiting)")
    // Each call runs out in turn: asked once more after the flood, not 1,000 times.
    try waitUntil("the reads to run out", timeout: 60) {
      try turn()
      return mute.statusAsked == 2 && announcer.session?.waitingCalls == 0
    }
    #expect(mostWaiting == 1 && mute.statusAsked == 2)
    #expect(announcer.state == "no-screen-reader", "no answer: no screen reader")
  }
}
