import Testing
import ToastKit

/// What the presenter refuses to show, asked without a compositor.
struct RefusalTests {
  static func markup(_ text: String) -> Toast {
    var toast = Toast(text)
    toast.isMarkup = true
    return toast
  }

  @Test func brokenMarkupIsRefusedWithPangosComplaint() throws {
    let refusal = try #require(ToastPresenter.refusal(of: Self.markup("<b>open")))
    guard case .invalidMarkup(let problem) = refusal else {
      Issue.record("refused for another reason: \(refusal)")
      return
    }
    #expect(!problem.isEmpty)
    #expect(refusal.description == "the message is not valid Pango markup: \(problem)")
    #expect(ToastWarning.refused(refusal).description == refusal.description)
  }

  @Test func validMarkupAndLiteralTextAreShown() {
    #expect(ToastPresenter.refusal(of: Self.markup("<b>Saved</b> &amp; sent")) == nil)
    #expect(ToastPresenter.refusal(of: Toast("<b>open")) == nil, "literal text, not markup")
  }
}
