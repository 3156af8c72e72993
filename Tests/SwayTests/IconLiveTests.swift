import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// Icons on a real compositor: Adwaita's symbolic volume icon above the text
/// in white, at scale 1 and 2, and a missing or broken icon as one warning
/// line with the toast shown without it.
@Suite(.serialized)
struct IconLiveTests {

  static func volume() -> Toast {
    var toast = Toast("Volume", progress: 0.4)
    toast.icon = "audio-volume-high-symbolic"
    toast.iconTheme = "Adwaita"
    return toast
  }

  static let volumeArguments = [
    "--no-animation", "--timeout", "0", "--icon", "audio-volume-high-symbolic", "--icon-theme",
    "Adwaita", "--progress", "40", "Volume",
  ]

  /// Checks a screenshot of the volume HUD at `scale` on an output `logical`
  /// pixels large: the box where the layout puts it, white pixels in the
  /// icon's square, a gap without any under it and then the text; the whole
  /// box as the offscreen rendering at that scale shows it.
  func checkVolumeHUD(on desk: Desk<HeadlessSway>, scale: Int, logical: (width: Int, height: Int))
    throws
  {
    let toast = Self.volume()
    let layout = ToastLayout(toast: toast, outputWidth: logical.width, outputHeight: logical.height)
    let icon = try #require(layout.icon)
    let origin = (
      x: (logical.width - layout.surfaceWidth) / 2 * scale,
      y: (logical.height - layout.surfaceHeight) / 2 * scale
    )
    let box = Box(
      x: origin.x + Int(layout.box.x) * scale, y: origin.y + Int(layout.box.y) * scale,
      width: Int(layout.box.width) * scale, height: Int(layout.box.height) * scale)
    let shot = try desk.screenshot("the volume HUD at \(box)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == box
    }
    let square = Box(
      x: origin.x + Int(icon.x) * scale, y: origin.y + Int(icon.y) * scale,
      width: Int(icon.width) * scale, height: Int(icon.height) * scale)
    var white = 0
    for y in square.y..<(square.y + square.height) {
      for x in square.x..<(square.x + square.width)
      where shot.pixel(x: x, y: y).isClose(to: RGB(255, 255, 255), tolerance: 2) {
        white += 1
      }
    }
    #expect(white > square.width * square.height / 8, "\(white) white pixels in the icon's square")
    // Between the icon and the text: nothing bright. Below the gap: the text.
    let gapTop = square.y + square.height + 1
    let textTop = origin.y + Int(layout.textOrigin.y) * scale
    let gap = Box(x: box.x + 4, y: gapTop, width: box.width - 8, height: textTop - gapTop - 1)
    #expect(gap.height >= 4 * scale)
    #expect(shot.brightPixels(in: gap, than: hudColor) == 0)
    let text = Box(
      x: box.x + 4, y: textTop, width: box.width - 8, height: Int(layout.text.height) * scale)
    #expect(shot.brightPixels(in: text, than: hudColor) > 20 * scale)
    // Pixel for pixel the offscreen rendering at this scale: drawn, not enlarged.
    let reference = composited(
      toast, over: HeadlessSway.background, outputWidth: logical.width,
      outputHeight: logical.height, scale: scale)
    let mismatches = shot.mismatches(in: box, from: reference.blend, origin: origin)
    #expect(mismatches < box.width * box.height / 100, "\(mismatches) pixels differ")
  }

  @Test func withNoThemeNamedTheDesktopsAdwaitaShowsTheVolumeIcon() throws {
    // An empty config home (no settings.ini): Adwaita, installed, as GTK would.
    let desk = try Desk<HeadlessSway>()
    let arguments = Self.volumeArguments.filter { $0 != "--icon-theme" && $0 != "Adwaita" }
    #expect(try desk.runToEnd(arguments).errors == "")
    try checkVolumeHUD(on: desk, scale: 1, logical: (1280, 720))
  }

  @Test func theThemeOfGTKsSettingsWins() throws {
    let desk = try Desk<HeadlessSway>()
    let config = desk.sway.runtimeDirectory + "/gtk-config"
    mkdir(config, 0o700)
    mkdir(config + "/gtk-3.0", 0o700)
    try writeFile(
      config + "/gtk-3.0/settings.ini", "[Settings]\ngtk-icon-theme-name = Child\n")
    desk.environment["XDG_CONFIG_HOME"] = config
    desk.environment["XDG_DATA_DIRS"] =
      repositoryDirectory + "/Tests/ToastRenderingTests/Icons/share"
    // The tests' theme Child has test-volume-high at 48 px: solid blue.
    let result = try desk.runToEnd([
      "--no-animation", "--timeout", "0", "--icon", "test-volume-high", "Volume",
    ])
    #expect(result.status == 0 && result.errors == "", "\(result.errors)")
    var toast = Toast("Volume")
    toast.icon = "test-volume-high"
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let icon = try #require(layout.icon)
    let square = Box(
      x: (1280 - layout.surfaceWidth) / 2 + Int(icon.x) + 4,
      y: (720 - layout.surfaceHeight) / 2 + Int(icon.y) + 4, width: Int(icon.width) - 8,
      height: Int(icon.height) - 8)
    try desk.screenshot("Child's blue icon in the HUD") { shot in
      shot.pixel(x: square.x, y: square.y).isClose(to: RGB(0, 0, 255), tolerance: 8)
        && shot.pixel(x: square.x + square.width - 1, y: square.y + square.height - 1)
          .isClose(to: RGB(0, 0, 255), tolerance: 8)
    }
  }

  @Test func theVolumeIconShowsWhiteAboveTheText() throws {
    let desk = try Desk<HeadlessSway>()
    let result = try desk.runToEnd(Self.volumeArguments)
    #expect(result.status == 0 && result.errors.isEmpty, "\(result.errors)")
    try checkVolumeHUD(on: desk, scale: 1, logical: (1280, 720))
  }

  @Test func atScaleTwoTheIconIsDrawnAtFullResolution() throws {
    let desk = try Desk<HeadlessSway>()
    try desk.sway.swaymsg(["output", "HEADLESS-1", "scale", "2"])
    let result = try desk.runToEnd(Self.volumeArguments)
    #expect(result.status == 0 && result.errors.isEmpty, "\(result.errors)")
    try checkVolumeHUD(on: desk, scale: 2, logical: (640, 360))
  }

  @Test func aMissingOrBrokenIconIsOneWarningAndTheToastShowsWithoutIt() throws {
    let desk = try Desk<HeadlessSway>()
    let expected = Looks.hudBox(Toast("Saved"))
    // The first command starts the owner, and hears the warning before the
    // frame; the second hands a name no theme has to the running owner.
    for (icon, warning) in [
      ("/nonexistent.png", "cannot read icon '/nonexistent.png': No such file or directory"),
      // Looked up in the desktop's theme: Adwaita (make deps installs it), then hicolor.
      ("wl-toast-no-such-icon", "icon 'wl-toast-no-such-icon' not found in Adwaita, hicolor"),
    ] {
      let result = try desk.runToEnd([
        "--no-animation", "--timeout", "0", "--icon", icon, "Saved",
      ])
      #expect(result.status == 0)
      #expect(result.errors == "wl-toast: \(warning); the toast shows without it\n")
      let shot = try desk.screenshot("the HUD without an icon at \(expected)") {
        $0.boundingBox(of: hudColor, tolerance: 3) == expected
      }
      #expect(shot.brightPixels(in: expected.insetBy(20), than: hudColor) > 50, "the text")
    }
    // A corrupt file, named relative to the command's directory (the owner runs in /).
    let directory = desk.sway.runtimeDirectory
    try writeFile(directory + "/broken.png", "not an image\n")
    let third = try desk.runToEnd(
      Run(
        ["--no-animation", "--timeout", "0", "--icon", "./broken.png", "Saved"],
        directory: directory))
    #expect(third.status == 0)
    let errors = third.errors
    #expect(
      errors
        == "wl-toast: cannot read icon '\(directory)/broken.png': not a PNG, JPEG or SVG image; the toast shows without it\n"
    )
    #expect(try desk.status()?.text == "Saved")
    // Waiting for the outcome: the warning, then exit 0 when it expires.
    let waiting = try desk.runToEnd([
      "--wait", "--timeout", "0.3", "--icon", "/nonexistent.svg", "Bye",
    ])
    #expect(waiting.status == 0)
    #expect(waiting.errors.split(separator: "\n").count == 1)
    #expect(waiting.errors.hasPrefix("wl-toast: cannot read icon '/nonexistent.svg'"))
    // Expired: the box goes once its exit has played.
    try desk.screenshot("no box left") { $0.boundingBox(of: hudColor, tolerance: 3) == nil }
  }

  @Test func theLibraryHearsWhyAnIconIsLeftOut() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var toast = Toast("Library", timeout: 0)
    toast.icon = "/nonexistent.svg"
    #expect(
      presenter.show(toast) == [
        .iconLeftOut(
          "cannot read icon '/nonexistent.svg': No such file or directory; the toast shows without it"
        )
      ])
    #expect(presenter.toast()?.icon == nil, "shown without it")
    #expect(
      presenter.update { $0.text = "Changed" } == [],
      "an update that asks for no icon hears nothing")
    #expect(presenter.showOrUpdate(Self.volume()) == [])
    #expect(presenter.toast()?.icon == "audio-volume-high-symbolic")
    presenter.hide(animated: false)
    #expect(try presenter.runUntilHidden() == .hidden)
  }

  @Test func aPreviewDrawsTheIconOrSaysWhyNot() throws {
    let runner = try CommandRunner()
    let directory = runner.directory
    func preview(_ arguments: [String]) throws -> (
      status: Int32, errors: String, image: OffscreenImage?
    ) {
      let path = directory + "/preview.png"
      unlink(path)
      let result = try runner.runToEnd(["--render-png", path] + arguments)
      return (result.status, result.errors, OffscreenImage(png: path))
    }
    func same(_ a: OffscreenImage, _ b: OffscreenImage) -> Bool {
      guard a.width == b.width && a.height == b.height else { return false }
      for y in 0..<a.height {
        for x in 0..<a.width where a.pixel(x: x, y: y) != b.pixel(x: x, y: y) { return false }
      }
      return true
    }
    let volume = try preview(["--scale", "2"] + Self.volumeArguments.dropFirst(3))
    #expect(volume.status == 0 && volume.errors.isEmpty, "\(volume.errors)")
    let drawn = try #require(volume.image)
    #expect(same(drawn, OffscreenImage.render(Self.volume(), scale: 2.0)), "the icon as drawn")
    let missing = try preview(["--icon", "/nonexistent.png", "Saved"])
    #expect(missing.status == 0)
    #expect(
      missing.errors
        == "wl-toast: cannot read icon '/nonexistent.png': No such file or directory; the toast shows without it\n"
    )
    let without = try #require(missing.image)
    #expect(same(without, OffscreenImage.render(Toast("Saved"))), "drawn without the icon")
  }
}
