import CompositorCases
import Glibc
import TestSupport
import Testing

/// `wl-toast watch sway` and the display's owner on a headless sway.
@Suite(.serialized)
struct WatchSwayTests {
  @Test func theModeBannerIsTheOwnersToastBesideAScriptsBanner() throws {
    let desk = try Desk<HeadlessSway>(
      extraConfig: "mode \"resize\" {\n  bindsym Escape mode \"default\"\n}")
    try WatcherCase(
      desk: desk, watch: ["watch", "sway"], modeTag: "sway-mode", mode: "resize",
      enterMode: { try desk.sway.swaymsg(["mode", "resize"]) },
      leaveMode: { try desk.sway.swaymsg(["mode", "default"]) }
    ).run()
  }

  @Test func swayExitingEndsTheWatchWithStatus0AndNoLine() throws {
    let desk = try Desk<HeadlessSway>(
      extraConfig: "mode \"resize\" {\n  bindsym Escape mode \"default\"\n}")
    let log = desk.scratch("watch-sway") + ".log"
    let watcher = try desk.run(["watch", "sway"], logPath: log)
    defer { watcher.terminate() }
    // The mode's banner shows: the watch and its owner run.
    try waitUntil("the owner to show the mode banner", timeout: 10) {
      try desk.sway.swaymsg(["mode", "resize"])
      return try desk.status(tag: "sway-mode") != nil
    }
    _ = try? desk.sway.swaymsg(["exit"])
    #expect(watcher.wait(timeout: 20) == 0, "the watch ends, as it should, with sway")
    #expect(String(decoding: readFile(log) ?? [], as: UTF8.self) == "")
  }

  @Test func theNextToastAfterTheOwnersWentAwayBringsTheModeBannerBack() throws {
    let desk = try Desk<HeadlessSway>(
      extraConfig: "mode \"resize\" {\n  bindsym Escape mode \"default\"\n}\n"
        + "input type:keyboard xkb_layout us,de")
    // A keyboard for the layouts to be on (``TagTests`` tells why a virtual one).
    let input = try VirtualInput(
      socketPath: desk.sway.socketPath, width: desk.sway.outputWidth,
      height: desk.sway.outputHeight, layouts: "us,de")
    defer { withExtendedLifetime(input) {} }
    let watcher = try desk.run(["watch", "sway", "--keyboard-layout"])
    defer { watcher.terminate() }
    func owners() -> [Int32] { desk.ownerProcesses().filter { $0 != watcher.pid } }
    var owner: Int32?
    try waitUntil("the owner to show the mode banner", timeout: 10) {
      try desk.sway.swaymsg(["mode", "resize"])
      owner = try desk.status(tag: "sway-mode")?.owner
      return owner != nil
    }
    // The owner goes away: the watcher starts the next one, which shows the mode.
    let first = try #require(owner)
    #expect(kill(first, SIGKILL) == 0)
    try waitUntil("the next owner to show the mode banner") {
      owner = try desk.status(tag: "sway-mode")?.owner
      return owner != nil && owner != first
    }
    // That one goes away too, sent nothing new: the watcher waits for its next toast.
    #expect(kill(try #require(owner), SIGKILL) == 0)
    try waitUntil("no owner left") { owners().isEmpty }
    // The next toast, the layout's, starts an owner that shows the mode again.
    try waitUntil("the mode banner back beside the layout's HUD", timeout: 10) {
      try desk.sway.swaymsg(["input", "type:keyboard", "xkb_switch_layout", "next"])
      return try desk.status(tag: "sway-mode") != nil
    }
    #expect(try desk.status(tag: "sway-mode")?.text == "resize")
    #expect(owners().count == 1)
    #expect(watcher.isRunning)
  }
}
