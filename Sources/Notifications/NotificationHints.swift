import Bus
import CGio
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

  /// The hints of an `a{sv}`, the call's `app_icon` beside them for the
  /// image's priority.
  ///
  /// - Throws: ``NotificationRefusal/limitsExceeded`` for more than
  ///   ``NotificationRequest/Limits/hints`` hints; the refusals of
  ///   ``ImageData/image(_:hint:)`` for the image in pixels chosen.
  package init(decoding hints: OpaquePointer, appIcon: String) throws(NotificationRefusal) {
    let count = Variant.count(of: hints)
    guard count <= NotificationRequest.Limits.hints else {
      throw .tooLarge("hints: \(count), at most \(NotificationRequest.Limits.hints)")
    }
    let entries = VariantDictionary(hints)
    func integer(_ key: String) -> Int64? { entries.value(key, Variant.integer(of:)) }
    func flag(_ key: String) -> Bool {
      entries.value(key) { Variant.bool($0) ?? Variant.integer(of: $0).map { $0 != 0 } } ?? false
    }
    func string(_ key: String, bytes: Int = NotificationRequest.Limits.hintStringBytes) -> String? {
      entries.value(key) { value in
        Variant.has(value, type: "s") ? Variant.text(value) : nil
      }.flatMap { $0.isEmpty || $0.utf8.count > bytes ? nil : $0 }
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
    image = try Self.image(in: entries, appIcon: appIcon) { key in
      string(key, bytes: NotificationRequest.Limits.pathBytes)
    }
  }

  /// The image of the hints by the specification's priority; an `app_icon`
  /// that names an image goes before `icon_data`: then nil.
  private static func image(
    in hints: VariantDictionary, appIcon: String, path: (String) -> String?
  ) throws(NotificationRefusal) -> NotificationImage? {
    for key in ["image-data", "image_data"] {
      if let image = try pixels(in: hints, key) { return .pixels(image) }
    }
    for key in ["image-path", "image_path"] {
      if let reference = path(key), let image = NotificationImage(reference: reference) {
        return image
      }
    }
    guard NotificationImage(reference: appIcon) == nil else { return nil }
    return try pixels(in: hints, "icon_data").map(NotificationImage.pixels)
  }

  /// The image in pixels of the hint `key`; nil when absent.
  private static func pixels(in hints: VariantDictionary, _ key: String)
    throws(NotificationRefusal) -> Toast.Image?
  {
    try hints.value(key) { (value) throws(NotificationRefusal) in
      try ImageData.image(value, hint: key)
    }
  }
}
