/// How one surface of a toast is drawn: what the presenter keeps of its last
/// frame, and what `wl-toast status` reports of it.
public struct DrawnSurface: Equatable, Sendable {
  /// The output it is on (nil before the compositor said).
  public var output: String?
  /// The scale of its last frame (1.5: buffer pixels per logical pixel).
  public var scale: Double
  /// Its size in logical pixels.
  public var width: Int
  /// Its size in logical pixels.
  public var height: Int
  /// The size of its last buffer in pixels.
  public var bufferWidth: Int
  /// The size of its last buffer in pixels.
  public var bufferHeight: Int
  /// How many frames it has committed (1 for a static toast drawn once).
  public var frames: Int

  /// Creates a description of a drawn surface.
  public init(
    output: String?, scale: Double, width: Int, height: Int, bufferWidth: Int, bufferHeight: Int,
    frames: Int = 1
  ) {
    self.output = output
    self.scale = scale
    self.width = width
    self.height = height
    self.bufferWidth = bufferWidth
    self.bufferHeight = bufferHeight
    self.frames = frames
  }
}
