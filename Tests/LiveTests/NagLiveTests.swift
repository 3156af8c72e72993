import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastNag
import ToastOwner
import ToastProtocol
import ToastRendering

/// `wl-toast nag` as sway runs it: its `swaynag_command` for config errors,
/// and the exit prompt of the example config.
@Suite(.serialized)
struct NagLiveTests {
  /// The `wl-toast-owner nag` processes running (the bar draws in the process
  /// sway started: the command execs the owner program, keeping its id).
  static func nagProcesses() -> [Int32] {
    let owner = builtProduct("wl-toast-owner")
    return listProcesses().filter { pid in
      guard readLink("/proc/\(pid)/exe") == owner, let line = readFile("/proc/\(pid)/cmdline")
      else { return false }
      let words = line.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
      return words.count > 1 && words[1] == "nag"
    }
  }

  /// The variables a process started with.
  static func environment(of pid: Int32) -> [String] {
    (readFile("/proc/\(pid)/environ") ?? []).split(separator: 0).map {
      String(decoding: $0, as: UTF8.self)
    }
  }

  /// The bar sway asks for on a config error: its own arguments, read by ToastNag.
  static func configErrorBar(details: String) throws -> Toast {
    let arguments = [
      "--type", "error", "--message", "There are errors in your config file",
      "--detailed-message", "--button-no-terminal", "Exit sway", "swaymsg exit",
      "--button-no-terminal", "Reload sway", "swaymsg reload",
    ]
    guard
      case .success(.show(let request)) = parseNag(
        arguments, environment: [:], readStandardInput: { Array(details.utf8) },
        readFile: { _ in nil })
    else { throw HarnessError("sway's own nag arguments did not parse") }
    return nagToast(request, keyboard: .onDemand, animated: true)
  }

  @Test func swaysOwnPopupCommandShowsTheBarAndReloadsSway() throws {
    let sway = try HeadlessSway(
      extraConfig: "swaynag_command \(builtProduct("wl-toast")) nag\nbogus_command_for_test")
    let input = try VirtualInput(
      socketPath: sway.socketPath, width: sway.outputWidth, height: sway.outputHeight)
    try input.move(x: sway.outputWidth - 1, y: sway.outputHeight - 1)
    let red = RGB(0x90, 0, 0)
    let details =
      "Error on line 7 (\(sway.runtimeDirectory)/config) 'bogus_command_for_test': Unknown/invalid"
      + " command 'bogus_command_for_test'"
    let toast = try Self.configErrorBar(details: details)
    let closed = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    // The error type's bar, the whole width of the output, at its top, once slid in.
    let expectedBar = Box(
      x: 0, y: 0, width: 1280, height: closed.exclusiveZone - toast.bar.borderBottomSize)
    var bar: Box?
    try sway.screenshot("sway's error bar at \(expectedBar) (last: \(lastSeen(bar)))") { shot in
      bar = shot.boundingBox(of: red, tolerance: 2)
      return bar == expectedBar
    }
    let first = try #require(Self.nagProcesses().first, "a nag process")
    #expect(Self.nagProcesses().count == 1)
    #expect(
      Self.environment(of: first).contains { $0.hasPrefix("WAYLAND_SOCKET=") },
      "started by sway with its socket")
    #expect(
      !listProcesses().contains { pid in
        readLink("/proc/\(pid)/exe") == builtProduct("wl-toast-owner") && pid != first
      }, "no owner: the bar draws in the process sway started")

    // The details: sway's own message, as the same bar draws it offscreen.
    let toggle = closed.buttons[3].frame
    try input.click(x: Int(toggle.midX), y: Int(toggle.midY))
    let open = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720, detailsOpen: true)
    let area = try #require(open.details).area
    let expected = OffscreenImage.render(
      toast, scale: 1, buttons: Interaction(detailsOpening: 1))
    let region = Box(
      x: Int(area.x), y: Int(area.y), width: Int(area.width), height: Int(area.height))
    var differing = 0
    try sway.screenshot("the details open, showing sway's error text") { shot in
      differing = 0
      for y in region.y..<(region.y + region.height) {
        for x in region.x..<(region.x + region.width) {
          let pixel = expected.pixel(x: x, y: y)
          if !shot.pixel(x: x, y: y).isClose(
            to: RGB(pixel.red, pixel.green, pixel.blue), tolerance: 24)
          {
            differing += 1
          }
        }
      }
      return differing == 0
    }

    // Tab to Reload sway (the dismiss button first, then Exit sway), Enter:
    // sway reloads, ends the old bar's client and starts a new one.
    let connection = try SwayIPCConnection(socketPath: sway.ipcSocketPath)
    try connection.subscribe(to: ["workspace"])
    try input.press(keysym: 0xff09)
    try input.press(keysym: 0xff09)
    try input.press(keysym: 0xff0d)
    var reloaded = false
    try waitUntil("sway's workspace event with change reload", timeout: 10) {
      var descriptor = pollfd(fd: connection.fileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&descriptor, 1, 100)
      for event in try connection.readAvailable() {
        if try JSONValue.parse(event.payload)["change"]?.stringValue == "reload" { reloaded = true }
      }
      return reloaded
    }
    try waitUntil("the old bar's process gone and a new bar shown", timeout: 10) {
      let now = Self.nagProcesses()
      return !now.contains(first) && now.count == 1
    }
    try sway.screenshot("the new error bar across the top") { shot in
      shot.boundingBox(of: red, tolerance: 2).map { $0.x == 0 && $0.width == 1280 } ?? false
    }
  }
}
