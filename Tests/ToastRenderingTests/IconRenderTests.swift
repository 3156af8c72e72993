import Glibc
import Testing
import ToastModel
import ToastRendering

/// Offscreen renders of toasts with icons against reference PNGs in
/// References/ (`UPDATE_REFERENCES=1` rewrites them, as for ``RenderTests``).
/// The icons are Debian's Adwaita (adwaita-icon-theme, `make deps`) and the
/// tests' own files.
struct IconRenderTests {
  static func toast(
    _ text: String, style: Toast.Style = .hud, icon: String, theme: String? = "Adwaita",
    spinner: Bool = false, progress: Double? = nil
  ) -> Toast {
    var toast = Toast(text, style: style, showsSpinner: spinner, progress: progress)
    toast.icon = icon
    toast.iconTheme = theme
    return toast
  }

  static let cases: [(name: String, toast: Toast, scale: Int)] = [
    ("hud-icon", toast("Volume", icon: "audio-volume-high-symbolic", progress: 0.4), 1),
    (
      "hud-icon-spinner-scale2",
      toast("Recording", icon: "media-record-symbolic", spinner: true), 2
    ),
    (
      "banner-icon", toast("Copied to clipboard", style: .banner, icon: "edit-copy-symbolic"), 1
    ),
    (
      "banner-icon-bitmap-scale2",
      toast(
        "Unthemed", style: .banner, icon: IconThemeTests.icons + "/pixmaps/unthemed.png",
        theme: nil), 2
    ),
  ]

  @Test(arguments: cases.map(\.name))
  func renderMatchesTheReference(_ name: String) throws {
    let spec = try #require(Self.cases.first { $0.name == name })
    #expect(spec.toast.iconProblem(scale: Double(spec.scale)) == nil)
    let image = OffscreenImage.render(spec.toast, scale: spec.scale)
    let path = "\(RenderTests.directory)/\(name).png"
    if getenv("UPDATE_REFERENCES") != nil {
      #expect(image.writePNG(to: path))
      return
    }
    let reference = try #require(
      OffscreenImage(png: path), "missing \(path): run with UPDATE_REFERENCES=1")
    #expect(reference.width == image.width && reference.height == image.height)
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
      "\(differing) of \(image.width * image.height) pixels differ from \(path)")
  }
}
