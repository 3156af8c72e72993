extension Toast {
  /// The tag of a toast shown without one. There is one toast per tag: a
  /// command or call that names no tag updates the toast with this one.
  public static let defaultTag = "default"

  /// The limits of every setting, in one place.
  ///
  /// The command line, the socket protocol and `--follow` lines refuse a value
  /// outside them with the same ``InvalidValue`` message; the library clamps
  /// to them (``normalized()``).
  public enum Limits {
    /// The longest message, in Unicode scalars, the "…" of a cut message included.
    public static let textLength = 4096
    /// Seconds a toast stays (0: until dismissed or hidden; a day at most).
    public static let timeout: ClosedRange<Double> = 0...86_400
    /// Seconds before a requested hide takes effect.
    public static let hideDelay: ClosedRange<Double> = 0...86_400
    /// Seconds the background owner stays after its last toast.
    public static let linger: ClosedRange<Double> = 0...60
    /// The progress bar's fill, in percent: beyond 100 (up to 200) is drawn
    /// in a second colour, as for a volume above 100 %.
    public static let progressPercent: ClosedRange<Double> = 0...200
    /// Each coordinate of the offset, in logical pixels.
    public static let offset: ClosedRange<Int> = -10_000...10_000
    /// The longest font description, in Unicode scalars.
    public static let fontLength = 256
    /// The longest tag, in Unicode scalars.
    public static let tagLength = 64
    /// The margin to the output's edges, in logical pixels.
    public static let margin: ClosedRange<Int> = 0...10_000
    /// The longest output name, in Unicode scalars.
    public static let outputNameLength = 64
    /// The longest icon name or path, in bytes (a path's limit).
    public static let iconLength = 4096
    /// The longest icon theme name, in Unicode scalars.
    public static let iconThemeLength = 256
    /// Seconds of `--idle-threshold` other than 0 (never pause): at least a
    /// second, so that the compositor does not report every pause in typing,
    /// and a day at most.
    public static let idleThreshold: ClosedRange<Double> = 1...86_400
    /// Seconds of `--grace` and `--min-show`.
    public static let delay: ClosedRange<Double> = 0...60
    /// The most buttons a toast has.
    public static let buttonCount = 8
    /// The longest button label, in Unicode scalars.
    public static let buttonLabelLength = 64
    /// The longest details text of a bar, in bytes of UTF-8.
    public static let detailsLength = 256 * 1024
    /// A bar's sizes (paddings, gaps, borders), in logical pixels.
    public static let barSize: ClosedRange<Int> = 0...200
    /// The longest sound name or path, in bytes (a path's limit).
    public static let soundLength = 4096
    /// The largest sound file played, in bytes (16 MiB: an event sound
    /// lasts seconds); a larger one is left out with a warning.
    public static let soundFileBytes = 16 << 20
  }

  /// `text` cut to at most `limit` Unicode scalars (``Limits/textLength``
  /// unless told), ending in "…" when cut, at a character boundary (an emoji
  /// or accented letter is never split).
  public static func truncated(_ text: String, limit: Int = Limits.textLength) -> String {
    guard text.unicodeScalars.count > limit else { return text }
    var kept = 0
    var end = text.startIndex
    for character in text {
      let size = character.unicodeScalars.count
      guard kept + size <= limit - 1 else { break }
      kept += size
      end = text.index(after: end)
    }
    return String(text[..<end]) + "…"
  }

  /// The toast with every setting brought within ``Limits``: the text cut,
  /// numbers clamped (a number that is not finite gives the default). What the
  /// presenter shows, whoever built the toast.
  public func normalized() -> Toast {
    var toast = self
    toast.text = Toast.truncated(text)
    toast.timeout = timeout.normalized()
    let fraction = Limits.progressPercent.upperBound / 100
    toast.progress = progress.flatMap { $0.isNaN ? nil : min(max($0, 0), fraction) }
    toast.offset = Offset(
      x: min(max(offset.x, Limits.offset.lowerBound), Limits.offset.upperBound),
      y: min(max(offset.y, Limits.offset.lowerBound), Limits.offset.upperBound))
    if let font, font.unicodeScalars.count > Limits.fontLength || font.allSatisfy(Toast.isBlank) {
      toast.font = nil
    }
    toast.margin = margin.map { min(max($0, Limits.margin.lowerBound), Limits.margin.upperBound) }
    toast.grace = grace.flatMap { $0.isNaN ? nil : min(max($0, 0), Limits.delay.upperBound) }
    toast.minimumShow = minimumShow.flatMap {
      $0.isNaN ? nil : min(max($0, 0), Limits.delay.upperBound)
    }
    toast.idleThreshold = idleThreshold.flatMap { seconds in
      guard !seconds.isNaN else { return nil }
      guard seconds > 0 else { return 0 }
      return min(max(seconds, Limits.idleThreshold.lowerBound), Limits.idleThreshold.upperBound)
    }
    toast.accessibleText = accessibleText.flatMap {
      $0.allSatisfy(Toast.isBlank) ? nil : Toast.truncated($0)
    }
    if let icon, (try? Toast.checkedIcon(icon)) == nil { toast.icon = nil }
    if let iconTheme, (try? Toast.checkedIconTheme(iconTheme)) == nil { toast.iconTheme = nil }
    if let sound, (try? Toast.checkedSound(sound)) == nil { toast.sound = nil }
    if case .named(let name) = output, (try? Toast.checkedOutputName(name)) == nil {
      toast.output = .automatic
    }
    toast.buttons = Array(
      buttons.filter { (try? Toast.checkedButton($0)) != nil }.prefix(Limits.buttonCount))
    if let label = detailsButton, (try? Toast.checkedButton(label)) == nil {
      toast.detailsButton = nil
    }
    if let label = defaultActionLabel, (try? Toast.checkedButton(label)) == nil {
      toast.defaultActionLabel = nil
    }
    toast.details = details.map { text in
      guard text.utf8.count > Limits.detailsLength else { return text }
      var cut = Substring(text)
      while cut.utf8.count > Limits.detailsLength {
        cut = cut.dropLast(max(1, (cut.utf8.count - Limits.detailsLength) / 4))
      }
      return String(cut)
    }
    toast.bar = bar.normalized()
    return toast
  }
}

// MARK: - Checking values

extension Toast {
  /// A value outside the limits of a setting: the same message whether it came
  /// from the command line, the socket or a `--follow` line.
  public struct InvalidValue: Error, Equatable, Sendable, CustomStringConvertible {
    /// A setting that takes a value.
    public enum Setting: String, Equatable, Sendable {
      /// ``Toast/style``.
      case style
      /// ``Toast/timeout``.
      case timeout
      /// ``Toast/progress``, in percent.
      case progress
      /// ``Toast/offset``.
      case offset
      /// ``Toast/dismissal``.
      case dismiss
      /// ``Toast/font``.
      case font
      /// ``Toast/background``.
      case background
      /// ``Toast/foreground``.
      case foreground
      /// The tag a toast is shown under.
      case tag
      /// The delay before a hide.
      case after
      /// How long the background owner stays after its last toast.
      case linger
      /// ``Toast/position``.
      case position
      /// ``Toast/margin``.
      case margin
      /// ``Toast/output``.
      case output
      /// ``Toast/layer``.
      case layer
      /// ``Toast/icon``.
      case icon
      /// ``Toast/iconTheme``.
      case iconTheme = "icon-theme"
      /// ``Toast/sound``.
      case sound
      /// ``Toast/grace``.
      case grace
      /// ``Toast/minimumShow``.
      case minimumShow = "min-show"
      /// ``Toast/idleThreshold``.
      case idleThreshold = "idle-threshold"
      /// ``Toast/accessibility``.
      case accessibility = "a11y"
      /// ``Toast/accessibleText``.
      case say
      /// ``Toast/buttons``: one label.
      case button
      /// ``Toast/keyboard``.
      case keyboard
      /// ``Toast/urgency``.
      case urgency
      /// ``Toast/fullscreen``.
      case fullscreen
      /// ``Toast/doNotDisturb``.
      case dnd

      /// What the setting takes, as error messages say it.
      public var expectation: String {
        switch self {
        case .style: "hud, banner or bar"
        case .timeout: "seconds from 0 to \(Int(Limits.timeout.upperBound)), or auto"
        case .after: "seconds from 0 to \(Int(Limits.timeout.upperBound))"
        case .grace, .minimumShow: "seconds from 0 to \(Int(Limits.delay.upperBound))"
        case .idleThreshold:
          "0 (never) or seconds from \(Int(Limits.idleThreshold.lowerBound)) to"
            + " \(Int(Limits.idleThreshold.upperBound))"
        case .icon: "an icon name or a file's path (1 to \(Limits.iconLength) bytes)"
        case .iconTheme: "an icon theme's name (1 to \(Limits.iconThemeLength) characters)"
        case .sound:
          "a sound's name or a sound file's path (1 to \(Limits.soundLength) bytes)"
        case .linger: "seconds from 0 to \(Int(Limits.linger.upperBound))"
        case .progress: "a percentage from 0 to \(Int(Limits.progressPercent.upperBound))"
        case .offset:
          "X,Y (two whole numbers from \(Limits.offset.lowerBound) to \(Limits.offset.upperBound))"
        case .dismiss: "tap or none"
        case .font: "a font such as \"Sans Bold 15\" (at most \(Limits.fontLength) characters)"
        case .background, .foreground: "#RRGGBB or #RRGGBBAA"
        case .tag: "1 to \(Limits.tagLength) printable characters without spaces"
        case .position: Position.allCases.map(\.rawValue).joined(separator: "|")
        case .margin:
          "pixels from \(Limits.margin.lowerBound) to \(Limits.margin.upperBound)"
        case .output: "an output's name (1 to \(Limits.outputNameLength) characters) or all"
        case .layer: "overlay, top, bottom or background"
        case .accessibility: "auto, on or off"
        case .say: "the text a screen reader says instead of the message (not blank)"
        case .button:
          "a label of 1 to \(Limits.buttonLabelLength) characters on one line (at most"
            + " \(Limits.buttonCount) buttons)"
        case .keyboard: "exclusive, on-demand or none"
        case .urgency: "low, normal or critical"
        case .fullscreen: "show, delay or suppress"
        case .dnd: "suppress or show"
        }
      }
    }

    /// The setting.
    public var setting: Setting
    /// The value as it was written.
    public var value: String

    /// Creates the error for `value` (as written) of `setting`.
    public init(_ setting: Setting, _ value: String) {
      self.setting = setting
      self.value = value
    }

    /// What is wrong, without the setting's name:
    /// `expected seconds from 0 to 86400, got '-1'`.
    public var reason: String { "expected \(setting.expectation), got \(Toast.quoted(value))" }

    /// The setting's name and the reason: `timeout: expected seconds from 0 to 86400, or auto, got '-1'`.
    public var description: String { "\(setting.rawValue): \(reason)" }
  }

  /// Seconds of `setting` (``Limits/timeout``, ``Limits/hideDelay`` or
  /// ``Limits/linger``); `seconds` is nil when `written` is not a number.
  public static func checkedSeconds(
    _ seconds: Double?, of setting: InvalidValue.Setting, written: String
  ) throws(InvalidValue) -> Double {
    let range =
      switch setting {
      case .linger: Limits.linger
      case .after: Limits.hideDelay
      case .grace, .minimumShow: Limits.delay
      case .idleThreshold: Limits.idleThreshold
      default: Limits.timeout
      }
    guard let seconds, range.contains(seconds) || (setting == .idleThreshold && seconds == 0)
    else { throw InvalidValue(setting, written) }
    return seconds == 0 ? 0 : seconds  // never -0
  }

  /// The progress fraction (0 to 1) of a percentage.
  public static func checkedProgress(percent: Double?, written: String) throws(InvalidValue)
    -> Double
  {
    guard let percent, Limits.progressPercent.contains(percent) else {
      throw InvalidValue(.progress, written)
    }
    return percent == 0 ? 0 : percent / 100
  }

  /// An offset from two numbers, which must be whole and within ``Limits/offset``.
  public static func checkedOffset(x: Double?, y: Double?, written: String) throws(InvalidValue)
    -> Offset
  {
    let range = Double(Limits.offset.lowerBound)...Double(Limits.offset.upperBound)
    guard let x, let y, range.contains(x), range.contains(y), x == x.rounded(), y == y.rounded()
    else { throw InvalidValue(.offset, written) }
    return Offset(x: Int(x), y: Int(y))
  }

  /// A font description: not blank, at most ``Limits/fontLength`` scalars.
  public static func checkedFont(_ font: String) throws(InvalidValue) -> String {
    guard !font.allSatisfy(Toast.isBlank), font.unicodeScalars.count <= Limits.fontLength else {
      throw InvalidValue(.font, font)
    }
    return font
  }

  /// A tag: 1 to ``Limits/tagLength`` printable scalars, no spaces.
  public static func checkedTag(_ tag: String) throws(InvalidValue) -> String {
    guard isName(tag, longest: Limits.tagLength) else { throw InvalidValue(.tag, tag) }
    return tag
  }

  /// An output's name: 1 to ``Limits/outputNameLength`` printable scalars, no spaces.
  public static func checkedOutputName(_ name: String) throws(InvalidValue) -> String {
    guard isName(name, longest: Limits.outputNameLength) else { throw InvalidValue(.output, name) }
    return name
  }

  /// An icon name or path: 1 to ``Limits/iconLength`` bytes, no control characters.
  public static func checkedIcon(_ icon: String) throws(InvalidValue) -> String {
    guard !icon.isEmpty, icon.utf8.count <= Limits.iconLength,
      !icon.unicodeScalars.contains(where: Toast.isControl)
    else { throw InvalidValue(.icon, icon) }
    return icon
  }

  /// A sound: a name of the sound theme, or a file's path (it holds a
  /// slash), 1 to ``Limits/soundLength`` bytes without control characters.
  public static func checkedSound(_ sound: String) throws(InvalidValue) -> String {
    guard !sound.isEmpty, sound.utf8.count <= Limits.soundLength, sound != ".", sound != "..",
      !sound.unicodeScalars.contains(where: Toast.isControl)
    else { throw InvalidValue(.sound, sound) }
    return sound
  }

  /// An icon theme's name: 1 to ``Limits/iconThemeLength`` printable scalars, no slash.
  public static func checkedIconTheme(_ theme: String) throws(InvalidValue) -> String {
    guard !theme.contains("/"), theme != ".", theme != "..",
      theme.unicodeScalars.count <= Limits.iconThemeLength,
      !theme.isEmpty,
      !theme.unicodeScalars.contains(where: Toast.isControl)
    else { throw InvalidValue(.iconTheme, theme) }
    return theme
  }

  /// What a screen reader says instead of the message: not blank, cut like a
  /// message at ``Limits/textLength`` scalars.
  public static func checkedAccessibleText(_ text: String) throws(InvalidValue) -> String {
    guard !text.allSatisfy(Toast.isBlank) else { throw InvalidValue(.say, text) }
    return truncated(text)
  }

  /// A button's label: not blank, at most ``Limits/buttonLabelLength``
  /// scalars, no control characters or line breaks.
  public static func checkedButton(_ label: String) throws(InvalidValue) -> String {
    guard !label.allSatisfy(Toast.isBlank),
      label.unicodeScalars.count <= Limits.buttonLabelLength,
      !label.unicodeScalars.contains(where: Toast.breaksLine)
    else { throw InvalidValue(.button, label) }
    return label
  }

  /// The buttons with one more: a ninth is refused like a bad label.
  public static func adding(_ label: String, to buttons: [String]) throws(InvalidValue)
    -> [String]
  {
    guard buttons.count < Limits.buttonCount else { throw InvalidValue(.button, label) }
    return buttons + [try checkedButton(label)]
  }

  /// A margin in whole logical pixels within ``Limits/margin``.
  public static func checkedMargin(_ pixels: Double?, written: String) throws(InvalidValue) -> Int {
    let range = Double(Limits.margin.lowerBound)...Double(Limits.margin.upperBound)
    guard let pixels, range.contains(pixels), pixels == pixels.rounded() else {
      throw InvalidValue(.margin, written)
    }
    return Int(pixels)
  }

  /// Whether `name` has 1 to `longest` printable scalars and no spaces.
  private static func isName(_ name: String, longest: Int) -> Bool {
    !name.isEmpty && name.unicodeScalars.count <= longest
      && name.unicodeScalars.allSatisfy({ scalar in
        // ASCII's categories are fixed: controls, the space, and printable
        // characters from U+0021 to U+007E.
        if scalar.isASCII { return (0x21...0x7E).contains(scalar.value) }
        switch scalar.properties.generalCategory {
        case .control, .spaceSeparator, .lineSeparator, .paragraphSeparator, .format,
          .surrogate, .unassigned:
          return false
        default: return true
        }
      })
  }

  // The checks below answer ASCII without the standard library's Unicode
  // tables (general category, White_Space): each table read maps pages of the
  // owner's read-only data into every owner, for text that is mostly ASCII.
  // Beyond ASCII they ask the tables, as before.

  /// Whether `scalar` is a control character (general category Cc): in ASCII,
  /// U+0000 to U+001F and U+007F.
  package static func isControl(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return scalar.value < 0x20 || scalar.value == 0x7F }
    return scalar.properties.generalCategory == .control
  }

  /// Whether `scalar` is a control character or a line or paragraph separator
  /// (U+2028, U+2029): what would break a one-line label.
  package static func breaksLine(_ scalar: Unicode.Scalar) -> Bool {
    if scalar.isASCII { return isControl(scalar) }
    switch scalar.properties.generalCategory {
    case .control, .lineSeparator, .paragraphSeparator: return true
    default: return false
    }
  }

  /// Whether the toast shows anything: a text that is not blank, a spinner or
  /// a progress bar.
  package var showsSomething: Bool {
    !text.allSatisfy(Toast.isBlank) || showsSpinner || progress != nil
  }

  /// `Character.isWhitespace` (its first scalar's White_Space property): in
  /// ASCII, U+0009 to U+000D and the space.
  package static func isBlank(_ character: Character) -> Bool {
    if let ascii = character.asciiValue { return ascii == 0x20 || (0x09...0x0D).contains(ascii) }
    return character.isWhitespace
  }

  /// `text` with every scalar that ``breaksLine(_:)`` escaped as Swift
  /// writes it (`\u{0B}`): one line, whatever it carries.
  package static func escapingLineBreaks(_ text: String) -> String {
    var line = ""
    for scalar in text.unicodeScalars {
      if breaksLine(scalar) {
        line += scalar.escaped(asASCII: true)
      } else {
        line.unicodeScalars.append(scalar)
      }
    }
    return line
  }

  /// A value as messages show it: in single quotes, control characters escaped
  /// so the message stays on one line, cut after `limit` characters (64; nil
  /// for a value that must be shown whole, such as a path).
  public static func quoted(_ value: String, cutAfter limit: Int? = 64) -> String {
    var result = "'"
    for (count, character) in value.enumerated() {
      if count == limit {
        result += "…"
        break
      }
      for scalar in character.unicodeScalars {
        switch scalar {
        case "\n": result += "\\n"
        case "\t": result += "\\t"
        case "\r": result += "\\r"
        default:
          if breaksLine(scalar) {
            result += scalar.escaped(asASCII: true)
          } else {
            result.unicodeScalars.append(scalar)
          }
        }
      }
    }
    return result + "'"
  }
}

extension Toast.BarLook {
  /// The look with every size within ``Toast/Limits/barSize``.
  public func normalized() -> Toast.BarLook {
    var look = self
    func clamp(_ size: inout Int) {
      size = min(max(size, Toast.Limits.barSize.lowerBound), Toast.Limits.barSize.upperBound)
    }
    clamp(&look.borderBottomSize)
    clamp(&look.messagePadding)
    clamp(&look.detailsBorderSize)
    clamp(&look.buttonBorderSize)
    clamp(&look.buttonGap)
    clamp(&look.buttonDismissGap)
    clamp(&look.buttonMarginRight)
    clamp(&look.buttonPadding)
    return look
  }
}
