import Glibc
import TestSupport
import Testing
import ToastModel
import ToastRendering

/// Icons loaded, fitted, recoloured and drawn: PNG through Cairo, JPEG through
/// gdk-pixbuf, SVG through librsvg, at the scale of the surface; broken files
/// in one line.
struct IconTests {
  static func load(_ icon: String, size: Int = 48, scale: Double = 1) throws -> IconImage {
    try IconImage.load(icon, theme: "Child", size: size, scale: scale, lookup: iconLookup).get()
  }

  static func problem(_ icon: String, theme: String? = "Child") -> String? {
    guard
      case .failure(let error) = IconImage.load(
        icon, theme: theme, size: 48, scale: 1, lookup: iconLookup, reusingFailures: false)
    else { return nil }
    return error.description
  }

  @Test func aLargerBitmapIsShrunkToTheDrawnSize() throws {
    // 48 from 16 and 256 pixels: the green 256 shrunk.
    let image = try Self.load("tiny-or-huge")
    #expect(image.width == 48 && image.height == 48)
    #expect(image.pixel(x: 24, y: 24) == (255, 0, 255, 0))
    #expect(image.pixel(x: 0, y: 0) == (255, 0, 255, 0), "no faded edge")
    #expect(!image.isSymbolic)
    let doubled = try Self.load("tiny-or-huge", scale: 2)
    #expect(doubled.width == 96 && doubled.height == 96)
  }

  @Test func aWideImageKeepsItsShape() throws {
    let image = try Self.load("wide")
    #expect(image.width == 48 && image.height == 24)
  }

  @Test(arguments: [1.0, 1.25, 1.5, 2.0])
  func svgsAreDrawnAtExactlyTheDevicePixels(scale: Double) throws {
    let image = try Self.load("vector", scale: scale)
    let side = Int((48 * scale).rounded())
    #expect(image.width == side && image.height == side)
    // A green disc filling the square: opaque green in the middle, and edges
    // a pixel wide, not the blur of an enlarged bitmap.
    #expect(image.pixel(x: side / 2, y: side / 2) == (255, 0, 255, 0))
    var partial = 0
    for x in 0..<side where (1...254).contains(image.pixel(x: x, y: side / 2).alpha) {
      partial += 1
    }
    #expect(partial <= 4, "\(partial) partly transparent pixels across the middle")
  }

  @Test func symbolicIconsArePaintedInTheTextColour() throws {
    // test-volume-symbolic.svg is a dark grey square filling the icon.
    var toast = Toast("Muted")
    toast.icon = iconsDirectory + "/share/icons/Child/symbolic/status/test-volume-symbolic.svg"
    toast.foreground = Toast.Color(red: 1, green: 0, blue: 0)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let square = try #require(layout.icon)
    for scale in [1, 2] {
      let image = OffscreenImage.render(toast, scale: scale)
      let middle = image.pixel(x: Int(square.midX) * scale, y: Int(square.midY) * scale)
      #expect(middle == (255, 255, 0, 0), "red, the text colour, at scale \(scale)")
      let corner = image.pixel(x: Int(square.x) * scale, y: Int(square.y) * scale)
      #expect(corner == (255, 255, 0, 0), "to the icon's corner at scale \(scale)")
      let outside = image.pixel(x: Int(square.x) * scale - 2, y: Int(square.midY) * scale)
      #expect(outside.alpha == 128, "the box's colour beside the icon at scale \(scale)")
    }
    // A regular icon keeps its colours: the grey unthemed PNG.
    toast.icon = iconsDirectory + "/pixmaps/unthemed.png"
    let grey = OffscreenImage.render(toast).pixel(x: Int(square.midX), y: Int(square.midY))
    #expect(grey == (255, 128, 128, 128))
  }

  @Test func atAFractionalScaleTheIconFillsWholeDevicePixels() throws {
    var toast = Toast("Muted")
    toast.icon = iconsDirectory + "/share/icons/Child/symbolic/status/test-volume-symbolic.svg"
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let square = try #require(layout.icon)
    let scale = 1.5
    let width = Int32((Double(layout.surfaceWidth) * scale).rounded())
    let height = Int32((Double(layout.surfaceHeight) * scale).rounded())
    let pixels = UnsafeMutableRawPointer.allocate(byteCount: Int(width * height * 4), alignment: 16)
    defer { pixels.deallocate() }
    let canvas = try #require(
      Canvas(pixels: pixels, width: width, height: height, stride: width * 4))
    canvas.draw(toast, layout: layout, appearance: .resting, scale: scale)
    func pixel(_ x: Int, _ y: Int) -> UInt32 {
      pixels.load(fromByteOffset: (y * Int(width) + x) * 4, as: UInt32.self)
    }
    // 48 logical pixels are 72 device pixels, all white, with hard edges.
    let left = Int((square.x * scale).rounded())
    let top = Int((square.y * scale).rounded())
    let row = top + 36
    #expect(pixel(left, row) == 0xffff_ffff && pixel(left + 71, row) == 0xffff_ffff)
    #expect(pixel(left - 1, row) >> 24 == 128 && pixel(left + 72, row) >> 24 == 128)
    #expect(pixel(left + 36, top) == 0xffff_ffff && pixel(left + 36, top + 71) == 0xffff_ffff)
    #expect(pixel(left + 36, top - 1) >> 24 == 128 && pixel(left + 36, top + 72) >> 24 == 128)
  }

  @Test(arguments: [1, 2])
  func adwaitasVolumeIconIsWhiteAboveTheText(scale: Int) throws {
    var toast = Toast("Volume", progress: 0.4)
    toast.icon = "audio-volume-high-symbolic"
    toast.iconTheme = "Adwaita"
    #expect(toast.iconProblem(scale: Double(scale)) == nil)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let square = try #require(layout.icon)
    #expect(square.y + square.height < layout.textOrigin.y, "above the text")
    let image = OffscreenImage.render(toast, scale: scale)
    var white = 0
    var colored = 0
    for y in Int(square.y) * scale..<Int(square.y + square.height) * scale {
      for x in Int(square.x) * scale..<Int(square.x + square.width) * scale {
        let p = image.pixel(x: x, y: y)
        if p == (255, 255, 255, 255) { white += 1 }
        if p.red != p.green || p.green != p.blue { colored += 1 }
      }
    }
    // The speaker and its waves cover a good part of the square, in white only.
    let area = Int(square.width * square.height) * scale * scale
    #expect(white > area / 8, "\(white) white pixels of \(area)")
    #expect(colored == 0)
  }

  @Test func aJPEGPhotoIsDecodedAndFittedKeepingItsShape() throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-jpeg")
    defer { removeTree(directory) }
    // A photo as a camera writes one: Exif metadata before the frame.
    let photo = directory + "/photo.jpg"
    let exif = Array("Exif".utf8) + [UInt8](repeating: 0, count: 2002)
    try writeBytes(photo, jpegFile(width: 64, height: 32, rgb: [255, 0, 255], metadata: exif))
    let image = try IconImage.load(photo, theme: nil, size: 48, scale: 1).get()
    #expect(image.width == 48 && image.height == 24)
    #expect(!image.isSymbolic)
    for (x, y) in [(24, 12), (1, 1), (46, 22)] {
      let pixel = image.pixel(x: x, y: y)
      #expect(
        pixel.alpha == 255 && pixel.red >= 250 && pixel.green <= 5 && pixel.blue >= 250,
        "\(pixel) at \(x),\(y)")
    }
    // Larger than drawn: decoded shrunk, to 96x72 pixels at scale 2.
    let large = directory + "/large.jpg"
    try writeBytes(large, jpegFile(width: 4000, height: 3000, rgb: [0, 128, 255]))
    let shrunk = try IconImage.load(large, theme: nil, size: 48, scale: 2).get()
    #expect(shrunk.width == 96 && shrunk.height == 72)
    let pixel = shrunk.pixel(x: 48, y: 36)
    #expect(
      pixel.alpha == 255 && pixel.red <= 5 && abs(Int(pixel.green) - 128) <= 3
        && pixel.blue >= 250, "\(pixel)")
  }

  @Test func aJPEGIsTurnedUprightAsItsExifOrientationSays() throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-jpeg")
    defer { removeTree(directory) }
    // 64x32: red on the left, blue on the right; taken turned a quarter
    // clockwise (orientation 6), so shown 32x64 with the left on top.
    let photo = directory + "/sideways.jpg"
    let file = jpegFile(width: 64, height: 32, metadata: exifMetadata(orientation: 6)) { x, _ in
      x < 32 ? [255, 0, 0] : [0, 0, 255]
    }
    try writeBytes(photo, file)
    let image = try IconImage.load(photo, theme: nil, size: 48, scale: 1).get()
    #expect(image.width == 24 && image.height == 48)
    let (top, bottom) = (image.pixel(x: 12, y: 6), image.pixel(x: 12, y: 42))
    #expect(top.red >= 250 && top.blue <= 5, "\(top)")
    #expect(bottom.blue >= 250 && bottom.red <= 5, "\(bottom)")
  }

  @Test func brokenAndHugeJPEGsSayWhyInOneLine() throws {
    let directory = try makeTemporaryDirectory(prefix: "wl-toast-jpeg")
    defer { removeTree(directory) }
    let whole = jpegFile(width: 16, height: 16, rgb: [0, 0, 0])
    // The frame header says 5000 pixels: refused before anything is decoded.
    let frame = try #require(
      (0..<whole.count - 1).first { whole[$0] == 0xff && whole[$0 + 1] == 0xc0 })
    var huge = whole
    huge[frame + 7] = UInt8(5000 >> 8)
    huge[frame + 8] = UInt8(5000 & 0xff)
    let cases: [(name: String, bytes: [UInt8], expected: String)] = [
      ("huge.jpg", huge, "the image is too large (5000x16 pixels; at most 4096 a side)"),
      ("noframe.jpg", [0xff, 0xd8, 0xff, 0xd9], "not a valid JPEG image"),
      ("cut.jpg", Array(whole.prefix(whole.count / 2)), "not a valid JPEG image"),
    ]
    for (name, bytes, expected) in cases {
      let path = directory + "/" + name
      try writeBytes(path, bytes)
      let loaded = IconImage.load(path, theme: nil, size: 48, scale: 1, reusingFailures: false)
      guard case .failure(let error) = loaded else {
        Issue.record("\(name) loaded")
        continue
      }
      #expect(error.description.hasPrefix("cannot read icon '\(path)': " + expected), "\(error)")
      #expect(!error.description.contains("\n"))
    }
  }

  @Test func brokenFilesAndMissingNamesAreOneLine() throws {
    let broken = iconsDirectory + "/broken"
    let problems: [(icon: String, theme: String?, expected: String)] = [
      (
        "/nonexistent.png", "Child",
        "cannot read icon '/nonexistent.png': No such file or directory"
      ),
      (
        broken + "/corrupt.png", "Child",
        "cannot read icon '\(broken)/corrupt.png': not a valid PNG image"
      ),
      (
        broken + "/huge.png", "Child",
        "cannot read icon '\(broken)/huge.png': the image is too large (60000x60000 pixels; at most 4096 a side)"
      ),
      (broken + "/bad.svg", "Child", "cannot read icon '\(broken)/bad.svg': not a valid SVG image"),
      (
        broken + "/use-bomb.svg", "Child",
        "cannot read icon '\(broken)/use-bomb.svg': an SVG image that draws more than 50000 elements"
      ),
      (
        broken + "/notes.txt", "Child",
        "cannot read icon '\(broken)/notes.txt': not a PNG, JPEG or SVG image"
      ),
      (broken, "Child", "cannot read icon '\(broken)': not a regular file"),
      (
        "no-such-icon", "Child",
        "icon 'no-such-icon' not found in Child, Parent, Grandparent, hicolor"
      ),
      ("no-such-icon", nil, "icon 'no-such-icon' not found in hicolor"),
      (
        "no-such-icon", "Nope",
        "icon 'no-such-icon' not found in hicolor (there is no icon theme 'Nope')"
      ),
    ]
    for (icon, theme, expected) in problems {
      let problem = try #require(Self.problem(icon, theme: theme), "\(icon) loads")
      #expect(problem.hasPrefix(expected), "\(problem)")
      #expect(!problem.contains("\n"))
    }
  }

  @Test func aToastSaysWhyItsIconCannotShow() {
    var toast = Toast("Hi")
    #expect(toast.iconProblem(scale: 1) == nil, "no icon, no problem")
    toast.icon = "/nonexistent.png"
    #expect(
      toast.iconProblem(scale: 1)
        == "cannot read icon '/nonexistent.png': No such file or directory; the toast shows without it"
    )
    #expect(toast.iconSize == 48)
    toast.style = .banner
    #expect(toast.iconSize == 24)
  }

  @Test func aChangedFileIsReadAgainAndAFailureIsRememberedAMoment() throws {
    // mkdtemp fills in the template in place (an array of ours: no strdup left unfreed).
    var template = Array("/tmp/wl-toast-icons-XXXXXX".utf8CString)
    try #require(mkdtemp(&template) != nil)
    let directory = template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    defer {
      unlink(directory + "/icon.png")
      rmdir(directory)
    }
    let path = directory + "/icon.png"
    func copy(_ source: String) throws {
      let bytes = try #require(readAll(source))
      let file = try #require(fopen(path + ".new", "wb"))
      fwrite(bytes, 1, bytes.count, file)
      fclose(file)
      rename(path + ".new", path)
    }
    // Missing: a failure, remembered for a moment by the renderer's loads.
    #expect((try? IconImage.load(path, theme: nil, size: 48, scale: 1).get()) == nil)
    try copy(iconsDirectory + "/pixmaps/unthemed.png")
    let remembered = IconImage.load(path, theme: nil, size: 48, scale: 1)
    #expect((try? remembered.get()) == nil, "the failure is reused")
    let fresh = try IconImage.load(path, theme: nil, size: 48, scale: 1, reusingFailures: false)
      .get()
    #expect(fresh.pixel(x: 24, y: 24) == (255, 128, 128, 128))
    // Replaced by another picture: a frame (no file check) still draws the
    // picture its toast was shown with; the next show or update reads again.
    try copy(iconsDirectory + "/share/icons/Child/48x48/apps/fixed-sizes.png")
    let frame = try IconImage.load(path, theme: nil, size: 48, scale: 1, checkingFile: false)
      .get()
    #expect(frame.pixel(x: 24, y: 24) == (255, 128, 128, 128))
    let changed = try IconImage.load(path, theme: nil, size: 48, scale: 1).get()
    #expect(changed.pixel(x: 24, y: 24) == (255, 0, 0, 255))
  }
}

/// The whole contents of a file; nil when it cannot be read.
func readAll(_ path: String) -> [UInt8]? {
  guard let file = fopen(path, "rb") else { return nil }
  defer { fclose(file) }
  var bytes: [UInt8] = []
  var chunk = [UInt8](repeating: 0, count: 65536)
  while true {
    let count = fread(&chunk, 1, chunk.count, file)
    if count == 0 { break }
    bytes += chunk[..<count]
  }
  return bytes
}
