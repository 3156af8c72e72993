import ToastModel
import ToastProtocol

/// A notification as a toast: the card the server shows, and the actions
/// behind its buttons.
package enum NotificationCard {
  /// The longest parts of a card's text, in Unicode scalars of markup: the
  /// app's name and the summary; the body has the rest of
  /// ``Toast/Limits/textLength`` (a card shows a few lines of it).
  package static let appNameLength = 256
  /// See ``appNameLength``.
  package static let summaryLength = 1024

  /// The toast for a notification:
  /// - style ``Toast/Style/card``, dismissed by a tap (`.tap`);
  /// - its text markup (``Toast/isMarkup``), valid whatever the call holds:
  ///   `<small>APP</small>`, `<b>SUMMARY</b>` and the body
  ///   (``BodyMarkup``), one a line, the empty ones left out;
  /// - the image of the hints, else `app_icon`'s (``NotificationImage``);
  /// - the progress bar of `value` (percent; beyond 100 the toast's overflow);
  /// - a button for each action but `default` (``buttonActions(in:)``), and
  ///   the `default` action's label as a button's for screen readers
  ///   (``Toast/defaultActionLabel``: a click on the body chooses it);
  /// - the timeout of `expire_timeout`: N milliseconds; 0 until dismissed;
  ///   -1 (or less), the server's default, until dismissed when critical,
  ///   else the card's own (``Toast/Timeout/standard``: the card style's
  ///   default, dunst's 10 seconds, or until answered when it has buttons,
  ///   as every toast with buttons);
  /// - its urgency, so that do-not-disturb holds back all but critical ones
  ///   (the toast's ``Toast/DoNotDisturbPolicy/suppress``);
  /// - the sound of `sound-file` or `sound-name` (``sound(of:)``), played
  ///   again by a replacement that asks for one, none with `suppress-sound`;
  /// - what screen readers say: `APP: SUMMARY. BODY`, without markup;
  /// - then the settings of every rule whose criteria it matches, in the
  ///   order of `rules` (``Config``'s `notificationRules()` puts
  ///   `[notifications]` first, then the criteria sections in the file's
  ///   order): a rule's `timeout` wins over the call's.
  package static func toast(for request: NotificationRequest, rules: [NotificationRule]) -> Toast {
    card(for: request, rules: rules).toast
  }

  /// The toast for a notification (``toast(for:rules:)``) and whether it goes
  /// into the history when it ends: the `history` of the last matching rule
  /// that says, true when none does.
  package static func card(for request: NotificationRequest, rules: [NotificationRule]) -> (
    toast: Toast, keepsHistory: Bool
  ) {
    var toast = Toast(text(of: request), style: .card, dismissal: .tap)
    toast.isMarkup = true
    switch request.hints.image ?? NotificationImage(reference: request.appIcon) {
    case .pixels(let image): toast.image = image
    case .file(let path): toast.icon = path
    case .iconName(let name): toast.icon = name
    case nil: break
    }
    toast.progress = request.hints.value.map { Double($0) / 100 }
    toast.buttons = buttonActions(in: request).map(\.label)
    toast.defaultActionLabel = request.actions.first { $0.key == "default" }.flatMap {
      buttonLabel($0.label) ?? buttonLabel($0.key)
    }
    toast.urgency = request.hints.urgency
    if request.expireTimeout > 0 {
      toast.timeout = Toast.Timeout(seconds: Double(request.expireTimeout) / 1000)
    } else if request.expireTimeout == 0 || request.hints.urgency == .critical {
      toast.timeout = .untilDismissed
    }
    let body = BodyMarkup.plainText(request.body)
    toast.accessibleText = spokenText(of: request, body: body)
    if let sound = sound(of: request.hints) {
      // Each call that asks for a sound is heard, a replacement's too.
      toast.sound = sound
      toast.soundOnUpdate = true
    }
    let subject = NotificationCriteria.Subject(request, body: body)
    var keepsHistory = true
    for rule in rules where rule.criteria?.matches(subject) ?? true {
      var changed = toast
      // A rule whose settings cannot apply is skipped whole, history too.
      guard (try? changed.apply(rule.settings)) != nil else { continue }
      toast = changed
      keepsHistory = rule.keepsHistory ?? keepsHistory
    }
    // The application plays its own: no sound, a rule's neither.
    if request.hints.suppressSound { toast.sound = nil }
    return (toast, keepsHistory)
  }

  /// The sound the hints ask for: `sound-file` (an absolute path or a
  /// `file://` URI), else `sound-name` (a name of the sound theme); nil for
  /// none, or for a value that is neither.
  package static func sound(of hints: NotificationHints) -> String? {
    if let file = hints.soundFile, case .file(let path)? = NotificationImage(reference: file),
      (try? Toast.checkedSound(path)) != nil
    {
      return path
    }
    guard let name = hints.soundName, !name.contains("/") else { return nil }
    return try? Toast.checkedSound(name)
  }

  /// The key of the action a click on the card invokes: `default`, when the
  /// call has it.
  package static func defaultActionKey(in request: NotificationRequest) -> String? {
    request.actions.contains { $0.key == "default" } ? "default" : nil
  }

  /// The actions of the card's buttons, in the buttons' order, each with the
  /// label its button shows: every action but `default`, in the call's
  /// order, at most ``Toast/Limits/buttonCount``. A label is put on one line
  /// (line breaks and control characters become spaces), cut to
  /// ``Toast/Limits/buttonLabelLength`` characters with "…"; a blank one
  /// takes the key; an action with neither has no button.
  package static func buttonActions(in request: NotificationRequest) -> [NotificationAction] {
    var buttons: [NotificationAction] = []
    for action in request.actions where action.key != "default" {
      guard buttons.count < Toast.Limits.buttonCount else { break }
      guard let label = buttonLabel(action.label) ?? buttonLabel(action.key) else { continue }
      buttons.append(NotificationAction(key: action.key, label: label))
    }
    return buttons
  }

  /// A text as a button's label (``Toast/checkedButton(_:)``); nil when blank.
  private static func buttonLabel(_ text: String) -> String? {
    var line = ""
    for scalar in text.unicodeScalars {
      line.unicodeScalars.append(Toast.breaksLine(scalar) ? " " : scalar)
    }
    let words = line.split(whereSeparator: Toast.isBlank)
    guard !words.isEmpty else { return nil }
    let label = Toast.truncated(
      words.joined(separator: " "), limit: Toast.Limits.buttonLabelLength)
    return (try? Toast.checkedButton(label)) != nil ? label : nil
  }

  /// The card's markup: the app's name small, the summary bold, the body,
  /// within ``Toast/Limits/textLength`` scalars.
  static func text(of request: NotificationRequest) -> String {
    var lines: [String] = []
    if !request.appName.isEmpty {
      lines.append(
        "<small>" + BodyMarkup.escaped(request.appName, maximumLength: appNameLength) + "</small>")
    }
    if !request.summary.isEmpty {
      lines.append(
        "<b>" + BodyMarkup.escaped(request.summary, maximumLength: summaryLength) + "</b>")
    }
    let used = lines.reduce(0) { $0 + $1.unicodeScalars.count + 1 }
    if !request.body.isEmpty {
      lines.append(
        BodyMarkup.pango(request.body, maximumLength: Toast.Limits.textLength - used))
    }
    return lines.joined(separator: "\n")
  }

  /// What screen readers say: `APP: SUMMARY. BODY`, the parts that are
  /// there, `body` being the request's body without markup; nil when all
  /// are blank.
  static func spokenText(of request: NotificationRequest, body: String) -> String? {
    var text = ""
    func add(_ part: String, after separator: String) {
      let trimmed = part.split(whereSeparator: Toast.isBlank).joined(separator: " ")
      guard !trimmed.isEmpty else { return }
      if !text.isEmpty {
        let ends = text.last.map { ".!?:;…".contains($0) } ?? false
        text += ends ? " " : separator
      }
      text += trimmed
    }
    add(request.appName, after: "")
    add(request.summary, after: ": ")
    add(body, after: ". ")
    return text.isEmpty ? nil : Toast.truncated(text)
  }
}

extension NotificationCriteria.Subject {
  /// What the notification offers criteria: its body without markup
  /// (``BodyMarkup/plainText(_:)``, or `body` when the caller has it), the
  /// `image-path` hint as its icon when given (as mako has it).
  package init(_ request: NotificationRequest, body: String? = nil) {
    self.init(
      appName: request.appName, appIcon: request.hints.imagePath ?? request.appIcon,
      summary: request.summary, body: body ?? BodyMarkup.plainText(request.body),
      urgency: request.hints.urgency, category: request.hints.category,
      desktopEntry: request.hints.desktopEntry, actionable: !request.actions.isEmpty,
      expiring: request.expireTimeout != 0)
  }
}
