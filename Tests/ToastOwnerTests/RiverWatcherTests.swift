import Testing
import ToastOwner
import ToastProtocol

/// `wl-toast watch river`'s logic: tag bitmasks to names, and what each status event means.
@Suite("River watcher")
struct RiverWatcherTests {
  @Test func bitmasksBecomeTagNumbers() {
    #expect(tagNumbers(0) == [])
    #expect(tagNumbers(1) == [1])
    #expect(tagNumbers(0b101) == [1, 3])
    #expect(tagNumbers(1 << 31) == [32])
    #expect(tagNumbers(.max) == Array(1...32))
  }

  /// Masks, names and the text they make.
  static let texts: [(mask: UInt32, names: [Int: String], text: String)] = [
    (1 << 1, [:], "Tag 2"),
    (0b101, [:], "Tags 1+3"),
    (0b101, [1: "web"], "Tags web+3"),
    (0b101, [1: "web", 3: "mail"], "web+mail"),
    (0b1, [1: "web", 2: "code"], "web"),
    (1 << 31, [:], "Tag 32"),
    (0, [:], "No tags"),
    (.max, [:], "All tags"),
    (0b11, [2: "Ünï 🎉"], "Tags 1+Ünï 🎉"),
  ]

  @Test func tagTextNamesTags() {
    for (mask, names, text) in Self.texts {
      #expect(tagText(mask, names: names) == text, "\(mask) \(names)")
    }
  }

  @Test func allTagsWithNamesListsTheNames() {
    let names = Dictionary(uniqueKeysWithValues: (1...32).map { ($0, "t\($0)") })
    #expect(tagText(.max, names: names) == (1...32).map { "t\($0)" }.joined(separator: "+"))
  }

  @Test func viewTagArraysBecomeTagSets() {
    let values: [UInt32] = [1, 0x8000_0002, 0]
    let bytes = values.flatMap { value in withUnsafeBytes(of: value) { Array($0) } }
    #expect(viewTagSets(bytes) == values)
    #expect(viewTagSets(bytes + [7, 7]) == values, "a partial value is ignored")
    #expect(viewTagSets([]) == [])
  }

  @Test func modesShowUntilNormal() {
    var watcher = RiverWatcher()
    // The mode river reports on binding: normal, nothing to hide.
    #expect(watcher.handle(.mode("normal")) == nil)
    #expect(
      watcher.handle(.mode("resize")) == .show(text: "resize", tag: "river-mode", sticky: true))
    #expect(watcher.activeMode == "resize")
    #expect(watcher.handle(.mode("resize")) == nil, "the same mode again changes nothing")
    #expect(
      watcher.handle(.mode("passthrough"))
        == .show(text: "passthrough", tag: "river-mode", sticky: true))
    #expect(watcher.handle(.mode("normal")) == .hide(tag: "river-mode"))
    #expect(watcher.activeMode == nil)
    #expect(watcher.handle(.mode("normal")) == nil)
  }

  @Test func theLockedModeShowsNothing() {
    var watcher = RiverWatcher()
    #expect(watcher.handle(.mode("locked")) == nil)
    _ = watcher.handle(.mode("resize"))
    #expect(watcher.handle(.mode("locked")) == .hide(tag: "river-mode"))
  }

  @Test func aModeReportedOnBindingShows() {
    var watcher = RiverWatcher()
    #expect(
      watcher.handle(.mode("resize")) == .show(text: "resize", tag: "river-mode", sticky: true))
  }

  @Test func focusedTagsShowOnlyWhenAskedAndOnlyOnAChange() {
    var quiet = RiverWatcher()
    #expect(quiet.handle(.focusedTags(output: 1, tags: 1)) == nil)
    #expect(quiet.handle(.focusedTags(output: 1, tags: 2)) == nil, "not asked for")

    var watcher = RiverWatcher(options: RiverWatchOptions(focusedTags: true))
    #expect(watcher.handle(.focusedTags(output: 1, tags: 1)) == nil, "the starting point")
    #expect(watcher.handle(.focusedTags(output: 7, tags: 4)) == nil, "another output's start")
    #expect(
      watcher.handle(.focusedTags(output: 1, tags: 2))
        == .show(text: "Tag 2", tag: "river-tags", sticky: false))
    #expect(watcher.handle(.focusedTags(output: 1, tags: 2)) == nil, "no change")
    #expect(
      watcher.handle(.focusedTags(output: 7, tags: 5))
        == .show(text: "Tags 1+3", tag: "river-tags", sticky: false))
    // A removed output starts again from its next report.
    #expect(watcher.handle(.outputRemoved(output: 7)) == nil)
    #expect(watcher.handle(.focusedTags(output: 7, tags: 1)) == nil)
  }

  @Test func focusedTagsWaitWhileAModeShows() {
    var watcher = RiverWatcher(options: RiverWatchOptions(focusedTags: true))
    _ = watcher.handle(.focusedTags(output: 1, tags: 1))
    _ = watcher.handle(.mode("resize"))
    #expect(watcher.handle(.focusedTags(output: 1, tags: 2)) == nil)
    _ = watcher.handle(.mode("normal"))
    #expect(
      watcher.handle(.focusedTags(output: 1, tags: 4))
        == .show(text: "Tag 3", tag: "river-tags", sticky: false))
  }

  @Test func tagNamesApply() {
    var watcher = RiverWatcher(
      options: RiverWatchOptions(focusedTags: true, tagNames: [1: "web", 2: "code"]))
    _ = watcher.handle(.focusedTags(output: 1, tags: 1))
    #expect(
      watcher.handle(.focusedTags(output: 1, tags: 3))
        == .show(text: "web+code", tag: "river-tags", sticky: false))
  }

  @Test func urgentShowsTagsThatBecomeUrgent() {
    var quiet = RiverWatcher()
    _ = quiet.handle(.urgentTags(output: 1, tags: 0))
    #expect(quiet.handle(.urgentTags(output: 1, tags: 4)) == nil, "not asked for")

    var watcher = RiverWatcher(options: RiverWatchOptions(urgent: true, tagNames: [5: "chat"]))
    #expect(watcher.handle(.urgentTags(output: 1, tags: 2)) == nil, "urgent before watching")
    #expect(
      watcher.handle(.urgentTags(output: 1, tags: 2 | 4))
        == .show(text: "Urgent: Tag 3", tag: "river-tags", sticky: false))
    #expect(watcher.handle(.urgentTags(output: 1, tags: 4)) == nil, "tag 2 no longer urgent")
    #expect(
      watcher.handle(.urgentTags(output: 1, tags: 4 | 16))
        == .show(text: "Urgent: chat", tag: "river-tags", sticky: false))
    // Urgent tags show even while a mode does: they need attention.
    _ = watcher.handle(.mode("resize"))
    #expect(
      watcher.handle(.urgentTags(output: 1, tags: 4 | 16 | 1))
        == .show(text: "Urgent: Tag 1", tag: "river-tags", sticky: false))
  }

  @Test func otherReportsShowNothing() {
    var watcher = RiverWatcher(options: RiverWatchOptions(focusedTags: true, urgent: true))
    #expect(watcher.handle(.viewTags(output: 1, tags: [1, 2])) == nil)
    #expect(watcher.handle(.focusedView(title: "Firefox")) == nil)
  }
}
