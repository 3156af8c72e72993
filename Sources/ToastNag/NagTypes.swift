import ToastModel
import ToastNagOptions

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
  /// The colours given, as 0xRRGGBBAA, by the option that gives each. A
  /// colour of 0 is unset: swaynag merges a colour only when it is not 0, so
  /// a colour given as 00000000 is no colour at all.
  var colors: [NagOption: UInt32] = [:]
  /// The sizes given, by the option that gives each.
  var sizes: [NagOption: Int] = [:]

  /// Takes every setting `other` gives (swaynag_type_merge): a colour only
  /// when it is not 0, a size only when set.
  mutating func merge(_ other: NagType) {
    font = other.font ?? font
    output = other.output ?? output
    edge = other.edge ?? edge
    layer = other.layer ?? layer
    colors.merge(other.colors.filter { $0.value != 0 }) { _, given in given }
    sizes.merge(other.sizes) { _, given in given }
  }

  /// The colours and sizes as the bar draws them: an unset colour is 0
  /// (transparent black, as swaynag's zeroed type has it), an unset size 0.
  var look: Toast.BarLook {
    var look = Toast.BarLook()
    for option in NagOption.allCases {
      if let field = option.lookColor {
        let rgba = colors[option] ?? 0
        look[keyPath: field] = Toast.Color(
          red: Double(rgba >> 24 & 0xff) / 255, green: Double(rgba >> 16 & 0xff) / 255,
          blue: Double(rgba >> 8 & 0xff) / 255, alpha: Double(rgba & 0xff) / 255)
      }
      if let field = option.lookSize { look[keyPath: field] = sizes[option] ?? 0 }
    }
    return look
  }

  /// swaynag's built-in types (swaynag_types_add_default): `<defaults>`,
  /// `error` and `warning`, with its colours and sizes.
  static let builtIn: [NagType] = {
    let defaults = NagType(
      name: "<defaults>", font: "pango:Monospace 10", edge: .top, layer: .top,
      sizes: [
        .borderBottomSize: 2, .messagePadding: 8, .detailsBorderSize: 3, .buttonBorderSize: 3,
        .buttonGap: 20, .buttonDismissGap: 15, .buttonMarginRight: 2, .buttonPadding: 3,
      ])
    var types = [defaults, NagType(name: "error"), NagType(name: "warning")]
    // Each colour as the three give it, in that order.
    let colors: [(NagOption, [UInt32])] = [
      (.background, [0x3232_32FF, 0x9000_00FF, 0xFFA8_00FF]),
      (.text, [0xFFFF_FFFF, 0xFFFF_FFFF, 0x0000_00FF]),
      (.buttonBackground, [0x3333_33FF, 0x680A_0AFF, 0xFFC1_00FF]),
      (.buttonText, [0xFFFF_FFFF, 0xFFFF_FFFF, 0x0000_00FF]),
      (.border, [0x2222_22FF, 0xD924_24FF, 0xAB71_00FF]),
      (.borderBottom, [0x4444_44FF, 0x4709_09FF, 0xAB71_00FF]),
      (.detailsBackground, [0x3333_33FF, 0x680A_0AFF, 0xFFC1_00FF]),
    ]
    for (option, values) in colors {
      for (index, value) in zip(types.indices, values) { types[index].colors[option] = value }
    }
    return types
  }()
}

extension NagOption {
  /// Where the bar's look takes the colour the option sets; nil for an
  /// option that sets none.
  var lookColor: WritableKeyPath<Toast.BarLook, Toast.Color>? {
    switch self {
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

  /// Where the bar's look takes the size the option sets; nil for an option
  /// that sets none.
  var lookSize: WritableKeyPath<Toast.BarLook, Int>? {
    switch self {
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
