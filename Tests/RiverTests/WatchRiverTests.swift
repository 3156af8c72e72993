import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastOwner
import ToastRendering
import Wayland

/// river's status protocol and `wl-toast watch river` on a real river.
@Suite(.serialized)
struct WatchRiverTests {
  @Test func theStatusProtocolReportsTagsAndModes() throws {
    let river = try HeadlessRiver(
      outputs: 2, extraInit: "riverctl declare-mode keyboard-passthrough")
    let display = try Display(name: river.socketPath)
    var events: [RiverStatusEvent] = []
    let status = try RiverStatus(display: display) { events.append($0) }
    #expect(status.version == 3, "river 5eb0e23 offers version 3 (modes, no layout names)")
    try display.roundtrip()
    // On binding: each output's focused tags (tag 1) and the seat's mode.
    let focused = events.compactMap { event -> (UInt32, UInt32)? in
      if case .focusedTags(let output, let tags) = event { return (output, tags) }
      return nil
    }
    #expect(focused.count == 2 && focused.allSatisfy { $0.1 == 1 }, "\(events)")
    #expect(events.contains(.mode("normal")), "\(events)")
    #expect(events.contains(.urgentTags(output: focused.first?.0 ?? 0, tags: 0)), "\(events)")

    events = []
    try river.riverctl(["set-focused-tags", "6"])
    try river.riverctl(["enter-mode", "keyboard-passthrough"])
    try waitUntil(
      "tags 2+3 focused on one output, then the mode keyboard-passthrough (last: \(events))"
    ) {
      try display.roundtrip()
      return events.contains(.mode("keyboard-passthrough"))
    }
    let changed = events.compactMap { event -> UInt32? in
      if case .focusedTags(_, let tags) = event { return tags }
      return nil
    }
    #expect(changed == [6], "only the focused output's tags changed: \(events)")
    #expect(tagText(6) == "Tags 2+3")
  }

  @Test func modesShowABannerAndFocusedTagsAToast() throws {
    let desk = try Desk<HeadlessRiver>(extraInit: "riverctl declare-mode keyboard-passthrough")
    let watch = try desk.run(["watch", "river", "--focused-tags"])
    defer { watch.terminate() }
    // The watcher is ready once a mode entered after it started shows.
    var seen: Box?
    let mode = Looks.restingPill("keyboard-passthrough")
    try waitUntil(
      "the mode banner 'keyboard-passthrough' at \(mode) (last seen: \(lastSeen(seen)))"
    ) {
      #expect(watch.isRunning)
      try desk.river.riverctl(["enter-mode", "keyboard-passthrough"])
      seen = try desk.river.screenshot().pillBox
      return seen == mode
    }
    // Tags change while the mode shows (no toast for them then); back to normal, it goes.
    try desk.river.riverctl(["set-focused-tags", "4"])
    try desk.river.riverctl(["enter-mode", "normal"])
    // The tags' toasts seen until the banner is gone, by their text.
    var told: [String] = []
    func noteTagsToast() {
      if let text = (try? desk.status(tag: "river-tags"))??.text, told.last != text {
        told.append(text)
      }
    }
    try desk.screenshot("the banner gone after enter-mode normal") {
      noteTagsToast()
      return $0.pillBox == nil
    }
    #expect(told.isEmpty, "tag 3, focused while the mode showed, had no toast: \(told)")
    // Tag 2 gets focus: a banner names it, then goes away by itself.
    try desk.river.riverctl(["set-focused-tags", "2"])
    let tag2 = Looks.restingPill("Tag 2")
    #expect(tag2.width != mode.width)
    try desk.screenshot("a banner for 'Tag 2' at \(tag2) (last seen: \(lastSeen(seen)))") {
      seen = $0.pillBox
      return seen == tag2
    }
    try desk.screenshot("the 'Tag 2' banner gone after its second", timeout: 5) {
      $0.pillBox == nil
    }
    // When river goes away, so does the watcher, with status 0.
    desk.river.stop()
    #expect(watch.wait(timeout: 10) == 0)
  }

  @Test func theModeBannerIsTheOwnersToastBesideAScriptsBanner() throws {
    let desk = try Desk<HeadlessRiver>(extraInit: "riverctl declare-mode keyboard-passthrough")
    try WatcherCase(
      desk: desk, watch: ["watch", "river"], modeTag: "river-mode", mode: "keyboard-passthrough",
      enterMode: { try desk.river.riverctl(["enter-mode", "keyboard-passthrough"]) },
      leaveMode: { try desk.river.riverctl(["enter-mode", "normal"]) }
    ).run()
  }

  @Test func tagNamesNameTheFocusedTagsOnTheOutputThatChanged() throws {
    let desk = try Desk<HeadlessRiver>(outputs: 2)
    let watch = try desk.run(["watch", "river", "--focused-tags", "--tag-names", "1=web,3=mail"])
    defer { watch.terminate() }
    try desk.river.riverctl(["focus-output", "HEADLESS-2"])
    // Toggling tag 3 on the second output: "web+mail" there, nothing on the first.
    let expected = Looks.restingPill("web+mail")
    var seen: (one: Box?, two: Box?) = (nil, nil)
    try waitUntil("the banner 'web+mail' on HEADLESS-2 at \(expected) (last seen: \(seen))") {
      #expect(watch.isRunning)
      let tags = try desk.river.screenshot(output: "HEADLESS-2").pillBox
      if tags == nil {
        // Until the watcher has its first report, a change is its starting point: toggle again.
        try desk.river.riverctl(["set-focused-tags", "1"])
        try desk.river.riverctl(["toggle-focused-tags", "4"])
      }
      seen = (try desk.river.screenshot(output: "HEADLESS-1").pillBox, tags)
      return seen.two == expected && seen.one == nil
    }
  }

  @Test func withoutRiverItSaysSoInOneLine() throws {
    let sway = try HeadlessSway()
    let result = try CommandRunner(on: sway).runToEnd(["watch", "river"])
    #expect(result.status == 1)
    #expect(
      result.output + result.errors
        == "wl-toast: watch river: the compositor does not offer zriver_status_manager_v1,"
        + " river's status protocol, which river 0.2 and 0.3 have; river 0.4 and later leave"
        + " status to their window managers, and other compositors have none\n")
  }
}
