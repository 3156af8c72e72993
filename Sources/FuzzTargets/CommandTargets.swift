import ToastCommand
import ToastModel

/// A socket message, read both as a request (as the owner reads it) and as a
/// reply (as a command reads it). Whatever decodes, its encoding decodes again,
/// to a message that encodes to the same text: the owner accepts what a command
/// writes, and the other way round. (Progress travels rounded to 0.1 %, so the
/// text, not the first decoded value, is the fixed point.)
func fuzzMessages(_ input: [UInt8]) throws(InvariantViolation) {
  let message = text(of: input)
  try fixedPoint("request", of: message, decode: OwnerRequest.init(decoding:), encode: \.encoded)
  try fixedPoint("reply", of: message, decode: OwnerReply.init(decoding:), encode: \.encoded)
}

/// When `message` decodes, its encoding decodes to a message that encodes to the same text.
private func fixedPoint<Message>(
  _ kind: String, of message: String, decode: (String) throws -> Message,
  encode: (Message) -> String
) throws(InvariantViolation) {
  guard let decoded = try? decode(message) else { return }
  let encoded = encode(decoded)
  let again: Message
  do {
    again = try decode(encoded)
  } catch {
    throw InvariantViolation("\(kind) \(encoded) does not decode: \(error)")
  }
  try require(encode(again) == encoded, "\(kind) \(encoded) re-encodes as \(encode(again))")
}

/// A JSON text. A syntax error points into the text; a value serializes to
/// JSON that parses to an equal value and serializes to the same text.
func fuzzJSON(_ input: [UInt8]) throws(InvariantViolation) {
  let json = text(of: input)
  let value: JSONValue
  do {
    value = try JSONValue.parse(json)
  } catch {
    try require(
      (0...json.utf8.count).contains(error.offset),
      "error offset \(error.offset) outside a text of \(json.utf8.count) bytes")
    try require(isOneLine(error.description), "error on several lines: \(error.description)")
    return
  }
  let serialized = value.serialized
  let again: JSONValue
  do {
    again = try JSONValue.parse(serialized)
  } catch {
    throw InvariantViolation("serialized \(serialized) does not parse: \(error)")
  }
  try require(again == value, "\(serialized) parses to a different value")
  try require(again.serialized == serialized, "\(serialized) serializes again differently")
}

/// The lines of a `--follow` input, split by the command's own reader of
/// standard input (``LineReader``), the input given to it in its reads.
func followLines(_ input: [UInt8]) -> [String] {
  var offset = 0
  var reader = LineReader(reading: { chunk in
    let count = min(chunk.count, input.count - offset)
    chunk.replaceSubrange(0..<count, with: input[offset..<(offset + count)])
    offset += count
    return count
  })
  var lines: [String] = []
  while let line = reader.next() { lines.append(line) }
  return lines
}

/// A `--follow` input applied line by line to one toast, as text when its first
/// byte is even and as JSON lines otherwise: a refused line changes nothing and
/// is refused in one line; an accepted one leaves every setting within the
/// limits, and a JSON line never changes an input mode or the looks.
func fuzzFollow(_ input: [UInt8]) throws(InvariantViolation) {
  let format: FollowFormat = (input.first ?? 0) % 2 == 0 ? .text : .json
  var toast = Toast("")
  for line in followLines(input) {
    let before = toast
    do {
      try toast.apply(followLine: line, format: format)
    } catch {
      try require(toast == before, "a refused line changed the toast: \(error)")
      try require(!error.description.contains("\n"), "a refusal of two lines: \(error)")
      continue
    }
    try require(toast.normalized() == toast, "a line set a value outside the limits: \(toast)")
    var modes = toast
    modes.text = before.text
    modes.progress = before.progress
    modes.showsSpinner = before.showsSpinner
    modes.style = before.style
    modes.timeout = before.timeout
    try require(modes == before, "a follow line changed more than the content: \(toast)")
  }
}

/// A command line, its arguments separated by NUL bytes (as they are in
/// `/proc/PID/cmdline`). What parses is within the limits; a usage error is one line.
func fuzzArguments(_ input: [UInt8]) throws(InvariantViolation) {
  let arguments = input.split(separator: 0, omittingEmptySubsequences: false).map {
    text(of: Array($0))
  }
  switch parseArguments(arguments) {
  case .failure(let error):
    try require(isOneLine(error.description), "usage error on several lines: \(error)")
  case .success(.show(let toast, let options)):
    try require(toast.normalized() == toast, "a toast outside the limits: \(toast)")
    try require(!toast.dimsBackground || toast.isModal, "--dim without --modal")
    try requireTag(options.tag)
    try require(Toast.Limits.linger.contains(options.linger), "linger \(options.linger)")
  case .success(.hide(let tag, let after)):
    try requireTag(tag)
    try require(after.map(Toast.Limits.hideDelay.contains) ?? true, "after \(after ?? 0)")
  case .success(.status(let tag)):
    try requireTag(tag)
  case .success(.watch(let request)):
    try require(!request.targets.isEmpty, "a watch of nothing")
    try require(
      Set(request.targets.map(\.word)).count == request.targets.count, "a target given twice")
    for case .river(let options) in request.targets {
      for (number, name) in options.tagNames {
        try require((1...32).contains(number), "tag number \(number)")
        try require(
          !name.isEmpty && name.unicodeScalars.count <= RiverWatchOptions.tagNameLength
            && !name.contains(","), "tag name \(Toast.quoted(name))")
      }
    }
  case .success(.daemon(let notifications, let replace, let maxHistory)):
    try require(notifications || !replace, "--replace without --notifications")
    try require(notifications || maxHistory == nil, "--max-history without --notifications")
    try require(
      maxHistory.map(NotificationRule.historyLimits.contains) ?? true, "max-history out of range")
  case .success(.notifications(let request)):
    switch request {
    case .dismiss(let id?), .invoke(let id, _): try require(id > 0, "notification id 0")
    default: break
    }
  case .success(.help), .success(.version),
    .success(.completions), .success(.presets), .success(.nag), .success(.doNotDisturb):
    break
  }
}

/// Throws unless `tag` is one that ``Toast/checkedTag(_:)`` accepts.
private func requireTag(_ tag: String) throws(InvariantViolation) {
  try require((try? Toast.checkedTag(tag)) == tag, "tag \(Toast.quoted(tag)) outside the limits")
}

/// A configuration file's text, as `wl-toast` reads it: every problem is one
/// `config:LINE: message` line; each notification rule's JSON (the criteria
/// as a section writes them, regular expressions included) reads back to
/// the same rule, and its criteria are matched against a notification.
func fuzzConfig(_ input: [UInt8]) throws(InvariantViolation) {
  let config = Config(text: text(of: input), path: "config").checked()
  for problem in config.problems {
    try require(problem.hasPrefix("config:") && isOneLine(problem), "problem \(problem)")
  }
  let subject = NotificationCriteria.Subject(
    appName: "Spotify", summary: "Now playing", body: String(repeating: "ab", count: 3000))
  for rule in config.notificationRules() {
    let again: NotificationRule
    do {
      again = try NotificationRule(json: JSONValue.parse(rule.json.serialized))
    } catch {
      throw InvariantViolation("rule \(rule.json.serialized) does not read back: \(error)")
    }
    try require(
      again == rule, "rule \(rule.json.serialized) reads back as \(again.json.serialized)")
    _ = rule.criteria?.matches(subject)
  }
}
