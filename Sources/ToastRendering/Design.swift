import SystemSupport
import ToastModel

/// The measures, colours and timings of the two designs, in one place, named
/// after the designs they come from. Lengths are logical pixels.
public enum Design {
  /// The HUD: TCMessageBox's dark box in the middle of the screen, with an
  /// optional activity indicator above its label (`showMessage:hideByTouch:
  /// withActivityIndicator:offset:` and `hideIn:`).
  public enum HUD {
    /// The smallest box (`CGRectMake(0, 0, 160, 120)`); it grows with the text.
    public static let minimumSize = (width: 160.0, height: 120.0)
    /// The padding inside the box and between its items (`PADDING 10`).
    public static let padding = 10.0
    /// The corner radius (`cornerRadius = 10`).
    public static let cornerRadius = 10.0
    /// The box colour (`colorWithWhite:0.05 alpha:0.50`).
    public static let background = Toast.Color(white: 0.05, alpha: 0.5)
    /// The shadow colour (`shadowColor colorWithWhite:0.6 alpha:0.8`).
    public static let shadowColor = Toast.Color(white: 0.6, alpha: 0.8)
    /// The shadow offset (`shadowOffset = CGSizeMake(4, 4)`).
    public static let shadowOffset = 4.0
    /// How far the shadow spreads.
    public static let shadowBlur = 3.0
    /// Room around the box for the shadow.
    public static let shadowPadding = 12.0
    /// The label's font: the design's bold 15 px face (`Marion-Bold 15`) as
    /// Pango points (11 pt is about 15 px).
    public static let font = "Sans Bold 11"
    /// At most this many lines of text, then an ellipsis (`numberOfLines = 3`).
    public static let maximumLines = 3
    /// The widest box, as a share of the output's width.
    public static let maximumWidthShare = 0.4
    /// The activity indicator's size (`UIActivityIndicatorViewStyleWhiteLarge`, 37 pt).
    public static let spinnerSize = 37.0
    /// The spokes of the activity indicator.
    public static let spinnerSpokes = 12
    /// One turn of the activity indicator.
    public static let spinnerTurn: Duration = .seconds(1)
    /// The icon's side: above the spinner and the text, the largest
    /// freedesktop size that keeps a one-line HUD with a bar at the design's
    /// 160x120.
    public static let iconSize = 48.0
    /// The progress bar's height.
    public static let progressHeight = 6.0
    /// The progress bar's width when no wider text sets it.
    public static let progressMinimumWidth = 120.0
    /// The fade in and out (`DURATION 0.25`).
    public static let fade: Duration = .milliseconds(250)
    /// How long the HUD stays by default (`hideIn:2.0`).
    public static let timeout: Duration = .seconds(2)
  }

  /// The banner: ShowMessageView's pill that slides down under the status bar,
  /// fades in, fits its width to the message and fades out.
  public enum Banner {
    /// The pill's height (`CGRectMake(0, …, 200, 40)`).
    public static let height = 40.0
    /// The corner radius: half the height, a pill.
    public static let cornerRadius = 20.0
    /// The narrowest text width (the pill adds the padding).
    public static let minimumTextWidth = 100.0
    /// The padding left and right of the text.
    public static let padding = 10.0
    /// The icon's side, left of the text: the freedesktop size that fits the
    /// pill's height with room above and below.
    public static let iconSize = 24.0
    /// The gap between the icon and the text.
    public static let iconGap = 8.0
    /// The margin kept to the output's sides.
    public static let sideMargin = 16.0
    /// The gap below the top edge (or the bar above it) at rest.
    public static let topGap = 10.0
    /// How far the pill slides down (`kNavigationAndStatusBarHeight - 40` to below the bar).
    public static let slideDistance = 50.0
    /// Room for the glow around the pill.
    public static let shadowPadding = 8.0
    /// The pill colour (`colorWithWhite:0 alpha:0.7`).
    public static let background = Toast.Color(white: 0, alpha: 0.7)
    /// The glow around the pill (`ShadowUtility`: grey 0xae at 0.2).
    public static let shadowColor = Toast.Color(
      red: 0xae / 255, green: 0xae / 255, blue: 0xae / 255, alpha: 0.2)
    /// How far the glow spreads.
    public static let shadowBlur = 4.0
    /// The message's font (`systemFontOfSize:16` as Pango points).
    public static let font = "Sans 12"
    /// The slide down and fade in.
    public static let entry: Duration = .milliseconds(800)
    /// The fade out.
    public static let exit: Duration = .milliseconds(300)
    /// How long the banner stays by default.
    public static let timeout: Duration = .milliseconds(500)
  }

  /// The card: a notification as mako and dunst show one, a box of a fixed
  /// width at the top right with the icon at the left of the text, in the
  /// HUD's family (its corners, its dark colour, made more opaque to read a
  /// body by).
  public enum Card {
    /// The box's width, unless the output is narrower: mako's and dunst's
    /// 300 pixels, and room for the icon beside the text.
    public static let width = 340.0
    /// The narrowest box, on an output narrower than ``width`` and its margins.
    public static let minimumWidth = 160.0
    /// The padding inside the box.
    public static let padding = 12.0
    /// The gap between the icon and the text, and between the text, the
    /// progress bar and the buttons.
    public static let gap = 10.0
    /// The corner radius (the HUD's).
    public static let cornerRadius = 10.0
    /// The icon's side, at the top left (mako's and dunst's icons are at most
    /// 64 and 128 pixels; 48 is the freedesktop size for notifications).
    public static let iconSize = 48.0
    /// The text's font: the app's name, the summary and the body are sized
    /// and weighted by their markup.
    public static let font = "Sans 10"
    /// At most this many lines of text in all, then an ellipsis.
    public static let maximumLines = 8
    /// The progress bar's height (the HUD's).
    public static let progressHeight = 6.0
    /// The box colour: the HUD's, nearly opaque.
    public static let background = Toast.Color(white: 0.1, alpha: 0.9)
    /// The shadow's colour: a soft dark shadow below the box.
    public static let shadowColor = Toast.Color(white: 0, alpha: 0.4)
    /// The shadow's offset down and right.
    public static let shadowOffset = 2.0
    /// How far the shadow spreads.
    public static let shadowBlur = 4.0
    /// Room around the box for the shadow.
    public static let shadowPadding = 10.0
    /// The fade in and out.
    public static let fade: Duration = .milliseconds(200)
    /// The opacity a card's fade in starts from: its first frame already
    /// shows it (a notification's content is there at once), faint.
    public static let fadeInFrom = 0.4
    /// How long a card stays by default (dunst's 10 seconds).
    public static let timeout: Duration = .seconds(10)
  }

  /// The bar: swaynag's full-width bar at an edge (its colours and sizes are
  /// ``ToastModel/Toast/BarLook``'s).
  public enum Bar {
    /// The message's font, unless the toast sets one.
    public static let font = "Sans 10"
    /// The label of the button that shows and hides the details (swaynag's).
    public static let detailsButton = "Toggle details"
    /// The slide in from the edge.
    public static let entry: Duration = .milliseconds(250)
    /// The slide out.
    public static let exit: Duration = .milliseconds(200)
    /// The details opening or closing.
    public static let detailsMove: Duration = .milliseconds(200)
  }

  /// The buttons of a toast that asks (`--button`): a row under the HUD's
  /// text, at the right of the banner's.
  public enum Buttons {
    /// A button's height.
    public static let height = 28.0
    /// The room left and right of a label.
    public static let padding = 12.0
    /// The narrowest button.
    public static let minimumWidth = 64.0
    /// The narrowest a button shrinks to when the row is too wide (its label ellipsized).
    public static let shrunkWidth = 40.0
    /// The gap between buttons, and between the banner's text and its buttons.
    public static let gap = 8.0
    /// A button's corner radius.
    public static let cornerRadius = 6.0
    /// The labels' font.
    public static let font = "Sans 10"
    /// A button's fill: the text colour at this opacity.
    public static let fillOpacity = 0.18
    /// A pressed button's fill: the text colour at this opacity.
    public static let pressedOpacity = 0.4
    /// The focus ring's width, drawn in the text colour around the focused button.
    public static let focusRingWidth = 2.0
  }

  /// The countdown line (`--countdown`): the text's colour, faint, along the
  /// bottom edge, as the progress bar mako's users asked for (mako#609) and
  /// dunst's bar at a notification's foot.
  public enum Countdown {
    /// The line's thickness.
    public static let thickness = 2.0
    /// The line's opacity over the text colour.
    public static let opacity = 0.6
  }

  /// The text colour unless a toast sets one.
  public static let foreground = Toast.Color(white: 1)
  /// The part of a progress bar beyond 100 % (wob's overflow colour).
  public static let progressBeyondFull = Toast.Color(red: 1, green: 0.42, blue: 0.32)
  /// The darkening behind a modal toast with `--dim`.
  public static let dim = Toast.Color(white: 0, alpha: 0.35)
  /// The default Pango size when a font names none (about 15 px).
  public static let defaultFontPoints = 11
  /// The distance between a toast and the output's edges it rests against
  /// (mako's default margin), unless a toast sets its own.
  public static let margin = 10
  /// The gap between toasts stacked at one position.
  public static let stackGap = 10.0
  /// How long toasts take to move when a stacked neighbour goes or changes size.
  public static let stackMove: Duration = .milliseconds(200)
}

extension Design {
  /// The timeout of `--timeout auto` (SVProgressHUD's rule): 0.5 s plus 0.06 s
  /// a character, from 1.5 s to 10 s.
  public static func automaticTimeout(characters: Int) -> Duration {
    let seconds = 0.5 + 0.06 * Double(max(characters, 0))
    return .seconds(clamping: min(max(seconds, 1.5), 10))
  }
}

extension Toast {
  /// How many characters a reader sees: the text's, without markup tags.
  var visibleCharacters: Int {
    guard isMarkup else { return text.count }
    var count = 0
    var inTag = false
    for character in text {
      if character == "<" {
        inTag = true
      } else if character == ">" && inTag {
        inTag = false
      } else if !inTag {
        count += 1
      }
    }
    return count
  }

  /// Where the toast rests: its position, or its style's (the centre for a
  /// HUD, the top for a banner and a bar, the top right for a card).
  public var effectivePosition: Position {
    if let position { return position }
    switch style {
    case .hud: return .center
    case .banner, .bar: return .top
    case .card: return .topRight
    }
  }

  /// Whether clicks and touches on the toast's box reach it: with `--dismiss
  /// tap`, with buttons, and on a card, whose body is its default action.
  public var takesPointer: Bool {
    dismissal == .tap || !buttons.isEmpty || style == .card
  }

  /// How the toast takes the keyboard: its own choice, or exclusive when
  /// modal, on demand with buttons or `--dismiss tap`, none otherwise.
  public var effectiveKeyboard: Keyboard {
    if let keyboard { return keyboard }
    if isModal { return .exclusive }
    return !buttons.isEmpty || dismissal == .tap ? .onDemand : .never
  }

  /// The distance to the output's edges it rests against: its margin or `Design.margin`.
  public var effectiveMargin: Int { margin ?? Design.margin }

  /// How long the toast stays once its entry has ended: its timeout, or its
  /// style's default (2 s for a HUD, 0.5 s for a banner, 10 s for a card;
  /// until answered with buttons); zero means until it is dismissed or hidden.
  public var effectiveTimeout: Duration {
    switch timeout {
    case .automatic: Design.automaticTimeout(characters: visibleCharacters)
    // The presenter shows normalized toasts: the timeout is within its limits.
    case .after(let duration): duration
    case .untilDismissed: .zero
    case .standard where !buttons.isEmpty: .zero
    case .standard where style == .hud: Design.HUD.timeout
    case .standard where style == .card: Design.Card.timeout
    case .standard: Design.Banner.timeout
    }
  }
}
