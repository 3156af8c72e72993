import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// The HUD on a real compositor, through the `wl-toast` command.
@Suite(.serialized)
struct HUDTests {

  @Test func offsetMovesTheBox() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--no-animation", "--timeout", "0", "--offset", "200,-100", "Moved",
    ])
    var toast = Toast("Moved")
    toast.offset = .init(x: 200, y: -100)
    let expected = Looks.hudBox(toast)
    #expect(expected.x == 760 && expected.y == 200)
    let shot = try desk.screenshot("the moved HUD box") {
      $0.boundingBox(of: hudColor, tolerance: 3) != nil
    }
    #expect(shot.boundingBox(of: hudColor, tolerance: 3) == expected)
    command.terminate()
  }

  @Test func cjkAndEmojiRenderAsGlyphsNotBoxes() throws {
    let message = "漢字テスト 🎉 مرحبا"
    // Every character has a glyph in the installed fonts: no box is drawn.
    let layout = ToastLayout(toast: Toast(message), outputWidth: 1280, outputHeight: 720)
    #expect(layout.text.unknownGlyphCount == 0)
    // Private-use characters have a glyph in no font: Pango draws boxes.
    let tofuText = "\u{E000}\u{E001}\u{E002}\u{E003}\u{E004} \u{E005}"
    #expect(
      ToastLayout(toast: Toast(tofuText), outputWidth: 1280, outputHeight: 720)
        .text.unknownGlyphCount == 6)

    let desk = try Desk<HeadlessSway>()
    let box = Looks.hudBox(Toast(message))
    let command = try desk.run(["--no-animation", "--timeout", "0", message])
    let shot = try desk.screenshot("text drawn inside the HUD box") {
      $0.brightPixels(in: box.insetBy(10), than: hudColor) > 0
    }
    command.terminate()
    // What the user sees is the text as Pango shaped and drew it offscreen.
    let reference = composited(Toast(message), over: HeadlessSway.background)
    let origin = (x: box.x - Int(layout.box.x), y: box.y - Int(layout.box.y))
    let mismatches = shot.mismatches(in: box, from: reference.blend, origin: origin)
    #expect(mismatches < box.width * box.height / 100, "\(mismatches) pixels differ")
    // The party popper is drawn in colour; text and boxes are white.
    #expect(shot.colorfulPixels(in: box.insetBy(10)) > 20)
  }

  @Test func aLongMessageEndsInThreeLinesWithAnEllipsis() throws {
    let desk = try Desk<HeadlessSway>()
    let message = String(
      repeating: "This message is far too long for a small box and keeps going ", count: 12)
    let layout = ToastLayout(toast: Toast(message), outputWidth: 1280, outputHeight: 720)
    #expect(layout.text.lineCount == 3)
    #expect(layout.text.isEllipsized)
    let command = try desk.run(["--no-animation", "--timeout", "0", message])
    let expected = Looks.hudBox(Toast(message))
    let shot = try desk.screenshot("the HUD box at \(expected)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == expected
    }
    #expect(expected.width == 512, "40% of the output")
    #expect(shot.textLines(in: expected.insetBy(4), than: hudColor) == 3)
    command.terminate()
  }

  @Test func spinnerFramesDifferOnlyInsideTheSpinner() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run(["--no-animation", "--timeout", "0", "--spinner", "Working"])
    var toast = Toast("Working")
    toast.showsSpinner = true
    let box = Looks.hudBox(toast)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let spinner = try #require(layout.spinner)
    let spinnerBox = Box(
      x: box.x + Int(spinner.x - layout.box.x) - 1, y: box.y + Int(spinner.y - layout.box.y) - 1,
      width: Int(spinner.width) + 2, height: Int(spinner.height) + 2)
    let first = try desk.screenshot("the HUD box at \(box)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == box
    }
    let second = try desk.screenshot("a spinner frame that differs from the first") {
      $0.difference(from: first) != nil
    }
    let changed = try #require(second.difference(from: first))
    #expect(spinnerBox.contains(changed), "changed \(changed), spinner \(spinnerBox)")
    command.terminate()
  }

  @Test func theTimeoutEndsTheToastWithStatusZero() throws {
    let desk = try Desk<HeadlessSway>()
    let start = now()
    let command = try desk.run(["--wait", "--timeout", "0.3", "Brief"])
    #expect(command.wait(timeout: desk.compositor.patience) == 0)
    // Fade in 0.25 s, hold 0.3 s, fade out 0.25 s.
    #expect(now() - start >= 0.8)
    #expect(try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) == nil)
  }

  @Test func aModalToastKeepsTheClickFromTheSurfaceBelow() throws {
    let desk = try Desk<HeadlessSway>()
    let below = try ColorSurface(
      socketPath: desk.sway.socketPath, width: 400, height: 300, argb: 0xff33_aa33,
      layer: .bottom)
    #expect(try below.pump { below.isMapped })
    let command = try desk.run(["--no-animation", "--timeout", "0", "--modal", "Busy"])
    let boxColor = blend(Design.HUD.background, over: RGB(0x33, 0xaa, 0x33))
    try desk.screenshot("the modal HUD box over the green surface") {
      $0.boundingBox(of: boxColor, tolerance: 3) != nil
    }
    try desk.input.click(x: 640 - 150, y: 360 - 100)
    // The click has been handled (the virtual pointer's roundtrip); a roundtrip on
    // the surface below delivers anything the compositor sent it.
    try below.display.roundtrip()
    #expect(!below.pointerEvents.contains(.button(code: 0x110, pressed: true)))
    #expect(
      try desk.sway.screenshot().boundingBox(of: boxColor, tolerance: 3) != nil,
      "a click without --dismiss tap does not end a modal toast")
    command.terminate()
  }

  @Test func aModalTapAnywhereDismisses() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run([
      "--wait", "--no-animation", "--timeout", "0", "--modal", "--dismiss", "tap", "Anywhere",
    ])
    try desk.waitUntilDrawn()
    try desk.input.click(x: 50, y: 50)
    #expect(command.wait(timeout: 5) == 2)
  }

  @Test func onAScaleTwoOutputTheHUDIsDrawnAtFullResolution() throws {
    let desk = try Desk<HeadlessSway>()
    try desk.sway.swaymsg(["output", "HEADLESS-1", "scale", "2"])
    let command = try desk.run(["--no-animation", "--timeout", "0", "Crisp"])
    // The output is 640x360 logical: the 160x120 box is 320x240 pixels, centred.
    let box = Box(x: 480, y: 240, width: 320, height: 240)
    let shot = try desk.screenshot("the HUD box at \(box), twice the size") {
      $0.boundingBox(of: hudColor, tolerance: 3) == box
    }
    command.terminate()
    // The pixels are the scale-2 rendering itself, not an enlarged scale-1 one.
    let reference = composited(
      Toast("Crisp"), over: HeadlessSway.background, outputWidth: 640, outputHeight: 360,
      scale: 2)
    let layout = ToastLayout(toast: Toast("Crisp"), outputWidth: 640, outputHeight: 360)
    let origin = (x: box.x - Int(layout.box.x) * 2, y: box.y - Int(layout.box.y) * 2)
    let mismatches = shot.mismatches(in: box, from: reference.blend, origin: origin)
    #expect(mismatches < box.width * box.height / 100, "\(mismatches) pixels differ")
  }

  @Test func aScaleChangeWhileShowingRedrawsAtTheNewScale() throws {
    let desk = try Desk<HeadlessSway>()
    let command = try desk.run(["--no-animation", "--timeout", "0", "Crisp"])
    let before = Looks.hudBox(Toast("Crisp"))
    try desk.screenshot("the HUD box at \(before)") {
      $0.boundingBox(of: hudColor, tolerance: 3) == before
    }
    command.terminate()
    // The output becomes HiDPI under the toast: no new surface, no output entered.
    try desk.sway.swaymsg(["output", "HEADLESS-1", "scale", "2"])
    let box = Box(x: 480, y: 240, width: 320, height: 240)
    let reference = composited(
      Toast("Crisp"), over: HeadlessSway.background, outputWidth: 640, outputHeight: 360,
      scale: 2)
    let layout = ToastLayout(toast: Toast("Crisp"), outputWidth: 640, outputHeight: 360)
    let origin = (x: box.x - Int(layout.box.x) * 2, y: box.y - Int(layout.box.y) * 2)
    // Drawn at scale 2, not scaled up from a scale-1 buffer.
    var mismatches = 0
    try desk.screenshot("the HUD redrawn at scale 2 (last: \(mismatches) pixels differ)") {
      mismatches = $0.mismatches(in: box, from: reference.blend, origin: origin)
      return mismatches < box.width * box.height / 100
    }
  }
}
