import Bus
import ToastModel

/// A notification's image: its pixels, a file or an icon from the theme.
package enum NotificationImage: Equatable, Sendable {
  /// Pixels (`image-data`, `image_data`, `icon_data`), scaled down to
  /// ``NotificationRequest/Limits/imageSide``.
  case pixels(Toast.Image)
  /// An absolute path (given as one or as a `file://` URI).
  case file(String)
  /// A freedesktop icon name.
  case iconName(String)

  /// The image a string names, as `app_icon` and `image-path` give it: an
  /// absolute path, a `file://` URI (percent-decoded, its host empty or
  /// `localhost`) or an icon name (no slash); nil for none of those
  /// (empty, relative, another URI's scheme, a control character, longer
  /// than ``NotificationRequest/Limits/pathBytes``).
  package init?(reference: String) {
    guard (try? Toast.checkedIcon(reference)) != nil else { return nil }
    if reference.hasPrefix("/") {
      self = .file(reference)
    } else if reference.hasPrefix("file://") {
      var rest = Substring(reference.dropFirst("file://".count))
      if rest.hasPrefix("localhost/") { rest = rest.dropFirst("localhost".count) }
      guard rest.hasPrefix("/"), let path = percentDecoded(rest),
        (try? Toast.checkedIcon(path)) != nil
      else { return nil }
      self = .file(path)
    } else {
      guard !reference.contains("/") else { return nil }
      self = .iconName(reference)
    }
  }
}

/// The text of a URI's path with its `%XX` escapes decoded; nil for a broken
/// escape or bytes that are not UTF-8.
private func percentDecoded(_ text: Substring) -> String? {
  guard let bytes = BusAddress.percentDecoded(text), !bytes.contains(0) else { return nil }
  return String(validating: bytes, as: UTF8.self)
}

/// The hints of a `Notify` call that the server reads. A hint of a type it
/// cannot read (a string where a number belongs) is ignored as if absent,
/// but for the images in pixels, which are checked and refused
/// (``NotificationRequest/init(decoding:)``).
package struct NotificationHints: Equatable, Sendable {
  /// `urgency` (a byte, or any integer): 0 low, 1 normal, 2 critical;
  /// another value is normal.
  package var urgency: Toast.Urgency = .normal
  /// The image, by the specification's priority: `image-data`,
  /// `image_data`, `image-path`, `image_path`, then the call's `app_icon`
  /// (nil here: the request's ``NotificationRequest/appIcon``), then
  /// `icon_data` (read only when `app_icon` names no image).
  package var image: NotificationImage?
  /// `image-path` (else `image_path`) as given, for criteria (`app-icon`);
  /// nil when absent or empty.
  package var imagePath: String?
  /// `value` (any integer): the progress in percent; above 100 kept (the
  /// toast draws up to 200 as its overflow); nil when absent or negative.
  package var value: Int?
  /// The stack tag: `x-dunst-stack-tag`, else `x-canonical-private-synchronous`
  /// (a non-empty string); a notification with the same tag and app name
  /// updates the one shown.
  package var stackTag: String?
  /// `transient` (a boolean or an integer): the server keeps no history of it.
  package var transient = false
  /// `resident` (a boolean or an integer): an action does not close it.
  package var resident = false
  /// `category` (`email.arrived`).
  package var category: String?
  /// `desktop-entry`: the application's desktop file, without `.desktop`.
  package var desktopEntry: String?
  /// `sound-name`: a sound theme's name.
  package var soundName: String?
  /// `sound-file`: a sound file's path.
  package var soundFile: String?
  /// `suppress-sound` (a boolean or an integer).
  package var suppressSound = false

  /// Hints with every default: no image, normal urgency.
  package init() {}

  /// The hints of an `a{sv}` read from the wire, the call's `app_icon`
  /// beside them for the image's priority. The first entry of a key counts;
  /// values of other keys are passed over unread.
  ///
  /// - Throws: ``NotificationRefusal/limitsExceeded`` for more than
  ///   ``NotificationRequest/Limits/hints`` hints; the refusals of
  ///   ``ImageData/image(_:hint:)`` for the image in pixels chosen;
  ///   ``NotificationRefusal/invalidArguments`` for bytes that do not read.
  package init(decoding reader: inout WireReader, appIcon: String) throws(NotificationRefusal) {
    var entries: [String: HintValue] = [:]
    var count = 0
    try wire {
      try reader.array(alignment: 8) { (entry) throws(WireReader.Failure) in
        try entry.align(8)
        let key = try entry.string()
        let type = try entry.signature()
        guard WireSignature.isSingleType(type[...].utf8) else {
          throw WireReader.Failure("a hint's value of no single type")
        }
        count += 1
        if count <= NotificationRequest.Limits.hints, entries[key] == nil,
          HintValue.keys.contains(key)
        {
          entries[key] = try HintValue(type, from: &entry)
        } else {
          try entry.skip(type[...].utf8)
        }
      }
    }
    guard count <= NotificationRequest.Limits.hints else {
      throw .tooLarge("hints: \(count), at most \(NotificationRequest.Limits.hints)")
    }
    func integer(_ key: String) -> Int64? {
      if case .integer(let value, _) = entries[key] { value } else { nil }
    }
    func flag(_ key: String) -> Bool {
      switch entries[key] {
      case .boolean(let value): value
      case .integer(let value, _): value != 0
      default: false
      }
    }
    func string(_ key: String, bytes: Int = NotificationRequest.Limits.hintStringBytes) -> String? {
      guard case .string(let value) = entries[key], !value.isEmpty, value.utf8.count <= bytes
      else { return nil }
      return value
    }
    switch integer("urgency") {
    case 0: urgency = .low
    case 2: urgency = .critical
    default: urgency = .normal
    }
    value = integer("value").flatMap { $0 < 0 ? nil : Int(clamping: $0) }
    stackTag = string("x-dunst-stack-tag") ?? string("x-canonical-private-synchronous")
    transient = flag("transient")
    resident = flag("resident")
    category = string("category")
    desktopEntry = string("desktop-entry")
    soundName = string("sound-name")
    soundFile = string("sound-file", bytes: NotificationRequest.Limits.pathBytes)
    suppressSound = flag("suppress-sound")
    imagePath =
      string("image-path", bytes: NotificationRequest.Limits.pathBytes)
      ?? string("image_path", bytes: NotificationRequest.Limits.pathBytes)
    image = try Self.image(in: entries, appIcon: appIcon) { key in
      string(key, bytes: NotificationRequest.Limits.pathBytes)
    }
  }

  /// The image of the hints by the specification's priority; an `app_icon`
  /// that names an image goes before `icon_data`: then nil.
  private static func image(
    in hints: [String: HintValue], appIcon: String, path: (String) -> String?
  ) throws(NotificationRefusal) -> NotificationImage? {
    for key in ["image-data", "image_data"] {
      if let value = hints[key] { return .pixels(try ImageData.image(value, hint: key)) }
    }
    for key in ["image-path", "image_path"] {
      if let reference = path(key), let image = NotificationImage(reference: reference) {
        return image
      }
    }
    guard NotificationImage(reference: appIcon) == nil, let value = hints["icon_data"] else {
      return nil
    }
    return .pixels(try ImageData.image(value, hint: "icon_data"))
  }
}

/// A hint's value as the server reads it: a number of any integer type, a
/// boolean, a string, an image's parts, or the type of anything else.
enum HintValue {
  case integer(Int64, type: String)
  case boolean(Bool)
  case string(String)
  case image(ImageData.Parts)
  case other(type: String)

  /// The keys whose values are read; others are passed over.
  static let keys: Set<String> = [
    "urgency", "value", "x-dunst-stack-tag", "x-canonical-private-synchronous", "transient",
    "resident", "category", "desktop-entry", "sound-name", "sound-file", "suppress-sound",
    "image-data", "image_data", "image-path", "image_path", "icon_data",
  ]

  /// Reads a value of the single complete type `type`.
  init(_ type: String, from reader: inout WireReader) throws(WireReader.Failure) {
    switch type {
    case "y": self = .integer(Int64(try reader.byte()), type: type)
    case "n": self = .integer(Int64(try reader.int16()), type: type)
    case "q": self = .integer(Int64(try reader.uint16()), type: type)
    case "i": self = .integer(Int64(try reader.int32()), type: type)
    case "u": self = .integer(Int64(try reader.uint32()), type: type)
    case "x": self = .integer(try reader.int64(), type: type)
    case "t": self = .integer(Int64(clamping: try reader.uint64()), type: type)
    case "b": self = .boolean(try reader.boolean())
    case "s": self = .string(try reader.string())
    case "(iiibiiay)":
      try reader.align(8)
      let width = try reader.int32()
      let height = try reader.int32()
      let rowstride = try reader.int32()
      let hasAlpha = try reader.boolean()
      let bits = try reader.int32()
      let channels = try reader.int32()
      let bytes = reader.slice(try reader.byteArray())
      self = .image(
        ImageData.Parts(
          width: Int(width), height: Int(height), rowstride: Int(rowstride), hasAlpha: hasAlpha,
          bits: Int(bits), channels: Int(channels), bytes: bytes))
    default:
      try reader.skip(type[...].utf8)
      self = .other(type: type)
    }
  }
}
