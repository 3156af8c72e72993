import SystemSupport
import ToastModel

/// Easing curves: progress in, eased progress out, both from 0 to 1.
public enum Easing: Sendable, Equatable {
  /// Constant speed.
  case linear
  /// Fast start, gentle stop (cubic).
  case easeOut
  /// Gentle start and stop (cubic).
  case easeInOut

  /// The eased value at `progress`, which is clamped to 0...1.
  public func callAsFunction(_ progress: Double) -> Double {
    let t = progress.isNaN ? 1 : min(max(progress, 0), 1)
    switch self {
    case .linear:
      return t
    case .easeOut:
      let u = 1 - t
      return 1 - u * u * u
    case .easeInOut:
      if t < 0.5 { return 4 * t * t * t }
      let u = -2 * t + 2
      return 1 - u * u * u / 2
    }
  }
}

/// What a toast looks like at one moment of its life.
public struct Appearance: Equatable, Sendable {
  /// Opacity of the whole toast, 0 to 1.
  public var opacity: Double
  /// How far the banner has slid in: 0 hidden above its place, 1 at rest.
  public var slide: Double
  /// The spinner's turn, 0 to 1 (one revolution per second).
  public var spinnerPhase: Double
  /// The share of the timeout that remains, 0 to 1, which the countdown
  /// line shows (``Countdown``); nil draws no line.
  public var countdown: Double?

  /// Creates an appearance.
  public init(opacity: Double, slide: Double, spinnerPhase: Double = 0, countdown: Double? = nil) {
    self.opacity = opacity
    self.slide = slide
    self.spinnerPhase = spinnerPhase
    self.countdown = countdown
  }

  /// Fully shown and at rest.
  public static let resting = Appearance(opacity: 1, slide: 1)
}

/// The timeline of one toast: entry, hold, exit.
///
/// Times are seconds on any monotonic clock; the timeline only compares them.
public struct Timeline: Equatable, Sendable {
  /// Entry duration (fade in, and for a banner the slide down).
  public let entryDuration: Double
  /// Exit duration (fade out).
  public let exitDuration: Double
  /// When the entry started.
  public private(set) var shownAt: Double
  /// When the exit started, once it has.
  public private(set) var exitStartedAt: Double?
  private let slides: Bool
  /// The opacity the entry starts from (0 but for a card).
  private let entryOpacity: Double

  /// The timeline of a toast of `style` shown at `time`; `animated` false makes
  /// every transition instant.
  public init(style: Toast.Style, animated: Bool, shownAt time: Double) {
    switch (style, animated) {
    case (_, false):
      entryDuration = 0
      exitDuration = 0
    case (.hud, true):
      entryDuration = Design.HUD.fade.inSeconds
      exitDuration = Design.HUD.fade.inSeconds
    case (.card, true):
      entryDuration = Design.Card.fade.inSeconds
      exitDuration = Design.Card.fade.inSeconds
    case (.banner, true):
      entryDuration = Design.Banner.entry.inSeconds
      exitDuration = Design.Banner.exit.inSeconds
    case (.bar, true):
      entryDuration = Design.Bar.entry.inSeconds
      exitDuration = Design.Bar.exit.inSeconds
    }
    slides = (style == .banner || style == .bar) && animated
    entryOpacity = style == .card && animated ? Design.Card.fadeInFrom : 0
    shownAt = time
  }

  /// When the entry ends and the toast is at rest.
  public var restingAt: Double { shownAt + entryDuration }

  /// Starts the exit at `time`, from wherever the entry has got to; a second call
  /// keeps the first exit.
  public mutating func beginExit(at time: Double) {
    guard exitStartedAt == nil else { return }
    exitStartedAt = time
  }

  /// When the exit ends and the toast is gone; nil while no exit has begun.
  public var finishedAt: Double? {
    exitStartedAt.map { $0 + exitDuration }
  }

  /// Whether the toast is gone at `time`.
  public func isFinished(at time: Double) -> Bool {
    finishedAt.map { time >= $0 } ?? false
  }

  /// Whether anything moves at `time` (entry or exit under way).
  public func isMoving(at time: Double) -> Bool {
    if let exit = exitStartedAt { return time < exit + exitDuration }
    return time < restingAt
  }

  /// The appearance at `time`.
  public func appearance(at time: Double) -> Appearance {
    let entry = entryDuration > 0 ? (time - shownAt) / entryDuration : 1
    var opacity = entered(entry)
    let slide = slides ? Easing.easeOut(entry) : 1
    if let exit = exitStartedAt {
      let progress = exitDuration > 0 ? (time - exit) / exitDuration : 1
      // Fade out from the opacity reached when the exit began.
      let start = entered(entryDuration > 0 ? (exit - shownAt) / entryDuration : 1)
      opacity = start * (1 - Easing.easeInOut(progress))
    }
    let turns = (time - shownAt) / Design.HUD.spinnerTurn.inSeconds
    return Appearance(
      opacity: opacity, slide: slide, spinnerPhase: turns - turns.rounded(.down))
  }

  /// The opacity `progress` (0 to 1) into the entry: from ``entryOpacity`` to 1.
  private func entered(_ progress: Double) -> Double {
    entryOpacity + (1 - entryOpacity) * Easing.easeInOut(progress)
  }
}
