/// The parsers under fuzzing, one input at a time.
///
/// Each target is a function of the input's bytes that libFuzzer runs through
/// `wl-toast-fuzz` (`make fuzz`) and that `FuzzReplayTests` runs on every
/// committed seed and crash: the same body, so that a crash found by the
/// fuzzer stays fixed. A target reads its input as the program it stands for
/// would (invalid UTF-8 becomes U+FFFD, as on the socket, on standard input
/// and in argv) and throws when a result breaks an invariant; a crash is a
/// crash in either place.
package enum FuzzTarget: String, CaseIterable, Sendable {
  /// `OwnerRequest(decoding:)` and `OwnerReply(decoding:)`: one socket message.
  case messages
  /// `JSONValue.parse`, and parse, serialize, parse again to an equal value.
  case json
  /// `Toast.apply(followLine:)`: a `--follow` input, line by line.
  case follow
  /// `parseArguments`: a command line, its arguments separated by NUL bytes.
  case arguments
  /// `Config`: a configuration file's text, its notification rules (criteria,
  /// regular expressions) and their JSON.
  case config
  /// `TextBlock.markupError` and `ToastLayout` of a message as Pango markup.
  case markup
  /// `ProtocolSpec(xml:)` and the Swift the generator writes from the protocol.
  case scanner
  /// `BusInput` and the screen-reader unit: what a D-Bus bus sends, read,
  /// answered (method calls) and read as the announcer reads it.
  case bus
  /// `parseNag`: `wl-toast nag`'s command line, standard input and config file.
  case nag
  /// `BodyMarkup` of a notification's body, and a `Notify` call's body
  /// decoded (`NotificationRequest`) and shown as a card (`NotificationCard`).
  case notifications
  /// What `watch media` reads of MPRIS players and the bus (`MprisClient`,
  /// `MediaState`), a cover's URI and file head (`MediaCover`), and what
  /// `watch backlight` reads of sysfs (`BacklightState`).
  case watchers
  /// `SVGWeight`: the elements an SVG icon draws, counted before librsvg
  /// draws it (a `<use>` bomb refused).
  case svg

  /// Runs one input through the target.
  ///
  /// - Throws: An ``InvariantViolation`` when the result breaks one of the
  ///   target's invariants.
  package func run(_ input: [UInt8]) throws(InvariantViolation) {
    switch self {
    case .messages: try fuzzMessages(input)
    case .json: try fuzzJSON(input)
    case .follow: try fuzzFollow(input)
    case .arguments: try fuzzArguments(input)
    case .config: try fuzzConfig(input)
    case .markup: try fuzzMarkup(input)
    case .scanner: try fuzzScanner(input)
    case .bus: try fuzzBus(input)
    case .nag: try fuzzNag(input)
    case .notifications: try fuzzNotifications(input)
    case .watchers: try fuzzWatchers(input)
    case .svg: try fuzzSVG(input)
    }
  }
}

/// A result that breaks an invariant of a fuzz target: what was expected, and
/// what came instead.
package struct InvariantViolation: Error, Equatable, CustomStringConvertible {
  /// One sentence.
  package var description: String

  init(_ description: String) {
    self.description = description
  }
}

/// Throws `violation` unless `condition` holds.
func require(
  _ condition: Bool, _ violation: @autoclosure () -> String
) throws(InvariantViolation) {
  if !condition { throw InvariantViolation(violation()) }
}

/// The input as text, as the program reads it: invalid UTF-8 becomes U+FFFD.
func text(of input: [UInt8]) -> String {
  String(decoding: input, as: UTF8.self)
}

/// Whether `text` fits on one line of standard error.
func isOneLine(_ text: String) -> Bool {
  !text.contains(where: \.isNewline)
}
