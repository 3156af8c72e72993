import Testing
import ToastModel

@testable import ToastAccessibility

/// What a screen reader says for a toast.
struct SpokenTextTests {
  static func spoken(
    _ text: String, markup: Bool = false, progress: Double? = nil, say: String? = nil
  )
    -> String
  {
    var toast = Toast(text, progress: progress)
    toast.isMarkup = markup
    toast.accessibleText = say
    return toast.spokenText
  }

  @Test func theTextAsWritten() {
    #expect(Self.spoken("Saved") == "Saved")
    #expect(Self.spoken("Two\nlines,   spaced ") == "Two lines, spaced", "one line for speech")
    #expect(Self.spoken("<b>not markup</b>") == "<b>not markup</b>")
  }

  @Test func markupIsReadAsPangoDrawsIt() {
    #expect(Self.spoken("<b>Saved</b> &amp; <i>sent</i>", markup: true) == "Saved & sent")
    #expect(Self.spoken("&#x1F50A; loud", markup: true) == "🔊 loud")
    #expect(Self.spoken("<b>broken", markup: true) == "<b>broken", "drawn literally, said so")
  }

  @Test func progressIsSpokenAsAPercentage() {
    #expect(Self.spoken("Volume", progress: 0.4) == "Volume, 40 percent")
    #expect(Self.spoken("", progress: 1.3) == "130 percent")
    #expect(Self.spoken("Volume", progress: 0.004) == "Volume, 0 percent")
    // Text that shows the value already says it.
    #expect(Self.spoken("Volume 40%", progress: 0.4) == "Volume 40%")
    #expect(Self.spoken("Volume 40 %", progress: 0.4) == "Volume 40 %")
    #expect(Self.spoken("Volume 140%", progress: 0.4) == "Volume 140%, 40 percent")
    #expect(Self.spoken("Volume 4.40%", progress: 0.4) == "Volume 4.40%, 40 percent")
  }

  @Test func theAccessibleTextReplacesTheMessage() {
    #expect(Self.spoken("🔇", say: "Volume muted") == "Volume muted")
    #expect(Self.spoken("🔊", progress: 0.4, say: "Volume") == "Volume, 40 percent")
    #expect(Self.spoken("<b>x</b>", markup: true, say: "<b>y</b>") == "<b>y</b>", "not markup")
  }

  @Test func aBlankAccessibleTextIsNone() {
    var toast = Toast("Shown")
    toast.accessibleText = "  "
    #expect(toast.normalized().accessibleText == nil)
    #expect(toast.normalized().spokenText == "Shown")
  }
}
