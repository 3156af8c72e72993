import CompositorCases
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
}
