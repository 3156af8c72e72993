import Testing
import ToastModel
import ToastRendering

struct EasingTests {
  @Test(arguments: [Easing.linear, .easeOut, .easeInOut])
  func curvesRunFromZeroToOneAndClamp(_ easing: Easing) {
    #expect(easing(0) == 0)
    #expect(easing(1) == 1)
    #expect(easing(-3) == 0)
    #expect(easing(7) == 1)
    #expect(easing(.nan) == 1)
    var previous = 0.0
    for step in 1...100 {
      let value = easing(Double(step) / 100)
      #expect(value >= previous, "monotonic at \(step)")
      previous = value
    }
  }

  @Test func shapes() {
    #expect(Easing.linear(0.25) == 0.25)
    #expect(Easing.easeOut(0.5) == 0.875)
    #expect(Easing.easeInOut(0.5) == 0.5)
    #expect(Easing.easeInOut(0.25) == 0.0625)
    #expect(Easing.easeOut(0.25) > 0.25, "fast start")
  }
}

struct TimelineTests {
  @Test func hudFadesInAndOutInAQuarterSecond() {
    var timeline = Timeline(style: .hud, animated: true, shownAt: 10)
    #expect(timeline.appearance(at: 10).opacity == 0)
    #expect(timeline.appearance(at: 10.125).opacity == 0.5)
    #expect(timeline.appearance(at: 10.25) == Appearance(opacity: 1, slide: 1, spinnerPhase: 0.25))
    #expect(timeline.isMoving(at: 10.2))
    #expect(!timeline.isMoving(at: 10.3))
    #expect(timeline.restingAt == 10.25)
    timeline.beginExit(at: 12)
    #expect(timeline.isMoving(at: 12.1))
    #expect(timeline.appearance(at: 12.125).opacity == 0.5)
    #expect(timeline.finishedAt == 12.25)
    #expect(timeline.isFinished(at: 12.25))
    #expect(!timeline.isFinished(at: 12.2))
  }

  @Test func theBannerSlidesDownOverPointEightSecondsAndFadesOutInPointThree() {
    var timeline = Timeline(style: .banner, animated: true, shownAt: 0)
    #expect(timeline.appearance(at: 0).slide == 0)
    #expect(timeline.appearance(at: 0.4).slide == 0.875)
    #expect(timeline.appearance(at: 0.8).slide == 1)
    #expect(timeline.entryDuration == 0.8)
    timeline.beginExit(at: 1.3)
    #expect(timeline.exitDuration == 0.3)
    #expect(timeline.appearance(at: 1.6).opacity == 0)
    #expect(timeline.appearance(at: 1.45).slide == 1, "it fades out in place")
  }

  @Test func aCardFadesInFromAVisibleOpacityAndOutToNothing() {
    var timeline = Timeline(style: .card, animated: true, shownAt: 0)
    #expect(timeline.appearance(at: 0).opacity == Design.Card.fadeInFrom)
    #expect(Design.Card.fadeInFrom > 0)
    let halfway = 0.5 * Design.Card.fadeInFrom + 0.5
    #expect(abs(timeline.appearance(at: 0.1).opacity - halfway) < 1e-12)
    #expect(timeline.appearance(at: 0.2).opacity == 1)
    timeline.beginExit(at: 0.1)
    let start = timeline.appearance(at: 0.1).opacity
    #expect(abs(start - halfway) < 1e-12, "the exit starts where the entry was")
    #expect(timeline.appearance(at: 0.3).opacity == 0)
    #expect(Timeline(style: .card, animated: false, shownAt: 0).appearance(at: 0).opacity == 1)
  }

  @Test func anExitDuringTheEntryFadesFromWhereItWas() {
    var timeline = Timeline(style: .hud, animated: true, shownAt: 0)
    timeline.beginExit(at: 0.125)
    #expect(timeline.appearance(at: 0.125).opacity == 0.5)
    #expect(timeline.appearance(at: 0.25).opacity == 0.25)
    timeline.beginExit(at: 5)
    #expect(timeline.exitStartedAt == 0.125, "the first exit stands")
  }

  @Test func withoutAnimationEverythingIsInstant() {
    var timeline = Timeline(style: .banner, animated: false, shownAt: 3)
    #expect(timeline.appearance(at: 3) == Appearance(opacity: 1, slide: 1, spinnerPhase: 0))
    #expect(!timeline.isMoving(at: 3))
    timeline.beginExit(at: 4)
    #expect(timeline.isFinished(at: 4))
  }

  @Test func theSpinnerTurnsOncePerSecond() {
    let timeline = Timeline(style: .hud, animated: true, shownAt: 100)
    #expect(timeline.appearance(at: 100.25).spinnerPhase == 0.25)
    #expect(timeline.appearance(at: 103.5).spinnerPhase == 0.5)
  }
}

/// `--timeout auto`: the time grows with the message.
struct AutomaticTimeoutTests {
  @Test func theTimeGrowsWithTheMessageBetweenItsBounds() {
    var toast = Toast("OK", timeout: .automatic)
    #expect(toast.effectiveTimeout == .milliseconds(1500), "short: the floor")
    toast.text = String(repeating: "x", count: 50)
    #expect(toast.effectiveTimeout == .milliseconds(3500), "0.5 s + 50 × 0.06 s")
    toast.text = String(repeating: "x", count: 1000)
    #expect(toast.effectiveTimeout == .seconds(10), "long: the ceiling")
    toast.timeout = 1
    #expect(toast.effectiveTimeout == .seconds(1))
    toast.timeout = .standard
    #expect(toast.effectiveTimeout == .seconds(2), "a HUD's own")
    toast.timeout = .untilDismissed
    #expect(toast.effectiveTimeout == .zero)
  }

  @Test func buttonsWaitForTheirAnswerAndTakeTheKeyboardOnDemand() {
    var asking = Toast("Hi")
    asking.buttons = ["OK"]
    #expect(asking.effectiveTimeout == .zero, "with buttons: until answered")
    #expect(asking.effectiveKeyboard == .onDemand)
    asking.timeout = 3
    #expect(asking.effectiveTimeout == .seconds(3))
    #expect(Toast("Hi").effectiveKeyboard == .never)
    var modal = Toast("Hi")
    modal.isModal = true
    #expect(modal.effectiveKeyboard == .exclusive)
  }

  @Test func markupTagsDoNotCount() {
    var toast = Toast("<b>" + String(repeating: "x", count: 50) + "</b>")
    toast.isMarkup = true
    toast.timeout = .automatic
    #expect(toast.effectiveTimeout == .milliseconds(3500))
  }
}
