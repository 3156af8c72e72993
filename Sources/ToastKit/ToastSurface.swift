import CPangoCairo
import CWaylandClient
import Glibc
import SystemSupport
import ToastRendering
import Wayland

/// XKB keysym of Escape.
let escapeKeysym: UInt32 = 0xff1b

/// The only Wayland room of a toast: one layer surface with its buffers, frame
/// callbacks, input region and input.
///
/// Configure events store state and mark the surface dirty; the presenter's
/// loop calls ``drawIfNeeded()`` before it sleeps, which acknowledges and draws.
/// At most one frame callback is pending; buffers the compositor holds are never
/// drawn into.
final class ToastSurface {
  private(set) var toast: Toast
  private let session: Session
  private let surface: WlSurface
  private let layerSurface: ZwlrLayerSurfaceV1
  private let pool: ShmBufferPool
  private var layout: ToastLayout
  private var configuredSize: (width: Int, height: Int)?
  private var pendingSerial: UInt32?
  /// A new size was asked for: draw again only once the compositor configured it.
  private var awaitingResize = false
  private var frameCallback: WlCallback?
  private var needsDraw = false
  private var enteredOutputs: [WlOutput] = []
  private var bufferScale = 1
  private(set) var timeline: Timeline?
  /// The timeout's timer (restarted by updates).
  private var expiryTimer: EventLoop.Token?
  /// The timer of an explicit `hide(after:)`.
  private var hideTimer: EventLoop.Token?
  private var exitOutcome: ToastOutcome?
  private var safetyTimer: EventLoop.Token?
  private(set) var isGone = false
  /// Whether the toast is fading out (or gone).
  var isExiting: Bool { isGone || exitOutcome != nil }
  /// What the last frame showed, to damage only what changed.
  private var lastFrame: (appearance: Appearance, content: Int, width: Int32, height: Int32)?
  /// Bumped whenever the toast or its layout changes.
  private var contentVersion = 0
  /// Called once when the toast is gone, with how it ended.
  /// With a reason when the toast could not be shown (it ends as hidden).
  var onGone: ((ToastOutcome, _ failure: String?) -> Void)?
  /// Called after each committed frame.
  var onFrame: (() -> Void)?

  init(toast: Toast, session: Session) {
    self.toast = toast
    self.session = session
    pool = ShmBufferPool(shm: session.shm)
    surface = session.compositor.createSurface()
    let output = session.outputs.first
    bufferScale = output?.scale ?? 1
    let size = output?.logicalSize ?? (width: 1280, height: 720)
    layout = ToastLayout(toast: toast, outputWidth: size.width, outputHeight: size.height)
    layerSurface = session.layerShell.getLayerSurface(
      surface, output: nil, layer: .overlay, namespace: "wl-toast")
    surface.onEvent = { [unowned self] event in
      switch event {
      case .enter(let output):
        enteredOutputs.append(output)
        outputsChanged()
      case .leave(let output):
        enteredOutputs.removeAll { $0 === output }
        outputsChanged()
      }
    }
    layerSurface.onEvent = { [unowned self] event in
      switch event {
      case .configure(let serial, let width, let height):
        pendingSerial = serial
        awaitingResize = false
        configuredSize = (Int(width), Int(height))
        needsDraw = true
      case .closed:
        finish(.hidden)
      }
    }
    applyRole()
    surface.commit()
  }

  deinit {
    tearDown()
  }

  /// The output the surface is on (the first it entered), or the first output.
  private var output: OutputInfo? {
    enteredOutputs.first.flatMap(session.output(for:)) ?? session.outputs.first
  }

  /// Sets anchor, size, zone, keyboard mode and input region from the toast.
  private func applyRole() {
    if toast.isModal {
      layerSurface.setAnchor([.top, .bottom, .left, .right])
      layerSurface.setSize(width: 0, height: 0)
      layerSurface.setExclusiveZone(-1)
    } else {
      layerSurface.setAnchor(toast.style == .banner ? [.top] : [])
      layerSurface.setSize(width: UInt32(layout.surfaceWidth), height: UInt32(layout.surfaceHeight))
      // Zero: placed below bars that reserve space, reserving none itself.
      layerSurface.setExclusiveZone(0)
    }
    let interactivity: ZwlrLayerSurfaceV1.KeyboardInteractivity
    if toast.isModal {
      interactivity = .exclusive
    } else if toast.dismissal == .tap && layerSurface.version >= 4 {
      interactivity = .onDemand
    } else {
      interactivity = .none
    }
    layerSurface.setKeyboardInteractivity(interactivity)
    updateInputRegion()
  }

  /// Touch-through: an empty region; tap: the box; modal: everything.
  private func updateInputRegion() {
    let region = session.compositor.createRegion()
    if toast.isModal {
      region.add(x: 0, y: 0, width: Int32.max, height: Int32.max)
    } else if toast.dismissal == .tap {
      let box = layout.box
      region.add(
        x: Int32(box.x), y: Int32(box.y), width: Int32(box.width.rounded(.up)),
        height: Int32(box.height.rounded(.up)))
    }
    surface.setInputRegion(region)
    region.destroy()
  }

  /// An output the surface is on appeared, changed (scale, mode) or went away:
  /// draw at the right scale and size.
  func outputsChanged() {
    let scale = enteredOutputs.compactMap { session.output(for: $0)?.scale }.max() ?? bufferScale
    if scale != bufferScale {
      bufferScale = scale
      needsDraw = true
    }
    relayout()
  }

  /// Recomputes the layout for the current output and toast; resizes the surface if needed.
  private func relayout() {
    let size = output?.logicalSize ?? (width: 1280, height: 720)
    let old = layout
    layout = ToastLayout(
      toast: toast, outputWidth: size.width, outputHeight: size.height,
      surfaceSize: configuredSize)
    if !toast.isModal
      && (old.surfaceWidth != layout.surfaceWidth || old.surfaceHeight != layout.surfaceHeight)
    {
      layerSurface.setSize(width: UInt32(layout.surfaceWidth), height: UInt32(layout.surfaceHeight))
      if configuredSize != nil {
        // Ask now; the frame at the new size follows the configure.
        awaitingResize = true
        surface.commit()
      }
    }
    if old.box != layout.box { updateInputRegion() }
    contentVersion += 1
    needsDraw = true
  }

  /// Changes what the toast shows, in place: no new surface, no new entry animation.
  func update(_ newToast: Toast) {
    guard !isGone else { return }
    let roleChanged =
      newToast.isModal != toast.isModal || newToast.style != toast.style
      || newToast.dismissal != toast.dismissal
    toast = newToast
    if roleChanged { applyRole() }
    relayout()
    if timeline != nil && exitOutcome == nil { scheduleHide() }
    surface.commit()
  }

  /// Starts hiding: the exit animation, then the surface goes away.
  func hide(_ outcome: ToastOutcome, animated: Bool = true) {
    guard !isGone, exitOutcome == nil else { return }
    exitOutcome = outcome
    cancelHideTimer()
    guard animated, var timeline, toast.isAnimated else {
      finish(outcome)
      return
    }
    timeline.beginExit(at: MonotonicTime.now.seconds)
    self.timeline = timeline
    needsDraw = true
    // Frame callbacks drive the fade; the timer ends it even if none come (a
    // compositor that stops sending frame callbacks for a hidden output).
    let exit = Duration.seconds(clamping: timeline.exitDuration)
    safetyTimer = session.loop.addTimer(after: exit + Self.frameCallbackGrace) { [weak self] in
      self?.finish(outcome)
    }
  }

  /// How long past the end of its exit a toast waits for frame callbacks
  /// before it goes without them.
  static let frameCallbackGrace: Duration = .milliseconds(500)

  /// Hides after `delay` (replacing an earlier `hide(after:)`).
  func hide(after delay: Duration, outcome: ToastOutcome) {
    if let hideTimer { session.loop.remove(hideTimer) }
    hideTimer = session.loop.addTimer(after: max(.zero, delay)) { [weak self] in
      self?.hide(outcome)
    }
  }

  /// (Re)starts the timeout, counted from the end of the entry or from now.
  private func scheduleHide() {
    if let expiryTimer { session.loop.remove(expiryTimer) }
    expiryTimer = nil
    let timeout = toast.effectiveTimeout
    guard timeout > .zero, let timeline else { return }
    let untilRest = Duration.seconds(clamping: timeline.restingAt - MonotonicTime.now.seconds)
    expiryTimer = session.loop.addTimer(after: max(.zero, untilRest) + timeout) { [weak self] in
      self?.hide(.expired)
    }
  }

  private func cancelHideTimer() {
    for timer in [hideTimer, expiryTimer].compactMap({ $0 }) { session.loop.remove(timer) }
    hideTimer = nil
    expiryTimer = nil
  }

  /// Input on this surface.
  func handle(_ event: InputEvent) {
    guard !isGone, exitOutcome == nil else { return }
    switch event {
    case .tap(let x, let y):
      guard toast.dismissal == .tap else { return }
      if toast.isModal || layout.box.contains(x: x, y: y) { hide(.dismissed) }
    case .key(let keysym):
      if keysym == escapeKeysym && (toast.dismissal == .tap || toast.isModal) {
        hide(.dismissed)
      }
    }
  }

  /// Whether `object` is this toast's surface.
  func owns(_ object: WlSurface) -> Bool { object === surface }

  /// Draws a frame if something changed and no frame callback is pending.
  func drawIfNeeded() {
    guard !isGone, needsDraw, frameCallback == nil, !awaitingResize, let configuredSize else {
      return
    }
    let now = MonotonicTime.now.seconds
    if let timeline, timeline.isFinished(at: now), let exitOutcome {
      finish(exitOutcome)
      return
    }
    if let serial = pendingSerial {
      layerSurface.ackConfigure(serial: serial)
      pendingSerial = nil
      if toast.isModal { relayout() }
    }
    // Draw at the size the compositor configured (the size we asked for, or the output).
    let width = configuredSize.width > 0 ? configuredSize.width : layout.surfaceWidth
    let height = configuredSize.height > 0 ? configuredSize.height : layout.surfaceHeight
    // wl_surface before version 3 cannot take a buffer scale: draw at 1 there.
    let scale = surface.version >= 3 ? max(bufferScale, 1) : 1
    let (pixelWidth, widthOverflow) = width.multipliedReportingOverflow(by: scale)
    let (pixelHeight, heightOverflow) = height.multipliedReportingOverflow(by: scale)
    guard !widthOverflow, !heightOverflow, let bufferWidth = Int32(exactly: pixelWidth),
      let bufferHeight = Int32(exactly: pixelHeight)
    else {
      fail(WaylandError.bufferTooLarge(width: width, height: height).description)
      return
    }
    let buffer: ShmBuffer
    do {
      // nil: both buffers are held; a release will wake the loop.
      guard let free = try pool.nextBuffer(width: bufferWidth, height: bufferHeight) else {
        return
      }
      buffer = free
    } catch {
      // No buffer for this toast (too large, no shared memory): it alone ends.
      fail(error.description)
      return
    }
    let timeline =
      self.timeline ?? Timeline(style: toast.style, animated: toast.isAnimated, shownAt: now)
    if self.timeline == nil {
      self.timeline = timeline
      scheduleHide()
    }
    let appearance = timeline.appearance(at: now)
    guard let canvas = canvas(for: buffer) else {
      fail("cannot draw into a \(buffer.width)x\(buffer.height) buffer")
      return
    }
    canvas.draw(toast, layout: layout, appearance: appearance, scale: Double(scale))

    needsDraw = false
    let moving = timeline.isMoving(at: now) || toast.showsSpinner && toast.style == .hud
    if moving {
      let callback = surface.frame()
      callback.onEvent = { [unowned self] _ in
        frameCallback = nil
        needsDraw = true
      }
      frameCallback = callback
    }
    let damage = changedArea(appearance: appearance, buffer: buffer, scale: scale)
    do {
      if surface.version >= 3 { try surface.setBufferScale(Int32(scale)) }
      buffer.attach(to: surface)
      if surface.version >= 4 {
        try surface.damageBuffer(
          x: damage.x, y: damage.y, width: damage.width, height: damage.height)
      } else {
        surface.damage(x: 0, y: 0, width: Int32.max, height: Int32.max)
      }
    } catch {
      // The version checks above make this unreachable; fail loudly all the same.
      fail(error.description)
      return
    }
    lastFrame = (appearance, contentVersion, buffer.width, buffer.height)
    surface.commit()
    onFrame?()
  }

  /// The Cairo canvas over a buffer's pixels, made at its first use and kept
  /// with the buffer; nil when Cairo cannot use the buffer.
  private func canvas(for buffer: ShmBuffer) -> Canvas? {
    if let canvas = buffer.drawingContext as? Canvas { return canvas }
    let canvas = Canvas(
      pixels: buffer.data, width: buffer.width, height: buffer.height, stride: buffer.stride)
    buffer.drawingContext = canvas
    return canvas
  }

  /// The part of the buffer that differs from the last frame: only the spinner
  /// while nothing else moves, otherwise everything.
  private func changedArea(appearance: Appearance, buffer: ShmBuffer, scale: Int)
    -> (x: Int32, y: Int32, width: Int32, height: Int32)
  {
    if let last = lastFrame, let spinner = layout.spinner, last.content == contentVersion,
      last.width == buffer.width, last.height == buffer.height,
      last.appearance.opacity == appearance.opacity, last.appearance.slide == appearance.slide
    {
      let s = Double(scale)
      return (
        Int32((spinner.x * s).rounded(.down)) - 1, Int32((spinner.y * s).rounded(.down)) - 1,
        Int32((spinner.width * s).rounded(.up)) + 2, Int32((spinner.height * s).rounded(.up)) + 2
      )
    }
    return (0, 0, buffer.width, buffer.height)
  }

  /// Ends the toast because it cannot be shown; the others stay.
  private func fail(_ reason: String) {
    guard !isGone else { return }
    tearDown()
    onGone?(.hidden, reason)
  }

  private func finish(_ outcome: ToastOutcome) {
    guard !isGone else { return }
    tearDown()
    onGone?(outcome, nil)
  }

  private func tearDown() {
    guard !isGone else { return }
    isGone = true
    cancelHideTimer()
    if let safetyTimer { session.loop.remove(safetyTimer) }
    frameCallback?.destroy()
    frameCallback = nil
    layerSurface.destroy()
    surface.destroy()
  }
}
