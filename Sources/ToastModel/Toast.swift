/// What a toast shows and how it behaves: a value you build and hand to a
/// `ToastPresenter` (ToastKit).
///
/// ```swift
/// var toast = Toast("Saved")
/// toast.timeout = 1.5
/// presenter.show(toast)
/// ```
public struct Toast: Equatable, Sendable {
  /// The two designs a toast can take.
  public enum Style: String, Equatable, Sendable, CaseIterable {
    /// A dark box centred on the output (the default).
    case hud
    /// A pill that slides down from the top edge, under any bar.
    case banner
    /// A full-width bar at the top or bottom edge (``Toast/position`` `.top`
    /// or `.bottom`), its message at the left and its buttons at the right,
    /// with an optional ``Toast/details`` area below: swaynag's bar.
    case bar
    /// A notification's card: a box of a fixed width at the top right, its
    /// icon or ``Toast/image`` at the left, the text beside it (a few lines,
    /// then an ellipsis), the progress bar under the text and the buttons in
    /// a row under everything. Cards stack newest first. A card takes clicks
    /// and taps whatever ``Toast/dismissal`` says: a left click or a tap on
    /// its body ends it as ``ToastOutcome/activated``, a right click as
    /// ``ToastOutcome/dismissed``.
    case card
  }

  /// How the toast treats pointer, touch and keyboard input.
  public enum Dismissal: String, Equatable, Sendable, CaseIterable {
    /// Input passes through to the windows below; only the timeout or the
    /// program ends the toast (a card takes clicks and taps all the same).
    case none
    /// A click or touch on the toast (or Escape while it has keyboard focus) dismisses it.
    case tap
  }

  /// An RGBA colour with components from 0 to 1.
  public struct Color: Equatable, Sendable {
    /// Red.
    public var red: Double
    /// Green.
    public var green: Double
    /// Blue.
    public var blue: Double
    /// Opacity.
    public var alpha: Double

    /// Creates a colour from components from 0 to 1.
    public init(red: Double, green: Double, blue: Double, alpha: Double = 1) {
      self.red = red
      self.green = green
      self.blue = blue
      self.alpha = alpha
    }

    /// A grey of the given lightness.
    public init(white: Double, alpha: Double = 1) {
      self.init(red: white, green: white, blue: white, alpha: alpha)
    }

    /// Parses `#RRGGBB` or `#RRGGBBAA` (the `#` is optional); nil when malformed.
    public init?(hex: String) {
      var digits = Substring(hex)
      if digits.first == "#" { digits = digits.dropFirst() }
      guard digits.count == 6 || digits.count == 8, digits.allSatisfy(\.isHexDigit),
        let value = UInt32(digits, radix: 16)
      else { return nil }
      self.init(rgba: digits.count == 6 ? value << 8 | 0xff : value)
    }

    /// The colour `0xRRGGBBAA`.
    public init(rgba: UInt32) {
      self.init(
        red: Double(rgba >> 24 & 0xff) / 255, green: Double(rgba >> 16 & 0xff) / 255,
        blue: Double(rgba >> 8 & 0xff) / 255, alpha: Double(rgba & 0xff) / 255)
    }
  }

  /// A displacement in logical pixels: positive x moves right, positive y down.
  public struct Offset: Equatable, Sendable {
    /// Horizontal displacement.
    public var x: Int
    /// Vertical displacement.
    public var y: Int

    /// Creates an offset.
    public init(x: Int, y: Int) {
      self.x = x
      self.y = y
    }

    /// No displacement.
    public static let zero = Offset(x: 0, y: 0)
  }

  /// The message. Literal text unless ``isMarkup`` is set.
  public var text: String
  /// Whether ``text`` is Pango markup (`<b>bold</b>`); the presenter refuses
  /// a toast whose markup is not valid.
  public var isMarkup: Bool = false
  /// The design.
  public var style: Style
  /// How long the toast stays once its entry animation has ended.
  public var timeout: Timeout
  /// Whether an activity indicator turns above the text (HUD only).
  public var showsSpinner: Bool
  /// A progress bar under the text, from 0 to 1, or up to 2 for more than
  /// full (the part beyond 1 is drawn in a second colour); nil for none.
  public var progress: Double?
  /// Where the HUD sits relative to the centre of the output.
  public var offset: Offset
  /// How the toast treats input.
  public var dismissal: Dismissal
  /// Whether the toast covers the whole output and takes all input while shown.
  public var isModal: Bool = false
  /// Whether a modal toast darkens the screen behind it.
  public var dimsBackground: Bool = false
  /// Whether the toast fades and slides; false shows and hides it at once.
  public var isAnimated: Bool = true
  /// Whether a thin line along the box's bottom edge shrinks as the timeout
  /// runs (and stops while it is paused); nothing shows without a timeout.
  public var showsCountdown: Bool = false
  /// A Pango font description such as `"Sans Bold 15"`; nil for the style's font.
  public var font: String? = nil
  /// The box colour; nil for the style's colour.
  public var background: Color? = nil
  /// The text colour; nil for white.
  public var foreground: Color? = nil
  /// Where on its output the toast rests; nil for the style's place (the
  /// centre for a HUD, the top for a banner and a bar, the top right for a
  /// card).
  public var position: Position? = nil
  /// The distance in logical pixels between the toast and the output's edges
  /// it rests against; nil for the default (10). The centre ignores it.
  public var margin: Int? = nil
  /// Which outputs show the toast.
  public var output: OutputChoice = .automatic
  /// The layer-shell layer the toast is drawn in.
  public var layer: Layer = .overlay
  /// An icon: a freedesktop icon name (`audio-volume-high-symbolic`), looked
  /// up in ``iconTheme`` and its parents, or the path of a PNG, JPEG or SVG file.
  public var icon: String? = nil
  /// An image given as pixels (a notification's `image-data`), drawn in the
  /// icon's place, before ``icon``.
  public var image: Image? = nil
  /// The icon theme to look names up in first (`Adwaita`); nil for `hicolor` only.
  public var iconTheme: String? = nil
  /// Seconds the toast waits before it appears; hidden before then, it never
  /// does (a quick job flashes nothing). Nil or 0: at once.
  public var grace: Double? = nil
  /// Seconds the toast stays at least once it appears, even when hidden
  /// earlier, so that it never flickers. Nil or 0: no minimum.
  public var minimumShow: Double? = nil
  /// What screen readers say for the toast when it differs from what is drawn
  /// (an icon-only toast, an emoji, a symbol); the progress is still added
  /// ("TEXT, 40 percent"). Nil: the text, its markup stripped.
  public var accessibleText: String? = nil
  /// Whether screen readers hear the toast.
  public var accessibility: Accessibility = .automatic
  /// The buttons, in order: labels of 1 to ``Limits/buttonLabelLength``
  /// characters, at most ``Limits/buttonCount``. A toast with buttons stays
  /// until one is chosen (``ToastOutcome/chose(button:)``) or it is
  /// dismissed, unless its timeout says otherwise; Tab moves between them.
  public var buttons: [String] = []
  /// The label of a card's default action (``Style/card``), which a left
  /// click or tap on its body chooses (``ToastOutcome/activated``): screen
  /// readers find it as the card's action `activate`, described so. Nil
  /// when the card has none (a click on it then only ends it). A label as
  /// a button's.
  public var defaultActionLabel: String? = nil
  /// How the toast takes the keyboard; nil for its own rule: exclusive when
  /// modal, on demand with buttons or `--dismiss tap`, not at all otherwise.
  public var keyboard: Keyboard? = nil
  /// A bar's longer text (``Style/bar`` only): hidden at first, shown below
  /// the message by a last button (``detailsButton``) and scrolled when
  /// longer than the output allows; nil for none.
  public var details: String? = nil
  /// The label of the button that shows and hides ``details``; nil for
  /// "Toggle details".
  public var detailsButton: String? = nil
  /// The colours and sizes of a bar (``Style/bar``).
  public var bar: BarLook = .standard
  /// How urgent the toast is: do-not-disturb (``DoNotDisturb``) holds back
  /// low and normal toasts, and a critical one shows whatever the
  /// ``fullscreen`` policy says.
  public var urgency: Urgency = .normal
  /// What the toast does while a fullscreen window covers its output.
  public var fullscreen: FullscreenPolicy = .show
  /// What the toast does while do-not-disturb is on (``DoNotDisturb``).
  public var doNotDisturb: DoNotDisturbPolicy = .suppress
  /// Seconds without input on the seat after which the timeout pauses
  /// until input comes back, when it starts again from its full length;
  /// 0 never pauses; nil: ``standardIdleThreshold``. A critical toast's
  /// timeout never pauses for it. Only where the compositor tells when the
  /// user is idle (`ext_idle_notifier_v1` or `org_kde_kwin_idle`).
  public var idleThreshold: Double? = nil

  /// The idle threshold of a toast that names none: 120 seconds, the
  /// `idle_threshold` of the configuration dunst ships.
  public static let standardIdleThreshold: Double = 120
  /// A sound played once the toast is on screen, after its first frame:
  /// an event sound of the freedesktop sound theme by name
  /// (`message-new-instant`, `audio-volume-change`, `dialog-warning`) or the
  /// path of a sound file (it holds a slash), through the user's sound server
  /// (libcanberra, opened when the first sound is played). Nil for none.
  /// Do-not-disturb silences it as it holds the toast back: a toast that
  /// does not show makes no sound; a critical one does.
  public var sound: String? = nil
  /// Whether an update in place (`ToastPresenter`'s `showOrUpdate` and
  /// `update`) plays ``sound`` again; otherwise only a new toast does.
  public var soundOnUpdate: Bool = false

  /// Creates a toast with a message and the defaults of every other setting.
  public init(
    _ text: String, style: Style = .hud, timeout: Timeout = .standard, showsSpinner: Bool = false,
    progress: Double? = nil, offset: Offset = .zero, dismissal: Dismissal = .none
  ) {
    self.text = text
    self.style = style
    self.timeout = timeout
    self.showsSpinner = showsSpinner
    self.progress = progress
    self.offset = offset
    self.dismissal = dismissal
  }
}

extension Toast {
  /// wl-toast's version: the command's `--version` and the toolkit version
  /// screen readers see.
  public static let version = "0.1.0"

  /// Where on its output a toast rests.
  public enum Position: String, Equatable, Sendable, CaseIterable {
    /// The middle of the output.
    case center
    /// The middle of the top edge.
    case top
    /// The middle of the bottom edge.
    case bottom
    /// The middle of the left edge.
    case left
    /// The middle of the right edge.
    case right
    /// The top-left corner.
    case topLeft = "top-left"
    /// The top-right corner.
    case topRight = "top-right"
    /// The bottom-left corner.
    case bottomLeft = "bottom-left"
    /// The bottom-right corner.
    case bottomRight = "bottom-right"
  }

  /// Which outputs (screens) show a toast.
  public enum OutputChoice: Equatable, Sendable {
    /// The one the compositor chooses (sway: the focused output); when it goes
    /// away, the toast moves to another.
    case automatic
    /// The output with this name (such as `DP-1` or `HEADLESS-2`); when it goes
    /// away, the toast ends.
    case named(String)
    /// Every output, each at its own scale, including outputs added while the
    /// toast shows.
    case all

    /// The choice as the command line writes it: a name, `all`, or nil for automatic.
    public var name: String? {
      switch self {
      case .automatic: nil
      case .named(let name): name
      case .all: "all"
      }
    }

    /// The choice a command-line word stands for: `all` or an output's name.
    public init(name: String) {
      self = name == "all" ? .all : .named(name)
    }
  }

  /// Whether screen readers (through AT-SPI) hear a toast.
  public enum Accessibility: String, Equatable, Sendable, CaseIterable {
    /// When a screen reader says it is running (`org.a11y.Status`), the default.
    case automatic = "auto"
    /// Whenever an accessibility bus runs, even when no screen reader says it
    /// is on (for assistive programs that do not set the flags).
    case on
    /// Never: the toast stays out of the accessible tree.
    case off
  }

  /// How a toast takes keyboard focus (layer-shell's keyboard interactivity).
  public enum Keyboard: String, Equatable, Sendable, CaseIterable {
    /// All keys go to the toast while it shows.
    case exclusive
    /// The toast has keys once the user clicks or touches it (or the
    /// compositor gives it focus); typing elsewhere is never taken. Where the
    /// compositor's layer-shell is older than version 4 (KWin 5.27), which
    /// has no on-demand focus, it does not take the keyboard at all.
    case onDemand = "on-demand"
    /// Never: pointer and touch only (`none` on the command line; not `.none`,
    /// which an optional `keyboard` would read as "the toast's own rule").
    case never = "none"
  }

  /// How urgent a toast is.
  public enum Urgency: String, Equatable, Sendable, CaseIterable {
    /// Held back by do-not-disturb, like a normal one.
    case low
    /// Held back by do-not-disturb (the default).
    case normal
    /// Shown even with do-not-disturb on and over fullscreen windows;
    /// screen readers hear it at once (an assertive announcement).
    case critical
  }

  /// What a toast does while a fullscreen window (a film, a game, a
  /// presentation) covers its output. Where the compositor does not tell
  /// clients about fullscreen windows (no `zwlr_foreign_toplevel_manager_v1`,
  /// as in KWin), every toast shows.
  public enum FullscreenPolicy: String, Equatable, Sendable, CaseIterable {
    /// Shows over it (the default).
    case show
    /// Waits until fullscreen ends, its timeout starting when it appears.
    case delay
    /// Does not show: it ends as ``ToastOutcome/suppressed``.
    case suppress
  }

  /// What a toast does while do-not-disturb is on (``DoNotDisturb``). A
  /// critical toast shows whatever this says.
  public enum DoNotDisturbPolicy: String, Equatable, Sendable, CaseIterable {
    /// Held back: it ends as ``ToastOutcome/suppressed`` (the default).
    case suppress
    /// Shown all the same: for what answers the user's own action, such as
    /// the mode banners of `wl-toast watch`.
    case show
  }

  /// The layer-shell layer a toast is drawn in.
  public enum Layer: String, Equatable, Sendable, CaseIterable {
    /// Above everything, fullscreen windows included (the default).
    case overlay
    /// Above windows, below fullscreen windows and overlays.
    case top
    /// Below windows, above the desktop's background (swaynag's `--layer bottom`).
    case bottom
    /// The desktop's background layer.
    case background
  }
}

extension Toast {
  /// How long a toast stays once its entry animation has ended.
  ///
  /// A number is a time in seconds, 0 meaning until dismissed:
  /// `toast.timeout = 1.5`, `Toast("Busy", timeout: 0)`.
  public enum Timeout: Equatable, Sendable, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral
  {
    /// The style's own: 2 s for a HUD, 0.5 s for a banner, 10 s for a card.
    case standard
    /// A time (at most ``Limits/timeout`` seconds).
    case after(Duration)
    /// Until the user dismisses it or the program hides it.
    case untilDismissed
    /// By the message's length: 0.5 s plus 0.06 s a character, from 1.5 to 10 s
    /// (`--timeout auto`).
    case automatic

    /// A time in seconds: 0 (or less) until dismissed, the style's own for a
    /// number that is not one (NaN), at most ``Limits/timeout``.
    public init(seconds: Double) {
      if seconds.isNaN {
        self = .standard
      } else if seconds <= 0 {
        self = .untilDismissed
      } else {
        self = .after(
          .nanoseconds(Int64((min(seconds, Limits.timeout.upperBound) * 1e9).rounded())))
      }
    }

    /// Seconds, as a number literal writes them.
    public init(floatLiteral seconds: Double) { self.init(seconds: seconds) }

    /// Seconds, as a number literal writes them.
    public init(integerLiteral seconds: Int) { self.init(seconds: Double(seconds)) }

    /// The time in seconds as the command line and JSON write it: 0 for until
    /// dismissed; nil for the style's own and for automatic.
    public var seconds: Double? {
      switch self {
      case .standard, .automatic: nil
      case .untilDismissed: 0
      case .after(let duration):
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
      }
    }

    /// The timeout within ``Limits/timeout``: a time of zero or less is until
    /// dismissed, a longer one is cut to the limit.
    public func normalized() -> Timeout {
      guard case .after(let duration) = self else { return self }
      if duration <= .zero { return .untilDismissed }
      let limit = Duration.seconds(Int64(Limits.timeout.upperBound))
      return duration > limit ? .after(limit) : self
    }
  }
}

extension Toast {
  /// The colours and sizes of a bar, named as swaynag's options name them
  /// (`--button-background`, `--border-bottom-size`, …). Sizes are logical pixels.
  public struct BarLook: Equatable, Sendable {
    /// The bar's colour.
    public var background = Color(rgba: 0x3232_32ff)
    /// The message's and the details' colour.
    public var text = Color(white: 1)
    /// A button's fill.
    public var buttonBackground = Color(rgba: 0x3333_33ff)
    /// A button's label.
    public var buttonText = Color(white: 1)
    /// The border around each button.
    public var border = Color(rgba: 0x2222_22ff)
    /// The line along the bar's inner edge.
    public var borderBottom = Color(rgba: 0x4444_44ff)
    /// The details area's colour.
    public var detailsBackground = Color(rgba: 0x3333_33ff)
    /// The thickness of the line along the bar's inner edge.
    public var borderBottomSize = 2
    /// The room around the message.
    public var messagePadding = 8
    /// The room around the details area.
    public var detailsBorderSize = 3
    /// The thickness of a button's border.
    public var buttonBorderSize = 3
    /// The gap between buttons.
    public var buttonGap = 20
    /// The extra gap after the first button (swaynag's dismiss button).
    public var buttonDismissGap = 0
    /// The room between the first button and the bar's right end.
    public var buttonMarginRight = 2
    /// The room around a button's label.
    public var buttonPadding = 3

    /// swaynag's own defaults, but for the dismiss gap (no dismiss button of its own).
    public static let standard = BarLook()

    /// Creates the standard look.
    public init() {}
  }
}

/// How a toast ended.
public enum ToastOutcome: Equatable, Sendable {
  /// Its timeout ran out.
  case expired
  /// The program hid it (a hide call or command, a signal, or the compositor closed it).
  case hidden
  /// The user dismissed it with a click, a tap or Escape (on a card
  /// (``Toast/Style/card``), a right click).
  case dismissed
  /// The user clicked or tapped the body of a card (``Toast/Style/card``),
  /// outside its buttons: its default action.
  case activated
  /// A newer toast took its place.
  case replaced
  /// The user chose the button at this index of ``Toast/buttons``.
  case chose(button: Int)
  /// It never showed: do-not-disturb was on (``DoNotDisturb``) or a
  /// fullscreen window covered its output (``Toast/FullscreenPolicy/suppress``);
  /// or do-not-disturb was turned on while it showed.
  case suppressed

  /// The outcomes' words, as the socket and `--print-outcome` write them
  /// (a chosen button as `button`).
  public static let names = [
    expired, hidden, dismissed, activated, replaced, chose(button: 0), suppressed,
  ].map(\.name)

  /// The outcome's word: `expired`, `hidden`, `dismissed`, `activated`,
  /// `replaced`, `button` or `suppressed`.
  public var name: String {
    switch self {
    case .expired: "expired"
    case .hidden: "hidden"
    case .dismissed: "dismissed"
    case .activated: "activated"
    case .replaced: "replaced"
    case .chose: "button"
    case .suppressed: "suppressed"
    }
  }

  /// The outcome of a word and, for `button`, the button's index; nil when
  /// they name none.
  public init?(name: String, button: Int? = nil) {
    switch name {
    case "expired": self = .expired
    case "hidden": self = .hidden
    case "dismissed": self = .dismissed
    case "activated": self = .activated
    case "replaced": self = .replaced
    case "suppressed": self = .suppressed
    case "button":
      guard let button, (0..<Toast.Limits.buttonCount).contains(button) else { return nil }
      self = .chose(button: button)
    default: return nil
    }
  }
}
