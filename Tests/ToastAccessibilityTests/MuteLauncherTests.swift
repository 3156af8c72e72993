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
    announcer.callLimit = .milliseconds(500)
    announcer.start()
    func turn() throws { try loop.iterate(timeout: .milliseconds(20)) }
    try waitUntil("the announcer to ask for the address") {
      try turn()
      return mute.addressAsked == 1
    }
    #expect(announcer.state == "connecting")
    announcer.show(id: 1, toast: Toast("Shown"), buttons: [])
    try waitUntil("the call's limit to pass") {
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
    try waitUntil("the second call's limit to pass") {
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
}
