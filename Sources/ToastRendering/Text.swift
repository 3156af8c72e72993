import CPangoCairo
import Glibc
import ToastModel

/// Text shaped by Pango: measured once, drawn at any scale.
///
/// Literal text is escaped; markup that Pango rejects falls back to the
/// literal text, so a toast never fails to show because of its message. Tabs
/// show as spaces.
public final class TextBlock {

  let layout: OpaquePointer
  /// The width given to Pango for wrapping, in logical pixels.
  public let wrapWidth: Double
  /// The width of the widest line, in logical pixels.
  public let width: Double
  /// The height of all lines, in logical pixels.
  public let height: Double
  /// The number of lines after wrapping.
  public let lineCount: Int
  /// Whether Pango shortened the text with an ellipsis.
  public let isEllipsized: Bool

  /// Shapes `text` in `font`, wrapping at `wrapWidth` (words first, then any
  /// character) into at most `maximumLines` lines, centred.
  public init(
    text: String, isMarkup: Bool, font: String, wrapWidth: Double, maximumLines: Int
  ) {
    let fontMap = pango_cairo_font_map_get_default()
    let context = pango_font_map_create_context(fontMap)!
    let options = cairo_font_options_create()
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    // The language picks among fonts that share a script (Japanese or Chinese
    // forms of Han): the user's locale, read the same way in every process.
    if let language = TextBlock.language {
      pango_context_set_language(context, pango_language_from_string(language))
    }
    layout = pango_layout_new(context)
    g_object_unref(UnsafeMutableRawPointer(context))

    let description = pango_font_description_from_string(font)
    if pango_font_description_get_size(description) == 0 {
      pango_font_description_set_size(description, Int32(Design.defaultFontPoints) * PANGO_SCALE)
    }
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)

    // Pango does not wrap a run of tabs wider than the line: the line grows past
    // the wrap width, and centring pushes its text out of the box. A toast has no
    // columns to line up, so a tab shows as a space.
    let text = TextBlock.tabsAsSpaces(text)
    let shown = Toast.truncated(text)
    if isMarkup && shown == text && TextBlock.markupError(text) == nil {
      pango_layout_set_markup(layout, text, -1)
    } else {
      pango_layout_set_text(layout, shown, -1)
    }
    self.wrapWidth = wrapWidth
    pango_layout_set_width(layout, Int32(wrapWidth * Double(PANGO_SCALE)))
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    pango_layout_set_alignment(layout, PANGO_ALIGN_CENTER)
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    // A negative height limits the lines of each paragraph; when several
    // paragraphs together are still too many, they are joined into one (Pango
    // starts a paragraph at a line feed, a carriage return and U+2029).
    pango_layout_set_height(layout, Int32(-max(1, maximumLines)))
    if pango_layout_get_line_count(layout) > Int32(maximumLines) {
      let joined = String(
        String.UnicodeScalarView(
          pango_layout_get_text(layout).map { String(cString: $0) }.map {
            $0.unicodeScalars.map { $0 == "\n" || $0 == "\r" || $0 == "\u{2029}" ? " " : $0 }
          } ?? []))
      pango_layout_set_attributes(layout, nil)
      pango_layout_set_text(layout, joined, -1)
    }
    var ink = PangoRectangle()
    var logical = PangoRectangle()
    pango_layout_get_extents(layout, &ink, &logical)
    width = Double(logical.width) / Double(PANGO_SCALE)
    height = Double(logical.height) / Double(PANGO_SCALE)
    lineCount = Int(pango_layout_get_line_count(layout))
    isEllipsized = pango_layout_is_ellipsized(layout) != 0
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(layout))
  }

  /// How many characters no installed font has a glyph for (drawn as boxes).
  public var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

  /// Whether the block shows no text.
  public var isEmpty: Bool { height == 0 || pango_layout_get_character_count(layout) == 0 }

  /// Draws the block with its wrap box's top-left corner at (x, y).
  func draw(in cairo: OpaquePointer, x: Double, y: Double) {
    pango_cairo_update_layout(cairo, layout)
    cairo_move_to(cairo, x, y)
    pango_cairo_show_layout(cairo, layout)
  }

  /// `text` with every tab replaced by a space.
  static func tabsAsSpaces(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\t")) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\t" ? " " : $0 }))
  }

  /// Pango's complaint about `markup`, or nil when it is valid.
  public static func markupError(_ markup: String) -> String? {
    var error: UnsafeMutablePointer<GError>?
    let valid = pango_parse_markup(markup, -1, 0, nil, nil, nil, &error)
    defer { if let error { g_error_free(error) } }
    if valid != 0 { return nil }
    return error.map { String(cString: $0.pointee.message) } ?? "invalid markup"
  }

  /// The language of the text: the user's locale from the environment.
  static let language = language(
    fromLocale: ["LC_ALL", "LC_CTYPE", "LANG"].lazy.compactMap { (name: String) in
      getenv(name).map { String(cString: $0) }
    }.first { !$0.isEmpty })

  /// The language tag of a locale name as `setlocale` reads it from the
  /// environment (`ja_JP.UTF-8` gives `ja-JP`); nil for the C and POSIX locales,
  /// which name no language.
  ///
  /// Reading the environment, rather than the process's locale, gives every
  /// process the same answer, whether or not it called `setlocale`.
  package static func language(fromLocale locale: String?) -> String? {
    guard let locale else { return nil }
    let name = locale.prefix { $0 != "." && $0 != "@" }
    guard !name.isEmpty, name != "C", name != "POSIX" else { return nil }
    return String(name.map { $0 == "_" ? "-" : $0 })
  }

}
