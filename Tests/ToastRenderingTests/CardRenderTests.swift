import Testing
import ToastModel
import ToastRendering

/// Cards drawn offscreen: against a reference PNG in References/
/// (`UPDATE_REFERENCES=1` rewrites it, as for ``RenderTests``), and images
/// given as pixels, read back.
struct CardRenderTests {
  /// A notification as a server writes it: the app's name, the summary, the
  /// body; Adwaita's icon, a progress bar and two buttons.
  static func notification() -> Toast {
    var toast = Toast(
      "<small>Mail</small>\n<b>New message from Alice</b>\nAre we still on for lunch tomorrow?"
        + " I booked a table at the place near the station.",
      style: .card, progress: 0.6)
    toast.isMarkup = true
    toast.icon = "dialog-information"
    toast.iconTheme = "Adwaita"
    toast.buttons = ["Reply", "Mark as read"]
    return toast
  }

  /// An image of `width × height` pixels, all of one straight RGBA colour.
  static func image(_ rgba: [UInt8], width: Int = 4, height: Int = 4) throws -> Toast.Image {
    try #require(
      Toast.Image(
        width: width, height: height,
        rgba: Array((0..<width * height).map { _ in rgba }.joined())))
  }

  @Test func aCardMatchesTheReference() throws {
    let toast = Self.notification()
    #expect(toast.iconProblem(scale: 1) == nil)
    try expectMatchesReference(OffscreenImage.render(toast), named: "card")
  }

  @Test(arguments: [1, 2])
  func anImagesPixelsFillTheIconsSquare(scale: Int) throws {
    var toast = Toast("<b>Red</b>", style: .card)
    toast.isMarkup = true
    toast.image = try Self.image([255, 0, 0, 255])
    // The image comes before a named icon.
    toast.icon = "dialog-information"
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let icon = try #require(layout.icon)
    let image = OffscreenImage.render(toast, scale: scale)
    // Scaled up to the whole square, its edges as sharp as its middle.
    for (x, y) in [
      (icon.midX, icon.midY), (icon.x + 0.5, icon.y + 0.5),
      (icon.x + icon.width - 0.5, icon.y + icon.height - 0.5),
    ] {
      let pixel = image.pixel(x: Int(x * Double(scale)), y: Int(y * Double(scale)))
      #expect(pixel == (255, 255, 0, 0), "at \(x),\(y): \(pixel)")
    }
    // Beside the square: the card's own colour.
    let beside = image.pixel(
      x: Int((icon.x - 4) * Double(scale)), y: Int(icon.midY * Double(scale)))
    #expect(beside.red < 40 && beside.alpha > 200)
  }

  @Test func aWideImageKeepsItsShapeCentredInTheSquare() throws {
    var toast = Toast("Wide", style: .card)
    toast.image = try Self.image([0, 0, 255, 255], width: 8, height: 4)
    let icon = try #require(
      ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720).icon)
    let image = OffscreenImage.render(toast)
    // 48 wide and 24 tall: blue from a quarter to three quarters of the height.
    #expect(image.pixel(x: Int(icon.midX), y: Int(icon.y + 13)) == (255, 0, 0, 255))
    #expect(image.pixel(x: Int(icon.midX), y: Int(icon.y + 35)) == (255, 0, 0, 255))
    #expect(image.pixel(x: Int(icon.midX), y: Int(icon.y + 6)).blue < 60)
    #expect(image.pixel(x: Int(icon.midX), y: Int(icon.y + 42)).blue < 60)
  }

  @Test func straightRGBAIsPremultipliedInCairosOrder() throws {
    let pixels = try #require(
      Toast.Image(
        width: 2, height: 2,
        rgba: [255, 0, 0, 128, 0, 255, 0, 255, 0, 0, 255, 0, 10, 20, 30, 255]))
    let icon = try #require(IconImage.load(pixels: pixels, size: 2, scale: 1))
    #expect(icon.width == 2 && icon.height == 2)
    #expect(icon.pixel(x: 0, y: 0) == (128, 128, 0, 0))
    #expect(icon.pixel(x: 1, y: 0) == (255, 0, 255, 0))
    #expect(icon.pixel(x: 0, y: 1) == (0, 0, 0, 0))
    #expect(icon.pixel(x: 1, y: 1) == (255, 10, 20, 30))
  }

  @Test func anImageIsMadeIntoAnIconOncePerSize() throws {
    let pixels = try Self.image([0, 200, 0, 255], width: 5, height: 5)
    let first = try #require(IconImage.load(pixels: pixels, size: 48, scale: 1))
    var copy = Toast("Copy", style: .card)
    copy.image = pixels
    let shared = try #require(copy.image)
    let again = try #require(IconImage.load(pixels: shared, size: 48, scale: 1))
    #expect(first === again)
    // The same pixels in another array: found by their bytes.
    let rebuilt = try Self.image([0, 200, 0, 255], width: 5, height: 5)
    let found = try #require(IconImage.load(pixels: rebuilt, size: 48, scale: 1))
    #expect(found === first)
    let larger = try #require(IconImage.load(pixels: pixels, size: 48, scale: 2))
    #expect(larger !== first && larger.width == 96)
  }

  @Test(arguments: [Toast.Style.hud, .banner])
  func theHUDAndTheBannerDrawAnImageToo(style: Toast.Style) throws {
    var toast = Toast("Pixels", style: style)
    toast.image = try Self.image([255, 0, 0, 255])
    let icon = try #require(
      ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720).icon)
    let image = OffscreenImage.render(toast)
    #expect(image.pixel(x: Int(icon.midX), y: Int(icon.midY)) == (255, 255, 0, 0))
  }
}
