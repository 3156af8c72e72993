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

/// A look with swaynag's default sizes and these colours.
func barLook(
  background: String, text: String, buttonBackground: String, buttonText: String,
  border: String, borderBottom: String, detailsBackground: String
) -> Toast.BarLook {
  var look = Toast.BarLook()
  look.background = color(background)
  look.text = color(text)
  look.buttonBackground = color(buttonBackground)
  look.buttonText = color(buttonText)
  look.border = color(border)
  look.borderBottom = color(borderBottom)
  look.detailsBackground = color(detailsBackground)
  look.borderBottomSize = 2
  look.messagePadding = 8
  look.detailsBorderSize = 3
  look.buttonBorderSize = 3
  look.buttonGap = 20
  look.buttonDismissGap = 15
  look.buttonMarginRight = 2
  look.buttonPadding = 3
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
