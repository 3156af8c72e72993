import Glibc
import Wayland

/// A layer surface filled with one colour, made with the generated bindings: the
/// simplest thing a client can show, and a target for input in tests.
package final class ColorSurface {
  /// A pointer event seen on this surface.
  package enum PointerEvent: Equatable, Sendable {
    /// The pointer entered at surface coordinates.
    case enter(x: Double, y: Double)
    /// A button changed state (`pressed` true for a press).
    case button(code: UInt32, pressed: Bool)
  }

  /// The connection; the caller dispatches it (or calls `pump`).
  package let display: Display
  private let registry: Registry
  private let compositor: WlCompositor
  private let shm: WlShm
  private let layerShell: ZwlrLayerShellV1
  private let seat: WlSeat
  private var pointer: WlPointer?
  private var surface: WlSurface?
  private var layerSurface: ZwlrLayerSurfaceV1?
  private let pool: ShmBufferPool
  private var width: Int32
  private var height: Int32
  private let argb: UInt32
  /// Whether the compositor has configured the surface and a buffer is attached.
  package private(set) var isMapped = false
  /// Pointer events on this surface, in order.
  package private(set) var pointerEvents: [PointerEvent] = []
  private var pointerInside = false

  /// Connects, binds the globals it needs and maps a `width` x `height` surface of
  /// colour `argb` (0xAARRGGBB) on a layer, anchored as given (none: centred),
  /// reserving `exclusiveZone` pixels at its anchored edge (a bar does).
  package init(
    socketPath: String, width: Int32, height: Int32, argb: UInt32,
    layer: ZwlrLayerShellV1.Layer = .top, anchor: ZwlrLayerSurfaceV1.Anchor = [],
    exclusiveZone: Int32 = 0
  ) throws {
    display = try Display(name: socketPath)
    registry = try Registry(display: display)
    compositor = try registry.bind(WlCompositor.self)
    shm = try registry.bind(WlShm.self)
    layerShell = try registry.bind(ZwlrLayerShellV1.self)
    seat = try registry.bind(WlSeat.self)
    pool = ShmBufferPool(shm: shm)
    self.width = width
    self.height = height
    self.argb = argb

    seat.onEvent = { [unowned self] event in
      guard case .capabilities(let capabilities) = event else { return }
      if capabilities.contains(.pointer), pointer == nil {
        let pointer = seat.getPointer()
        pointer.onEvent = { [unowned self] event in handle(event) }
        self.pointer = pointer
      }
    }
    let surface = compositor.createSurface()
    let layerSurface = layerShell.getLayerSurface(
      surface, output: nil, layer: layer, namespace: "wl-toast-test")
    layerSurface.setSize(width: UInt32(width), height: UInt32(height))
    layerSurface.setAnchor(anchor)
    layerSurface.setExclusiveZone(exclusiveZone)
    layerSurface.onEvent = { [unowned self] event in
      switch event {
      case .configure(let serial, let width, let height):
        // A zero size asked for "as large as the anchors allow": take what came.
        if self.width == 0 { self.width = Int32(width) }
        if self.height == 0 { self.height = Int32(height) }
        self.layerSurface?.ackConfigure(serial: serial)
        draw()
      case .closed:
        unmap()
      }
    }
    surface.commit()
    self.surface = surface
    self.layerSurface = layerSurface
    try display.roundtrip()
    try display.roundtrip()
  }

  private func handle(_ event: WlPointer.Event) {
    switch event {
    case .enter(_, let target, let x, let y):
      pointerInside = target === surface
      if pointerInside { pointerEvents.append(.enter(x: x, y: y)) }
    case .leave:
      pointerInside = false
    case .button(_, _, let button, let state):
      if pointerInside { pointerEvents.append(.button(code: button, pressed: state == .pressed)) }
    default:
      break
    }
  }

  private func draw() {
    guard let surface, let buffer = try? pool.nextBuffer(width: width, height: height) else {
      return
    }
    let pixels = buffer.data.bindMemory(to: UInt32.self, capacity: Int(width * height))
    for index in 0..<Int(width * height) { pixels[index] = argb }
    buffer.attach(to: surface)
    try? surface.damageBuffer(x: 0, y: 0, width: width, height: height)
    surface.commit()
    isMapped = true
  }

  /// Reads and dispatches events until `condition` holds or `timeout` passes.
  package func pump(timeout: Double = 5, until condition: () -> Bool) throws -> Bool {
    let deadline = now() + timeout
    while !condition() {
      if now() >= deadline { return false }
      try display.roundtrip()
      if condition() { return true }
      var pfd = pollfd(fd: display.fileDescriptor, events: Int16(POLLIN), revents: 0)
      _ = poll(&pfd, 1, 20)
    }
    return true
  }

  /// Destroys the surface; the compositor unmaps it.
  package func unmap() {
    layerSurface?.destroy()
    surface?.destroy()
    layerSurface = nil
    surface = nil
    isMapped = false
    _ = try? display.roundtrip()
  }
}
