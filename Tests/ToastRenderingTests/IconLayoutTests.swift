import Testing
import ToastModel
import ToastRendering

/// Where the icon goes: above everything in a HUD, left of the text in a banner.
struct IconLayoutTests {
  static func layout(_ toast: Toast, width: Int = 1280) -> ToastLayout {
    ToastLayout(toast: toast, outputWidth: width, outputHeight: 720)
  }

  static func withIcon(_ toast: Toast) -> Toast {
    var toast = toast
    toast.icon = "audio-volume-high-symbolic"
    return toast
  }

  @Test func withoutAnIconNothingMoves() {
    for toast in [
      Toast("Volume"), Toast("Copying", showsSpinner: true, progress: 0.5),
      Toast("Saved to ~/Documents", style: .banner), Toast("Up", style: .banner, progress: 0.2),
    ] {
      #expect(Self.layout(toast).icon == nil)
    }
  }

  @Test func theHUDsIconSitsAboveTheTextAndKeepsTheDesignSize() throws {
    let layout = Self.layout(Self.withIcon(Toast("Volume", progress: 0.4)))
    let icon = try #require(layout.icon)
    let bar = try #require(layout.progressBar)
    #expect(icon.width == Design.HUD.iconSize && icon.height == 48)
    // Icon, text and bar fit the design's 160x120, centred as one stack.
    #expect(layout.box.width == 160 && layout.box.height == 120)
    #expect(icon.midX == layout.box.midX)
    #expect(icon.y + icon.height + Design.HUD.padding == layout.textOrigin.y)
    #expect(layout.textOrigin.y + layout.text.height + Design.HUD.padding == bar.y)
    let above = icon.y - layout.box.y
    let below = layout.box.y + layout.box.height - (bar.y + bar.height)
    #expect(abs(above - below) <= 1, "above \(above), below \(below)")
    // Whole logical pixels, so that the icon's edges fall on device pixels.
    #expect(icon.x == icon.x.rounded() && icon.y == icon.y.rounded())
  }

  @Test func withASpinnerTheIconComesFirstThenTheSpinnerThenTheText() throws {
    let toast = Self.withIcon(Toast("Recording", showsSpinner: true, progress: 0.1))
    let layout = Self.layout(toast)
    let icon = try #require(layout.icon)
    let spinner = try #require(layout.spinner)
    #expect(icon.y + icon.height + Design.HUD.padding == spinner.y)
    #expect(spinner.y + spinner.height + Design.HUD.padding == layout.textOrigin.y)
    #expect(icon.midX == spinner.midX)
    // 48 + 37 + text + bar, their gaps and the padding outgrow 120: the box
    // grows to hold them (to an even height).
    let content = 48 + 37 + layout.text.height + 6 + 3 * Design.HUD.padding
    #expect(layout.box.height == ((content + 2 * Design.HUD.padding) / 2).rounded(.up) * 2)
    #expect(layout.box.contains(x: icon.x, y: icon.y))
  }

  @Test func anIconAloneMakesAHUDOfTheDesignSize() throws {
    let layout = Self.layout(Self.withIcon(Toast("")))
    let icon = try #require(layout.icon)
    #expect(layout.box.width == 160 && layout.box.height == 120)
    #expect(icon.midX == layout.box.midX && abs(icon.midY - layout.box.midY) <= 1)
  }

  @Test func aLongHUDWithAnIconStillEndsInThreeLinesInsideTheOutput() throws {
    let toast = Self.withIcon(Toast(String(repeating: "word ", count: 200)))
    let layout = Self.layout(toast)
    #expect(layout.text.lineCount == 3)
    #expect(layout.box.width == 512)
    let icon = try #require(layout.icon)
    #expect(icon.y + icon.height <= layout.textOrigin.y)
    // On an output too short for it all, the text shrinks; the icon keeps its size.
    var huge = toast
    huge.font = "Sans 200"
    let short = ToastLayout(toast: huge, outputWidth: 1280, outputHeight: 200)
    #expect(short.surfaceHeight <= 200)
    #expect(short.icon?.height == 48)
    #expect(short.textScale < 1)
  }

  @Test func theBannersPillWidensByTheIconAndItsGap() throws {
    for text in ["Hi", "Your files were copied to the backup disk"] {
      let plain = Self.layout(Toast(text, style: .banner))
      let layout = Self.layout(Self.withIcon(Toast(text, style: .banner)))
      let icon = try #require(layout.icon)
      #expect(icon.width == Design.Banner.iconSize && icon.height == 24)
      #expect(layout.box.width == plain.box.width + 24 + Design.Banner.iconGap, "\(text)")
      #expect(layout.box.height == plain.box.height && layout.box.y == plain.box.y)
      // The icon sits left of the text, the gap between them, the two centred as one.
      let textLeft = layout.textOrigin.x + (layout.text.wrapWidth - layout.text.width) / 2
      #expect(abs(icon.x + icon.width + Design.Banner.iconGap - textLeft) <= 1, "\(text)")
      let textRight = textLeft + layout.text.width
      let left = icon.x - layout.box.x
      let right = layout.box.x + layout.box.width - textRight
      #expect(abs(left - right) <= 1, "\(text): \(left) left, \(right) right")
      #expect(icon.midY == layout.box.midY)
      #expect(layout.textOrigin.y == plain.textOrigin.y)
    }
  }

  @Test func aBannersIconRisesWithTheTextAboveItsBar() throws {
    let layout = Self.layout(Self.withIcon(Toast("Up", style: .banner, progress: 0.2)))
    let icon = try #require(layout.icon)
    let bar = try #require(layout.progressBar)
    #expect(icon.y + icon.height <= bar.y)
    #expect(icon.midY == layout.box.midY - 3)
  }

  @Test func aLongBannerWithAnIconIsCutAtTheOutputsWidth() throws {
    let toast = Self.withIcon(Toast(String(repeating: "wide ", count: 400), style: .banner))
    let layout = Self.layout(toast, width: 800)
    let icon = try #require(layout.icon)
    #expect(layout.box.width == 800 - 2 * 16)
    #expect(layout.text.isEllipsized)
    #expect(icon.x >= layout.box.x + Design.Banner.padding)
    let textRight = layout.textOrigin.x + (layout.text.wrapWidth + layout.text.width) / 2
    #expect(textRight <= layout.box.x + layout.box.width - Design.Banner.padding + 1)
  }

  @Test func theIconTakesPartInDrawsLike() {
    let plain = Self.layout(Toast("Same"))
    let icon = Self.layout(Self.withIcon(Toast("Same")))
    #expect(!plain.drawsLike(icon))
    #expect(icon.drawsLike(Self.layout(Self.withIcon(Toast("Same")))))
  }
}
