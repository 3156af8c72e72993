import ToastProtocol

/// One report of river's status protocol (river-status-unstable-v1), as the
/// watcher needs it. Outputs are told apart by a number of the caller's
/// choosing (the wl_output global's name).
package enum RiverStatusEvent: Equatable, Sendable {
  /// The tags an output shows, one bit per tag (bit 0 is tag 1). River sends
  /// it once for each output when the client starts watching, then on changes.
  case focusedTags(output: UInt32, tags: UInt32)
  /// The tags of an output with at least one urgent view.
  case urgentTags(output: UInt32, tags: UInt32)
  /// The tags of each view of an output (not shown; for completeness).
  case viewTags(output: UInt32, tags: [UInt32])
  /// The output went away.
  case outputRemoved(output: UInt32)
  /// The seat entered a mode, such as `normal` or one from `riverctl declare-mode`.
  case mode(String)
  /// The title of the seat's focused view, empty for none (not shown).
  case focusedView(title: String)
}

/// What `wl-toast watch river` does with its toasts after an event.
package enum RiverWatchAction: Equatable, Sendable {
  /// Shows `text` as a banner with `tag`, replacing what that tag shows; a
  /// sticky one stays until hidden, another hides after a second.
  case show(text: String, tag: String, sticky: Bool)
  /// Hides the toast with `tag`.
  case hide(tag: String)
}

/// The logic of `wl-toast watch river`, without Wayland: turns river's status
/// events into what to show.
///
/// A mode other than `normal` (and `locked`, river's own mode while the screen
/// is locked) shows its name until the seat returns to `normal`. With
/// ``RiverWatchOptions/focusedTags``, a change of an output's focused tags
/// shows the tags now focused ("Tag 2", "Tags 1+3"), except while a mode is
/// shown (the mode keeps priority, as with `watch sway`). With
/// ``RiverWatchOptions/urgent``, a tag that gains an urgent view shows
/// "Urgent: Tag 3". The first report of each output only sets the starting
/// point: nothing shows for the state river is in when watching starts.
package struct RiverWatcher {
  /// The tag of the mode banner.
  package static let modeTag = "river-mode"
  /// The tag of the focused-tags and urgent toasts.
  package static let tagsTag = "river-tags"

  /// What to show.
  package let options: RiverWatchOptions
  /// The mode shown, nil while river is in `normal` (or `locked`).
  package private(set) var activeMode: String?
  private var focused: [UInt32: UInt32] = [:]
  private var urgent: [UInt32: UInt32] = [:]

  /// Creates a watcher; nothing is shown until the first event.
  package init(options: RiverWatchOptions = RiverWatchOptions()) {
    self.options = options
  }

  /// Takes one event and returns what to do, or nil to leave the toasts as they are.
  package mutating func handle(_ event: RiverStatusEvent) -> RiverWatchAction? {
    switch event {
    case .mode(let name):
      return handleMode(name)
    case .focusedTags(let output, let tags):
      let previous = focused.updateValue(tags, forKey: output)
      guard options.focusedTags, let previous, previous != tags, activeMode == nil else {
        return nil
      }
      return .show(text: tagText(tags, names: options.tagNames), tag: Self.tagsTag, sticky: false)
    case .urgentTags(let output, let tags):
      let previous = urgent.updateValue(tags, forKey: output)
      let added = tags & ~(previous ?? tags)
      guard options.urgent, added != 0 else { return nil }
      return .show(
        text: "Urgent: " + tagText(added, names: options.tagNames), tag: Self.tagsTag,
        sticky: false)
    case .outputRemoved(let output):
      focused[output] = nil
      urgent[output] = nil
      return nil
    case .viewTags, .focusedView:
      return nil
    }
  }

  private mutating func handleMode(_ name: String) -> RiverWatchAction? {
    if name == "normal" || name == "locked" || name.isEmpty {
      guard activeMode != nil else { return nil }
      activeMode = nil
      return .hide(tag: Self.modeTag)
    }
    guard name != activeMode else { return nil }
    activeMode = name
    return .show(text: name, tag: Self.modeTag, sticky: true)
  }
}

/// The tag numbers (1 to 32) whose bits are set in `mask`, in ascending order.
package func tagNumbers(_ mask: UInt32) -> [Int] {
  (0..<32).filter { mask & (1 << UInt32($0)) != 0 }.map { $0 + 1 }
}

/// Names the tags of `mask` for a toast: "Tag 2", "Tags 1+3", each tag by its
/// name from `names` when it has one ("web", "web+code", "Tags web+3": the word
/// "Tag" only while a number shows); "All tags" for all 32 and "No tags" for none.
package func tagText(_ mask: UInt32, names: [Int: String] = [:]) -> String {
  if mask == 0 { return "No tags" }
  if mask == .max && names.isEmpty { return "All tags" }
  let numbers = tagNumbers(mask)
  let parts = numbers.map { names[$0] ?? String($0) }
  let joined = parts.joined(separator: "+")
  guard numbers.contains(where: { names[$0] == nil }) else { return joined }
  return (numbers.count == 1 ? "Tag " : "Tags ") + joined
}

/// The 32-bit tag sets of a `view_tags` event's array (native byte order, as
/// libwayland passes it); trailing bytes that make no whole value are ignored.
package func viewTagSets(_ bytes: [UInt8]) -> [UInt32] {
  stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { start in
    bytes[start..<(start + 4)].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
  }
}
