import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// `wl-toast --render-png`: previews drawn by the real command, with no compositor.
struct PreviewTests {
  @Test(arguments: [1.0, 1.5, 2.0])
  func aPreviewIsTheRenderersDrawingOfTheToast(scale: Double) throws {
    let runner = try CommandRunner()
    let path = runner.directory + "/volume.png"
    let result = try runner.runToEnd([
      "--render-png", path, "--scale", String(scale), "--spinner", "--progress", "40",
      "Volume 40%",
    ])
    #expect(result.status == 0)
    let preview = try #require(OffscreenImage(png: path))
    let toast = Toast("Volume 40%", showsSpinner: true, progress: 0.4)
    let expected = OffscreenImage.render(toast, scale: scale)
    #expect(preview.width == expected.width && preview.height == expected.height)
    #expect(preview.width == Int((184 * scale).rounded()), "the surface's size times the scale")
    var differing = 0
    for y in 0..<expected.height {
      for x in 0..<expected.width where preview.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
        differing += 1
      }
    }
    #expect(differing == 0, "\(differing) pixels differ from the renderer's own drawing")
  }

  @Test func aPreviewWithACountdownShowsItsLineFullAndWithoutATimeoutNone() throws {
    let runner = try CommandRunner()
    var toast = Toast("Undo")
    toast.showsCountdown = true
    for (timeout, share) in [("5", 1.0 as Double?), ("0", nil)] {
      let path = runner.directory + "/countdown-\(timeout).png"
      let result = try runner.runToEnd([
        "--render-png", path, "--countdown", "--timeout", timeout, "Undo",
      ])
      #expect(result.status == 0)
      let preview = try #require(OffscreenImage(png: path))
      let expected = OffscreenImage.render(
        toast, scale: 1.0, appearance: Appearance(opacity: 1, slide: 1, countdown: share))
      var differing = 0
      for y in 0..<expected.height {
        for x in 0..<expected.width where preview.pixel(x: x, y: y) != expected.pixel(x: x, y: y) {
          differing += 1
        }
      }
      #expect(differing == 0, "timeout \(timeout): \(differing) pixels differ")
    }
  }

  @Test func theOutputSizeLaysTheToastOut() throws {
    let runner = try CommandRunner()
    let long = String(repeating: "wide ", count: 60)
    for (size, width) in [("1280x720", 1280), ("640x360", 640)] {
      let path = runner.directory + "/\(size).png"
      let result = try runner.runToEnd(["--render-png", path, "--size", size, long])
      #expect(result.status == 0)
      let preview = try #require(OffscreenImage(png: path))
      let layout = ToastLayout(toast: Toast(long), outputWidth: width, outputHeight: 360)
      #expect(preview.width == layout.surfaceWidth, "40 % of \(width) wide at most")
    }
  }

  @Test func badPreviewOptionsAreOneLineErrors() throws {
    let runner = try CommandRunner()
    func run(_ arguments: [String]) throws -> (Int32, String) {
      let result = try runner.runToEnd(arguments)
      return (result.status, result.output + result.errors)
    }
    #expect(
      try run(["--scale", "2", "Hi"])
        == (
          64,
          "wl-toast: --scale and --size need --render-png\nTry 'wl-toast --help' for more information.\n"
        ))
    #expect(try run(["--render-png", "/tmp/x.png", "--scale", "9", "Hi"]).0 == 64)
    #expect(try run(["--render-png", "/tmp/x.png", "--size", "10x10", "Hi"]).0 == 64)
    #expect(
      try run(["--render-png", "/nonexistent/dir/x.png", "Hi"])
        == (1, "wl-toast: cannot write /nonexistent/dir/x.png: No such file or directory\n"))
  }
}
