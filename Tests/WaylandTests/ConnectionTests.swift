import Glibc
import SystemSupport
import TestSupport
import Testing
import Wayland

/// Tests against a real headless sway: what a user would see on screen and what
/// the client receives from real (virtual) input devices.
@Suite(.serialized)
struct LiveSwayTests {
  static let red = RGB(0xcc, 0x33, 0x22)

  @Test func layerSurfaceIsShownReceivesAClickAndGoesAway() throws {
    let sway = try HeadlessSway()
    let input = try VirtualInput(
      socketPath: sway.socketPath, width: sway.outputWidth, height: sway.outputHeight)
    // Park the pointer in a corner, away from where the surface will appear.
    try input.move(x: 0, y: 0)
    #expect(try sway.pixel(x: 640, y: 360) == HeadlessSway.background)

    let surface = try ColorSurface(
      socketPath: sway.socketPath, width: 200, height: 100, argb: 0xffcc_3322)
    #expect(try surface.pump { surface.isMapped })

    // Centred: a 200x100 box around the middle of the 1280x720 output.
    let shot = try sway.screenshot()
    #expect(shot.boundingBox(of: Self.red) == Box(x: 540, y: 310, width: 200, height: 100))
    #expect(shot.pixel(x: 539, y: 360) == HeadlessSway.background)

    try input.click(x: 600, y: 330)
    #expect(try surface.pump { surface.pointerEvents.count >= 3 })
    #expect(
      surface.pointerEvents == [
        .enter(x: 60, y: 20), .button(code: 0x110, pressed: true),
        .button(code: 0x110, pressed: false),
      ])

    surface.unmap()
    try waitUntil("the desktop to show again where the surface was") {
      try sway.pixel(x: 640, y: 360) == HeadlessSway.background
    }
    #expect(try sway.screenshot().boundingBox(of: Self.red) == nil)
  }
}

@Suite struct WestonTests {
  @Test func missingLayerShellIsNamed() throws {
    let weston = try HeadlessWeston()
    let display = try Display(name: weston.socketPath)
    let registry = try Registry(display: display)
    #expect(registry.globals(of: WlCompositor.self).count == 1)
    #expect(throws: WaylandError.missingGlobal(interface: "zwlr_layer_shell_v1")) {
      try registry.bind(ZwlrLayerShellV1.self)
    }
    let message = WaylandError.missingGlobal(interface: "zwlr_layer_shell_v1").description
    #expect(message.contains("zwlr_layer_shell_v1"))
    #expect(message.contains("sway"))
  }
}

@Suite struct ConnectionTests {
  @Test func noCompositorGivesAnErrorNamingTheDisplay() throws {
    let error = try #require(
      #expect(throws: WaylandError.self) { try Display(name: "/tmp/wl-toast-no-such-display") })
    #expect(error.description.contains("/tmp/wl-toast-no-such-display"))
  }

  @Test func aCompositorWhoseBacklogIsFullIsGivenUpOnAtTheLimit() throws {
    // A stopped compositor that many clients tried: its backlog (0: one
    // connection) taken, a connect waits for room.
    let silent = try SilentSocket(backlog: 0)
    let queued = QueuedConnections(toSocketAt: silent.path)
    defer { withExtendedLifetime((silent, queued)) {} }
    #expect(queued.filledBacklog)
    let started = now()
    #expect(throws: WaylandError.noAnswer(display: silent.path, within: .milliseconds(300))) {
      _ = try Display(name: silent.path, within: .milliseconds(300))
    }
    let waited = now() - started
    #expect(waited >= 0.25 && waited < 5, "waited \(waited) s")
  }

  @Test func aCompositorThatNeverAnswersIsGivenUpOnAtTheLimit() throws {
    // The connection is made (the backlog holds it), as to a stopped
    // compositor, and nothing answers.
    let silent = try SilentSocket(backlog: 4)
    defer { withExtendedLifetime(silent) {} }
    let path = silent.path
    let display = try Display(name: path)
    let started = now()
    #expect(throws: WaylandError.noAnswer(display: path, within: .milliseconds(300))) {
      _ = try Registry(display: display, within: .milliseconds(300))
    }
    let waited = now() - started
    #expect(waited >= 0.3 && waited < 5, "waited \(waited) s")
    let message = WaylandError.noAnswer(display: "wayland-1", within: .seconds(5)).description
    #expect(
      message
        == "the Wayland compositor at 'wayland-1' did not answer in 5 s; is it stopped or hung?")
  }
}
