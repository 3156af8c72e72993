import ToastModel

/// How the command hands a toast over and what it waits for.
public struct ShowOptions: Equatable, Sendable {
  /// The tag: one toast per tag, updated in place by later commands.
  public var tag: String
  /// Stay until the toast is gone and exit with its outcome.
  public var wait: Bool
  /// Also print the outcome (`expired`, `hidden`, `dismissed`, `replaced`); implies ``wait``.
  public var printOutcome: Bool
  /// Read standard input, each line updating the toast, in this format; nil
  /// for no reading.
  public var follow: FollowFormat?
  /// How long an owner with no toast left stays, in seconds.
  public var linger: Double
  /// Draw the toast into a PNG file instead of showing it (`--render-png`).
  public var render: RenderRequest?

  /// The defaults: tag `default`, no waiting, no following, a one-second linger.
  public init(
    tag: String = Toast.defaultTag, wait: Bool = false, printOutcome: Bool = false,
    follow: FollowFormat? = nil,
    linger: Double = 1
  ) {
    self.tag = tag
    self.wait = wait
    self.printOutcome = printOutcome
    self.follow = follow
    self.linger = linger
  }
}

/// A preview drawn into a PNG file without a compositor (`--render-png`).
public struct RenderRequest: Equatable, Sendable {
  /// The PNG file to write.
  public var path: String
  /// Pixels per logical pixel (`--scale`, 1 to 4, fractions allowed).
  public var scale: Double
  /// The logical size of the output the toast is laid out for (`--size`).
  public var outputWidth: Int
  /// The logical size of the output the toast is laid out for (`--size`).
  public var outputHeight: Int

  /// A request with the defaults: scale 1, a 1280x720 output.
  public init(path: String, scale: Double = 1, outputWidth: Int = 1280, outputHeight: Int = 720) {
    self.path = path
    self.scale = scale
    self.outputWidth = outputWidth
    self.outputHeight = outputHeight
  }

  /// The scales a preview may be drawn at.
  public static let scales: ClosedRange<Double> = 1...4
  /// The output sizes a preview may be laid out for, each side.
  public static let sizes: ClosedRange<Int> = 64...16_384
}

/// How `--follow` reads the lines of standard input.
public enum FollowFormat: String, Equatable, Sendable {
  /// Each line is the new message, even one that looks like JSON.
  case text
  /// Each line is a JSON object setting some of ``Toast/followFields``.
  case json
}

/// What a `wl-toast` command line asks for.
public enum Invocation: Equatable, Sendable {
  /// Show this toast (or update the one with the same tag).
  case show(Toast, ShowOptions)
  /// Hide the toast with a tag, at once or after some seconds (`wl-toast hide`).
  case hide(tag: String, after: Double?)
  /// Report whether a toast with a tag is showing (`wl-toast status`).
  case status(tag: String)
  /// Show sway's binding mode (and optionally workspace changes) as toasts (`wl-toast watch sway`).
  case watchSway(workspaces: Bool)
  /// Show river's mode (and optionally focused-tag changes and urgent tags) as
  /// toasts (`wl-toast watch river`); `tagNames` names tags by number (1 to 32).
  case watchRiver(focusedTags: Bool, urgent: Bool, tagNames: [Int: String])
  /// Become the display's resident owner, which never lingers out (`wl-toast daemon`).
  case daemon
  /// Print the completion script for a shell (`wl-toast completions bash`).
  case completions(Shell)
  /// Print the configuration file's preset names, one a line (for completions).
  case presets
  /// Print ``usageText`` and exit with ``ExitCode/success``.
  case help
  /// Print ``versionText`` and exit with ``ExitCode/success``.
  case version
}

/// A command line that `wl-toast` cannot run; always ``ExitCode/usage``.
public enum UsageError: Error, Equatable, Sendable, CustomStringConvertible {
  /// An option no command has, and the subcommand it was given to, if any.
  case unknownOption(String, command: String?)
  /// A value given to an option that takes none.
  case valueForFlag(String, value: String)
  /// An option at the end of the line without its value, and what the value stands for.
  case missingValue(String, expected: String)
  /// An option's value outside the setting's limits.
  case invalidValue(Toast.InvalidValue)
  /// An option of another subcommand: the option and where it belongs.
  case misplacedOption(String, belongsTo: String)
  /// An option that the subcommand does not take.
  case notApplicable(String, command: String)
  /// A word the subcommand does not take.
  case unexpectedArgument(String, command: String)
  /// `watch` followed by something other than a compositor it can watch.
  case unknownWatchTarget(String)
  /// No message, and neither a spinner nor a progress bar.
  case missingMessage
  /// `--dim` without `--modal`.
  case dimWithoutModal
  /// `--scale` or `--size` without `--render-png`.
  case renderOptionWithoutFile
  /// An option's value that is none of its choices: the option, the choices, the value.
  case invalidChoice(String, expected: String, got: String)
  /// `--preset` names no preset of the configuration file (or there is none).
  case unknownPreset(String, among: [String], file: String?)
  /// A configuration key that is no option.
  case unknownConfigKey(String)

  /// What is wrong, without the program name, such as
  /// `--timeout: expected seconds from 0 to 86400, or auto, got '-1'`.
  public var message: String {
    switch self {
    case .unknownOption(let name, let command):
      "\(command.map { "\($0): " } ?? "")unknown option \(Toast.quoted(name))"
    case .valueForFlag(let option, let value):
      "\(option): takes no value, got \(Toast.quoted(value))"
    case .missingValue(let option, let expected): "\(option): missing value (\(expected))"
    case .invalidValue(let invalid): "--\(invalid.setting.rawValue): \(invalid.reason)"
    case .misplacedOption(let option, let place): "\(option) belongs to '\(place)'"
    case .notApplicable(let option, let command): "\(command): \(option) does not apply here"
    case .unexpectedArgument(let word, let command):
      "\(command): unexpected argument \(Toast.quoted(word))"
    case .unknownWatchTarget(let word):
      "watch: expected 'sway' or 'river', got \(Toast.quoted(word))"
    case .missingMessage: "missing MESSAGE (needed unless --spinner or --progress is given)"
    case .dimWithoutModal: "--dim needs --modal"
    case .renderOptionWithoutFile: "--scale and --size need --render-png"
    case .invalidChoice(let option, let expected, let value):
      "\(option): expected \(expected), got \(Toast.quoted(value))"
    case .unknownPreset(let name, let names, let file):
      if let file {
        "--preset: no preset \(Toast.quoted(name)) in \(file) (presets: "
          + (names.isEmpty ? "none" : names.joined(separator: ", ")) + ")"
      } else {
        "--preset: no preset \(Toast.quoted(name)): there is no configuration file"
      }
    case .unknownConfigKey(let key): "unknown key \(Toast.quoted(key))"
    }
  }

  /// One line for standard error: `wl-toast: ` and the message.
  public var description: String { "wl-toast: \(message)" }
}

/// The exit statuses of `wl-toast`.
public enum ExitCode {
  /// The toast expired or was hidden, or help or the version was printed.
  public static let success: Int32 = 0
  /// Something went wrong, such as no Wayland compositor to talk to.
  public static let error: Int32 = 1
  /// The user dismissed the toast (see `--dismiss tap`).
  public static let dismissed: Int32 = 2
  /// A newer toast with the same tag replaced it (with `--wait`).
  public static let replaced: Int32 = 3
  /// The command line was wrong (`EX_USAGE`).
  public static let usage: Int32 = 64
}

/// What `wl-toast --version` prints.
public let versionText = "wl-toast \(Toast.version)"

/// What `wl-toast --help` prints: the synopsis, every option and the exit statuses.
public let usageText = """
  Usage: wl-toast [OPTIONS] MESSAGE...
         wl-toast hide [--tag NAME] [--after SECONDS]
         wl-toast status [--tag NAME]
         wl-toast watch sway [--workspaces]
         wl-toast watch river [--focused-tags] [--urgent] [--tag-names N=NAME,...]
         wl-toast daemon
         wl-toast completions bash|zsh|fish

  Show MESSAGE in a toast on a Wayland compositor with layer-shell (sway, river,
  Hyprland). The words of MESSAGE are joined with single spaces; a message of
  more than 4096 characters (Unicode scalars) is cut and ends in "…". MESSAGE
  may be left out when --spinner or --progress is given.

  Options:
    --style hud|banner        a box in the middle (default) or a pill at the top
    --timeout SECONDS|auto    hide after SECONDS (0 to 86400; 0: until dismissed;
                              auto: 0.5 s plus 0.06 s a character, 1.5 to 10 s)
    --spinner                 show an activity indicator above the text (hud)
    --progress PERCENT        show a progress bar filled to PERCENT (0 to 200;
                              beyond 100 in a second colour)
    --offset X,Y              move the hud by X,Y pixels (-10000 to 10000 each)
    --dismiss tap|none        tap lets a click, touch or Escape dismiss the toast
    --modal                   cover the screen and take all input while shown
    --dim                     darken the screen behind the toast (needs --modal)
    --markup                  MESSAGE is Pango markup, e.g. '<b>Saved</b>'
    --no-animation            show and hide at once, without fading or sliding
    --font "FAMILY SIZE"      the Pango font, e.g. "Sans Bold 15"
    --background #RRGGBB[AA]  the colour of the box
    --foreground #RRGGBB[AA]  the colour of the text (default: white)
    --output NAME|all         show on the output NAME (e.g. DP-1) or on all
                              outputs (default: the compositor's choice)
    --position POSITION       center, top, bottom, left, right, top-left,
                              top-right, bottom-left or bottom-right
                              (default: center for hud, top for banner)
    --margin PIXELS           distance to the output's edges (0 to 10000,
                              default 10); the centre ignores it
    --layer overlay|top       overlay (default) shows above fullscreen windows
    --icon NAME|PATH          an icon from the icon theme, or a PNG or SVG file
    --icon-theme THEME        the icon theme to look names up in (then hicolor)
    --grace SECONDS           appear only if still wanted after SECONDS (0 to 60)
    --min-show SECONDS        once shown, stay at least SECONDS (0 to 60)
    --a11y auto|on|off        screen readers hear the toast: auto (default) when
                              one is running, on whenever the accessibility bus
                              runs, off never
    --say TEXT                what a screen reader says instead of MESSAGE
    --tag NAME                one toast per tag: later commands update it in place
    --preset NAME             use [preset NAME] of the configuration file
    --config PATH             read PATH instead of ~/.config/wl-toast/config
    --no-config               read no configuration file (see man 5 wl-toast)
    --render-png FILE         draw the toast into a PNG file, with no compositor
    --scale N                 with --render-png: pixels per logical pixel (1 to 4)
    --size WxH                with --render-png: the output's size (1280x720)
    --wait                    stay until the toast is gone; exit with its outcome
    --print-outcome           with --wait, print expired|hidden|dismissed|replaced
    --follow[=text|json]      read standard input: each line updates the toast;
                              text (default): the line is the message;
                              json: an object setting text, progress, spinner,
                              style or timeout
    --linger SECONDS          keep the background owner this long after its
                              last toast (0 to 60, default 1)
    -h, --help                print this help and exit
    -V, --version             print the version and exit

  A value follows its option as the next argument (--timeout 3) or after '='
  (--timeout=3), and may start with '-' (--offset -20,30). Options may come
  anywhere before '--'; every argument after '--' is part of MESSAGE. A toast
  stays 2 s (hud) or 0.5 s (banner) unless --timeout says otherwise.

  The first command for a tag shows the toast from a background owner and
  returns once its first frame is on screen; later ones hand their content to
  that owner and return at once. 'hide' exits 0 even when nothing showed;
  'status' prints the toast as JSON and exits 0, or exits 1 when none shows.
  'daemon' runs the display's owner in the foreground and keeps it after its
  last toast, so every toast starts warm (exec wl-toast daemon in a sway or
  river config); it fails when an owner already runs.
  'watch river' shows river's mode as a banner while it is not normal; with
  --focused-tags also the tags focused after each change ("Tag 2", "Tags 1+3",
  or names from --tag-names 1=web,2=code), with --urgent a tag that gets an
  urgent view. It runs until river exits.
  To show the word "hide" itself, write: wl-toast -- hide

  Exit status:
    0   the toast expired or was hidden (or: handed over, without --wait)
    1   an error, such as no Wayland compositor
    2   the user dismissed the toast
    3   a newer toast with the same tag replaced it (with --wait)
    64  a usage error
  """

/// Parses the arguments of `wl-toast` (without the program name).
///
/// `-h`/`--help` and `-V`/`--version` win over everything else on the command
/// line, including mistakes, unless they follow `--` or are the value of an
/// option (`--font --help`); otherwise the result is the toast to show or the
/// first mistake found.
public func parseArguments(_ arguments: [String], config: Config? = nil) -> Result<
  Invocation, UsageError
> {
  if let request = helpOrVersion(in: arguments) { return .success(request) }
  return Result { () throws(UsageError) in
    switch arguments.first {
    case "hide": try parseHide(Array(arguments.dropFirst()))
    case "status": try parseStatus(Array(arguments.dropFirst()))
    case "watch": try parseWatch(Array(arguments.dropFirst()))
    case "daemon": try parseDaemon(Array(arguments.dropFirst()))
    case "completions": try parseCompletions(Array(arguments.dropFirst()))
    case "presets": try parsePresets(Array(arguments.dropFirst()))
    default: try parseToast(arguments, config: config)
    }
  }
}

// MARK: - Options

enum Option: String, CaseIterable {
  case style = "--style"
  case timeout = "--timeout"
  case spinner = "--spinner"
  case progress = "--progress"
  case offset = "--offset"
  case dismiss = "--dismiss"
  case modal = "--modal"
  case dim = "--dim"
  case markup = "--markup"
  case noAnimation = "--no-animation"
  case font = "--font"
  case background = "--background"
  case foreground = "--foreground"
  case output = "--output"
  case position = "--position"
  case margin = "--margin"
  case layer = "--layer"
  case icon = "--icon"
  case iconTheme = "--icon-theme"
  case grace = "--grace"
  case minimumShow = "--min-show"
  case accessibility = "--a11y"
  case say = "--say"
  case tag = "--tag"
  case preset = "--preset"
  case config = "--config"
  case noConfig = "--no-config"
  case renderPNG = "--render-png"
  case scale = "--scale"
  case size = "--size"
  case wait = "--wait"
  case printOutcome = "--print-outcome"
  case follow = "--follow"
  case linger = "--linger"
  case after = "--after"
  case workspaces = "--workspaces"
  case focusedTags = "--focused-tags"
  case urgent = "--urgent"
  case tagNames = "--tag-names"
  case help = "--help"
  case version = "--version"

  /// What the value stands for, or nil for a flag.
  var valueName: String? {
    switch self {
    case .style: "hud|banner"
    case .timeout: "SECONDS|auto"
    case .progress: "PERCENT"
    case .offset: "X,Y"
    case .dismiss: "tap|none"
    case .font: "FAMILY SIZE"
    case .background, .foreground: "#RRGGBB[AA]"
    case .output: "NAME|all"
    case .position: "POSITION"
    case .margin: "PIXELS"
    case .layer: "overlay|top"
    case .icon: "NAME|PATH"
    case .iconTheme: "THEME"
    case .grace, .minimumShow: "SECONDS"
    case .accessibility: "auto|on|off"
    case .say: "TEXT"
    case .tag, .preset: "NAME"
    case .config, .renderPNG: "PATH"
    case .scale: "N"
    case .size: "WxH"
    case .linger, .after: "SECONDS"
    case .tagNames: "N=NAME,..."
    case .spinner, .modal, .dim, .markup, .noAnimation, .help, .version, .wait, .printOutcome,
      .follow, .workspaces, .noConfig, .focusedTags, .urgent:
      nil
    }
  }
}

private enum Token {
  /// A known option, with the value given after `=`, if any.
  case option(Option, inlineValue: String?)
  /// Something that starts with `-` but is no option.
  case unknown(String)
  /// `--`.
  case endOfOptions
  /// A word of the message.
  case word(String)
}

private func classify(_ argument: String) -> Token {
  if argument == "--" { return .endOfOptions }
  if argument.hasPrefix("--") {
    let name: Substring
    var value: String?
    if let equals = argument.firstIndex(of: "=") {
      name = argument[..<equals]
      value = String(argument[argument.index(after: equals)...])
    } else {
      name = Substring(argument)
    }
    guard let option = Option(rawValue: String(name)) else { return .unknown(String(name)) }
    return .option(option, inlineValue: value)
  }
  switch argument {
  case "-h": return .option(.help, inlineValue: nil)
  case "-V": return .option(.version, inlineValue: nil)
  default: break
  }
  if argument.hasPrefix("-") && argument != "-" { return .unknown(argument) }
  return .word(argument)
}

/// The first `--help` or `--version` among the options, skipping the values of
/// options that take one (`--font --help` sets the font).
private func helpOrVersion(in arguments: [String]) -> Invocation? {
  var index = arguments.startIndex
  while index < arguments.endIndex {
    switch classify(arguments[index]) {
    case .endOfOptions:
      return nil
    case .option(.help, inlineValue: nil):
      return .help
    case .option(.version, inlineValue: nil):
      return .version
    case .option(let option, inlineValue: nil) where option.valueName != nil:
      index += 1
    case .option, .unknown, .word:
      break
    }
    index += 1
  }
  return nil
}

// MARK: - Parsing

private func parseToast(_ arguments: [String], config: Config?) throws(UsageError) -> Invocation {
  var given: [Item] = []
  // Each option is checked as it comes, so that the first mistake is the one reported.
  var scratch = (toast: Toast(""), options: ShowOptions())
  let words = try scan(arguments, command: nil) { (item) throws(UsageError) in
    try apply(item, to: &scratch.toast, &scratch.options)
    given.append(item)
  }
  // The file's [default], then the preset, then the command line: later wins.
  var preset: String?
  for case .value(.preset, let name) in given { preset = name }
  var items = config.map { configItems($0.defaults, of: $0) } ?? []
  if let preset {
    guard let entries = config?.presets[preset] else {
      throw .unknownPreset(preset, among: config?.presetNames ?? [], file: config?.path)
    }
    items += configItems(entries, of: config)
  }
  var toast = Toast("")
  var options = ShowOptions()
  for item in items + given { try apply(item, to: &toast, &options) }
  if let render = options.render, render.path.isEmpty {
    throw .renderOptionWithoutFile
  }
  let text = words.joined(separator: " ")
  if text.allSatisfy(\.isWhitespace) && !toast.showsSpinner && toast.progress == nil
    && options.follow == nil
  {
    throw .missingMessage
  }
  if toast.dimsBackground && !toast.isModal {
    throw .dimWithoutModal
  }
  toast.text = Toast.truncated(text)
  return .show(toast, options)
}

/// Sets what `item` says in a toast and the options of its command.
private func apply(_ item: Item, to toast: inout Toast, _ options: inout ShowOptions)
  throws(UsageError)
{
  switch item {
  case .flag(.wait): options.wait = true
  case .flag(.printOutcome):
    options.printOutcome = true
    options.wait = true
  case .flag(.follow): options.follow = .text
  case .value(.follow, let value):
    guard let format = FollowFormat(rawValue: value) else {
      throw .invalidChoice("--follow", expected: "text or json", got: value)
    }
    options.follow = format
  case .flag(.workspaces):
    throw .misplacedOption("--workspaces", belongsTo: "wl-toast watch sway")
  case .flag(.focusedTags), .flag(.urgent), .value(.tagNames, _):
    throw .misplacedOption(item.option.rawValue, belongsTo: "wl-toast watch river")
  case .flag(.help), .flag(.version), .flag(.noConfig), .value(.config, _), .value(.preset, _):
    break  // found before (help, version, the file) or by the caller (the preset)
  case .flag(let option): setFlag(option, of: &toast)
  case .unset(.wait): options.wait = false
  case .unset(.printOutcome): options.printOutcome = false
  case .unset(.follow): options.follow = nil
  case .unset(let option): setFlag(option, of: &toast, to: false)
  case .value(.tag, let value): options.tag = try tagValue(value)
  case .value(.linger, let value): options.linger = try seconds(value, of: .linger)
  case .value(.after, _): throw .misplacedOption("--after", belongsTo: "wl-toast hide")
  case .value(.renderPNG, let path):
    guard !path.isEmpty else {
      throw .invalidChoice("--render-png", expected: "the path of a PNG file", got: path)
    }
    var request = options.render ?? RenderRequest(path: path)
    request.path = path
    options.render = request
  case .value(.scale, let value):
    guard let scale = decimal(value), RenderRequest.scales.contains(scale) else {
      throw .invalidChoice("--scale", expected: "a number from 1 to 4", got: value)
    }
    var request = options.render ?? RenderRequest(path: "")
    request.scale = scale
    options.render = request
  case .value(.size, let value):
    let parts = value.split(separator: "x", omittingEmptySubsequences: false)
    guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
      RenderRequest.sizes.contains(width), RenderRequest.sizes.contains(height)
    else {
      throw .invalidChoice("--size", expected: "WxH, each from 64 to 16384", got: value)
    }
    var request = options.render ?? RenderRequest(path: "")
    request.outputWidth = width
    request.outputHeight = height
    options.render = request
  case .value(let option, let value): try setValue(value, of: option, in: &toast)
  }
}

/// An option met on the command line or in the configuration file.
private enum Item {
  /// A flag such as `--spinner`.
  case flag(Option)
  /// A flag turned off (`spinner = false` in the file).
  case unset(Option)
  /// An option with its value.
  case value(Option, String)

  var option: Option {
    switch self {
    case .flag(let option), .unset(let option), .value(let option, _): option
    }
  }
}

// MARK: - The configuration file

/// The options a configuration key may set: every option of a toast, by its
/// name without the dashes; not those that choose the file or the preset, nor
/// help, version and the subcommands' options.
private func configOption(_ key: String) -> Option? {
  guard let option = Option(rawValue: "--" + key) else { return nil }
  switch option {
  case .help, .version, .after, .workspaces, .focusedTags, .urgent, .tagNames, .preset, .config,
    .noConfig, .renderPNG, .scale, .size:
    return nil
  default: return option
  }
}

/// The names of every configuration key, in the order of the options.
public var configKeys: [String] {
  Option.allCases.map { String($0.rawValue.dropFirst(2)) }.filter { configOption($0) != nil }
}

/// A yes/no value: true, false, yes, no, on, off, 1 or 0.
private func boolean(_ value: String) -> Bool? {
  switch value.lowercased() {
  case "true", "yes", "on", "1": true
  case "false", "no", "off", "0": false
  default: nil
  }
}

/// The items of well-formed entries (``Config/checked()`` reported the others).
/// An icon path in the file that is relative (`icons/volume.svg`) is taken
/// from the file's directory, as the user who wrote it meant.
private func configItems(_ entries: [Config.Entry], of config: Config?) -> [Item] {
  entries.compactMap { entry in
    var entry = entry
    if entry.key == "icon", entry.value.contains("/"), !entry.value.hasPrefix("/"),
      let slash = config?.path.lastIndex(of: "/"), let path = config?.path
    {
      entry.value = String(path[...slash]) + entry.value
    }
    return try? item(for: entry)
  }
}

/// The item a configuration entry stands for, checked by the rules of the
/// command line; the error says what is wrong.
private func item(for entry: Config.Entry) throws(UsageError) -> Item {
  guard let option = configOption(entry.key) else { throw .unknownConfigKey(entry.key) }
  if option.valueName == nil {
    if option == .follow, FollowFormat(rawValue: entry.value) != nil {
      return .value(option, entry.value)
    }
    guard let on = boolean(entry.value) else {
      throw .invalidChoice(entry.key, expected: "true or false", got: entry.value)
    }
    return on ? .flag(option) : .unset(option)
  }
  // The value must pass the same checks as on the command line.
  var toast = Toast("")
  switch option {
  case .tag: _ = try tagValue(entry.value)
  case .linger: _ = try seconds(entry.value, of: .linger)
  default: try setValue(entry.value, of: option, in: &toast)
  }
  return .value(option, entry.value)
}

extension Config {
  /// The configuration with every entry checked by the rules of the command
  /// line: a bad key or value moves to ``problems`` as `FILE:LINE: message`.
  public func checked() -> Config {
    var checked = self
    func keep(_ entries: [Entry]) -> [Entry] {
      entries.filter { entry in
        do throws(UsageError) {
          _ = try item(for: entry)
          return true
        } catch {
          if case .invalidValue(let invalid) = error {
            checked.problem(entry.line, "\(entry.key): \(invalid.reason)")
          } else {
            checked.problem(entry.line, error.message)
          }
          return false
        }
      }
    }
    checked.replaceEntries(defaults: keep(defaults), presets: presets.mapValues(keep))
    checked.problems.sort { lineNumber($0) < lineNumber($1) }
    return checked
  }

  /// The line number in a `FILE:LINE: message` problem, for sorting.
  private func lineNumber(_ problem: String) -> Int {
    let rest = problem.dropFirst(path.count + 1)
    return Int(rest.prefix { $0.isNumber }) ?? 0
  }
}

/// Whether the command line asks for no file, another file or the default one.
public enum ConfigChoice: Equatable, Sendable {
  /// `--no-config`.
  case none
  /// `--config PATH`.
  case file(String)
  /// Neither: ``Config/defaultPath``.
  case standard
}

/// The configuration file the arguments ask for (the last `--config` or
/// `--no-config` wins), found before the rest is parsed.
public func configChoice(in arguments: [String]) -> ConfigChoice {
  var choice = ConfigChoice.standard
  var index = arguments.startIndex
  while index < arguments.endIndex {
    switch classify(arguments[index]) {
    case .endOfOptions: return choice
    case .option(.noConfig, _): choice = .none
    case .option(.config, let inline?): choice = .file(inline)
    case .option(.config, nil):
      if index + 1 < arguments.endIndex {
        choice = .file(arguments[index + 1])
        index += 1
      }
    case .option(let option, nil) where option.valueName != nil: index += 1
    case .option, .unknown, .word: break
    }
    index += 1
  }
  return choice
}

/// Walks the arguments in order: hands each option to `handle`, returns the
/// message words. `command` names a subcommand in messages.
private func scan(
  _ arguments: [String], command: String?, _ handle: (Item) throws(UsageError) -> Void
) throws(UsageError) -> [String] {
  var words: [String] = []
  var index = arguments.startIndex
  while index < arguments.endIndex {
    let argument = arguments[index]
    index += 1
    switch classify(argument) {
    case .endOfOptions:
      words += arguments[index...]
      index = arguments.endIndex
    case .word(let word):
      words.append(word)
    case .unknown(let name):
      throw .unknownOption(name, command: command)
    case .option(let option, let inlineValue):
      guard let valueName = option.valueName else {
        // A flag with an optional value, given after '=' only (--follow=json).
        if let inlineValue, option == .follow {
          try handle(.value(option, inlineValue))
          continue
        }
        if let inlineValue {
          throw .valueForFlag(option.rawValue, value: inlineValue)
        }
        try handle(.flag(option))
        continue
      }
      if let inlineValue {
        try handle(.value(option, inlineValue))
      } else if index < arguments.endIndex {
        try handle(.value(option, arguments[index]))
        index += 1
      } else {
        throw .missingValue(option.rawValue, expected: valueName)
      }
    }
  }
  return words
}

/// Parses the options of a subcommand: only those in `allowed`, at most `maximumWords` words.
private func parseSubcommand(
  _ name: String, _ arguments: [String], allowed: Set<Option>,
  words maximumWords: Int = 0
) throws(UsageError) -> (values: [Option: String], flags: Set<Option>, words: [String]) {
  var values: [Option: String] = [:]
  var flags: Set<Option> = []
  let words = try scan(arguments, command: name) { (item) throws(UsageError) in
    switch item {
    case .flag(let option) where allowed.contains(option): flags.insert(option)
    case .value(let option, let value) where allowed.contains(option): values[option] = value
    case .unset: break  // only the configuration file turns flags off
    case .flag(let option), .value(let option, _):
      throw .notApplicable(option.rawValue, command: name)
    }
  }
  if words.count > maximumWords {
    throw .unexpectedArgument(words[maximumWords], command: name)
  }
  return (values, flags, words)
}

private func parseHide(_ arguments: [String]) throws(UsageError) -> Invocation {
  let parsed = try parseSubcommand("hide", arguments, allowed: [.tag, .after])
  let tag = try parsed.values[.tag].map { (value) throws(UsageError) in try tagValue(value) }
  let after = try parsed.values[.after].map { (value) throws(UsageError) in
    try seconds(value, of: .after)
  }
  return .hide(tag: tag ?? Toast.defaultTag, after: after)
}

private func parseStatus(_ arguments: [String]) throws(UsageError) -> Invocation {
  let parsed = try parseSubcommand("status", arguments, allowed: [.tag])
  let tag = try parsed.values[.tag].map { (value) throws(UsageError) in try tagValue(value) }
  return .status(tag: tag ?? Toast.defaultTag)
}

private func parsePresets(_ arguments: [String]) throws(UsageError) -> Invocation {
  _ = try parseSubcommand("presets", arguments, allowed: [])
  return .presets
}

private func parseCompletions(_ arguments: [String]) throws(UsageError) -> Invocation {
  let parsed = try parseSubcommand("completions", arguments, allowed: [], words: 1)
  guard let word = parsed.words.first, let shell = Shell(rawValue: word) else {
    throw .invalidChoice(
      "completions", expected: "bash, zsh or fish", got: parsed.words.first ?? "")
  }
  return .completions(shell)
}

private func parseDaemon(_ arguments: [String]) throws(UsageError) -> Invocation {
  _ = try parseSubcommand("daemon", arguments, allowed: [])
  return .daemon
}

private func parseWatch(_ arguments: [String]) throws(UsageError) -> Invocation {
  let sway: Set<Option> = [.workspaces]
  let river: Set<Option> = [.focusedTags, .urgent, .tagNames]
  let parsed = try parseSubcommand("watch", arguments, allowed: sway.union(river), words: 1)
  let given = parsed.flags.union(parsed.values.keys)
  // The first option (in argument order) that the target does not take.
  func misplaced(_ allowed: Set<Option>) -> Option? {
    arguments.lazy.compactMap { argument -> Option? in
      guard case .option(let option, _) = classify(argument) else { return nil }
      return given.contains(option) && !allowed.contains(option) ? option : nil
    }.first
  }
  switch parsed.words {
  case ["sway"]:
    if let option = misplaced(sway) {
      throw .notApplicable(option.rawValue, command: "watch sway")
    }
    return .watchSway(workspaces: parsed.flags.contains(.workspaces))
  case ["river"]:
    if let option = misplaced(river) {
      throw .notApplicable(option.rawValue, command: "watch river")
    }
    let names = try parsed.values[.tagNames].map { (value) throws(UsageError) in
      try tagNames(value)
    }
    return .watchRiver(
      focusedTags: parsed.flags.contains(.focusedTags), urgent: parsed.flags.contains(.urgent),
      tagNames: names ?? [:])
  default:
    throw .unknownWatchTarget(parsed.words.first ?? "")
  }
}

/// The most characters (Unicode scalars) a tag's name in `--tag-names` may have.
public let maximumTagNameLength = 64

/// Parses `--tag-names`: `N=NAME` pairs separated by commas, each tag number
/// (1 to 32) at most once, each name 1 to ``maximumTagNameLength`` characters
/// without control characters (a name cannot hold a comma).
private func tagNames(_ value: String) throws(UsageError) -> [Int: String] {
  let expected = "N=NAME pairs separated by commas, N from 1 to 32"
  var names: [Int: String] = [:]
  for pair in value.split(separator: ",", omittingEmptySubsequences: false) {
    guard let equals = pair.firstIndex(of: "="),
      let number = Int(pair[..<equals]), (1...32).contains(number),
      pair[..<equals].allSatisfy({ $0.isASCII && $0.isWholeNumber }), names[number] == nil
    else { throw .invalidChoice("--tag-names", expected: expected, got: value) }
    let name = String(pair[pair.index(after: equals)...])
    guard !name.isEmpty, name.unicodeScalars.count <= maximumTagNameLength,
      !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
    else { throw .invalidChoice("--tag-names", expected: expected, got: value) }
    names[number] = name
  }
  return names
}

/// A tag, by the rule of ``Toast/checkedTag(_:)``.
private func tagValue(_ value: String) throws(UsageError) -> String {
  do {
    return try Toast.checkedTag(value)
  } catch {
    throw .invalidValue(error)
  }
}

/// Seconds of `--linger` or `--after`, within their ``Toast/Limits``.
private func seconds(_ value: String, of option: Option) throws(UsageError) -> Double {
  do {
    return try Toast.checkedSeconds(
      decimal(value), of: option == .linger ? .linger : .after, written: value)
  } catch {
    throw .invalidValue(error)
  }
}

private func setFlag(_ option: Option, of toast: inout Toast, to on: Bool = true) {
  switch option {
  case .spinner: toast.showsSpinner = on
  case .modal: toast.isModal = on
  case .dim: toast.dimsBackground = on
  case .markup: toast.isMarkup = on
  case .noAnimation: toast.isAnimated = !on
  default: preconditionFailure("\(option.rawValue) is not a flag")
  }
}

private func setValue(
  _ value: String, of option: Option, in toast: inout Toast
) throws(UsageError) {
  do {
    try setValue(value, of: option, checkedIn: &toast)
  } catch {
    throw .invalidValue(error)
  }
}

/// Sets a toast's setting from an option's value, by the rules of ``Toast/Limits``.
private func setValue(
  _ value: String, of option: Option, checkedIn toast: inout Toast
) throws(Toast.InvalidValue) {
  switch option {
  case .style:
    guard let style = Toast.Style(rawValue: value) else { throw .init(.style, value) }
    toast.style = style
  case .timeout:
    if value == "auto" {
      toast.hasAutomaticTimeout = true
    } else {
      toast.timeout = try Toast.checkedSeconds(decimal(value), of: .timeout, written: value)
      toast.hasAutomaticTimeout = false
    }
  case .progress:
    let number = value.hasSuffix("%") ? String(value.dropLast()) : value
    toast.progress = try Toast.checkedProgress(percent: decimal(number), written: value)
  case .offset:
    let parts = value.split(separator: ",", omittingEmptySubsequences: false)
    let numbers = parts.count == 2 ? parts.map { Int($0).map(Double.init) } : [nil, nil]
    toast.offset = try Toast.checkedOffset(x: numbers[0], y: numbers[1], written: value)
  case .dismiss:
    guard let dismissal = Toast.Dismissal(rawValue: value) else { throw .init(.dismiss, value) }
    toast.dismissal = dismissal
  case .font:
    toast.font = try Toast.checkedFont(value)
  case .background:
    guard let color = Toast.Color(hex: value) else { throw .init(.background, value) }
    toast.background = color
  case .foreground:
    guard let color = Toast.Color(hex: value) else { throw .init(.foreground, value) }
    toast.foreground = color
  case .output:
    toast.output = Toast.OutputChoice(name: try Toast.checkedOutputName(value))
  case .position:
    guard let position = Toast.Position(rawValue: value) else { throw .init(.position, value) }
    toast.position = position
  case .margin:
    toast.margin = try Toast.checkedMargin(Int(value).map(Double.init), written: value)
  case .layer:
    guard let layer = Toast.Layer(rawValue: value) else { throw .init(.layer, value) }
    toast.layer = layer
  case .icon:
    toast.icon = try Toast.checkedIcon(value)
  case .iconTheme:
    toast.iconTheme = try Toast.checkedIconTheme(value)
  case .grace:
    toast.grace = try Toast.checkedSeconds(decimal(value), of: .grace, written: value)
  case .minimumShow:
    toast.minimumShow = try Toast.checkedSeconds(decimal(value), of: .minimumShow, written: value)
  case .accessibility:
    guard let choice = Toast.Accessibility(rawValue: value) else {
      throw .init(.accessibility, value)
    }
    toast.accessibility = choice
  case .say:
    toast.accessibleText = try Toast.checkedAccessibleText(value)
  case .spinner, .modal, .dim, .markup, .noAnimation, .help, .version, .tag, .preset, .config,
    .noConfig, .renderPNG, .scale, .size, .wait,
    .printOutcome, .follow, .linger, .after, .workspaces, .focusedTags, .urgent, .tagNames:
    preconditionFailure("\(option.rawValue) is not a toast setting")
  }
}

// MARK: - Helpers

/// A plain decimal number (`3`, `-1`, `0.5`, `.5`, `+2.`): no exponent, no hex,
/// no `inf` or `nan`.
private func decimal(_ text: String) -> Double? {
  var body = Substring(text)
  if body.first == "+" || body.first == "-" { body = body.dropFirst() }
  let parts = body.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false)
  guard parts.allSatisfy({ $0.allSatisfy { $0.isASCII && $0.isWholeNumber } }),
    parts.contains(where: { !$0.isEmpty })
  else { return nil }
  return Double(text)
}
