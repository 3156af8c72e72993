import Glibc
import Testing
import ToastModel
import ToastRendering

/// This directory: the tests' icon themes and reference PNGs are beside the sources.
private let testsDirectory: String = {
  let file = #filePath
  return String(file[..<file.lastIndex(of: "/")!])
}()

/// The tests' own icon themes and unthemed icons (Icons/, see its README).
let iconsDirectory = testsDirectory + "/Icons"

/// A lookup in the tests' themes: `local` as the user's directory, `share` as the system's.
let iconLookup = IconLookup(
  searchPath: IconSearchPath(
    themeDirectories: [iconsDirectory + "/local/icons", iconsDirectory + "/share/icons"],
    fallbackDirectories: [
      iconsDirectory + "/local/icons", iconsDirectory + "/share/icons", iconsDirectory + "/pixmaps",
    ]))

/// Where the reference PNGs are.
let referencesDirectory = testsDirectory + "/References"

/// The pixels of `toast` drawn into a canvas of its size, `times` times
/// over, laid out as `layout` (by default for a 1280x720 output).
func drawnPixels(
  _ toast: Toast, layout: ToastLayout? = nil, scale: Double = 1,
  appearance: Appearance = .resting, times: Int = 1
) throws -> [UInt8] {
  let layout = layout ?? ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
  let width = Int32((Double(layout.surfaceWidth) * scale).rounded())
  let height = Int32((Double(layout.surfaceHeight) * scale).rounded())
  var bytes = [UInt8](repeating: 0x5a, count: Int(width * height * 4))
  try bytes.withUnsafeMutableBytes { buffer in
    let canvas = try #require(
      Canvas(pixels: buffer.baseAddress!, width: width, height: height, stride: width * 4))
    for _ in 0..<times {
      canvas.draw(toast, layout: layout, appearance: appearance, scale: scale)
    }
  }
  return bytes
}

/// Expects `image` to match the reference PNG `name` (at most 0.5 % of the
/// pixels differing by more than 8 in a channel); with `UPDATE_REFERENCES`
/// set, writes it as the reference instead.
func expectMatchesReference(
  _ image: OffscreenImage, named name: String, sourceLocation: SourceLocation = #_sourceLocation
) throws {
  let path = "\(referencesDirectory)/\(name).png"
  if getenv("UPDATE_REFERENCES") != nil {
    mkdir(referencesDirectory, 0o755)
    #expect(image.writePNG(to: path), sourceLocation: sourceLocation)
    return
  }
  let reference = try #require(
    OffscreenImage(png: path), "missing \(path): run with UPDATE_REFERENCES=1",
    sourceLocation: sourceLocation)
  #expect(
    reference.width == image.width && reference.height == image.height,
    sourceLocation: sourceLocation)
  guard reference.width == image.width && reference.height == image.height else { return }
  var differing = 0
  for y in 0..<image.height {
    for x in 0..<image.width {
      let a = image.pixel(x: x, y: y)
      let b = reference.pixel(x: x, y: y)
      let delta = [
        abs(Int(a.alpha) - Int(b.alpha)), abs(Int(a.red) - Int(b.red)),
        abs(Int(a.green) - Int(b.green)), abs(Int(a.blue) - Int(b.blue)),
      ].max()!
      if delta > 8 { differing += 1 }
    }
  }
  #expect(
    differing <= image.width * image.height / 200,
    "\(differing) of \(image.width * image.height) pixels differ from \(path)",
    sourceLocation: sourceLocation)
}
