import ToastAccessibility
import ToastModel
import ToastProtocol

/// What `wl-toast watch sway` does with the toast after an event.
package enum SwayWatchAction: Equatable, Sendable {
  /// Shows `text`, replacing what is shown; a sticky toast stays until hidden,
  /// another one hides after the usual timeout.
  case show(text: String, sticky: Bool)
  /// Hides the toast.
  case hide
  /// Names the keyboard layout now active, as sway names it ("English (US)").
  case layout(String)
}

/// The logic of `wl-toast watch sway`, without the socket: turns sway IPC
/// events into what to show.
///
/// Entering a binding mode other than `default` shows its name until the mode
/// ends; returning to `default` hides it. With ``SwayWatchOptions/workspaces``,
/// focusing a workspace shows "Workspace NAME" briefly, except while a mode is
/// shown (the mode keeps priority). Events it cannot read are ignored.
package struct SwayWatcher {
  /// What to show.
  package let options: SwayWatchOptions
  /// The binding mode sway is in, nil for `default` (or before any mode event).
  package private(set) var activeMode: String?

  /// Creates a watcher; nothing is shown until the first event.
  package init(options: SwayWatchOptions = SwayWatchOptions()) {
    self.options = options
  }

  /// The events to subscribe to: `["mode"]`, plus `"workspace"` when workspaces
  /// are shown and `"input"` when the keyboard layout is.
  package var subscriptions: [String] {
    ["mode"] + (options.workspaces ? ["workspace"] : [])
      + (options.keyboardLayout ? ["input"] : [])
  }

  /// Takes one event (its type with the event bit, and its JSON payload) and
  /// returns what to do, or nil to leave the toast as it is.
  package mutating func handle(eventType: UInt32, payload: String) -> SwayWatchAction? {
    switch eventType {
    case SwayIPCMessageType.modeEvent:
      return handleMode(payload)
    case SwayIPCMessageType.workspaceEvent where options.workspaces:
      return handleWorkspace(payload)
    case SwayIPCMessageType.inputEvent where options.keyboardLayout:
      return handleInput(payload)
    default:
      return nil
    }
  }

  private mutating func handleMode(_ payload: String) -> SwayWatchAction? {
    guard let event = try? JSONValue.parse(payload),
      let name = event["change"]?.stringValue, !name.isEmpty
    else { return nil }
    if name == "default" {
      activeMode = nil
      return .hide
    }
    let markup = event["pango_markup"]?.boolValue ?? false
    let text = markup ? Toast.plainText(ofMarkup: name) : name
    activeMode = name
    return .show(text: Toast.truncated(text.isEmpty ? name : text), sticky: true)
  }

  /// A keyboard's active layout changed (`xkb_layout`): its name, as sway's
  /// `xkb_active_layout_name` says it.
  private func handleInput(_ payload: String) -> SwayWatchAction? {
    guard let event = try? JSONValue.parse(payload), event["change"]?.stringValue == "xkb_layout",
      let name = event["input"]?["xkb_active_layout_name"]?.stringValue,
      !name.allSatisfy(\.isWhitespace)
    else { return nil }
    return .layout(Toast.truncated(name))
  }

  private func handleWorkspace(_ payload: String) -> SwayWatchAction? {
    guard activeMode == nil, let event = try? JSONValue.parse(payload),
      event["change"]?.stringValue == "focus",
      let name = event["current"]?["name"]?.stringValue, !name.isEmpty
    else { return nil }
    return .show(text: Toast.truncated("Workspace \(name)"), sticky: false)
  }
}
