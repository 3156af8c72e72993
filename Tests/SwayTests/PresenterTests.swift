import CompositorCases
import Glibc
import TestSupport
import Testing
import ToastKit
import ToastRendering

/// The ToastKit library on a real compositor.
@Suite(.serialized)
struct PresenterTests {

  @Test func showThenHideReportsHidden() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    #expect(!presenter.isPresenting)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    presenter.show(Toast("Library", timeout: 0))
    #expect(presenter.isPresenting)
    try waitUntil("the HUD box on screen") {
      try presenter.dispatch(timeout: .milliseconds(50))
      return try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) != nil
    }
    presenter.hide()
    #expect(try presenter.runUntilHidden() == .hidden)
    #expect(outcomes == [.hidden])
    #expect(!presenter.isPresenting)
    #expect(try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) == nil)
  }

  @Test func brokenMarkupIsRefusedAndTheToastShowingStays() throws {
    var broken = Toast("<b>open", timeout: 0)
    broken.isMarkup = true
    let refusal = try #require(ToastPresenter.refusal(of: broken))
    let desk = try Desk()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    #expect(presenter.show(broken) == [.refused(refusal)])
    #expect(!presenter.isPresenting)
    presenter.show(Toast("Kept", timeout: 0))
    #expect(presenter.show(broken) == [.refused(refusal)])
    #expect(presenter.showOrUpdate(broken) == [.refused(refusal)])
    let changed = presenter.update {
      $0.text = "<b>open"
      $0.isMarkup = true
    }
    #expect(changed == [.refused(refusal)])
    #expect(presenter.toast()?.text == "Kept" && presenter.toast()?.isMarkup == false)
    presenter.hide()
    #expect(try presenter.runUntilHidden() == .hidden)
    #expect(outcomes == [.hidden], "the kept toast was never replaced")
  }

  @Test func hideAfterADelay() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    presenter.show(Toast("Soon gone", timeout: 0))
    let start = now()
    presenter.hide(after: .milliseconds(300))
    #expect(try presenter.runUntilHidden() == .hidden)
    // 0.3 s delay then a 0.25 s fade.
    #expect(now() - start >= 0.55)
  }

  @Test func aNewToastReplacesTheOneShowing() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    var first = Toast("First", timeout: 0)
    first.offset = .init(x: -300, y: 0)
    presenter.show(first)
    try presenter.dispatch(timeout: .milliseconds(100))
    var second = Toast("Second", timeout: 0)
    second.isAnimated = false
    presenter.show(second)
    #expect(outcomes == [.replaced])
    var seen: Box?
    try waitUntil("only the second toast, centred, on screen (last seen: \(lastSeen(seen)))") {
      try presenter.dispatch(timeout: .milliseconds(50))
      seen = try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3)
      return seen?.x == 560
    }
    #expect(presenter.toast()?.text == "Second")
  }

  /// New content for a tag whose toast is leaving (its exit animation
  /// running) shows as a new toast: the leaving one's end is reported at
  /// once, as replaced, and not again when its animation ends, so that the
  /// tag's next end is the new toast's.
  @Test func contentForALeavingToastsTagShowsAndOnlyItsOwnEndIsReportedLater() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    // Each frame reported for the tag is one of the toast that has it: none
    // while the new one waits out its grace time.
    var framesOfOthers = 0
    presenter.onFrame = { tag in
      if presenter.isWaitingToAppear(tag: tag) { framesOfOthers += 1 }
    }
    presenter.show(Toast("Volume 40%", timeout: 0), tag: "volume")
    try waitUntil("the HUD box on screen") {
      try presenter.dispatch(timeout: .milliseconds(50))
      return try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) != nil
    }
    presenter.hide(tag: "volume")
    #expect(presenter.isLeaving(tag: "volume"))
    var next = Toast("Volume 50%", timeout: 0)
    next.grace = 1
    presenter.showOrUpdate(next, tag: "volume")
    #expect(outcomes == [.hidden], "the leaving toast's end as it ended, at once")
    #expect(!presenter.isLeaving(tag: "volume"))
    // Time passing is what is measured: the leaving toast's exit (0.25 s,
    // and without frame callbacks at most half a second more) ends within
    // these two seconds, and reports nothing.
    let end = now() + 2
    while now() < end { try presenter.dispatch(timeout: .milliseconds(50)) }
    #expect(outcomes == [.hidden])
    #expect(presenter.toast(tag: "volume")?.text == "Volume 50%")
    #expect(try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) != nil)
    #expect(framesOfOthers == 0, "the leaving toast's frames are not the tag's")
    presenter.hide(tag: "volume")
    #expect(try presenter.runUntilHidden() == .hidden)
    #expect(outcomes == [.hidden, .hidden])
  }

  @Test func progressUpdatesRedrawTheBar() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var toast = Toast("Volume", timeout: 0)
    toast.progress = 0.2
    toast.isAnimated = false
    presenter.show(toast)
    let layout = ToastLayout(toast: toast, outputWidth: 1280, outputHeight: 720)
    let bar = try #require(layout.progressBar)
    let left = (1280 - layout.surfaceWidth) / 2
    let top = (720 - layout.surfaceHeight) / 2
    // A point 60% along the bar: empty track at 20%, filled at 80%.
    let probe = (x: left + Int(bar.x + bar.width * 0.6), y: top + Int(bar.midY))
    func brightness() throws -> Int {
      let p = try desk.sway.pixel(x: probe.x, y: probe.y)
      return Int(p.red) + Int(p.green) + Int(p.blue)
    }
    try waitUntil("the HUD box with its bar on screen") {
      try presenter.dispatch(timeout: .milliseconds(50))
      return try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) != nil
    }
    let empty = try brightness()
    presenter.update { $0.progress = 0.8 }
    var last = empty
    try waitUntil("the bar to fill past 60% (brightness \(empty), last seen \(last))") {
      try presenter.dispatch(timeout: .milliseconds(50))
      last = try brightness()
      return last > empty + 200
    }
  }

  @Test func aStillToastSleepsAndASpinnerDrivesFrames() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var still = Toast("Still", timeout: 0)
    still.isAnimated = false
    presenter.show(still)
    try waitUntil("the still HUD box on screen") {
      try presenter.dispatch(timeout: .milliseconds(50))
      return try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3) != nil
    }
    try settle(presenter)
    // Nothing moves: in a whole second only the timer that ends the wait wakes
    // the loop (a frame clock would wake it 60 times).
    #expect(try wakeUps(of: presenter, during: .seconds(1)) <= 2)
    presenter.update { $0.showsSpinner = true }
    // The spinner turns: frame callbacks wake the loop many times a second
    // (60 at sway's pace; 10 in two seconds leaves room for a loaded machine).
    #expect(try wakeUps(of: presenter, during: .seconds(2)) >= 10)
  }

  @Test func aCardsBodyIsItsDefaultActionAndARightClickDismissesIt() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    // Without --dismiss tap: a card takes clicks all the same.
    var card = Toast("<b>Meeting</b>\nIn 5 minutes", style: .card, timeout: 0)
    card.isMarkup = true
    card.isAnimated = false
    let layout = ToastLayout(toast: card, outputWidth: 1280, outputHeight: 720)
    let (width, height) = (Int(layout.box.width), Int(layout.box.height))
    let box = Box(x: 1280 - Design.margin - width, y: Design.margin, width: width, height: height)
    let color = blend(Design.Card.background, over: HeadlessSway.desktop)
    let clicks: [(VirtualInput.Button, ToastOutcome)] = [(.right, .dismissed), (.left, .activated)]
    for (button, outcome) in clicks {
      presenter.show(card)
      try waitUntil("the card at the top right, at \(box)") {
        try presenter.dispatch(timeout: .milliseconds(50))
        return try desk.sway.screenshot().boundingBox(of: color, tolerance: 3) == box
      }
      try desk.input.click(x: box.x + 20, y: box.y + box.height - 6, button: button)
      #expect(try presenter.runUntilHidden() == outcome)
      try waitUntil("the card gone") {
        try desk.sway.screenshot().boundingBox(of: color, tolerance: 3) == nil
      }
    }
    #expect(outcomes == [.dismissed, .activated])
  }
}

/// A compositor with layer-shell version 3 (before on-demand keyboard focus).
@Suite(.serialized)
struct LayerShellVersionThreeTests {
  @Test func aTapToastStillDismissesByClickWithoutKeyboardFocus() throws {
    let desk = try Desk<HeadlessSway>()
    let presenter = try ToastPresenter(display: desk.sway.socketPath, layerShellVersion: 3)
    var outcomes: [ToastOutcome] = []
    presenter.onCompletion = { _, outcome in outcomes.append(outcome) }
    var toast = Toast("Tap on v3", timeout: 0, dismissal: .tap)
    toast.isAnimated = false
    presenter.show(toast)
    let box = Looks.hudBox(toast)
    try waitUntil("the tap toast's box at \(box)") {
      try presenter.dispatch(timeout: .milliseconds(50))
      return try desk.sway.screenshot().boundingBox(of: hudColor, tolerance: 3)
        == box
    }
    // No keyboard focus on v3: Escape does nothing…
    try desk.input.press(keysym: 0xff1b)
    try presenter.roundtrip()
    #expect(presenter.isPresenting)
    // …but a click does.
    try desk.input.click(x: box.x + 10, y: box.y + 10)
    #expect(try presenter.runUntilHidden() == .dismissed)
    #expect(outcomes == [.dismissed])
  }
}
