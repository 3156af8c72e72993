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
  /// Called when the compositor releases the buffer (after `isBusy` is false).
  var onRelease: (() -> Void)?
  /// Whether the pixels were given back (`discardPixels()`) and not drawn since.
  public private(set) var isDiscarded = false

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
      guard case .release = event else { return }
      isBusy = false
      onRelease?()
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

  /// Gives the pixels' memory back to the system (`MADV_REMOVE` frees the
  /// shared memory's pages), keeping the mapping and the `wl_buffer`: the
  /// next drawing finds zeroed pages, which the system supplies again as
  /// they are written. The drawing context goes too (what it knew is gone).
  /// Only for a buffer the compositor does not hold.
  func discardPixels() {
    guard !isBusy, !isDiscarded else { return }
    madvise(data, Int(stride) * Int(height), MADV_REMOVE)
    drawingContext = nil
    isDiscarded = true
  }

  /// Marks the buffer as drawn into again after ``discardPixels()``.
  func markDrawn() { isDiscarded = false }
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
    isResting = false
    if let free = buffers.first(where: { !$0.isBusy && $0.width == width && $0.height == height }) {
      free.markDrawn()
      return free
    }
    if let stale = buffers.firstIndex(where: { !$0.isBusy }) {
      buffers.remove(at: stale)
    }
    guard buffers.count < capacity else { return nil }
    let buffer = try ShmBuffer(shm: shm, width: width, height: height)
    buffer.onRelease = { [weak self, unowned buffer] in
      if self?.isResting == true { buffer.discardPixels() }
    }
    buffers.append(buffer)
    return buffer
  }

  /// Whether the surface rests (``rest()``) and no buffer was asked for since.
  private var isResting = false

  /// Gives back the memory of every buffer the compositor does not hold, now
  /// and as it releases the others, until the next
  /// ``nextBuffer(width:height:)``, which draws into zeroed pages again: for
  /// a surface whose last frame is committed and that changes seldom. (A
  /// compositor that has released a buffer keeps what it showed on its own;
  /// one that holds a buffer keeps it.)
  public func rest() {
    isResting = true
    for buffer in buffers { buffer.discardPixels() }
  }

  /// How many buffers hold their pixels' memory (not given back).
  public var residentCount: Int { buffers.filter { !$0.isDiscarded }.count }

  /// The number of buffers currently held by the compositor.
  public var busyCount: Int { buffers.filter(\.isBusy).count }
}
