import Wayland

/// The windows the compositor reports fullscreen, and their outputs
/// (wlr-foreign-toplevel-management), for ``ToastModel/Toast/fullscreen``.
///
/// Nothing is bound until a toast first needs to know: toasts that show over
/// fullscreen windows (the default) cost nothing, and the compositor's
/// window events wake the program only from then on. The first list of
/// windows takes one roundtrip, in the event loop (``isLearning`` until then).
final class FullscreenWindows {
  /// Where the compositor's reports stand.
  enum Knowledge: Equatable {
    /// Nothing asked yet.
    case notAsked
    /// Bound; the first list of windows is on its way.
    case learning
    /// Every window is known, and kept up to date.
    case known
    /// The compositor offers no window list (KWin, GNOME): nothing is ever fullscreen.
    case unavailable
  }

  /// One window: its committed state and outputs, and what its next `done` commits.
  private final class Window {
    let handle: ZwlrForeignToplevelHandleV1
    var isFullscreen = false
    var isActivated = false
    var outputs: [ObjectIdentifier] = []
    var pending: (fullscreen: Bool, activated: Bool, outputs: [ObjectIdentifier])

    init(_ handle: ZwlrForeignToplevelHandleV1) {
      self.handle = handle
      pending = (false, false, [])
    }
  }

  private let display: Display
  private let registry: Registry
  private var manager: ZwlrForeignToplevelManagerV1?
  private var firstList: WlCallback?
  private var windows: [ObjectIdentifier: Window] = [:]
  /// Where the reports stand.
  private(set) var knowledge = Knowledge.notAsked
  /// Called when a window enters or leaves fullscreen or moves between
  /// outputs, when the focus moves, and once the first list is in.
  var onChange: (() -> Void)?

  init(display: Display, registry: Registry) {
    self.display = display
    self.registry = registry
  }

  /// Whether the first list of windows is still on its way.
  var isLearning: Bool { knowledge == .learning }

  /// Binds the window list when not yet done; the first list arrives in the
  /// event loop, then ``onChange`` is called.
  func startWatching() {
    guard knowledge == .notAsked else { return }
    guard let global = registry.globals(of: ZwlrForeignToplevelManagerV1.self).first else {
      knowledge = .unavailable
      return
    }
    knowledge = .learning
    let manager = registry.bind(global, as: ZwlrForeignToplevelManagerV1.self)
    self.manager = manager
    manager.onEvent = { [unowned self] event in
      switch event {
      case .toplevel(let handle): add(handle)
      case .finished:
        // The compositor stopped reporting: what is known can no longer be trusted.
        self.manager = nil
        windows.removeAll()
        knowledge = .unavailable
        onChange?()
      }
    }
    // Every window is announced before the answer to this sync.
    let callback = display.object.sync()
    callback.onEvent = { [unowned self] _ in
      firstList = nil
      if knowledge == .learning { knowledge = .known }
      onChange?()
    }
    firstList = callback
  }

  private func add(_ handle: ZwlrForeignToplevelHandleV1) {
    let window = Window(handle)
    let id = ObjectIdentifier(handle)
    windows[id] = window
    handle.onEvent = { [unowned self, unowned window] event in
      switch event {
      case .outputEnter(let output):
        window.pending.outputs.append(ObjectIdentifier(output))
      case .outputLeave(let output):
        window.pending.outputs.removeAll { $0 == ObjectIdentifier(output) }
      case .state(let bytes):
        let states = windowStates(bytes)
        window.pending.fullscreen = states.contains(3)
        window.pending.activated = states.contains(2)
      case .done:
        // Only a fullscreen window's changes (or the change to or from
        // fullscreen) matter to a toast.
        let matters =
          (window.isFullscreen || window.pending.fullscreen)
          && (window.pending.fullscreen != window.isFullscreen
            || window.pending.activated != window.isActivated
            || window.pending.outputs != window.outputs)
        window.isFullscreen = window.pending.fullscreen
        window.isActivated = window.pending.activated
        window.outputs = window.pending.outputs
        if matters && knowledge == .known { onChange?() }
      case .closed:
        // `window` is unowned: the dictionary holds the only strong
        // reference, so read what is needed before dropping it.
        let wasFullscreen = window.isFullscreen
        let handle = window.handle
        windows[id] = nil
        handle.destroy()
        if wasFullscreen && knowledge == .known { onChange?() }
      case .title, .appId, .parent:
        break
      }
    }
  }

  /// Whether a fullscreen window covers `output`; for nil (the output the
  /// compositor chooses, the focused one) whether the focused window is
  /// fullscreen, or with one output only, whether any window is.
  func covers(_ output: OutputInfo?, outputCount: Int) -> Bool {
    guard knowledge == .known else { return false }
    guard let output else {
      return windows.values.contains { $0.isFullscreen && ($0.isActivated || outputCount == 1) }
    }
    let id = ObjectIdentifier(output.object)
    return windows.values.contains { $0.isFullscreen && $0.outputs.contains(id) }
  }
}

/// The states of a window's `state` event: an array of 32-bit values
/// (1 maximized, 2 activated, 3 fullscreen) in the host's byte order.
func windowStates(_ bytes: [UInt8]) -> [UInt32] {
  stride(from: 0, to: bytes.count - bytes.count % 4, by: 4).map { start in
    bytes[start..<start + 4].withUnsafeBytes { $0.loadUnaligned(as: UInt32.self) }
  }
}
