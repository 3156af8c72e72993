import ToastModel
import ToastNagOptions

/// Reads a `wl-toast nag` command line as swaynag 1.7 reads its own: first
/// for `-c`, `-d`, `-h` and `-v` only (the first of `-h` and `-v` wins over
/// everything after it, and over the configuration file), then the
/// configuration file, then the whole command line on top.
///
/// - Parameters:
///   - arguments: the words after `nag`.
///   - environment: the environment, for `HOME`, `XDG_CONFIG_HOME` (where
///     the configuration file is looked for) and `POSIXLY_CORRECT` (which
///     makes the options end at the first word that is not one, as in getopt).
///   - readStandardInput: reads standard input to its end; called at each
///     `-l`, as swaynag reads it (a second `-l` reads nothing more, and so
///     drops the details).
///   - readFile: a file's bytes, or nil when it cannot be read.
/// - Returns: what to do, or why the command line was refused.
public func parseNag(
  _ arguments: [String], environment: [String: String], readStandardInput: () -> [UInt8],
  readFile: (String) -> [UInt8]?
) -> Result<NagInvocation, NagError> {
  do throws(NagStop) {
    return .success(
      .show(
        try nagRequest(
          arguments, environment: environment, readStandardInput: readStandardInput,
          readFile: readFile)))
  } catch {
    switch error {
    case .invocation(let invocation): return .success(invocation)
    case .failed(let failure): return .failure(failure)
    }
  }
}

/// Why reading stopped before a bar: `-h` or `-v`, or an error.
enum NagStop: Error {
  case invocation(NagInvocation)
  case failed(NagError)

  /// An error.
  static func failed(_ message: String, status: Int32 = NagError.usageStatus) -> NagStop {
    .failed(NagError(message, exitStatus: status))
  }
}

/// The bar a command line asks for (swaynag's main).
private func nagRequest(
  _ arguments: [String], environment: [String: String], readStandardInput: () -> [UInt8],
  readFile: (String) -> [UInt8]?
) throws(NagStop) -> NagRequest {
  let inOrder = environment["POSIXLY_CORRECT"] != nil
  let scan = scanNagOptions(arguments, inOrder: inOrder)
  var configPath: String?
  var debug = false
  for occurrence in scan.occurrences {
    switch occurrence.option {
    case .help: throw .invocation(.help)
    case .version: throw .invocation(.version)
    case .config: configPath = occurrence.value
    case .debug: debug = true
    default: break
    }
  }
  if let failure = scan.failure { throw .failed(failure) }

  var parser = NagParser()
  if let configPath {
    try parser.loadConfig(
      path: configPath, contents: readFile(configPath), inOrder: inOrder,
      readStandardInput: readStandardInput)
  } else {
    for path in nagConfigCandidates(environment: environment) {
      guard let contents = readFile(path) else { continue }
      try parser.loadConfig(
        path: path, contents: contents, inOrder: inOrder, readStandardInput: readStandardInput)
      break
    }
  }
  if !arguments.isEmpty {
    parser.types.append(NagType(name: "<args>"))
    let arguments = parser.types.count - 1
    for occurrence in scan.occurrences {
      try parser.apply(occurrence, to: arguments, readStandardInput: readStandardInput)
    }
  }
  return try parser.request(debug: debug)
}

/// What the options given so far have set: swaynag's `struct swaynag` and its list of types.
struct NagParser {
  /// The built-in types, then the configuration file's, then `<args>`.
  var types = NagType.builtIn
  /// The index in ``types`` of the type `-t` chose; nil for `error`.
  var chosenType: Int?
  /// The message; nil until given.
  var message: String?
  /// What the options set of the bar itself (its details, labels, buttons)
  /// and the warnings; ``request(debug:)`` adds the message and the merged
  /// type's settings.
  var bar = NagRequest(message: "", look: Toast.BarLook())

  /// Applies one option as swaynag_parse_options does, its type's settings
  /// to the type at `typeIndex`; `-c` and `-d` do nothing here (the first
  /// pass took them), `-h` and `-v` stop.
  mutating func apply(
    _ occurrence: NagOccurrence, to typeIndex: Int, readStandardInput: () -> [UInt8]
  ) throws(NagStop) {
    let option = occurrence.option
    let value = occurrence.value ?? ""
    switch option {
    case .button, .buttonNoTerminal, .buttonDismiss, .buttonDismissNoTerminal:
      guard let action = occurrence.action else {
        throw .failed(
          "missing action for button \(Toast.quoted(value))", status: NagError.failureStatus)
      }
      var button = NagButton(label: try checkedLabel(value, of: "button"), action: action)
      // -b and -z in a terminal, as swaynag's manual and usage say (its code
      // sets the terminal for -b alone).
      button.inTerminal = option == .button || option == .buttonDismiss
      button.dismisses = option == .buttonDismiss || option == .buttonDismissNoTerminal
      bar.buttons.append(button)
    case .config, .debug: break
    case .help: throw .invocation(.help)
    case .version: throw .invocation(.version)
    case .edge: types[typeIndex].edge = try choice(value, of: "edge")
    case .layer: types[typeIndex].layer = try choice(value, of: "layer")
    case .font: types[typeIndex].font = value
    case .output: types[typeIndex].output = value
    case .detailedMessage: bar.details = try nagDetails(readStandardInput())
    case .detailedButton: bar.detailsButton = try checkedLabel(value, of: "details button")
    case .dismissButton: bar.dismissButton = try checkedLabel(value, of: "dismiss button")
    case .message: message = value
    case .type:
      guard let index = types.firstIndex(named: value) else {
        throw .failed("unknown type \(Toast.quoted(value))", status: NagError.failureStatus)
      }
      chosenType = index
    default:
      if option.lookColor != nil {
        guard let color = parseNagColor(value) else {
          throw .failed(
            "invalid \(option.long) colour \(Toast.quoted(value)) (expected RRGGBB or"
              + " RRGGBBAA, with an optional '#')")
        }
        types[typeIndex].colors[option] = color
      } else if option.lookSize != nil {
        guard let size = parseNagSize(value) else {
          let range = Toast.Limits.barSize
          throw .failed(
            "invalid \(option.long) size \(Toast.quoted(value)) (expected a decimal whole"
              + " number from \(range.lowerBound) to \(range.upperBound), without leading zeros)")
        }
        types[typeIndex].sizes[option] = size
      }
    }
  }

  /// The bar once every option is applied: the types merged as swaynag's
  /// main merges them (defaults, the configuration file's global part, the
  /// chosen type, the command line), a later setting winning only when set.
  func request(debug: Bool) throws(NagStop) -> NagRequest {
    guard let message else {
      throw .failed("no message given: use --message or -m", status: NagError.failureStatus)
    }
    let chosen = types[chosenType ?? types.firstIndex(named: "error") ?? 0]
    var merged = NagType(name: chosen.name)
    if let index = types.firstIndex(named: "<defaults>") { merged.merge(types[index]) }
    if let index = types.firstIndex(named: "<config>") { merged.merge(types[index]) }
    merged.merge(chosen)
    if let index = types.firstIndex(named: "<args>") { merged.merge(types[index]) }

    // The bar: the dismiss button, the others, the details button last.
    let labels =
      [bar.dismissButton] + bar.buttons.map(\.label)
      + (bar.details == nil ? [] : [bar.detailsButton])
    let limit = Toast.Limits.buttonCount
    guard labels.count <= limit else {
      throw .failed(
        "too many buttons: the bar holds \(limit) with the dismiss and details buttons, and"
          + " \(Toast.quoted(labels[limit])) is number \(limit + 1)")
    }

    var font = merged.font ?? ""
    if font.utf8.starts(with: "pango:".utf8) {
      font = String(decoding: font.utf8.dropFirst(6), as: UTF8.self)
    }
    var request = bar
    request.message = message
    request.edge = merged.edge ?? .top
    request.layer = merged.layer ?? .top
    request.font = font
    request.output = merged.output
    request.typeName = merged.name
    request.debug = debug
    request.look = merged.look
    return request
  }
}

/// The case of `Choice` named `value`; a failure naming `setting` and
/// every case otherwise (`expected top or bottom`).
private func choice<Choice: RawRepresentable<String> & CaseIterable>(
  _ value: String, of setting: String
) throws(NagStop) -> Choice {
  guard let choice = Choice(rawValue: value) else {
    let names = Choice.allCases.map(\.rawValue)
    let expected = names.dropLast().joined(separator: ", ") + " or " + (names.last ?? "")
    throw .failed(
      "invalid \(setting): \(Toast.quoted(value)) (expected \(expected))",
      status: NagError.failureStatus)
  }
  return choice
}

/// A button's label checked with ``Toast/checkedButton(_:)``.
private func checkedLabel(_ label: String, of button: String) throws(NagStop) -> String {
  guard let label = try? Toast.checkedButton(label) else {
    throw .failed(
      "invalid \(button) label \(Toast.quoted(label)) (expected 1 to"
        + " \(Toast.Limits.buttonLabelLength) characters on one line, not blank)")
  }
  return label
}

/// The details of standard input's bytes, as swaynag's read_from_stdin
/// gives them: nil when there are none, trailing newlines removed. A NUL
/// byte ends a line: sway writes each configuration error followed by one,
/// which swaynag's older line reader took for a line's end (1.7's getline
/// and "%s" stop at the first NUL, so show only the first error).
///
/// The limit holds for the bytes as read, trailing newlines included: the
/// command reads one byte past it, and whatever that byte is, more follows.
/// Bytes that are not UTF-8 show as U+FFFD, as a toast's message's do: sway
/// copies a configuration's lines as they are, and the bar still tells
/// their errors.
func nagDetails(_ bytes: [UInt8]) throws(NagStop) -> String? {
  guard !bytes.isEmpty else { return nil }
  let limit = Toast.Limits.detailsLength
  guard bytes.count <= limit else {
    throw .failed("the detailed message on standard input is longer than \(limit) bytes")
  }
  var text = bytes.map { $0 == 0 ? UInt8(ascii: "\n") : $0 }
  while text.last == UInt8(ascii: "\n") { text.removeLast() }
  return String(decoding: text, as: UTF8.self)
}
