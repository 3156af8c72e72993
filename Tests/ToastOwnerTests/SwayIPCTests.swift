import Glibc
import Testing
import ToastModel
import ToastProtocol

@testable import ToastOwner

@Suite("SwayIPC frames")
struct SwayIPCFrameTests {
  @Test func aFrameIsTheMagicTheLengthTheTypeAndThePayload() {
    let bytes = SwayIPCFrame.encode(type: SwayIPCMessageType.subscribe, payload: "[\"mode\"]")
    #expect(Array(bytes[0..<6]) == Array("i3-ipc".utf8))
    #expect(Array(bytes[6..<10]) == [8, 0, 0, 0])
    #expect(Array(bytes[10..<14]) == [2, 0, 0, 0])
    #expect(String(decoding: bytes[14...], as: UTF8.self) == "[\"mode\"]")
  }

  @Test func framesRoundTripThroughTheDecoder() throws {
    let messages: [(UInt32, String)] = [
      (SwayIPCMessageType.runCommand, "mode resize"),
      (SwayIPCMessageType.getVersion, ""),
      (SwayIPCMessageType.modeEvent, "{\"change\":\"résumé ✓\",\"pango_markup\":false}"),
      (SwayIPCMessageType.workspaceEvent, String(repeating: "x", count: 100_000)),
    ]
    var decoder = SwayIPCDecoder()
    for (type, payload) in messages {
      decoder.append(SwayIPCFrame.encode(type: type, payload: payload))
    }
    for (type, payload) in messages {
      let message = try #require(try decoder.next())
      #expect(message.type == type)
      #expect(message.payload == payload)
    }
    #expect(try decoder.next() == nil)
    #expect(decoder.bufferedByteCount == 0)
  }

  @Test func framesFedByteByByteComeOutWhole() throws {
    let first = SwayIPCFrame.encode(type: SwayIPCMessageType.modeEvent, payload: "{\"a\":1}")
    let second = SwayIPCFrame.encode(type: 1, payload: "[]")
    var decoder = SwayIPCDecoder()
    var decoded: [(type: UInt32, payload: String)] = []
    for (index, byte) in (first + second).enumerated() {
      decoder.append([byte])
      if let message = try decoder.next() {
        decoded.append(message)
        // Each message appears exactly when its last byte arrives.
        #expect(index == first.count - 1 || index == first.count + second.count - 1)
      }
    }
    #expect(decoded.map(\.type) == [SwayIPCMessageType.modeEvent, 1])
    #expect(decoded.map(\.payload) == ["{\"a\":1}", "[]"])
  }

  @Test func aBadMagicIsRejectedAsSoonAsItsFirstWrongByteArrives() throws {
    var decoder = SwayIPCDecoder()
    decoder.append(Array("i3-".utf8))
    #expect(try decoder.next() == nil)
    decoder.append(Array("xpc".utf8))
    #expect(throws: SwayIPCError.self) { try decoder.next() }
    do {
      _ = try decoder.next()
      Issue.record("a corrupt stream decoded")
    } catch {
      #expect(error.description.contains("i3-ipc"), "\(error)")
    }
  }

  @Test func anOversizePayloadIsRejectedFromItsHeader() throws {
    var header = Array("i3-ipc".utf8)
    withUnsafeBytes(of: UInt32(16 * 1024 * 1024 + 1)) { header.append(contentsOf: $0) }
    withUnsafeBytes(of: SwayIPCMessageType.modeEvent) { header.append(contentsOf: $0) }
    var decoder = SwayIPCDecoder()
    decoder.append(header)
    do {
      _ = try decoder.next()
      Issue.record("a 16 MiB + 1 payload was accepted")
    } catch {
      #expect(error.description.contains("16 MiB"), "\(error)")
    }

    // Exactly 16 MiB is allowed: the decoder waits for the rest.
    var limit = Array("i3-ipc".utf8)
    withUnsafeBytes(of: UInt32(16 * 1024 * 1024)) { limit.append(contentsOf: $0) }
    withUnsafeBytes(of: UInt32(0)) { limit.append(contentsOf: $0) }
    var waiting = SwayIPCDecoder()
    waiting.append(limit)
    #expect(try waiting.next() == nil)
  }

  @Test func anEmptySocketPathIsRefused() {
    #expect(throws: SwayIPCError.emptySocketPath) {
      try SwayIPCConnection(socketPath: "")
    }
  }

  @Test func eventsThatArriveBeforeAReplyAreKeptForLater() throws {
    let server = try FakeSwayServer()
    defer { server.close() }
    let connection = try SwayIPCConnection(socketPath: server.path)
    let peer = try server.accept()
    defer { Glibc.close(peer) }
    #expect(try connection.readAvailable().isEmpty)

    // sway answers a subscription, with an event already queued before the reply.
    let event = "{\"change\":\"resize\",\"pango_markup\":false}"
    let bytes =
      SwayIPCFrame.encode(type: SwayIPCMessageType.modeEvent, payload: event)
      + SwayIPCFrame.encode(type: SwayIPCMessageType.subscribe, payload: "{\"success\":true}")
    #expect(write(peer, bytes, bytes.count) == bytes.count)
    try connection.subscribe(to: ["mode"])
    #expect(connection.hasBufferedMessages)
    let pending = try connection.readAvailable()
    #expect(pending.map(\.type) == [SwayIPCMessageType.modeEvent])
    #expect(pending.map(\.payload) == [event])
    #expect(!connection.hasBufferedMessages)

    // The request went out as one frame.
    var received = [UInt8](repeating: 0, count: 256)
    let count = read(peer, &received, received.count)
    var decoder = SwayIPCDecoder()
    decoder.append(Array(received[0..<max(count, 0)]))
    let request = try #require(try decoder.next())
    #expect(request.type == SwayIPCMessageType.subscribe)
    #expect(request.payload == "[\"mode\"]")

    // A refused subscription is an error; so is the end of the stream.
    let refusal = SwayIPCFrame.encode(type: 2, payload: "{\"success\":false}")
    #expect(write(peer, refusal, refusal.count) == refusal.count)
    #expect(throws: SwayIPCError.self) { try connection.subscribe(to: ["bogus"]) }
    shutdown(peer, Int32(SHUT_RDWR))
    #expect(throws: SwayIPCError.closed) {
      try connection.readAvailable()
    }
  }

  @Test func theSocketIsSWAYSOCKsElseI3SOCKs() {
    func path(_ variables: [String: String]) -> String? {
      SwayIPCConnection.environmentSocketPath { variables[$0] }
    }
    #expect(path(["SWAYSOCK": "/run/sway.sock", "I3SOCK": "/run/i3.sock"]) == "/run/sway.sock")
    #expect(path(["SWAYSOCK": "", "I3SOCK": "/run/i3.sock"]) == "/run/i3.sock")
    #expect(path(["I3SOCK": "/run/i3.sock"]) == "/run/i3.sock")
    #expect(path(["SWAYSOCK": "", "I3SOCK": ""]) == nil && path([:]) == nil)
  }

  @Test func connectingWithoutASocketSaysWhy() throws {
    let error = try #require(
      #expect(throws: SwayIPCError.self) {
        try SwayIPCConnection(socketPath: "/nonexistent/sway-ipc.sock")
      })
    #expect(error.description.hasPrefix("cannot connect to /nonexistent/sway-ipc.sock: "))
    #expect(!error.description.contains("\n"))
  }
}

@Suite("SwayWatcher")
struct SwayWatcherTests {
  static func mode(_ name: String, markup: Bool = false) -> String {
    JSONValue.object(["change": .string(name), "pango_markup": .bool(markup)]).serialized
  }

  static func workspace(_ change: String, current: String?) -> String {
    let current: JSONValue =
      current.map { .object(["name": .string($0), "num": .number(3), "focused": .bool(true)]) }
      ?? .null
    return JSONValue.object([
      "change": .string(change), "current": current,
      "old": .object(["name": .string("1")]),
    ]).serialized
  }

  @Test func subscriptionsFollowTheOptions() {
    #expect(SwayWatcher(options: SwayWatchOptions()).subscriptions == ["mode"])
    #expect(
      SwayWatcher(options: SwayWatchOptions(workspaces: true)).subscriptions
        == ["mode", "workspace"])
    #expect(
      SwayWatcher(options: SwayWatchOptions(workspaces: true, keyboardLayout: true)).subscriptions
        == ["mode", "workspace", "input"])
  }

  @Test func aLayoutChangeNamesTheLayoutOnlyWhenAskedFor() {
    let event =
      #"{"change":"xkb_layout","input":{"type":"keyboard","xkb_active_layout_name":"German"}}"#
    var watcher = SwayWatcher(options: SwayWatchOptions(keyboardLayout: true))
    #expect(
      watcher.handle(eventType: SwayIPCMessageType.inputEvent, payload: event) == .layout("German"))
    var quiet = SwayWatcher(options: SwayWatchOptions())
    #expect(quiet.handle(eventType: SwayIPCMessageType.inputEvent, payload: event) == nil)
    for other in [
      #"{"change":"added","input":{"xkb_active_layout_name":"German"}}"#,
      #"{"change":"xkb_layout","input":{"xkb_active_layout_name":"  "}}"#,
      #"{"change":"xkb_layout","input":{}}"#, #"{"change":"xkb_layout"}"#, "[]", "not json",
    ] {
      #expect(watcher.handle(eventType: SwayIPCMessageType.inputEvent, payload: other) == nil)
    }
  }

  @Test func aModeShowsItsNameUntilTheDefaultModeReturns() {
    var watcher = SwayWatcher(options: SwayWatchOptions())
    let modeEvent = SwayIPCMessageType.modeEvent
    #expect(
      watcher.handle(eventType: modeEvent, payload: Self.mode("resize"))
        == .show(text: "resize", sticky: true))
    #expect(watcher.activeMode == "resize")
    #expect(
      watcher.handle(eventType: modeEvent, payload: Self.mode("launch"))
        == .show(text: "launch", sticky: true))
    #expect(watcher.handle(eventType: modeEvent, payload: Self.mode("default")) == .hide)
    #expect(watcher.activeMode == nil)
  }

  @Test func aModeOrWorkspaceNameLongerThanAMessageIsCut() {
    let long = String(repeating: "é", count: 40_000)
    var watcher = SwayWatcher(options: SwayWatchOptions(workspaces: true))
    #expect(
      watcher.handle(
        eventType: SwayIPCMessageType.workspaceEvent,
        payload: Self.workspace("focus", current: long))
        == .show(text: Toast.truncated("Workspace " + long), sticky: false))
    #expect(
      watcher.handle(eventType: SwayIPCMessageType.modeEvent, payload: Self.mode(long))
        == .show(text: Toast.truncated(long), sticky: true))
    #expect(Toast.truncated(long).count <= Toast.Limits.textLength)
  }

  @Test func markupModeNamesShowAsPlainText() {
    var watcher = SwayWatcher(options: SwayWatchOptions())
    #expect(
      watcher.handle(
        eventType: SwayIPCMessageType.modeEvent,
        payload: Self.mode("<b>Resize</b> &amp; move &#x2192;", markup: true))
        == .show(text: "Resize & move →", sticky: true))
    // Without the markup flag the name is taken literally.
    #expect(
      watcher.handle(eventType: SwayIPCMessageType.modeEvent, payload: Self.mode("<b>x</b>"))
        == .show(text: "<b>x</b>", sticky: true))
  }

  @Test func workspaceFocusShowsOnlyWhenAskedFor() {
    let event = Self.workspace("focus", current: "3")
    var quiet = SwayWatcher(options: SwayWatchOptions())
    #expect(quiet.handle(eventType: SwayIPCMessageType.workspaceEvent, payload: event) == nil)
    var watcher = SwayWatcher(options: SwayWatchOptions(workspaces: true))
    #expect(
      watcher.handle(eventType: SwayIPCMessageType.workspaceEvent, payload: event)
        == .show(text: "Workspace 3", sticky: false))
    for change in ["init", "empty", "rename", "move", "urgent", "reload"] {
      #expect(
        watcher.handle(
          eventType: SwayIPCMessageType.workspaceEvent,
          payload: Self.workspace(change, current: "4")) == nil, "\(change)")
    }
  }

  @Test func aModeKeepsPriorityOverWorkspaceFocus() {
    var watcher = SwayWatcher(options: SwayWatchOptions(workspaces: true))
    let focus = Self.workspace("focus", current: "2: web")
    _ = watcher.handle(eventType: SwayIPCMessageType.modeEvent, payload: Self.mode("resize"))
    #expect(watcher.handle(eventType: SwayIPCMessageType.workspaceEvent, payload: focus) == nil)
    #expect(
      watcher.handle(eventType: SwayIPCMessageType.modeEvent, payload: Self.mode("default"))
        == .hide)
    #expect(
      watcher.handle(eventType: SwayIPCMessageType.workspaceEvent, payload: focus)
        == .show(text: "Workspace 2: web", sticky: false))
  }

  @Test func malformedEventsAreIgnored() {
    var watcher = SwayWatcher(options: SwayWatchOptions(workspaces: true))
    let payloads = [
      "", "{", "null", "[]", "42", "\"resize\"", "{\"change\":3}", "{\"change\":\"\"}",
      "{\"change\":null}", "{\"current\":{\"name\":\"1\"}}", "\u{FFFF}",
      String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000),
    ]
    for payload in payloads {
      for type in [SwayIPCMessageType.modeEvent, SwayIPCMessageType.workspaceEvent] {
        #expect(watcher.handle(eventType: type, payload: payload) == nil, "\(payload.prefix(40))")
      }
    }
    // Focus events without a usable name.
    for current in ["null", "{\"name\":7}", "{\"name\":\"\"}", "[]", "{}"] {
      let payload = "{\"change\":\"focus\",\"current\":\(current)}"
      #expect(
        watcher.handle(eventType: SwayIPCMessageType.workspaceEvent, payload: payload) == nil,
        "\(payload)")
    }
    #expect(watcher.activeMode == nil)
    // Other events (window, binding, shutdown) and replies are not the watcher's business.
    for type: UInt32 in [0x8000_0003, 0x8000_0005, 0x8000_0006, 0, 2] {
      #expect(watcher.handle(eventType: type, payload: Self.mode("resize")) == nil)
    }
  }
}

/// A listening Unix socket standing in for sway.
private final class FakeSwayServer {
  let path = "/tmp/wl-toast-fake-sway-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
  let descriptor: Int32

  init() throws {
    descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let utf8 = Array(path.utf8)
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
      raw.copyBytes(from: utf8)
      raw[utf8.count] = 0
    }
    let bound = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
        bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
      }
    }
    try #require(bound == 0 && listen(descriptor, 4) == 0)
  }

  func accept() throws -> Int32 {
    let peer = Glibc.accept(descriptor, nil, nil)
    try #require(peer >= 0)
    return peer
  }

  func close() {
    Glibc.close(descriptor)
    unlink(path)
  }
}
