import TestSupport
import Testing

/// The parser of libwayland's WAYLAND_DEBUG log that `make bench` times clients with.
struct WaylandDebugLogTests {
  @Test func parsesRequestsAndEvents() throws {
    let request = try #require(
      WaylandDebugMessage(line: "[4074919.610]  -> wl_surface@9.attach(wl_buffer@8, 0, 0)"))
    #expect(request.stamp == 4_074_919_610)
    #expect(request.isRequest)
    #expect(request.interface == "wl_surface")
    #expect(request.objectID == 9)
    #expect(request.name == "attach")
    #expect(request.arguments == "wl_buffer@8, 0, 0")

    let event = try #require(WaylandDebugMessage(line: "[    919.006] wl_callback@11.done(8)"))
    #expect(event.stamp == 919_006)
    #expect(!event.isRequest)
    #expect(event.interface == "wl_callback")
    #expect(event.name == "done")
    #expect(event.arguments == "8")

    let empty = try #require(WaylandDebugMessage(line: "[1.000]  -> wl_surface@3.commit()"))
    #expect(empty.arguments == "")
    #expect(empty.stamp == 1000)
  }

  @Test func rejectsOtherLines() {
    for line in [
      "", "1796034844.856626 ERROR main.c:615: STDIN unexpectedly closed",
      "[4074919.61]  -> wl_surface@9.commit()", "[4074919.610] no message here",
      "[abc.def] wl_callback@3.done(1)", "[4074919.610]  -> wl_surface@x.commit()",
    ] {
      #expect(WaylandDebugMessage(line: line[...]) == nil, "\(line)")
    }
  }

  @Test func differencesWrapAroundTheClock() {
    #expect(WaylandDebugClock.microseconds(from: 10, to: 25) == 15)
    #expect(WaylandDebugClock.microseconds(from: 25, to: 10) == -15)
    #expect(WaylandDebugClock.microseconds(from: UInt32.max - 4, to: 5) == 10)
    #expect(WaylandDebugClock.stamp(seconds: 4295, nanoseconds: 1_234_567) == 33_938)
  }

  /// A layer surface's first frame, then two frame callbacks each followed by one commit.
  static let log = """
    [1000.000]  -> wl_display@1.get_registry(new id wl_registry@2)
    [1001.000]  -> wl_surface@10.commit()
    [1002.500] zwlr_layer_surface_v1@11.configure(5, 184, 144)
    [1003.000]  -> wl_surface@10.frame(new id wl_callback@15)
    [1003.100]  -> wl_surface@10.attach(wl_buffer@12, 0, 0)
    [1003.200]  -> wl_surface@10.commit()
    [1004.000]  -> wl_display@1.sync(new id wl_callback@16)
    [1004.300] wl_callback@16.done(17)
    [1019.000] wl_callback@15.done(100)
    [1019.900]  -> wl_surface@10.frame(new id wl_callback@15)
    [1020.000]  -> wl_surface@10.attach(wl_buffer@13, 0, 0)
    [1020.100]  -> wl_surface@10.commit()
    [1035.000] wl_callback@15.done(116)
    [1035.700]  -> wl_surface@10.attach(wl_buffer@12, 0, 0)
    [1035.800]  -> wl_surface@10.commit()
    [1036.000]  -> wl_surface@10.destroy()

    """

  @Test func findsTheFirstFrameWithContent() throws {
    var activity = SurfaceActivity()
    // Read in two chunks cut inside a line.
    let bytes = Array(Self.log.utf8)
    activity.read(bytes[..<150])
    activity.read(bytes[150...])
    #expect(activity.first(atOrAfter: 0) { $0.kind == .connected }?.stamp == 1_000_000)
    #expect(activity.first(atOrAfter: 0) { $0.kind == .configure }?.surface == 11)
    let first = try #require(activity.firstContentCommit(atOrAfter: 1_000_000))
    #expect(first == .init(stamp: 1_003_200, surface: 10, kind: .commit(withBuffer: true)))
    #expect(activity.firstContentCommit(atOrAfter: 1_003_201)?.stamp == 1_020_100)
    #expect(activity.events.last?.kind == .destroyed)
  }

  @Test func findsFramesAcrossTheClocksWrap() throws {
    var activity = SurfaceActivity()
    activity.read(
      Array(
        """
        [4294967.000]  -> wl_surface@3.attach(wl_buffer@8, 0, 0)
        [4294967.010]  -> wl_surface@3.commit()
        [      1.000]  -> wl_surface@3.attach(wl_buffer@9, 0, 0)
        [      1.010]  -> wl_surface@3.commit()

        """.utf8))
    #expect(activity.firstContentCommit(atOrAfter: 4_294_966_000)?.stamp == 4_294_967_010)
    #expect(activity.firstContentCommit(atOrAfter: 4_294_967_100)?.stamp == 1010)
    // A start after both finds neither, whatever half of the clock it is in.
    #expect(activity.firstContentCommit(atOrAfter: 2000) == nil)
  }

  @Test func timesFramesFromCallbackToCommit() {
    var activity = SurfaceActivity()
    activity.read(Array(Self.log.utf8))
    // The sync callback (16) is no frame callback.
    let frames = activity.frames(from: 1_000_000, to: 1_040_000)
    #expect(frames.map(\.done) == [1_019_000, 1_035_000])
    #expect(frames.map(\.renderMicroseconds) == [1100, 800])
    #expect(frames.map(\.commitsBeforeNextFrame) == [1, nil])
    #expect(activity.frames(from: 1_020_000, to: 1_040_000).count == 1)
  }
}
