/// Swift spellings of protocol names.
package enum Naming {
  /// The type name of an interface or enum: `zwlr_layer_surface_v1` becomes
  /// `ZwlrLayerSurfaceV1`.
  package static func typeName(_ name: String) -> String {
    escaped(words(name).map(capitalized).joined())
  }

  /// The name of a method, argument, event case or enum entry: `set_size` becomes
  /// `setSize`, `90` becomes `_90`, a keyword is put in backticks.
  package static func memberName(_ name: String) -> String {
    let parts = words(name)
    guard let first = parts.first else { return "_" }
    return escaped(first.lowercased() + parts.dropFirst().map(capitalized).joined())
  }

  /// The member name without keyword escaping, for use after a dot or in labels
  /// where Swift accepts keywords.
  package static func bareMemberName(_ name: String) -> String {
    let member = memberName(name)
    return member.hasPrefix("`") ? String(member.dropFirst().dropLast()) : member
  }

  static func words(_ name: String) -> [String] {
    name.split(whereSeparator: { $0 == "_" || $0 == "-" || $0 == " " }).map(String.init)
  }

  static func capitalized(_ word: String) -> String {
    word.prefix(1).uppercased() + word.dropFirst()
  }

  static func escaped(_ name: String) -> String {
    if let first = name.first, first.isNumber { return "_" + name }
    return keywords.contains(name) ? "`\(name)`" : name
  }

  static let keywords: Set<String> = [
    "associatedtype", "class", "deinit", "enum", "extension", "fileprivate", "func", "import",
    "init", "inout", "internal", "let", "open", "operator", "private", "precedencegroup",
    "protocol", "public", "rethrows", "static", "struct", "subscript", "typealias", "var",
    "break", "case", "catch", "continue", "default", "defer", "do", "else", "fallthrough", "for",
    "guard", "if", "in", "repeat", "return", "throw", "switch", "where", "while", "as", "Any",
    "false", "is", "nil", "self", "Self", "super", "throws", "true", "try", "Type", "Protocol",
    "some", "any", "await",
  ]
}
