import CWaylandClient
import CXkbCommon
import Glibc
import ToastRendering
import Wayland

/// Events of the seat that concern a toast surface.
enum InputEvent {
  /// A pointer button went down, or a finger touched, at a point of the
  /// surface; `secondary` for the right button.
  case press(x: Double, y: Double, secondary: Bool = false)
  /// A click (press and release) or a tap ended at a point of the surface;
  /// `secondary` when the right button was released.
  case tap(x: Double, y: Double, secondary: Bool = false)
  /// What was pressed will not be released here: the pointer left, the touch was cancelled.
  case cancel
  /// A key was pressed while the surface had keyboard focus.
  case key(keysym: UInt32)
  /// The surface gained (true) or lost the keyboard focus.
  case keyboardFocus(Bool)
  /// The wheel turned over the surface at a point: positive down, negative up.
  case scroll(x: Double, y: Double, steps: Int)
  /// The pointer entered the surface, or moved over it, to a point.
  case pointerMoved(x: Double, y: Double)
  /// The pointer left the surface.
  case pointerLeft
  /// The fingers on the surface changed (one came, moved or lifted, or the
  /// touch was cancelled): where those still down are.
  case fingers([(x: Double, y: Double)])
}

/// What the program knows of one output.
final class OutputInfo {
  let object: WlOutput
  let globalName: UInt32
  /// Its xdg_output, which tells the name and logical size where wl_output
  /// (before version 4) does not.
  var xdgOutput: ZxdgOutputV1?
  /// The name (`DP-1`), from wl_output v4 or xdg_output; nil until told.
  var name: String?
  var physicalWidth = 0
  var physicalHeight = 0
  var scale = 1
  var transform = WlOutput.Transform.normal
  /// The size in logical pixels from xdg_output (exact at fractional scales).
  var xdgLogicalSize: (width: Int, height: Int)?
  /// Whether the compositor has described the output completely once.
  var isDescribed = false

  init(object: WlOutput, globalName: UInt32) {
    self.object = object
    self.globalName = globalName
  }

  /// The mode's size, turned as the output is.
  private var turnedSize: (width: Int, height: Int) {
    let rotated = transform.rawValue & 1 == 1
    return rotated ? (physicalHeight, physicalWidth) : (physicalWidth, physicalHeight)
  }

  /// The size in logical pixels.
  var logicalSize: (width: Int, height: Int) {
    if let xdgLogicalSize, xdgLogicalSize.width > 0, xdgLogicalSize.height > 0 {
      return xdgLogicalSize
    }
    let size = turnedSize
    return (size.width / max(scale, 1), size.height / max(scale, 1))
  }

  /// The scale a surface on this output is drawn at to be sharp: the mode's
  /// width over the logical width where both are known (1.5 for a 1920-pixel
  /// mode 1280 logical pixels wide), otherwise wl_output's whole scale.
  var renderScale: RenderScale {
    let size = turnedSize
    if let xdgLogicalSize, xdgLogicalSize.width > 0, size.width > 0 {
      let ratio = (size.width * 120 + xdgLogicalSize.width / 2) / xdgLogicalSize.width
      return RenderScale(fractional: ratio)
    }
    return .integer(scale)
  }
}

/// The latest press of the user's (a pointer button, a finger, a key): what
/// an xdg_activation_v1 token names as the input it answers.
struct InputPress {
  /// The serial of the press event.
  let serial: UInt32
  /// The seat it came from.
  let seat: WlSeat
  /// The surface it reached: under the pointer or finger, or with the keyboard focus.
  let surface: WlSurface?
}

/// The connection and the globals a toast needs, plus the seat's input
/// devices, shared by every toast of a presenter.
final class Session {
  let display: Display
  let registry: Registry
  let loop: EventLoop
  let compositor: WlCompositor
  let shm: WlShm
  let layerShell: ZwlrLayerShellV1
  /// Fractional scaling: both or neither (a fractional buffer needs a viewport).
  let fractionalScale: (manager: WpFractionalScaleManagerV1, viewporter: WpViewporter)?
  private let xdgOutputManager: ZxdgOutputManagerV1?
  private(set) var outputs: [OutputInfo] = []
  /// The fullscreen windows, watched from the first toast that asks.
  let fullscreenWindows: FullscreenWindows
  /// xdg_activation_v1's tokens, bound at the first one asked for.
  let activationTokens: ActivationTokens
  /// The user's idleness, watched from the first toast with a timeout.
  let idleWatch: IdleWatch
  private var seats: [WlSeat] = []
  private var pointers: [WlPointer] = []
  private var keyboards: [WlKeyboard] = []
  private var touches: [WlTouch] = []
  /// Receives input for a surface.
  var onInput: ((WlSurface, InputEvent) -> Void)?
  /// Called when an output appears, changes or goes away.
  var onOutputsChanged: (() -> Void)?
  /// The clock that animations and stack moves read, in seconds: the
  /// monotonic clock, or a test's own (timers run on the monotonic clock).
  var clock: () -> Double = { MonotonicTime.now.seconds }

  private var pointerFocus: WlSurface?
  private var pointerPosition = (x: 0.0, y: 0.0)
  /// Vertical scrolling not yet turned into whole lines.
  private var scrolled = 0.0
  private var pressedOn: WlSurface?
  /// The surface with a seat's keyboard focus, and that seat.
  private var keyboardFocus: (surface: WlSurface, seat: WlSeat)?
  /// The latest press of a pointer button, a finger or a key.
  private(set) var lastPress: InputPress?
  private var touchPoints: [Int32: (surface: WlSurface, x: Double, y: Double)] = [:]
  private var xkbContext: OpaquePointer?
  private var xkbKeymap: OpaquePointer?
  private var xkbState: OpaquePointer?

  /// Connects; `layerShellVersion` caps the layer-shell version bound (tests of
  /// older compositors use it).
  init(displayName: String?, layerShellVersion: UInt32? = nil) throws(WaylandError) {
    display = try Display(name: displayName)
    registry = try Registry(display: display)
    do {
      loop = try EventLoop()
    } catch {
      throw error.waylandError
    }
    loop.add(display)
    fullscreenWindows = FullscreenWindows(display: display, registry: registry)
    activationTokens = ActivationTokens(registry: registry, loop: loop)
    idleWatch = IdleWatch(registry: registry)
    compositor = try registry.bind(WlCompositor.self)
    shm = try registry.bind(WlShm.self)
    layerShell = try registry.bind(ZwlrLayerShellV1.self, maximumVersion: layerShellVersion)
    if let manager = registry.globals(of: WpFractionalScaleManagerV1.self).first,
      let viewporter = registry.globals(of: WpViewporter.self).first
    {
      fractionalScale = (
        registry.bind(manager, as: WpFractionalScaleManagerV1.self),
        registry.bind(viewporter, as: WpViewporter.self)
      )
    } else {
      fractionalScale = nil
    }
    // xdg_output v2 names outputs; wl_output does from version 4.
    let registry = self.registry
    xdgOutputManager = registry.globals(of: ZxdgOutputManagerV1.self).first.map {
      registry.bind($0, as: ZxdgOutputManagerV1.self)
    }
    for global in registry.globals(of: WlOutput.self) { addOutput(global) }
    for global in registry.globals(of: WlSeat.self) { addSeat(global) }
    registry.onGlobal = { [unowned self] global in
      if global.interface == WlOutput.interfaceName { addOutput(global) }
      if global.interface == WlSeat.interfaceName { addSeat(global) }
    }
    registry.onGlobalRemove = { [unowned self] global in
      if let index = outputs.firstIndex(where: { $0.globalName == global.name }) {
        let info = outputs.remove(at: index)
        info.xdgOutput?.destroy()
        info.object.destroy()
        onOutputsChanged?()
      }
    }
    // Output sizes and seat capabilities arrive after binding.
    try display.roundtrip(within: Display.answerLimit)
  }

  deinit {
    if let xkbState { xkb_state_unref(xkbState) }
    if let xkbKeymap { xkb_keymap_unref(xkbKeymap) }
    if let xkbContext { xkb_context_unref(xkbContext) }
  }

  /// The output info of a `wl_output`.
  func output(for object: WlOutput) -> OutputInfo? {
    outputs.first { $0.object === object }
  }

  /// The output with a name, if there is one.
  func output(named name: String) -> OutputInfo? {
    outputs.first { $0.name == name }
  }

  /// The output a surface placed by the compositor most likely lands on,
  /// before the compositor says: the sharpest (highest scale), then the first.
  var likelyOutput: OutputInfo? {
    outputs.reduce(nil) { best, output in
      guard output.isDescribed else { return best }
      return best.map { output.renderScale > $0.renderScale ? output : $0 } ?? output
    } ?? outputs.first
  }

  /// Whether a fullscreen window covers `output` (nil: the output the
  /// compositor chooses), as far as the compositor reports.
  func isCoveredByFullscreen(_ output: OutputInfo?) -> Bool {
    fullscreenWindows.covers(output, outputCount: outputs.filter(\.isDescribed).count)
  }

  /// Whether `surface` has the keyboard focus of `seat`.
  func hasKeyboardFocus(_ surface: WlSurface, of seat: WlSeat) -> Bool {
    keyboardFocus.map { $0.surface === surface && $0.seat === seat } ?? false
  }

  /// Whether the user has been away from the seat for `seconds`, as far
  /// as the compositor tells (watched from the first ask for a threshold:
  /// not yet then); nil when it cannot tell, or there is no seat.
  func isIdle(after seconds: Double) -> Bool? {
    guard let seat = seats.first else { return nil }
    return idleWatch.isIdle(after: IdleWatch.milliseconds(seconds), on: seat)
  }

  /// The names of the outputs, in the order the compositor announced them.
  var outputNames: [String] { outputs.compactMap(\.name) }

  private func addOutput(_ global: Registry.Global) {
    let object = registry.bind(global, as: WlOutput.self)
    let info = OutputInfo(object: object, globalName: global.name)
    object.onEvent = { [unowned self, unowned info] event in
      switch event {
      case .geometry(_, _, _, _, _, _, _, let transform):
        info.transform = transform
      case .mode(let flags, let width, let height, _):
        if flags.contains(.current) {
          info.physicalWidth = Int(width)
          info.physicalHeight = Int(height)
        }
      case .scale(let factor):
        info.scale = Int(max(factor, 1))
      case .name(let name):
        info.name = name
      case .done:
        info.isDescribed = true
        onOutputsChanged?()
      default:
        break
      }
    }
    if let xdgOutputManager {
      let xdgOutput = xdgOutputManager.getXdgOutput(object)
      xdgOutput.onEvent = { [unowned self, unowned info] event in
        switch event {
        case .logicalSize(let width, let height):
          info.xdgLogicalSize = (Int(width), Int(height))
        case .name(let name):
          if info.name == nil { info.name = name }
        case .done:
          // Since xdg_output v3 wl_output.done ends a description instead.
          onOutputsChanged?()
        default:
          break
        }
      }
      info.xdgOutput = xdgOutput
    }
    outputs.append(info)
  }

  private func addSeat(_ global: Registry.Global) {
    let seat = registry.bind(global, as: WlSeat.self)
    seats.append(seat)
    var pointer: WlPointer?
    var keyboard: WlKeyboard?
    var touch: WlTouch?
    seat.onEvent = { [unowned self, unowned seat] event in
      guard case .capabilities(let capabilities) = event else { return }
      Self.follow(capabilities.contains(.pointer), &pointer, in: &pointers) {
        let device = seat.getPointer()
        device.onEvent = { [unowned self, unowned seat] in handlePointer($0, seat: seat) }
        return device
      }
      Self.follow(capabilities.contains(.keyboard), &keyboard, in: &keyboards) {
        let device = seat.getKeyboard()
        device.onEvent = { [unowned self, unowned seat] in handleKeyboard($0, seat: seat) }
        return device
      }
      Self.follow(capabilities.contains(.touch), &touch, in: &touches) {
        let device = seat.getTouch()
        device.onEvent = { [unowned self, unowned seat] in handleTouch($0, seat: seat) }
        return device
      }
    }
  }

  /// A seat's device of one kind as the seat's capabilities change: made when
  /// the capability comes, dropped from `devices` when it goes.
  private static func follow<Device: AnyObject>(
    _ isPresent: Bool, _ device: inout Device?, in devices: inout [Device], make: () -> Device
  ) {
    if isPresent, device == nil {
      let made = make()
      devices.append(made)
      device = made
    } else if !isPresent, let gone = device {
      devices.removeAll { $0 === gone }
      device = nil
    }
  }

  /// The right pointer button (`BTN_RIGHT` of linux/input-event-codes.h).
  static let rightButton: UInt32 = 0x111

  private func handlePointer(_ event: WlPointer.Event, seat: WlSeat) {
    switch event {
    case .enter(_, let surface, let x, let y):
      pointerFocus = surface
      pointerPosition = (x, y)
      onInput?(surface, .pointerMoved(x: x, y: y))
    case .leave(_, let surface):
      if let pressed = pressedOn { onInput?(pressed, .cancel) }
      pointerFocus = nil
      pressedOn = nil
      onInput?(surface, .pointerLeft)
    case .motion(_, let x, let y):
      pointerPosition = (x, y)
      if let surface = pointerFocus { onInput?(surface, .pointerMoved(x: x, y: y)) }
    case .axis(_, let axis, let value):
      // A wheel's notch is 10 (wlroots, libinput); a touchpad sends many
      // small values: a line for each 10 of them added up.
      guard axis == .verticalScroll, value.isFinite, let surface = pointerFocus else { return }
      scrolled += value
      let steps = Int((scrolled / 10).rounded(.towardZero))
      guard steps != 0 else { return }
      scrolled -= Double(steps) * 10
      onInput?(surface, .scroll(x: pointerPosition.x, y: pointerPosition.y, steps: steps))
    case .button(let serial, _, let button, let state):
      let secondary = button == Self.rightButton
      if state == .pressed {
        lastPress = InputPress(serial: serial, seat: seat, surface: pointerFocus)
        pressedOn = pointerFocus
        if let surface = pointerFocus {
          onInput?(
            surface, .press(x: pointerPosition.x, y: pointerPosition.y, secondary: secondary))
        }
      } else if let surface = pointerFocus, pressedOn === surface {
        pressedOn = nil
        onInput?(surface, .tap(x: pointerPosition.x, y: pointerPosition.y, secondary: secondary))
      }
    default:
      break
    }
  }

  private func handleTouch(_ event: WlTouch.Event, seat: WlSeat) {
    switch event {
    case .down(let serial, _, let surface, let id, let x, let y):
      lastPress = InputPress(serial: serial, seat: seat, surface: surface)
      touchPoints[id] = (surface, x, y)
      onInput?(surface, .press(x: x, y: y))
      fingersChanged(on: surface)
    case .motion(_, let id, let x, let y):
      if let point = touchPoints[id] {
        touchPoints[id] = (point.surface, x, y)
        fingersChanged(on: point.surface)
      }
    case .up(_, _, let id):
      if let point = touchPoints.removeValue(forKey: id) {
        onInput?(point.surface, .tap(x: point.x, y: point.y))
        fingersChanged(on: point.surface)
      }
    case .cancel:
      let surfaces = touchPoints.values.map(\.surface)
      for point in touchPoints.values { onInput?(point.surface, .cancel) }
      touchPoints.removeAll()
      for surface in surfaces { fingersChanged(on: surface) }
    default:
      break
    }
  }

  /// Tells `surface` where the fingers on it are now.
  private func fingersChanged(on surface: WlSurface) {
    let points = touchPoints.values.filter { $0.surface === surface }.map { (x: $0.x, y: $0.y) }
    onInput?(surface, .fingers(points))
  }

  private func handleKeyboard(_ event: WlKeyboard.Event, seat: WlSeat) {
    switch event {
    case .keymap(let format, let fd, let size):
      defer { close(fd) }
      guard format == .xkbV1 else { return }
      loadKeymap(fd: fd, size: Int(size))
    case .enter(_, let surface, _):
      keyboardFocus = (surface, seat)
      onInput?(surface, .keyboardFocus(true))
    case .leave(_, let surface):
      keyboardFocus = nil
      onInput?(surface, .keyboardFocus(false))
    case .modifiers(_, let depressed, let latched, let locked, let group):
      if let xkbState { xkb_state_update_mask(xkbState, depressed, latched, locked, 0, 0, group) }
    case .key(let serial, _, let key, let state):
      guard state == .pressed, let surface = keyboardFocus?.surface, let xkbState else { return }
      lastPress = InputPress(serial: serial, seat: seat, surface: surface)
      let keysym = xkb_state_key_get_one_sym(xkbState, key + 8)
      onInput?(surface, .key(keysym: keysym))
    default:
      break
    }
  }

  private func loadKeymap(fd: Int32, size: Int) {
    guard size > 0, let map = mmap(nil, size, PROT_READ, MAP_PRIVATE, fd, 0), map != MAP_FAILED
    else { return }
    defer { munmap(map, size) }
    if xkbContext == nil { xkbContext = xkb_context_new(XKB_CONTEXT_NO_FLAGS) }
    guard let xkbContext,
      let keymap = xkb_keymap_new_from_buffer(
        xkbContext, map.assumingMemoryBound(to: CChar.self), strnlen(map, size),
        XKB_KEYMAP_FORMAT_TEXT_V1, XKB_KEYMAP_COMPILE_NO_FLAGS)
    else { return }
    if let xkbState { xkb_state_unref(xkbState) }
    if let xkbKeymap { xkb_keymap_unref(xkbKeymap) }
    xkbKeymap = keymap
    xkbState = xkb_state_new(keymap)
  }
}
