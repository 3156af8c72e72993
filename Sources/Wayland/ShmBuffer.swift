import CWaylandClient
import Glibc

/// One ARGB8888 shared-memory buffer: pixels the client draws and a `wl_buffer`
/// the compositor reads.
public final class ShmBuffer {
  /// Width in buffer pixels.
  public let width: Int32
  /// Height in buffer pixels.
  public let height: Int32
  /// Bytes per row.
  public let stride: Int32
  /// The mapped pixels, `stride * height` bytes, premultiplied ARGB in native byte order.
  public let data: UnsafeMutableRawPointer
  /// The compositor-side buffer.
  public let object: WlBuffer
  /// True from `attach` until the compositor sends `wl_buffer.release`.
  public private(set) var isBusy = false
  /// What the client keeps with these pixels, such as a drawing context made
  /// once for them; it goes when the buffer goes.
  public var drawingContext: AnyObject?

  init(shm: WlShm, width: Int32, height: Int32) throws(WaylandError) {
    // wl_shm sizes are Int32: check before anything is allocated.
    let (stride, strideOverflow) = width.multipliedReportingOverflow(by: 4)
    let (size32, sizeOverflow) = stride.multipliedReportingOverflow(by: height)
    guard width > 0, height > 0, !strideOverflow, !sizeOverflow else {
      throw .bufferTooLarge(width: Int(width), height: Int(height))
    }
    let size = Int(size32)
    let fd = wlt_create_shm_file(Int64(size))
    guard fd >= 0 else { throw .system(call: "memfd_create", errno: errno) }
    defer { close(fd) }
    guard let mapped = mmap(nil, size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0),
      mapped != MAP_FAILED
    else { throw .system(call: "mmap", errno: errno) }
    let pool = shm.createPool(fd: fd, size: size32)
    object = pool.createBuffer(
      offset: 0, width: width, height: height, stride: stride, format: .argb8888)
    pool.destroy()
    self.width = width
    self.height = height
    self.stride = stride
    self.data = mapped
    object.onEvent = { [unowned self] event in
      if case .release = event { isBusy = false }
    }
  }

  deinit {
    object.destroy()
    munmap(data, Int(stride) * Int(height))
  }

  /// Attaches the buffer to a surface at (0, 0) and marks it busy until released.
  public func attach(to surface: WlSurface) {
    surface.attach(buffer: object, x: 0, y: 0)
    isBusy = true
  }
}

/// Two or more buffers drawn in turn, so that the client never draws into a
/// buffer the compositor still holds.
public final class ShmBufferPool {
  private let shm: WlShm
  private let capacity: Int
  private var buffers: [ShmBuffer] = []

  /// Creates an empty pool that will hold at most `capacity` buffers.
  public init(shm: WlShm, capacity: Int = 2) {
    self.shm = shm
    self.capacity = max(capacity, 2)
  }

  /// A free buffer of the given size, created or replaced as needed; nil when every
  /// buffer is held by the compositor (draw again after a release or a frame callback).
  public func nextBuffer(width: Int32, height: Int32) throws(WaylandError) -> ShmBuffer? {
    if let free = buffers.first(where: { !$0.isBusy && $0.width == width && $0.height == height }) {
      return free
    }
    if let stale = buffers.firstIndex(where: { !$0.isBusy }) {
      buffers.remove(at: stale)
    }
    guard buffers.count < capacity else { return nil }
    let buffer = try ShmBuffer(shm: shm, width: width, height: height)
    buffers.append(buffer)
    return buffer
  }

  /// The number of buffers currently held by the compositor.
  public var busyCount: Int { buffers.filter(\.isBusy).count }
}
