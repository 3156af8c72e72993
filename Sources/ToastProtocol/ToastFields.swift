import ToastModel

/// A setting of a toast, declared once: its name (the command line's
/// `--NAME`, the configuration key and the JSON field), what `--help` and the
/// completions say of it, whether a `--follow=json` line may set it, and how
/// its value is read from a word (command line, configuration file), read from
/// JSON and written to JSON.
///
/// ``all`` is the table; the option parser, the configuration checks, the
/// completions, `--help`, the socket protocol's JSON and the follow-line rules
/// all read it.
package struct ToastField: Sendable {
  /// The name shared by the option (`--NAME`), the configuration key and the JSON field.
  package let name: String
  /// What the value stands for in `--help` (`SECONDS|auto`); nil for a flag.
  package var valueName: String? { takesValue ? valueNameText() : nil }
  /// Whether it takes a value (a word); false for a flag.
  package let takesValue: Bool
  /// ``valueName`` of a setting with a value, made when asked for (a list of
  /// choices is made from the enumeration's cases: see ``choices``).
  package let valueNameText: @Sendable () -> String
  /// One line for completion menus.
  package let summary: String
  /// The text `--help` prints beside the option: made when asked for, so
  /// that a command that prints no help does not build it.
  package let helpText: @Sendable () -> String
  /// The values the option takes, when they are a short list (for completions).
  package var choices: [String] { choiceList() }
  /// ``choices``, made when asked for: an enumeration's `allCases` is an
  /// array of its own type, whose metadata the runtime makes at its first
  /// use, a cost the command's start would pay for every such setting.
  package let choiceList: @Sendable () -> [String]
  /// Whether the value is a file's path (for completions).
  package let takesPath: Bool
  /// Whether a `--follow=json` line may set it: what the toast says, never how
  /// it takes input or covers the screen.
  package let isFollowable: Bool
  /// Whether it is an option; false for the message (`text`), which the
  /// command line takes as its words.
  package let isOption: Bool
  /// Whether the option may be given again, each time adding a value
  /// (`--button`); a configuration file's or preset's values give way to the
  /// command line's as a whole.
  package var isRepeatable = false
  /// Whether a toast's JSON leaves it out while it has its default value: the
  /// fields that came after the protocol's first version (`button`,
  /// `keyboard`), so that a toast without them still reaches an owner from
  /// before them (a resident daemon started before an upgrade).
  package var isOmittedWhenDefault = false

  /// Sets the value from a word (nil for a flag and the message).
  package let parse: (@Sendable (inout Toast, String) throws(Toast.InvalidValue) -> Void)?
  /// Turns a flag on or off (nil for a setting with a value).
  package let setFlag: (@Sendable (inout Toast, Bool) -> Void)?
  /// Sets the value from JSON.
  package let decode: @Sendable (inout Toast, JSONValue) throws(MessageError) -> Void
  /// The value as JSON.
  package let encode: @Sendable (Toast) -> JSONValue

  /// The text `--help` prints beside the option.
  package var help: String { helpText() }
}

extension ToastField {
  /// Every setting of a toast, in the order `--help` lists them.
  package static let all: [ToastField] = [
    ToastField(
      message: "text", summary: "the message",
      get: { $0.text }, set: { toast, text in toast.text = Toast.truncated(text) }),
    choice(
      "style", Toast.Style.allCases.map { $0.rawValue },
      summary: "a box in the middle, a pill or a full-width bar",
      help:
        "a box in the middle (default), a pill at the top, a bar across the top or bottom"
        + " edge (--position top|bottom) with the buttons at its right, or a notification's"
        + " card at the top right",
      followable: true,
      get: { $0.style }, set: { $0.style = $1 }),
    ToastField(
      name: "timeout", valueName: "SECONDS|auto",
      summary: "hide after SECONDS (0: until dismissed; auto: by length)",
      help:
        "hide after SECONDS (0 to \(Int(Toast.Limits.timeout.upperBound)); 0: until dismissed;"
        + " auto: 0.5 s plus 0.06 s a character, 1.5 to 10 s)",
      choices: ["auto"], isFollowable: true,
      parse: { toast, value throws(Toast.InvalidValue) in
        toast.timeout =
          value == "auto"
          ? .automatic
          : Toast.Timeout(
            seconds: try Toast.checkedSeconds(decimal(value), of: .timeout, written: value))
      },
      decode: { toast, json throws(MessageError) in
        if json.stringValue == "auto" {
          toast.timeout = .automatic
        } else if json.isNull {
          toast.timeout = .standard
        } else {
          toast.timeout = Toast.Timeout(
            seconds: try checked { () throws(Toast.InvalidValue) in
              try Toast.checkedSeconds(json.doubleValue, of: .timeout, written: json.serialized)
            })
        }
      },
      encode: { toast in
        toast.timeout == .automatic
          ? .string("auto") : toast.timeout.seconds.map(JSONValue.number) ?? .null
      }),
    flag(
      "spinner", summary: "an activity indicator above the text",
      help: "show an activity indicator above the text (hud)", followable: true,
      get: { $0.showsSpinner }, set: { $0.showsSpinner = $1 }),
    number(
      "progress", valueName: "PERCENT", summary: "a progress bar filled to PERCENT (0 to 200)",
      help:
        "show a progress bar filled to PERCENT (0 to"
        + " \(Int(Toast.Limits.progressPercent.upperBound)); beyond 100 in a second colour)",
      followable: true,
      read: { decimal($0.hasSuffix("%") ? String($0.dropLast()) : $0) },
      check: { percent, written throws(Toast.InvalidValue) in
        try Toast.checkedProgress(percent: percent, written: written)
      },
      encode: { .number(($0 * 1000).rounded() / 10) },
      get: { $0.progress }, set: { $0.progress = $1 }),
    ToastField(
      name: "offset", valueName: "X,Y", summary: "move the HUD by X,Y pixels",
      help:
        "move the hud by X,Y pixels (\(Toast.Limits.offset.lowerBound) to"
        + " \(Toast.Limits.offset.upperBound) each)",
      parse: { toast, value throws(Toast.InvalidValue) in
        let parts = value.split(separator: ",", omittingEmptySubsequences: false)
        let numbers = parts.count == 2 ? parts.map { Int($0).map(Double.init) } : [nil, nil]
        toast.offset = try Toast.checkedOffset(x: numbers[0], y: numbers[1], written: value)
      },
      decode: { toast, json throws(MessageError) in
        var pair: [Double?] = [nil, nil]
        if case .array(let items) = json, items.count == 2 { pair = items.map { $0.doubleValue } }
        toast.offset = try checked { () throws(Toast.InvalidValue) in
          try Toast.checkedOffset(x: pair[0], y: pair[1], written: json.serialized)
        }
      },
      encode: { .array([.number(Double($0.offset.x)), .number(Double($0.offset.y))]) }),
    choice(
      "dismiss", Toast.Dismissal.allCases.map { $0.rawValue }, valueName: "tap|none",
      summary: "tap: a click, touch or Escape dismisses it",
      help: "tap lets a click, touch or Escape dismiss the toast",
      get: { $0.dismissal }, set: { $0.dismissal = $1 }),
    flag(
      "modal", summary: "cover the screen and take all input",
      help: "cover the screen and take all input while shown",
      get: { $0.isModal }, set: { $0.isModal = $1 }),
    flag(
      "dim", summary: "darken the screen behind a modal toast",
      help: "darken the screen behind the toast (needs --modal)",
      get: { $0.dimsBackground }, set: { $0.dimsBackground = $1 }),
    flag(
      "countdown", summary: "a line along the bottom edge that shrinks as the timeout runs",
      help:
        "draw a thin line along the bottom edge that shrinks as the timeout runs and stops"
        + " while it is paused (nothing without a timeout)",
      get: { $0.showsCountdown }, set: { $0.showsCountdown = $1 }
    ).omittedWhenDefault,
    flag(
      "markup", summary: "the message is Pango markup",
      help: "MESSAGE is Pango markup, e.g. '<b>Saved</b>'",
      get: { $0.isMarkup }, set: { $0.isMarkup = $1 }),
    flag(
      "no-animation", summary: "show and hide at once",
      help: "show and hide at once, without fading or sliding",
      get: { !$0.isAnimated }, set: { $0.isAnimated = !$1 }),
    word(
      "font", valueName: "FAMILY SIZE", summary: "the Pango font",
      help: "the Pango font, e.g. \"Sans Bold 15\"",
      check: { font throws(Toast.InvalidValue) in try Toast.checkedFont(font) },
      write: { $0 }, get: { $0.font }, set: { $0.font = $1 }),
    color(
      "background", summary: "the colour of the box", help: "the colour of the box",
      get: { $0.background }, set: { $0.background = $1 }),
    color(
      "foreground", summary: "the colour of the text",
      help: "the colour of the text (default: white)",
      get: { $0.foreground }, set: { $0.foreground = $1 }),
    ToastField(
      name: "output", valueName: "NAME|all", summary: "the output to show on, or all",
      help:
        "show on the output NAME (e.g. DP-1) or on all outputs (default: the compositor's"
        + " choice)",
      choices: ["all"],
      parse: { toast, value throws(Toast.InvalidValue) in
        toast.output = Toast.OutputChoice(name: try Toast.checkedOutputName(value))
      },
      decode: { toast, json throws(MessageError) in
        if json.isNull {
          toast.output = .automatic
        } else {
          let name = try string(json, of: .output)
          toast.output = Toast.OutputChoice(
            name: try checked { () throws(Toast.InvalidValue) in
              try Toast.checkedOutputName(name)
            })
        }
      },
      encode: { $0.output.name.map(JSONValue.string) ?? .null }),
    optionalChoice(
      "position", Toast.Position.allCases.map { $0.rawValue }, valueName: "POSITION",
      summary: "where the toast rests",
      help:
        listed(Toast.Position.allCases.map { $0.rawValue })
        + " (default: center for hud, top for banner and bar, top-right for card)",
      get: { $0.position }, set: { $0.position = $1 }),
    number(
      "margin", valueName: "PIXELS", summary: "distance to the output's edges",
      help:
        "distance to the output's edges (\(Toast.Limits.margin.lowerBound) to"
        + " \(Toast.Limits.margin.upperBound), default 10); the centre ignores it",
      read: { Int($0).map(Double.init) },
      check: { pixels, written throws(Toast.InvalidValue) in
        try Toast.checkedMargin(pixels, written: written)
      },
      encode: { .number(Double($0)) }, get: { $0.margin }, set: { $0.margin = $1 }),
    choice(
      "layer", Toast.Layer.allCases.map { $0.rawValue },
      summary: "overlay (above fullscreen), top, bottom, background",
      help: "overlay (default) shows above fullscreen windows, top above windows only",
      get: { $0.layer }, set: { $0.layer = $1 }),
    word(
      "icon", valueName: "NAME|PATH", summary: "an icon name or a PNG, JPEG or SVG file",
      help: "an icon from the icon theme, or a PNG, JPEG or SVG file", takesPath: true,
      check: { icon throws(Toast.InvalidValue) in try Toast.checkedIcon(icon) },
      write: { $0 }, get: { $0.icon }, set: { $0.icon = $1 }),
    word(
      "icon-theme", valueName: "THEME", summary: "the icon theme for icon names",
      help: "the icon theme to look names up in (default: GTK's, else Adwaita; then hicolor)",
      check: { theme throws(Toast.InvalidValue) in try Toast.checkedIconTheme(theme) },
      write: { $0 }, get: { $0.iconTheme }, set: { $0.iconTheme = $1 }),
    word(
      "sound", valueName: "NAME|PATH", summary: "a sound from the sound theme or a file",
      help:
        "play a sound once the toast shows: an event sound's name (message-new-instant,"
        + " audio-volume-change, dialog-warning) or a sound file",
      takesPath: true,
      check: { sound throws(Toast.InvalidValue) in try Toast.checkedSound(sound) },
      write: { $0 }, get: { $0.sound }, set: { $0.sound = $1 }
    ).omittedWhenDefault,
    flag(
      "sound-on-update", summary: "updates in place play the sound again",
      help: "play --sound again at each update in place (default: a new toast only)",
      get: { $0.soundOnUpdate }, set: { $0.soundOnUpdate = $1 }
    ).omittedWhenDefault,
    seconds(
      "grace", of: .grace, summary: "appear only if still wanted after SECONDS",
      help: "appear only if still wanted after SECONDS (0 to 60)",
      get: { $0.grace }, set: { $0.grace = $1 }),
    seconds(
      "min-show", of: .minimumShow, summary: "once shown, stay at least SECONDS",
      help: "once shown, stay at least SECONDS (0 to 60)",
      get: { $0.minimumShow }, set: { $0.minimumShow = $1 }),
    seconds(
      "idle-threshold", of: .idleThreshold,
      summary: "pause the timeout while there is no input for SECONDS",
      help:
        "after SECONDS without input (\(Int(Toast.Limits.idleThreshold.lowerBound)) to"
        + " \(Int(Toast.Limits.idleThreshold.upperBound)),"
        + " default \(Int(Toast.standardIdleThreshold)); 0: never) the timeout pauses, and"
        + " starts again in full once input comes back; only on compositors that tell when"
        + " the user is idle (ext-idle-notify-v1 or KDE's idle protocol: sway, KWin)",
      get: { $0.idleThreshold }, set: { $0.idleThreshold = $1 }
    ).omittedWhenDefault,
    choice(
      "a11y", Toast.Accessibility.allCases.map { $0.rawValue },
      summary: "screen readers hear it: auto, on or off",
      help:
        "screen readers hear the toast: auto (default) when one is running, on whenever the"
        + " accessibility bus runs, off never",
      get: { $0.accessibility }, set: { $0.accessibility = $1 }),
    word(
      "say", valueName: "TEXT", summary: "what a screen reader says instead of the message",
      help: "what a screen reader says instead of MESSAGE", followable: true,
      check: { text throws(Toast.InvalidValue) in try Toast.checkedAccessibleText(text) },
      write: { $0 }, get: { $0.accessibleText }, set: { $0.accessibleText = $1 }),
    list(
      "button", valueName: "LABEL", summary: "a button (again for more); stays until answered",
      help:
        "a button, again for more (at most \(Toast.Limits.buttonCount)); the toast stays"
        + " until one is chosen, --wait exits 10 for the first, 11 for the second…",
      add: { label, buttons throws(Toast.InvalidValue) in try Toast.adding(label, to: buttons) },
      get: { $0.buttons }, set: { $0.buttons = $1 }
    ).omittedWhenDefault,
    choice(
      "urgency", Toast.Urgency.allCases.map { $0.rawValue }, summary: "low, normal or critical",
      help:
        "low, normal (default) or critical: do-not-disturb (wl-toast dnd) holds back all"
        + " but critical toasts, which also show over fullscreen windows",
      get: { $0.urgency }, set: { $0.urgency = $1 }
    ).omittedWhenDefault,
    choice(
      "fullscreen", Toast.FullscreenPolicy.allCases.map { $0.rawValue },
      summary: "over a fullscreen window: show, delay or suppress",
      help:
        "with a fullscreen window on the toast's output: show (default), delay until it"
        + " ends, or suppress (the outcome is suppressed)",
      get: { $0.fullscreen }, set: { $0.fullscreen = $1 }
    ).omittedWhenDefault,
    choice(
      "dnd", Toast.DoNotDisturbPolicy.allCases.map { $0.rawValue },
      summary: "while do-not-disturb is on: suppress or show",
      help:
        "while do-not-disturb is on (wl-toast dnd): suppress (default) holds the toast back,"
        + " show shows it all the same, as the banners of watch do",
      get: { $0.doNotDisturb }, set: { $0.doNotDisturb = $1 }
    ).omittedWhenDefault,
    optionalChoice(
      "keyboard", Toast.Keyboard.allCases.map { $0.rawValue },
      valueName: "exclusive|on-demand|none",
      summary: "how the toast takes the keyboard",
      help:
        "take all keys, keys once clicked (default with buttons or --dismiss tap), or none",
      get: { $0.keyboard }, set: { $0.keyboard = $1 }
    ).omittedWhenDefault,
  ]

  /// The field, left out of a toast's JSON while at its default.
  var omittedWhenDefault: ToastField {
    var field = self
    field.isOmittedWhenDefault = true
    return field
  }

  /// The field with this name: a direct lookup, for the owner, which reads
  /// each request's fields by name.
  package static func named(_ name: String) -> ToastField? {
    indexByName[name].map { all[$0] }
  }

  /// Each field's place in ``all``, by name. (A dictionary of a standard
  /// type: the owner, which parses JSON into dictionaries, has its metadata
  /// already; the command's update never looks a field up by name.)
  private static let indexByName: [String: Int] = {
    var index: [String: Int] = [:]
    for (place, field) in all.enumerated() { index[field.name] = place }
    return index
  }()
}
