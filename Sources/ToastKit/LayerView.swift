import CWaylandClient
import SystemSupport
import ToastRendering
import Wayland

/// One layer surface of a toast on one output (or on the one the compositor
/// chooses): its buffers, configure state, frame callbacks, scale, placement
/// and input region.
///
/// Configure events store state and mark the view dirty;
/// ``draw(_:appearance:buttons:moving:now:)`` acknowledges and draws. At most one frame callback is pending; buffers the
/// compositor holds are never drawn into.
final class LayerView {
  private let session: Session
  private let surface: WlSurface
  private let layerSurface: ZwlrLayerSurfaceV1
  private let fractionalScale: WpFractionalScaleV1?
  private let viewport: WpViewport?
  /// The buffers and the frames drawn into them.
  private let painter: FramePainter
  /// The output asked for, or nil for the compositor's choice.
  let requestedOutput: OutputInfo?
  private var toast: Toast
  private(set) var layout: ToastLayout
  private var placement: Placement?
  private var configuredSize: (width: Int, height: Int)?
  private var pendingSerial: UInt32?
  /// A new size was asked for: draw again only once the compositor configured it.
  private var awaitingResize = false
  private var frameCallback: WlCallback?
  private(set) var needsDraw = true
  private var enteredOutputs: [WlOutput] = []
  /// The scale wp_fractional_scale_v1 prefers for this surface.
  private var preferredScale: RenderScale?
  /// The scale of the last frame; nil before the first.
  private(set) var drawnScale: RenderScale?
  /// How the last frame was drawn, and on which output the surface is now.
  var drawn: DrawnSurface? {
    lastDrawn.map {
      var drawn = $0
      drawn.output = output?.name
      return drawn
    }
  }
  private var lastDrawn: DrawnSurface?
  /// Bumped whenever the toast or the layout changes.
  private var contentVersion = 0
  /// The toast changed since the last layout: draw even if the geometry did not.
  private var contentChanged = false
  /// The place in a stack: where it moves to, and the move under way.
  private var targetShift = 0.0
  private var shiftMove: (from: Double, to: Double, startedAt: Double)?
  /// The shift the layout and placement were made with.
  private var appliedShift = 0.0
  private(set) var isClosed = false
  /// Whether the initial commit (the role, no buffer) was made: it waits for
  /// the first draw pass, after the presenter has put the view in its stack,
  /// so that the first configure already has the stacked size.
  private var roleCommitted = false
  /// The compositor closed the surface (its output went away).
  var onClosed: (() -> Void)?

  /// Creates the surface on `output` (nil: the compositor's choice) and commits
  /// its role; the first frame follows the first configure.
  init(toast: Toast, session: Session, output: OutputInfo?, shift: Double) {
    self.toast = toast
    self.session = session
    self.requestedOutput = output
    targetShift = shift
    appliedShift = shift
    painter = FramePainter(shm: session.shm)
    surface = session.compositor.createSurface()
    if let fractional = session.fractionalScale {
      fractionalScale = fractional.manager.getFractionalScale(surface: surface)
      viewport = fractional.viewporter.getViewport(surface: surface)
    } else {
      fractionalScale = nil
      viewport = nil
    }
    let size = (output ?? session.likelyOutput)?.logicalSize ?? (width: 1280, height: 720)
    layout = ToastLayout(
      toast: toast, outputWidth: size.width, outputHeight: size.height, shift: shift)
    layerSurface = session.layerShell.getLayerSurface(
      surface, output: output?.object, layer: toast.layer.shellLayer, namespace: "wl-toast")
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
    fractionalScale?.onEvent = { [unowned self] event in
      guard case .preferredScale(let numerator) = event else { return }
      preferredScale = RenderScale(fractional: Int(numerator))
      needsDraw = true
    }
    layerSurface.onEvent = { [unowned self] event in
      switch event {
      case .configure(let serial, let width, let height):
        pendingSerial = serial
        awaitingResize = false
        // The same size again (sway configures once more as it maps the
        // surface): acknowledge it, but the frame on screen stays right.
        let size = (Int(width), Int(height))
        if configuredSize.map({ $0 != size }) ?? true || drawnScale == nil { needsDraw = true }
        configuredSize = size
      case .closed:
        isClosed = true
        onClosed?()
      }
    }
    applyRole()
  }

  deinit {
    destroy()
  }

  /// The output the surface is on (the first it entered), or the one asked for.
  var output: OutputInfo? {
    enteredOutputs.first.flatMap(session.output(for:)) ?? requestedOutput
  }

  /// The output to lay out for: the one the surface is on, the one asked for,
  /// or before the compositor has said, the one it most likely chooses.
  private var layoutOutput: OutputInfo? { output ?? session.likelyOutput }

  /// Whether `object` is this view's surface.
  func owns(_ object: WlSurface) -> Bool { object === surface }

  /// The view's `wl_surface` (an activation token names it).
  var waylandSurface: WlSurface { surface }

  /// Whether the view holds the keyboard it was given, or gave it back.
  private(set) var keyboardHold = KeyboardHold.toastsOwn

  /// Holds the keyboard or gives it back: the layer surface's keyboard
  /// interactivity, committed now (or with the frame a resize waits for).
  func setKeyboardHold(_ hold: KeyboardHold) {
    guard hold != keyboardHold, !isClosed else { return }
    keyboardHold = hold
    layerSurface.setKeyboardInteractivity(keyboardInteractivity)
    if roleCommitted && !awaitingResize { commit() }
  }

  /// The layer surface's keyboard interactivity: the toast's own, or as held.
  private var keyboardInteractivity: ZwlrLayerSurfaceV1.KeyboardInteractivity {
    keyboardHold.interactivity(of: toast.effectiveKeyboard, layerShellVersion: layerSurface.version)
  }

  /// The box extent along the stacking axis, for ``Stacking``.
  var stackExtent: Double {
    toast.effectivePosition.stacksHorizontally ? layout.box.width : layout.box.height
  }

  /// Sets anchor, size, zone, margins, keyboard mode and input region from the toast.
  private func applyRole() {
    if toast.isModal {
      layerSurface.setSize(width: 0, height: 0)
      layerSurface.setExclusiveZone(-1)
    } else if toast.style == .bar {
      // As wide as the output; its row reserved, as a bar's (swaynag's) is.
      layerSurface.setSize(width: 0, height: UInt32(layout.surfaceHeight))
      layerSurface.setExclusiveZone(Int32(layout.exclusiveZone))
    } else {
      layerSurface.setSize(width: UInt32(layout.surfaceWidth), height: UInt32(layout.surfaceHeight))
      // Zero: placed below bars that reserve space, reserving none itself.
      layerSurface.setExclusiveZone(0)
    }
    applyPlacement()
    layerSurface.setKeyboardInteractivity(keyboardInteractivity)
    if layerSurface.version >= 2 {
      try? layerSurface.setLayer(toast.layer.shellLayer)
    }
    updateInputRegion()
  }

  /// Sends anchors and margins when they changed.
  private func applyPlacement() {
    let new = Placement(toast: toast, layout: layout, shift: appliedShift)
    guard new != placement else { return }
    if new.anchors != placement?.anchors {
      layerSurface.setAnchor(ZwlrLayerSurfaceV1.Anchor(rawValue: new.anchors.rawValue))
    }
    layerSurface.setMargin(
      top: Int32(new.top), right: Int32(new.right), bottom: Int32(new.bottom),
      left: Int32(new.left))
    placement = new
    placementUncommitted = true
  }

  /// The wait for the next step of a move whose last step committed nothing.
  private var stepTimer: EventLoop.Token?
  /// A frame's time at 60 Hz: the wait between steps of a move that commit nothing.
  private static let stepInterval: Duration = .milliseconds(16)
  /// Ends a move in the stack that frame callbacks did not carry to its end:
  /// a compositor sends none to a surface wholly off its outputs (a card
  /// pushed below a short output's edge), and the move that would bring it
  /// back must not wait for one.
  private var moveTimer: EventLoop.Token?

  /// Whether a new placement was sent since the last commit: the next commit
  /// moves the surface (and the compositor draws a frame for it).
  private var placementUncommitted = false

  /// Commits the surface's pending state.
  private func commit() {
    placementUncommitted = false
    surface.commit()
  }

  /// Touch-through: an empty region; tap, buttons or a card: the box; modal: everything.
  private func updateInputRegion() {
    let region = session.compositor.createRegion()
    if toast.isModal {
      region.add(x: 0, y: 0, width: Int32.max, height: Int32.max)
    } else if toast.style == .bar {
      region.add(x: 0, y: 0, width: Int32.max, height: Int32.max)
    } else if toast.takesPointer {
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
    relayout()
  }

  /// Recomputes the layout for the current output, toast and shift; resizes
  /// the surface if needed.
  private func relayout() {
    let size = layoutOutput?.logicalSize ?? (width: 1280, height: 720)
    let old = layout
    // A bar spans the width the compositor gave it (less than the output's
    // beside a side panel that reserves room).
    let width =
      toast.style == .bar
      ? configuredSize.map { $0.width > 0 ? $0.width : size.width } ?? size.width
      : size.width
    let new = ToastLayout(
      toast: toast, outputWidth: width, outputHeight: size.height,
      surfaceSize: configuredSize, shift: appliedShift, detailsOpen: detailsOpen, reusing: old)
    // The same picture (an output entered that changes nothing): no new frame.
    if new.drawsLike(old) && !contentChanged { return }
    layout = new
    if !toast.isModal
      && (old.surfaceWidth != layout.surfaceWidth || old.surfaceHeight != layout.surfaceHeight)
    {
      layerSurface.setSize(
        width: toast.style == .bar ? 0 : UInt32(layout.surfaceWidth),
        height: UInt32(layout.surfaceHeight))
      if toast.style == .bar { layerSurface.setExclusiveZone(Int32(layout.exclusiveZone)) }
      if roleCommitted {
        // Ask now; the frame at the new size follows the configure.
        awaitingResize = true
        applyPlacement()
        commit()
      }
    }
    if old.box != layout.box { updateInputRegion() }
    contentVersion += 1
    needsDraw = true
  }

  /// Whether a bar's details take room (the surface grows to hold them).
  private(set) var detailsOpen = false

  /// Opens or closes a bar's details: the surface takes their size (the
  /// frames then show them opening or closing within it).
  func setDetailsOpen(_ open: Bool) {
    guard open != detailsOpen else { return }
    detailsOpen = open
    contentChanged = true
    relayout()
    if roleCommitted && !awaitingResize { commit() }
  }

  /// Changes what the view shows, in place.
  func update(_ newToast: Toast) {
    let roleChanged =
      newToast.isModal != toast.isModal || newToast.style != toast.style
      || newToast.dismissal != toast.dismissal || newToast.layer != toast.layer
      || newToast.effectivePosition != toast.effectivePosition
      || newToast.effectiveMargin != toast.effectiveMargin || newToast.offset != toast.offset
      || newToast.buttons.isEmpty != toast.buttons.isEmpty
      || newToast.effectiveKeyboard != toast.effectiveKeyboard
    toast = newToast
    contentChanged = true
    if roleChanged { applyRole() }
    relayout()
    applyPlacement()
    // A new role (anchors, margins, size rules) goes to the compositor now, for
    // its configure; new content alone waits for the frame's own commit.
    if roleChanged && roleCommitted && !awaitingResize { commit() }
  }

  /// Moves the view to its place in a stack, over ``Design/stackMove`` when
  /// `animated` and the view is already on screen.
  func moveInStack(to shift: Double, animated: Bool, now: Double) {
    guard shift != targetShift else { return }
    if animated && drawnScale != nil {
      shiftMove = (currentShift(at: now), shift, now)
      if let moveTimer { session.loop.remove(moveTimer) }
      moveTimer = session.loop.addTimer(
        after: Design.stackMove + PresentedToast.frameCallbackGrace
      ) { [weak self] in self?.endStalledMove() }
    } else {
      endMove()
      appliedShift = shift
      relayout()
      applyPlacement()
      if roleCommitted && !awaitingResize { commit() }
    }
    targetShift = shift
    needsDraw = true
  }

  /// No move under way any more.
  private func endMove() {
    shiftMove = nil
    if let moveTimer { session.loop.remove(moveTimer) }
    moveTimer = nil
  }

  /// Past a move's end without the frame callbacks that would have ended it:
  /// the callback pending is given up, and the next frame takes the place the
  /// move was going to.
  private func endStalledMove() {
    moveTimer = nil
    guard shiftMove != nil else { return }
    frameCallback?.destroy()
    frameCallback = nil
    needsDraw = true
  }

  /// The shift at `now`, along the move under way.
  private func currentShift(at now: Double) -> Double {
    guard let move = shiftMove else { return targetShift }
    return Stacking.shift(movingFrom: move.from, to: move.to, elapsed: now - move.startedAt)
  }

  /// The scale to draw at. The first frame is never less sharp than the output
  /// (the compositor's preferred scale may be a placeholder then); later frames
  /// follow the compositor's preferred scale, or the outputs the surface entered.
  private var scale: RenderScale {
    let entered = enteredOutputs.compactMap { session.output(for: $0)?.renderScale }.max()
    let candidates: [OutputInfo] =
      requestedOutput.map { [$0] } ?? (entered == nil ? session.outputs : [])
    let expected = entered ?? candidates.map(\.renderScale).max() ?? .one
    let exact: RenderScale
    if drawnScale == nil {
      exact = max(preferredScale ?? .one, expected)
    } else {
      exact = preferredScale ?? expected
    }
    // Without a viewport only whole scales exist: round up, never blur.
    return viewport == nil ? .integer(exact.roundedUp) : exact
  }

  /// What a call of ``draw(_:appearance:buttons:moving:now:)`` did.
  enum DrawResult: Equatable {
    /// Nothing to draw yet, or nothing changed.
    case idle
    /// A frame was committed.
    case committed
    /// The toast cannot be drawn here, for this reason.
    case failed(String)
  }

  /// Marks the view for a new frame (the toast's appearance changes).
  func setNeedsDraw() { needsDraw = true }

  /// Draws a frame of `toast` at `appearance`, its buttons in `buttons`'
  /// states, if something changed and no frame callback is pending; `moving`
  /// asks for a frame callback.
  ///
  /// The first call commits the role and draws the first frame ahead; later
  /// ones acknowledge the configure, follow the move in the stack, pick a
  /// buffer, paint, ask for the next frame, and attach at the scale with the
  /// damage.
  func draw(
    _ toast: Toast, appearance: Appearance, buttons: Interaction = .idle, moving: Bool,
    now: Double
  ) -> DrawResult {
    if !roleCommitted && !isClosed {
      commitRole(toast, appearance: appearance, buttons: buttons)
      return .idle
    }
    guard !isClosed, frameCallback == nil, stepTimer == nil, !awaitingResize, let configuredSize
    else { return .idle }
    let scale = self.scale
    if scale != drawnScale { needsDraw = true }
    guard needsDraw else {
      // Nothing new to show: the acknowledgement goes with a commit of its own.
      if acknowledgeConfigure() { commit() }
      return .idle
    }
    // A modal toast or a bar fills what the compositor configured.
    if acknowledgeConfigure() && (toast.isModal || toast.style == .bar) { relayout() }
    guard followStack(at: now) else { return .idle }
    // Draw at the size the compositor configured (the size asked for, or the output).
    let width = configuredSize.width > 0 ? configuredSize.width : layout.surfaceWidth
    let height = configuredSize.height > 0 ? configuredSize.height : layout.surfaceHeight
    let usable = usableScale
    let asksForFrame = moving || shiftMove != nil
    if !contentChanged && usable == drawnScale
      && painter.shows(
        layout: layout, version: contentVersion, appearance: appearance, buttons: buttons,
        width: width, height: height, scale: usable)
    {
      // The buffer on screen shows the frame already.
      needsDraw = false
      contentChanged = false
      if !placementUncommitted && asksForFrame {
        // A step of a move that keeps the margins (whole pixels): nothing to
        // commit (the compositor would draw no frame for it, and a frame
        // callback could wait); the next step comes a frame's time later.
        stepTimer = session.loop.addTimer(after: Self.stepInterval) { [weak self] in
          self?.stepTimer = nil
          self?.needsDraw = true
        }
        return .idle
      }
      // Only the place changed (a move in the stack, its margins set): the
      // commit keeps the buffer on screen.
      if asksForFrame { requestFrame() }
      commit()
      restIfStill(toast, moving: moving)
      return .committed
    }
    let buffer: ShmBuffer
    switch painter.freeBuffer(width: width, height: height, scale: usable) {
    case .success(let free?): buffer = free
    // Both buffers are held; a release will wake the loop.
    case .success(nil): return .idle
    case .failure(let reason): return .failed(reason.description)
    }
    guard
      painter.paint(
        toast, layout: layout, version: contentVersion, appearance: appearance, buttons: buttons,
        into: buffer, scale: usable)
    else {
      return .failed("cannot draw into a \(buffer.width)x\(buffer.height) buffer")
    }
    needsDraw = false
    contentChanged = false
    if moving || shiftMove != nil { requestFrame() }
    let damage = painter.damage(
      layout: layout, version: contentVersion, appearance: appearance, buttons: buttons,
      buffer: buffer, scale: usable.factor)
    do {
      try setScale(usable, width: width, height: height)
      try attach(buffer, damage: damage)
    } catch {
      // The version checks make this unreachable; fail loudly all the same.
      return .failed(error.description)
    }
    drawnScale = usable
    lastDrawn = DrawnSurface(
      output: nil, scale: usable.factor, width: width, height: height,
      bufferWidth: Int(buffer.width), bufferHeight: Int(buffer.height),
      frames: (lastDrawn?.frames ?? 0) + 1)
    commit()
    restIfStill(toast, moving: moving)
    return .committed
  }

  /// After the last frame of a move: a notification's card at rest changes
  /// seldom, so the memory of the buffers the compositor does not hold goes
  /// until it changes (a toast keeps its buffers, for quick updates).
  private func restIfStill(_ toast: Toast, moving: Bool) {
    if toast.style == .card && !moving && shiftMove == nil { painter.rest() }
  }

  /// Sends the role's commit now and draws the first frame while the
  /// compositor answers it, at the size asked for (for a bar or a modal toast,
  /// which the compositor sizes, the output's).
  private func commitRole(_ toast: Toast, appearance: Appearance, buttons: Interaction) {
    roleCommitted = true
    commit()
    session.display.flush()
    painter.prepareFirstFrame(
      toast, layout: layout, version: contentVersion, appearance: appearance, buttons: buttons,
      width: layout.surfaceWidth, height: layout.surfaceHeight, scale: usableScale)
  }

  /// Acknowledges the configure that came since the last frame, if one did:
  /// whether one did.
  private func acknowledgeConfigure() -> Bool {
    guard let serial = pendingSerial else { return false }
    layerSurface.ackConfigure(serial: serial)
    pendingSerial = nil
    return true
  }

  /// Takes the place in the stack at `now`, along the move under way: false
  /// when that changes the surface's size (the frame waits for its configure).
  private func followStack(at now: Double) -> Bool {
    let shift = currentShift(at: now)
    if shift == targetShift { endMove() }
    guard shift != appliedShift else { return true }
    appliedShift = shift
    let before = (layout.surfaceWidth, layout.surfaceHeight)
    relayout()
    if awaitingResize || before != (layout.surfaceWidth, layout.surfaceHeight) { return false }
    applyPlacement()
    return true
  }

  /// Asks for a frame callback: the next frame follows when the compositor
  /// says it is time.
  private func requestFrame() {
    let callback = surface.frame()
    callback.onEvent = { [unowned self] _ in
      frameCallback = nil
      needsDraw = true
    }
    frameCallback = callback
  }

  /// Sets the buffer's scale: 1 under a viewport that shows it at `width` x
  /// `height` logical pixels, or `scale` rounded up as the surface's buffer
  /// scale (from wl_surface version 3 on).
  private func setScale(_ scale: RenderScale, width: Int, height: Int) throws(WaylandError) {
    if let viewport {
      if surface.version >= 3 { try surface.setBufferScale(1) }
      viewport.setDestination(width: Int32(width), height: Int32(height))
    } else if surface.version >= 3 {
      try surface.setBufferScale(Int32(scale.roundedUp))
    }
  }

  /// Attaches `buffer` and damages `damage` of it (before wl_surface version
  /// 4, which has no damage in buffer pixels, the whole surface).
  private func attach(
    _ buffer: ShmBuffer, damage: (x: Int32, y: Int32, width: Int32, height: Int32)
  ) throws(WaylandError) {
    buffer.attach(to: surface)
    if surface.version >= 4 {
      try surface.damageBuffer(x: damage.x, y: damage.y, width: damage.width, height: damage.height)
    } else {
      surface.damage(x: 0, y: 0, width: Int32.max, height: Int32.max)
    }
  }

  /// The scale buffers are drawn at: wl_surface before version 3 cannot take
  /// a buffer scale, so 1 there.
  private var usableScale: RenderScale {
    viewport != nil || surface.version >= 3 ? scale : .one
  }

  /// Destroys the surface; calling it again does nothing.
  func destroy() {
    frameCallback?.destroy()
    frameCallback = nil
    if let stepTimer { session.loop.remove(stepTimer) }
    stepTimer = nil
    if let moveTimer { session.loop.remove(moveTimer) }
    moveTimer = nil
    fractionalScale?.destroy()
    viewport?.destroy()
    layerSurface.destroy()
    surface.destroy()
  }
}
