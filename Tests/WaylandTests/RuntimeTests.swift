import Glibc
import SystemSupport
import TestSupport
import Testing
import Wayland

/// The runtime on a real compositor: event loop, buffers, version gates and errors.
@Suite(.serialized)
struct RuntimeTests {
  @Test func timersFireInDeadlineOrderWithoutIdleWakeUps() throws {
    let sway = try HeadlessSway()
    let display = try Display(name: sway.socketPath)
    let loop = try EventLoop.serving(display)
    var fired: [String] = []
    let start = MonotonicTime.now
    loop.addTimer(after: .milliseconds(150)) { fired.append("late") }
    loop.addTimer(after: .milliseconds(50)) { fired.append("early") }
    let cancelled = loop.addTimer(after: .milliseconds(100)) { fired.append("cancelled") }
    loop.remove(cancelled)
    try loop.run(until: { fired.count == 2 })
    #expect(fired == ["early", "late"])
    #expect((MonotonicTime.now - start) >= .milliseconds(150))
    // One wake-up per timer, and not one for each passing millisecond.
    #expect(loop.wakeUps <= 4)
  }

  @Test func aTimerCancelledByAnotherDueAtTheSameTimeDoesNotFire() throws {
    let loop = try EventLoop()
    var fired: [String] = []
    let past = MonotonicTime.now
    var second: EventLoop.Token?
    loop.addTimer(at: past) {
      fired.append("first")
      if let second { loop.remove(second) }
    }
    second = loop.addTimer(at: past) { fired.append("second") }
    loop.addTimer(at: past + .milliseconds(20)) { fired.append("last") }
    try loop.run(until: { fired.last == "last" })
    #expect(fired == ["first", "last"])
  }

  @Test func signalsAndExtraDescriptorsReachTheirHandlers() throws {
    let sway = try HeadlessSway()
    let display = try Display(name: sway.socketPath)
    let loop = try EventLoop.serving(display)
    var signals: [Int32] = []
    loop.onSignal = { signals.append($0) }
    var fds: [Int32] = [0, 0]
    #expect(pipe(&fds) == 0)
    defer {
      close(fds[0])
      close(fds[1])
    }
    var received: [UInt8] = []
    loop.addSource(fd: fds[0]) { _ in
      var byte: UInt8 = 0
      if read(fds[0], &byte, 1) == 1 { received.append(byte) }
    }
    var byte: UInt8 = 42
    #expect(write(fds[1], &byte, 1) == 1)
    // Thread-directed, so it stays pending for this thread's signalfd.
    pthread_kill(pthread_self(), SIGTERM)
    try loop.run(until: { !signals.isEmpty && !received.isEmpty })
    #expect(signals == [SIGTERM])
    #expect(received == [42])
  }

  /// A client of `sway` with a surface given the layer-shell role on `layer`.
  static func layerSurface(on sway: HeadlessSway, layer: ZwlrLayerShellV1.Layer) throws -> (
    display: Display, registry: Registry, surface: WlSurface, layerSurface: ZwlrLayerSurfaceV1
  ) {
    let display = try Display(name: sway.socketPath)
    let registry = try Registry(display: display)
    let surface = try registry.bind(WlCompositor.self).createSurface()
    let layerSurface = try registry.bind(ZwlrLayerShellV1.self).getLayerSurface(
      surface, output: nil, layer: layer, namespace: "wl-toast-test")
    return (display, registry, surface, layerSurface)
  }

  /// A 64 x 64 overlay surface, configured and acknowledged, and a pool of
  /// buffers for it.
  static func configuredSurface(on sway: HeadlessSway) throws -> (
    display: Display, surface: WlSurface, pool: ShmBufferPool, layerSurface: ZwlrLayerSurfaceV1
  ) {
    let (display, registry, surface, layerSurface) = try layerSurface(on: sway, layer: .overlay)
    let pool = ShmBufferPool(shm: try registry.bind(WlShm.self))
    layerSurface.setSize(width: 64, height: 64)
    var serial: UInt32?
    layerSurface.onEvent = { event in
      if case .configure(let value, _, _) = event { serial = value }
    }
    surface.commit()
    try display.roundtrip()
    layerSurface.ackConfigure(serial: try #require(serial))
    return (display, surface, pool, layerSurface)
  }

  @Test func buffersAreReusedOnlyAfterTheCompositorReleasesThem() throws {
    let sway = try HeadlessSway()
    let (display, surface, pool, layerSurface) = try Self.configuredSurface(on: sway)
    defer { withExtendedLifetime(layerSurface) {} }

    let first = try #require(try pool.nextBuffer(width: 64, height: 64))
    first.attach(to: surface)
    surface.commit()
    #expect(first.isBusy)
    let second = try #require(try pool.nextBuffer(width: 64, height: 64))
    #expect(second !== first)
    second.attach(to: surface)
    surface.commit()
    // Both are held (no release can have been dispatched yet): no third buffer.
    #expect(try pool.nextBuffer(width: 64, height: 64) == nil)
    // The compositor releases one (which one is its choice); that one comes back.
    try waitUntil("the compositor to release one of the two buffers") {
      try display.roundtrip()
      return !first.isBusy || !second.isBusy
    }
    let free = first.isBusy ? second : first
    #expect(try pool.nextBuffer(width: 64, height: 64) === free)
  }

  @Test func aRestingPoolGivesBackTheMemoryOfEveryBufferTheCompositorDoesNotHold() throws {
    let sway = try HeadlessSway()
    let (display, surface, pool, layerSurface) = try Self.configuredSurface(on: sway)
    defer { withExtendedLifetime(layerSurface) {} }

    // Two frames, each in a buffer of its own.
    var frames: [ShmBuffer] = []
    for colour: UInt32 in [0xFF00_00FF, 0xFFFF_0000] {
      let buffer = try #require(try pool.nextBuffer(width: 64, height: 64))
      buffer.data.storeBytes(of: colour, as: UInt32.self)
      buffer.attach(to: surface)
      surface.commit()
      frames.append(buffer)
    }
    pool.rest()
    #expect(pool.residentCount == 2, "both are held by the compositor yet")
    try waitUntil("the compositor to release a buffer") {
      try display.roundtrip()
      return frames.contains { !$0.isBusy }
    }
    let released = try #require(frames.first { !$0.isBusy })
    #expect(released.isDiscarded)
    #expect(released.data.load(as: UInt32.self) == 0, "its pages were given back: zero again")
    #expect(pool.residentCount == pool.busyCount)
    // The next frame takes it again, its memory supplied as it is drawn.
    let next = try #require(try pool.nextBuffer(width: 64, height: 64))
    #expect(next === released && !next.isDiscarded)
    next.data.storeBytes(of: 0xFF00_FF00, as: UInt32.self)
    #expect(next.data.load(as: UInt32.self) == 0xFF00_FF00)
    #expect(pool.residentCount == 2)
  }

  @Test func requestsNewerThanTheBoundVersionAreRefused() throws {
    let sway = try HeadlessSway()
    let display = try Display(name: sway.socketPath)
    let registry = try Registry(display: display)
    let compositor = try registry.bind(WlCompositor.self, maximumVersion: 3)
    let surface = compositor.createSurface()
    #expect(surface.version == 3)
    #expect(
      throws: WaylandError.unsupportedVersion(
        interface: "wl_surface", request: "damage_buffer", since: 4, bound: 3)
    ) {
      try surface.damageBuffer(x: 0, y: 0, width: 1, height: 1)
    }
    try display.roundtrip()
  }

  @Test func aProtocolErrorNamesTheInterfaceAndCode() throws {
    let sway = try HeadlessSway()
    let (display, registry, surface, layerSurface) = try Self.layerSurface(on: sway, layer: .top)
    defer { withExtendedLifetime((registry, surface)) {} }
    // Acknowledging a configure that was never sent is a protocol error.
    layerSurface.ackConfigure(serial: 4242)
    do {
      try display.roundtrip()
      Issue.record("the compositor accepted an invalid layer surface")
    } catch {
      guard case .protocolError(let interface, let id, let code) = error else {
        Issue.record("expected a protocol error, got \(error)")
        return
      }
      #expect(interface == "zwlr_layer_surface_v1")
      #expect(id == layerSurface.id)
      #expect(
        error.description
          == "the compositor reported protocol error \(code) on zwlr_layer_surface_v1#\(id)")
      #expect(code == 0, "sway reports a wrong serial as surface state error 0")
    }
  }

  @Test func aLostConnectionEndsTheLoopWithAnError() throws {
    let sway = try HeadlessSway()
    let display = try Display(name: sway.socketPath)
    let loop = try EventLoop.serving(display)
    sway.stop()
    do {
      try loop.run()
      Issue.record("the loop kept running without a compositor")
    } catch {
      guard case .connectionLost = error.waylandError else {
        Issue.record("expected connectionLost, got \(error)")
        return
      }
      #expect(error.description.hasPrefix("lost the connection"))
    }
  }

  @Test func aFailureInAHandlerEndsTheLoopWithThatError() throws {
    let sway = try HeadlessSway()
    let display = try Display(name: sway.socketPath)
    let loop = try EventLoop.serving(display)
    loop.addTimer(after: .milliseconds(10)) {
      loop.fail(WaylandError.system(call: "memfd_create", errno: ENOMEM))
    }
    do {
      try loop.run()
      Issue.record("the loop ran on after the failure")
    } catch {
      #expect(error.waylandError == .system(call: "memfd_create", errno: ENOMEM))
    }
    // The failure is reported once; the loop can run again.
    var ran = false
    loop.addTimer(after: .milliseconds(10)) { ran = true }
    try loop.run(until: { ran })
    #expect(ran)
  }
}

extension EventLoop {
  /// A loop with `display` as its connection.
  static func serving(_ display: Display) throws -> EventLoop {
    let loop = try EventLoop()
    loop.add(display)
    return loop
  }
}
