import Glibc

/// One line of libwayland's `WAYLAND_DEBUG=1` log: a request the client sent or an
/// event it dispatched, with libwayland's timestamp.
///
/// libwayland 1.21 prints `[%7u.%03u] ` (a space and `-> ` more before a request),
/// then `interface@id.message(arguments)`. The number is the realtime clock in
/// microseconds modulo 2^32, printed as milliseconds and microseconds, taken when
/// the request is marshalled or the event dispatched (not when it is read).
package struct WaylandDebugMessage: Equatable, Sendable {
  /// The realtime clock in microseconds, modulo 2^32 (see `WaylandDebugClock`).
  package var stamp: UInt32
  /// A request sent by the client (`->`), rather than an event it received.
  package var isRequest: Bool
  /// The interface, as `wl_surface`.
  package var interface: String
  /// The object's id.
  package var objectID: UInt32
  /// The request or event, as `commit`.
  package var name: String
  /// The arguments as printed, without the parentheses.
  package var arguments: String

  /// Parses one line; nil for anything else (a client's own messages on standard error).
  package init?(line: Substring) {
    var rest = line[...]
    guard rest.first == "[", let close = rest.firstIndex(of: "]") else { return nil }
    let number = rest[rest.index(after: rest.startIndex)..<close]
    guard let dot = number.firstIndex(of: "."),
      let milliseconds = UInt64(number[..<dot].drop { $0 == " " }),
      let micros = UInt64(number[number.index(after: dot)...]),
      number.distance(from: dot, to: number.endIndex) == 4
    else { return nil }
    stamp = UInt32(truncatingIfNeeded: milliseconds * 1000 + micros)
    rest = rest[rest.index(after: close)...]
    guard rest.first == " " else { return nil }
    rest = rest.dropFirst()
    if rest.hasPrefix("discarded ") { rest = rest.dropFirst("discarded ".count) }
    isRequest = rest.hasPrefix(" -> ")
    if isRequest { rest = rest.dropFirst(4) }
    guard let at = rest.firstIndex(of: "@"), let period = rest[at...].firstIndex(of: "."),
      let open = rest[period...].firstIndex(of: "("), rest.last == ")",
      let id = UInt32(rest[rest.index(after: at)..<period])
    else { return nil }
    interface = String(rest[..<at])
    objectID = id
    name = String(rest[rest.index(after: period)..<open])
    arguments = String(rest[rest.index(after: open)..<rest.index(before: rest.endIndex)])
    guard !interface.isEmpty, !name.isEmpty, !interface.contains(" ") else { return nil }
  }
}

/// libwayland's debug clock: realtime microseconds modulo 2^32 (it wraps every
/// 71.6 minutes), so differences are taken modulo 2^32 too.
package enum WaylandDebugClock {
  /// The stamp libwayland would print now.
  package static func now() -> UInt32 {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return stamp(seconds: Int64(time.tv_sec), nanoseconds: Int64(time.tv_nsec))
  }

  /// The stamp of a realtime clock reading.
  package static func stamp(seconds: Int64, nanoseconds: Int64) -> UInt32 {
    UInt32(truncatingIfNeeded: seconds &* 1_000_000 &+ nanoseconds / 1000)
  }

  /// Microseconds from `start` to `end`, negative when `end` came first (within ±35 minutes).
  package static func microseconds(from start: UInt32, to end: UInt32) -> Int64 {
    Int64(Int32(bitPattern: end &- start))
  }
}

/// What a client's surfaces did according to its `WAYLAND_DEBUG` log: connecting,
/// layer-surface configures, commits (with or without a buffer attached since the
/// surface's previous commit), frame callbacks and surface destruction. Fed one
/// chunk of the log at a time, as the file grows.
package struct SurfaceActivity: Sendable {
  /// What happened.
  package enum Kind: Equatable, Sendable {
    /// `wl_display.get_registry`, the first thing a client does once connected.
    case connected
    /// A `zwlr_layer_surface_v1.configure` event (the id is the layer surface's).
    case configure
    /// `wl_surface.commit`; `withBuffer` when a buffer was attached since the
    /// surface's previous commit: a frame with content.
    case commit(withBuffer: Bool)
    /// The `done` event of a callback asked for with `wl_surface.frame`.
    case frameDone
    /// `wl_surface.destroy`.
    case destroyed
  }

  /// One event, with the surface it belongs to.
  package struct Event: Equatable, Sendable {
    /// libwayland's stamp (`WaylandDebugClock`).
    package var stamp: UInt32
    /// The surface's id (the layer surface's for `configure`, 1 for `connected`).
    package var surface: UInt32
    /// What happened.
    package var kind: Kind

    /// An event.
    package init(stamp: UInt32, surface: UInt32, kind: Kind) {
      self.stamp = stamp
      self.surface = surface
      self.kind = kind
    }
  }

  /// One frame callback and what followed it on its surface.
  package struct Frame: Equatable, Sendable {
    /// When the callback's `done` was dispatched.
    package var done: UInt32
    /// The surface.
    package var surface: UInt32
    /// Microseconds from `done` to the surface's next commit (nil: none followed).
    package var renderMicroseconds: Int64?
    /// Commits of the surface from `done` to the surface's next frame callback
    /// `done` (nil when no later callback is in the log yet).
    package var commitsBeforeNextFrame: Int?
  }

  /// Every event so far, in the log's order.
  package private(set) var events: [Event] = []
  private var attached: Set<UInt32> = []
  private var frameCallbacks: [UInt32: UInt32] = [:]
  private var pending: [UInt8] = []

  /// An empty record.
  package init() {}

  /// Reads a chunk of the log; a line cut at the end of the chunk waits for the next.
  package mutating func read(_ bytes: some Sequence<UInt8>) {
    for byte in bytes {
      if byte == UInt8(ascii: "\n") {
        let line = String(decoding: pending, as: UTF8.self)
        pending.removeAll(keepingCapacity: true)
        if let message = WaylandDebugMessage(line: line[...]) { record(message) }
      } else {
        pending.append(byte)
      }
    }
  }

  /// Takes one message into account.
  package mutating func record(_ message: WaylandDebugMessage) {
    let stamp = message.stamp
    switch (message.isRequest, message.interface, message.name) {
    case (true, "wl_display", "get_registry"):
      events.append(Event(stamp: stamp, surface: message.objectID, kind: .connected))
    case (false, "zwlr_layer_surface_v1", "configure"):
      events.append(Event(stamp: stamp, surface: message.objectID, kind: .configure))
    case (true, "wl_surface", "attach"):
      // Attaching no buffer unmaps: not a frame with content.
      if message.arguments.hasPrefix("nil") {
        attached.remove(message.objectID)
      } else {
        attached.insert(message.objectID)
      }
    case (true, "wl_surface", "commit"):
      let withBuffer = attached.remove(message.objectID) != nil
      events.append(
        Event(stamp: stamp, surface: message.objectID, kind: .commit(withBuffer: withBuffer)))
    case (true, "wl_surface", "frame"):
      // "new id wl_callback@N"
      if let at = message.arguments.lastIndex(of: "@"),
        let callback = UInt32(message.arguments[message.arguments.index(after: at)...])
      {
        frameCallbacks[callback] = message.objectID
      }
    case (false, "wl_callback", "done"):
      if let surface = frameCallbacks.removeValue(forKey: message.objectID) {
        events.append(Event(stamp: stamp, surface: surface, kind: .frameDone))
      }
    case (true, "wl_surface", "destroy"):
      attached.remove(message.objectID)
      events.append(Event(stamp: stamp, surface: message.objectID, kind: .destroyed))
    default:
      break
    }
  }

  /// The first event accepted by `matches` at or after `start`.
  package func first(atOrAfter start: UInt32, where matches: (Event) -> Bool) -> Event? {
    events.first { WaylandDebugClock.microseconds(from: start, to: $0.stamp) >= 0 && matches($0) }
  }

  /// The first frame with content (a commit after an attach) at or after `start`.
  package func firstContentCommit(atOrAfter start: UInt32) -> Event? {
    first(atOrAfter: start) { $0.kind == .commit(withBuffer: true) }
  }

  /// The frame callbacks whose `done` came from `start` to `end`, each with the time to
  /// its surface's next commit and the commits before its surface's next callback.
  package func frames(from start: UInt32, to end: UInt32) -> [Frame] {
    var result: [Frame] = []
    for (index, event) in events.enumerated() where event.kind == .frameDone {
      guard WaylandDebugClock.microseconds(from: start, to: event.stamp) >= 0,
        WaylandDebugClock.microseconds(from: event.stamp, to: end) >= 0
      else { continue }
      var frame = Frame(done: event.stamp, surface: event.surface)
      var commits = 0
      for later in events[(index + 1)...] where later.surface == event.surface {
        if later.kind == .frameDone {
          frame.commitsBeforeNextFrame = commits
          break
        }
        guard case .commit = later.kind else { continue }
        if commits == 0 {
          frame.renderMicroseconds = WaylandDebugClock.microseconds(
            from: event.stamp, to: later.stamp)
        }
        commits += 1
      }
      result.append(frame)
    }
    return result
  }
}
