import ToastModel

/// What `wl-toast watch backlight` knows of the backlight devices, and what a
/// device's event calls for: the brightness HUD ("Brightness 40%", its bar,
/// `display-brightness-symbolic`) when the device's level changed, or one
/// line the first time a device's level cannot be read.
///
/// Only changes show: the level each device has when the watch starts (or
/// when the device appears) is its baseline, and an event that leaves the
/// level as it was (a `udevadm trigger`) shows nothing.
package struct BacklightState {
  /// A device's attributes as sysfs gives them: nil when missing or unreadable.
  package struct Reading: Equatable, Sendable {
    /// `brightness`.
    package var brightness: String?
    /// `max_brightness`.
    package var maxBrightness: String?

    /// A reading of the two attributes.
    package init(brightness: String?, maxBrightness: String?) {
      self.brightness = brightness
      self.maxBrightness = maxBrightness
    }
  }

  /// A level that can be shown: `brightness` out of `maximum`, above 0.
  package struct Level: Equatable, Sendable {
    /// The brightness.
    package var brightness: UInt64
    /// The maximum brightness, above 0.
    package var maximum: UInt64

    /// The level in percent, rounded, at most 100.
    package var percent: Int {
      Int((Double(min(brightness, maximum)) / Double(maximum) * 100).rounded())
    }
  }

  /// What a device's event calls for.
  package enum Action: Equatable, Sendable {
    /// Show the toast with ``BacklightState/tag``, or update it in place.
    case show(Toast)
    /// Write this line (without the program's name) on standard error.
    case report(String)
  }

  /// The tag of the brightness HUD.
  package static let tag = "brightness"

  /// The last level read of each device, by its path in sysfs.
  private var levels: [String: Level] = [:]
  /// The devices whose unreadable level was reported.
  private var reported: Set<String> = []

  /// A state that knows no device.
  package init() {}

  /// Takes `reading` as the baseline of `device` (present at start, or just
  /// added): nothing shows for it. A level that cannot be read is reported
  /// once its first change comes.
  package mutating func baseline(_ device: String, _ reading: Reading) {
    if case .success(let level) = Self.level(reading) { levels[device] = level }
  }

  /// What the change of `device` to `reading` calls for: nil when its level
  /// is as it was, or when its unreadable level was reported before (since
  /// it was last readable).
  package mutating func changed(_ device: String, _ reading: Reading) -> Action? {
    switch Self.level(reading) {
    case .success(let level):
      // Readable again: should it break again, that is told again.
      reported.remove(device)
      guard levels[device] != level else { return nil }
      levels[device] = level
      return .show(Self.toast(level))
    case .failure(let problem):
      levels[device] = nil
      guard reported.insert(device).inserted else { return nil }
      return .report(
        "watch backlight: \(Self.name(device)): \(problem); its changes show once it can be read")
    }
  }

  /// Forgets `device` (removed): should it come back, it is new.
  package mutating func removed(_ device: String) {
    levels[device] = nil
    reported.remove(device)
  }

  /// The level `reading` says, or what keeps it from saying one.
  package static func level(_ reading: Reading) -> Result<Level, LevelProblem> {
    guard let maxText = reading.maxBrightness else { return .failure(.missing("max_brightness")) }
    let maximum: UInt64
    switch number(maxText, "max_brightness") {
    case .success(let value): maximum = value
    case .failure(let problem): return .failure(problem)
    }
    guard maximum > 0 else { return .failure(.zeroMaximum) }
    guard let text = reading.brightness else { return .failure(.missing("brightness")) }
    return number(text, "brightness").map { Level(brightness: $0, maximum: maximum) }
  }

  /// The brightness HUD for `level`.
  package static func toast(_ level: Level) -> Toast {
    let percent = level.percent
    var toast = Toast(
      "Brightness \(percent)%", timeout: .watcherHUD, progress: Double(percent) / 100)
    toast.icon = "display-brightness-symbolic"
    return toast
  }

  /// The value of the decimal `attribute` (sysfs ends it with a newline).
  private static func number(_ text: String, _ attribute: String) -> Result<UInt64, LevelProblem> {
    var digits = Substring(text)
    while let last = digits.last, last == "\n" || last == " " { digits.removeLast() }
    guard !digits.isEmpty, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
      return .failure(.notANumber(attribute, text))
    }
    guard let value = UInt64(digits) else { return .failure(.tooLarge(attribute, text)) }
    return .success(value)
  }

  /// A device's name in a line: the last part of its path in sysfs.
  private static func name(_ device: String) -> String {
    device.split(separator: "/").last.map(String.init) ?? device
  }
}

/// Why a backlight device's level cannot be read.
package enum LevelProblem: Error, Equatable, Sendable, CustomStringConvertible {
  /// The attribute is missing or unreadable.
  case missing(String)
  /// The attribute is not a decimal number (its text, shortened).
  case notANumber(String, String)
  /// The attribute is a decimal number past 2⁶⁴ − 1 (its text, shortened).
  case tooLarge(String, String)
  /// `max_brightness` is 0.
  case zeroMaximum

  /// What is wrong, as part of a line.
  package var description: String {
    switch self {
    case .missing(let attribute): "\(attribute) is missing or unreadable"
    case .notANumber(let attribute, let text):
      "\(attribute) is not a number (\(Self.quoted(String(text.prefix(40)))))"
    case .tooLarge(let attribute, let text):
      "\(attribute) is too large (\(Self.quoted(String(text.prefix(40)))))"
    case .zeroMaximum: "max_brightness is 0"
    }
  }

  /// `text` quoted and escaped as Swift writes it, and escaped too where
  /// Swift leaves a scalar that breaks the line (U+2028, U+2029).
  private static func quoted(_ text: String) -> String {
    Toast.escapingLineBreaks(String(reflecting: text))
  }
}
