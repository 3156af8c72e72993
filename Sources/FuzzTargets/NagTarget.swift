import ToastModel
import ToastNag

/// `wl-toast nag`'s command line and standard input: NUL-separated words, then
/// after a first empty word (two NULs) the bytes standard input holds; the
/// words before a word `--config-text` are argv, the bytes after it the text of
/// the configuration file `-c` names (and the one found by default). Whatever
/// comes, the result is a request within the limits, help, the version, or
/// one error of one line with a documented status.
func fuzzNag(_ input: [UInt8]) throws(InvariantViolation) {
  var words = input.split(separator: 0, omittingEmptySubsequences: false).map { Array($0) }
  var stdin: [UInt8] = []
  if let empty = words.firstIndex(where: { $0.isEmpty }) {
    stdin = Array(words[(empty + 1)...].joined(separator: [0]))
    words = Array(words[..<empty])
  }
  var arguments = words.map { text(of: $0) }
  var file: [UInt8]?
  if let marker = arguments.firstIndex(of: "--config-text") {
    file = Array(arguments[(marker + 1)...].joined(separator: "\n").utf8)
    arguments = Array(arguments[..<marker])
  }
  // Each -l reads standard input again, as swaynag's does (a second read finds its end).
  var unread = stdin
  let result = parseNag(
    arguments, environment: ["HOME": "/home/fuzz"],
    readStandardInput: {
      defer { unread = [] }
      return unread
    }, readFile: { _ in file })
  switch result {
  case .failure(let error):
    try require(isOneLine(error.message), "an error on several lines: \(error.message)")
    try require(
      [NagError.failureStatus, NagError.usageStatus].contains(error.exitStatus),
      "status \(error.exitStatus)")
  case .success(.help), .success(.version):
    break
  case .success(.show(let request)):
    try require(
      request.buttons.count + 1 + (request.details == nil ? 0 : 1) <= Toast.Limits.buttonCount,
      "\(request.buttons.count) buttons")
    for label in request.buttons.map(\.label) + [request.dismissButton, request.detailsButton] {
      try require((try? Toast.checkedButton(label)) != nil, "label \(Toast.quoted(label))")
    }
    try require(
      (request.details?.utf8.count ?? 0) <= Toast.Limits.detailsLength, "details too long")
    for size in [
      request.look.borderBottomSize, request.look.messagePadding, request.look.buttonPadding,
      request.look.buttonGap, request.look.buttonDismissGap, request.look.buttonMarginRight,
      request.look.detailsBorderSize, request.look.buttonBorderSize,
    ] {
      try require(Toast.Limits.barSize.contains(size), "size \(size)")
    }
  }
}
