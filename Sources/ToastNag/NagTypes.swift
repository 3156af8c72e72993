import ToastModel

/// A swaynag type (`struct swaynag_type`): a name and the settings it gives,
/// each unset until given. The built-in ones, a configuration file's global
/// part (`<config>`) and sections, and the command line's options (`<args>`)
/// are all types, merged in that order into the bar's look.
struct NagType: Equatable {
  var name: String
  var font: String?
  var output: String?
  var edge: NagRequest.Edge?
  var layer: NagRequest.Layer?
  // Colours as 0xRRGGBBAA, where 0 is unset: swaynag merges a colour only
  // when it is not 0, so a colour given as 00000000 is no colour at all.
  var background: UInt32 = 0
  var text: UInt32 = 0
  var buttonBackground: UInt32 = 0
  var buttonText: UInt32 = 0
  var border: UInt32 = 0
  var borderBottom: UInt32 = 0
  var detailsBackground: UInt32 = 0
  var borderBottomSize: Int?
  var messagePadding: Int?
  var detailsBorderSize: Int?
  var buttonBorderSize: Int?
  var buttonGap: Int?
  var buttonDismissGap: Int?
  var buttonMarginRight: Int?
  var buttonPadding: Int?

  /// A type with nothing set.
  init(name: String) {
    self.name = name
  }

  /// The colour an option sets; nil for an option that sets none.
  static func colorField(of option: NagOption) -> WritableKeyPath<NagType, UInt32>? {
    switch option {
    case .background: \.background
    case .text: \.text
    case .buttonBackground: \.buttonBackground
    case .buttonText: \.buttonText
    case .border: \.border
    case .borderBottom: \.borderBottom
    case .detailsBackground: \.detailsBackground
    default: nil
    }
  }

  /// The size an option sets; nil for an option that sets none.
  static func sizeField(of option: NagOption) -> WritableKeyPath<NagType, Int?>? {
    switch option {
    case .borderBottomSize: \.borderBottomSize
    case .messagePadding: \.messagePadding
    case .detailsBorderSize: \.detailsBorderSize
    case .buttonBorderSize: \.buttonBorderSize
    case .buttonGap: \.buttonGap
    case .buttonDismissGap: \.buttonDismissGap
    case .buttonMarginRight: \.buttonMarginRight
    case .buttonPadding: \.buttonPadding
    default: nil
    }
  }

  /// Every option that sets a colour or a size.
  static var lookOptions: [NagOption] {
    NagOption.allCases.filter { colorField(of: $0) != nil || sizeField(of: $0) != nil }
  }

  /// Takes every setting `other` gives (swaynag_type_merge): a colour only
  /// when it is not 0, a size only when set.
  mutating func merge(_ other: NagType) {
    font = other.font ?? font
    output = other.output ?? output
    edge = other.edge ?? edge
    layer = other.layer ?? layer
    for option in NagType.lookOptions {
      if let field = NagType.colorField(of: option), other[keyPath: field] != 0 {
        self[keyPath: field] = other[keyPath: field]
      }
      if let field = NagType.sizeField(of: option), let size = other[keyPath: field] {
        self[keyPath: field] = size
      }
    }
  }

  /// The colours and sizes as the bar draws them: an unset colour is 0
  /// (transparent black, as swaynag's zeroed type has it), an unset size 0.
  var look: Toast.BarLook {
    var look = Toast.BarLook()
    func color(_ rgba: UInt32) -> Toast.Color {
      Toast.Color(
        red: Double(rgba >> 24 & 0xff) / 255, green: Double(rgba >> 16 & 0xff) / 255,
        blue: Double(rgba >> 8 & 0xff) / 255, alpha: Double(rgba & 0xff) / 255)
    }
    look.background = color(background)
    look.text = color(text)
    look.buttonBackground = color(buttonBackground)
    look.buttonText = color(buttonText)
    look.border = color(border)
    look.borderBottom = color(borderBottom)
    look.detailsBackground = color(detailsBackground)
    look.borderBottomSize = borderBottomSize ?? 0
    look.messagePadding = messagePadding ?? 0
    look.detailsBorderSize = detailsBorderSize ?? 0
    look.buttonBorderSize = buttonBorderSize ?? 0
    look.buttonGap = buttonGap ?? 0
    look.buttonDismissGap = buttonDismissGap ?? 0
    look.buttonMarginRight = buttonMarginRight ?? 0
    look.buttonPadding = buttonPadding ?? 0
    return look
  }

  /// swaynag's built-in types (swaynag_types_add_default): `<defaults>`,
  /// `error` and `warning`, with its colours and sizes.
  static let builtIn: [NagType] = {
    var defaults = NagType(name: "<defaults>")
    defaults.font = "pango:Monospace 10"
    defaults.edge = .top
    defaults.layer = .top
    defaults.buttonBackground = 0x3333_33FF
    defaults.detailsBackground = 0x3333_33FF
    defaults.background = 0x3232_32FF
    defaults.text = 0xFFFF_FFFF
    defaults.buttonText = 0xFFFF_FFFF
    defaults.border = 0x2222_22FF
    defaults.borderBottom = 0x4444_44FF
    defaults.borderBottomSize = 2
    defaults.messagePadding = 8
    defaults.detailsBorderSize = 3
    defaults.buttonBorderSize = 3
    defaults.buttonGap = 20
    defaults.buttonDismissGap = 15
    defaults.buttonMarginRight = 2
    defaults.buttonPadding = 3

    var error = NagType(name: "error")
    error.buttonBackground = 0x680A_0AFF
    error.detailsBackground = 0x680A_0AFF
    error.background = 0x9000_00FF
    error.text = 0xFFFF_FFFF
    error.buttonText = 0xFFFF_FFFF
    error.border = 0xD924_24FF
    error.borderBottom = 0x4709_09FF

    var warning = NagType(name: "warning")
    warning.buttonBackground = 0xFFC1_00FF
    warning.detailsBackground = 0xFFC1_00FF
    warning.background = 0xFFA8_00FF
    warning.text = 0x0000_00FF
    warning.buttonText = 0x0000_00FF
    warning.border = 0xAB71_00FF
    warning.borderBottom = 0xAB71_00FF
    return [defaults, error, warning]
  }()
}

extension [NagType] {
  /// The index of the first type of this name, compared as strcasecmp does
  /// (ASCII letters in either case, every other byte as it is).
  func firstIndex(named name: String) -> Int? {
    firstIndex { type in
      type.name.utf8.elementsEqual(name.utf8) { asciiLowercased($0) == asciiLowercased($1) }
    }
  }
}

/// A byte with ASCII capitals made small, as tolower does in the C locale.
private func asciiLowercased(_ byte: UInt8) -> UInt8 {
  (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
}

/// A colour as sway's parse_color reads it: an optional `#`, then 6 (opaque)
/// or 8 hexadecimal digits; nil otherwise.
func parseNagColor(_ written: String) -> UInt32? {
  var digits = Substring(written).utf8[...]
  if digits.first == UInt8(ascii: "#") { digits = digits.dropFirst() }
  guard digits.count == 6 || digits.count == 8 else { return nil }
  var value: UInt32 = 0
  for digit in digits {
    let nibble: UInt8
    switch digit {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): nibble = digit - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): nibble = digit - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): nibble = digit - UInt8(ascii: "A") + 10
    default: return nil
    }
    value = value << 4 | UInt32(nibble)
  }
  return digits.count == 6 ? value << 8 | 0xFF : value
}

/// A size in decimal digits within ``Toast/Limits/barSize``; nil otherwise,
/// and for a leading zero (swaynag's strtol reads `010` as octal 8).
func parseNagSize(_ written: String) -> Int? {
  let digits = Array(written.utf8)
  guard !digits.isEmpty, digits.count <= 4,
    digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
    digits.count == 1 || digits[0] != UInt8(ascii: "0"),
    let size = Int(written), Toast.Limits.barSize.contains(size)
  else { return nil }
  return size
}
