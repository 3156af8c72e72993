import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastCommand
import ToastKit
import ToastRendering

/// The files in Examples/, used for real.
@Suite(.serialized)
struct ExamplesTests {
  /// A headless sway whose config includes Examples/sway-config ($mod Super),
  /// the programs of its bindings found in `bin` first, and a pointer and
  /// keyboard, the pointer parked in the bottom-right corner.
  /// `environment` adds to sway's (a session bus for the notification server
  /// the config starts).
  static func swayWithTheExampleConfig(_ bin: String, environment: [String: String] = [:]) throws
    -> (HeadlessSway, VirtualInput)
  {
    let sway = try HeadlessSway(
      extraConfig: "set $mod Mod4\ninclude \(examplesDirectory)/sway-config",
      environment: environment.merging(["PATH": examplePATH(bin)]) { $1 })
    let input = try VirtualInput(
      socketPath: sway.socketPath, width: sway.outputWidth, height: sway.outputHeight)
    try input.move(x: sway.outputWidth - 1, y: sway.outputHeight - 1)
    return (sway, input)
  }

  @Test func theSwayConfigsWatcherShowsTheVolumeTheVolumeKeySets() throws {
    let rig = try ExampleWatchRig()
    let (sway, input) = try Self.swayWithTheExampleConfig(rig.bin, environment: rig.environment)
    try expectTheWatchersVolumeHUD(rig.server, color: hudColor) { () throws in
      try input.press(keysym: 0x1008_ff13)  // XF86AudioRaiseVolume
    } screenshot: { box in
      try sway.screenshot(x: box.x, y: box.y, width: box.width, height: box.height)
    }
  }

  @Test func theSwayConfigStartsTheNotificationServer() throws {
    let bin = try exampleBinDirectory()
    defer { removeTree(bin) }
    let bus = try NotificationBus()
    // Run as root, the tests' sway and what it starts are another user's: the
    // bus's directory lets them reach its socket.
    chmod(bus.directory, 0o711)
    let (sway, _) = try Self.swayWithTheExampleConfig(bin, environment: bus.clientEnvironment)
    defer { withExtendedLifetime(sway) {} }
    try bus.waitForServer()
    let server = try #require(bus.serverProcess())
    let program = readFile("/proc/\(server)/comm").map { String(decoding: $0, as: UTF8.self) }
    #expect(program?.hasPrefix("wl-toast") == true, "the name's owner is \(program ?? "gone")")
    let answer = try runTool(
      [
        "gdbus", "call", "--session", "--dest", NotificationBus.serverName, "--object-path",
        "/org/freedesktop/Notifications", "--method",
        "org.freedesktop.Notifications.GetServerInformation",
      ], environment: currentEnvironment().merging(bus.clientEnvironment) { $1 })
    #expect(answer.hasPrefix("('wl-toast',"), "\(answer)")
  }

  @Test func theSwayConfigsExitPromptIsAWarningBarThatEndsSway() throws {
    let bin = try exampleBinDirectory()
    defer { removeTree(bin) }
    let (sway, input) = try Self.swayWithTheExampleConfig(bin)
    try input.press(keysym: 0x65, modifiers: ["Mod4", "Shift"])  // $mod+Shift+e
    // swaynag's warning type: an orange bar across the top.
    let orange = RGB(0xff, 0xa8, 0x00)
    try sway.screenshot("the warning bar across the top", timeout: 10) { shot in
      shot.boundingBox(of: orange, tolerance: 2).map { $0.x == 0 && $0.width == 1280 } ?? false
    }
    // The focus starts on the dismiss button: Tab to "Yes, exit sway", Enter.
    try input.press(keysym: 0xff09)
    try input.press(keysym: 0xff0d)
    try waitUntil("sway to exit", timeout: 10) { !sway.isRunning }
    // `swaymsg exit` ends sway with status 0; a crash would end it by a signal.
    #expect(sway.exitStatus == 0, "sway ended by the button's swaymsg exit")
  }

  @Test func theSwayConfigsSuperNTogglesDoNotDisturbAndSaysSo() throws {
    let bin = try exampleBinDirectory()
    defer { removeTree(bin) }
    // The banners stay until the test ends (their half second at rest could
    // pass between two screenshots of a loaded machine); the second updates
    // the first in place (`--tag dnd`).
    let configHome = bin + "/config"
    #expect(mkdir(configHome, 0o755) == 0 && mkdir(configHome + "/wl-toast", 0o755) == 0)
    try writeFile(configHome + "/wl-toast/config", "[default]\ntimeout = 0\n")
    let (sway, input) = try Self.swayWithTheExampleConfig(
      bin, environment: ["XDG_CONFIG_HOME": configHome])
    // The binding runs as sway's user, with sway's runtime directory.
    let state = sway.runtimeDirectory + "/wl-toast/state/do-not-disturb"
    let pill = blend(Design.Banner.background, over: HeadlessSway.background)
    var info = stat()
    // The banner says the new state: its pill is as wide as that text's
    // (the example's bar may move it down; its width is the text's).
    func expectBanner(saying text: String) throws {
      let width = Looks.restingPill(text).width
      try sway.screenshot("the banner saying '\(text)', \(width) px wide", timeout: 10) {
        $0.boundingBox(of: pill, tolerance: 3)?.width == width
      }
    }
    try input.press(keysym: 0x6e, modifiers: ["Mod4"])  // $mod+n
    try waitUntil("do-not-disturb on", timeout: 10) { lstat(state, &info) == 0 }
    try expectBanner(saying: "Do not disturb: on")
    try input.press(keysym: 0x6e, modifiers: ["Mod4"])
    try waitUntil("do-not-disturb off", timeout: 10) { lstat(state, &info) != 0 }
    try expectBanner(saying: "Do not disturb: off")
  }

  @Test func theWaybarModuleShowsDoNotDisturbAndTogglesIt() throws {
    // waybar's config allows // comments; the rest is JSON.
    let text = try #require(readFile(examplesDirectory + "/waybar-module.json"))
    let json = String(decoding: text, as: UTF8.self).split(separator: "\n")
      .filter { !$0.trimmingPrefix(while: { $0 == " " }).hasPrefix("//") }.joined(separator: "\n")
    let module = try #require(try JSONValue.parse(json)["custom/dnd"])
    let exec = try #require(module["exec"]?.stringValue)
    let click = try #require(module["on-click"]?.stringValue)
    #expect(module["return-type"]?.stringValue == "json")
    let desk = try deskWithOwnRuntime()
    let bin = try exampleBinDirectory()
    defer { removeTree(bin) }
    var environment = desk.environment
    environment["PATH"] = examplePATH(bin)
    /// What waybar reads from the module's command: one JSON line.
    func shown() throws -> (text: String?, css: String?, icon: String?) {
      let result = try runCommand(["sh", "-c", exec], environment: environment)
      #expect(result.status == 0)
      let line = try JSONValue.parse(result.output)
      let alt = line["alt"]?.stringValue ?? ""
      return (
        line["text"]?.stringValue, line["class"]?.stringValue,
        module["format-icons"]?[alt]?.stringValue
      )
    }
    #expect(try shown() == ("off", "off", "🔔"))
    #expect(try runCommand(["sh", "-c", click], environment: environment).output == "on\n")
    #expect(try shown() == ("on", "on", "🔕"))
    #expect(
      try desk.runToEnd(["--wait", "Quiet"]).status == 4, "the module's state is the command's")
    #expect(try runCommand(["sh", "-c", click], environment: environment).output == "off\n")
    #expect(try shown() == ("off", "off", "🔔"))
  }

  @Test func theWindowPipelineShowsTheFocusedWindowsTitle() throws {
    let sway = try HeadlessSway()
    var environment = sway.clientEnvironment
    let bin = try exampleBinDirectory()
    defer { removeTree(bin) }
    environment["PATH"] = bin + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
    let pipeline = try ChildProcess(
      ["sh", "\(examplesDirectory)/follow-pipeline.sh", "windows"], environment: environment,
      logPath: sway.runtimeDirectory + "/pipeline.log")
    defer { pipeline.terminate() }
    // A real window: weston's flower demo, whose title is "Flower".
    var window: ChildProcess?
    defer { window?.terminate() }
    let pill = blend(Design.Banner.background, over: HeadlessSway.background)
    let expected = ToastLayout(
      toast: Toast("Flower", style: .banner), outputWidth: 1280, outputHeight: 720)
    var seen: Box?
    let width = Int(expected.box.width)
    try waitUntil(
      "a banner \(width) px wide, as 'Flower' needs (last seen: \(lastSeen(seen)))", timeout: 10
    ) {
      // The pipeline subscribes on its own time; open the window again until it sees one.
      if window == nil || window?.isRunning == false {
        window = try ChildProcess(["weston-flower"], environment: environment)
      }
      seen = try sway.screenshot(width: 1280, height: 120).boundingBox(of: pill, tolerance: 3)
      return seen?.width == width
    }
  }
}
