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
        "Unthemed", style: .banner, icon: iconsDirectory + "/pixmaps/unthemed.png",
        theme: nil), 2
    ),
  ]

  @Test(arguments: cases.map(\.name))
  func renderMatchesTheReference(_ name: String) throws {
    let spec = try #require(Self.cases.first { $0.name == name })
    #expect(spec.toast.iconProblem(scale: Double(spec.scale)) == nil)
    let image = OffscreenImage.render(spec.toast, scale: spec.scale)
    try expectMatchesReference(image, named: name)
  }
}
