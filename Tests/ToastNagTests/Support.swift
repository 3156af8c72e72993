import Testing
import ToastModel
import ToastNag

/// The home directory of the tests' environment.
let home = "/home/u"

/// What one `wl-toast nag` command line gave, and what it read.
struct NagRun {
  /// The result.
  var result: Result<NagInvocation, NagError>
  /// How many times standard input was read.
  var standardInputReads: Int
  /// The files asked for, in order.
  var filesAsked: [String]

  /// The bar to show; nil for help, version or an error.
  var request: NagRequest? {
    guard case .success(.show(let request)) = result else { return nil }
    return request
  }

  /// The error; nil when the command line was accepted.
  var error: NagError? {
    guard case .failure(let error) = result else { return nil }
    return error
  }
}

/// Parses a command line with standard input `stdin` (read to its end at
/// the first read, nothing after) and the files `files` (path to contents).
func nag(
  _ arguments: [String], environment: [String: String] = ["HOME": home], stdin: [UInt8] = [],
  files: [String: [UInt8]] = [:]
) -> NagRun {
  var remaining = stdin
  var reads = 0
  var asked: [String] = []
  let result = parseNag(
    arguments, environment: environment,
    readStandardInput: {
      reads += 1
      defer { remaining = [] }
      return remaining
    },
    readFile: { path in
      asked.append(path)
      return files[path]
    })
  return NagRun(result: result, standardInputReads: reads, filesAsked: asked)
}

/// Parses a command line with standard input and files given as text.
func nag(
  _ arguments: [String], environment: [String: String] = ["HOME": home], stdin: String,
  files: [String: String] = [:]
) -> NagRun {
  nag(
    arguments, environment: environment, stdin: Array(stdin.utf8),
    files: files.mapValues { Array($0.utf8) })
}

/// Parses a command line with the first configuration file swaynag looks for.
func nag(_ arguments: [String], config: String, stdin: String = "") -> NagRun {
  nag(arguments, stdin: stdin, files: [home + "/.swaynag/config": config])
}

/// A colour as swaynag writes it.
func color(_ hex: String) -> Toast.Color {
  Toast.Color(hex: hex)!
}

/// A look with swaynag's default sizes (the standard look's, with swaynag's
/// dismiss gap) and these colours.
func barLook(
  background: String, text: String, buttonBackground: String, buttonText: String,
  border: String, borderBottom: String, detailsBackground: String
) -> Toast.BarLook {
  var look = Toast.BarLook.standard
  look.buttonDismissGap = 15
  let colors: [(WritableKeyPath<Toast.BarLook, Toast.Color>, String)] = [
    (\.background, background), (\.text, text), (\.buttonBackground, buttonBackground),
    (\.buttonText, buttonText), (\.border, border), (\.borderBottom, borderBottom),
    (\.detailsBackground, detailsBackground),
  ]
  for (field, hex) in colors { look[keyPath: field] = color(hex) }
  return look
}

/// swaynag's `error` type over its defaults (swaynag_types.c).
let errorLook = barLook(
  background: "900000", text: "FFFFFF", buttonBackground: "680A0A", buttonText: "FFFFFF",
  border: "D92424", borderBottom: "470909", detailsBackground: "680A0A")

/// swaynag's `warning` type over its defaults.
let warningLook = barLook(
  background: "FFA800", text: "000000", buttonBackground: "FFC100", buttonText: "000000",
  border: "AB7100", borderBottom: "AB7100", detailsBackground: "FFC100")

/// swaynag's `<defaults>` alone (a type that sets no colour).
let defaultsLook = barLook(
  background: "323232", text: "FFFFFF", buttonBackground: "333333", buttonText: "FFFFFF",
  border: "222222", borderBottom: "444444", detailsBackground: "333333")

extension NagButton {
  /// This button with `flag` set: ``NagButton/inTerminal`` for `-b`,
  /// ``NagButton/dismisses`` for `-z` and `-Z`.
  func with(_ flag: WritableKeyPath<NagButton, Bool>) -> NagButton {
    var button = self
    button[keyPath: flag] = true
    return button
  }
}
