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
  /// How many times the text was laid out to find where to cut it
  /// (``LineLimit/wholeText``; 0 otherwise): at most about twice the binary
  /// logarithm of the characters of its last line shown, whatever they are.
  package let cutLayouts: Int
  /// What the block was shaped from.
  private let source: Source
  /// The linear part of the Cairo matrix the layout was last laid out for:
  /// the identity (measured on ``measuringCanvas``) until drawn at another scale.
  private var laidOutFor = (1.0, 0.0, 0.0, 1.0)

  /// How the lines of a block are aligned in its wrap box.
  public enum Alignment: Sendable {
    /// Each line centred (a toast's message).
    case center
    /// Each line at the left (a bar's message and details).
    case left
  }

  /// How a block's lines are counted against its most lines.
  public enum LineLimit: Sendable {
    /// In each paragraph, as Pango counts them; when the paragraphs together
    /// still have too many, they are joined into one (a toast's message).
    case eachParagraph
    /// In the whole text, its paragraphs and markup kept: the text is cut
    /// after the last line that shows, which ends in an ellipsis (a card's
    /// app name, summary and body).
    case wholeText
  }

  /// Everything the shaping depends on (besides the locale's language, the
  /// same for the whole process).
  private struct Source: Equatable {
    var text: String
    var isMarkup: Bool
    var font: String
    var wrapWidth: Double
    var maximumLines: Int
    var alignment: Alignment
    var lineLimit: LineLimit
  }

  /// The block
  /// ``init(text:isMarkup:font:wrapWidth:maximumLines:alignment:lineLimit:)``
  /// makes, or `previous` itself when it was shaped from the same: an update
  /// that changes only a toast's progress keeps its text as shaped.
  public static func shaped(
    text: String, isMarkup: Bool, font: String, wrapWidth: Double, maximumLines: Int,
    alignment: Alignment = .center, lineLimit: LineLimit = .eachParagraph,
    reusing previous: TextBlock?
  ) -> TextBlock {
    if let previous,
      previous.source
        == Source(
          text: text, isMarkup: isMarkup, font: font, wrapWidth: wrapWidth,
          maximumLines: maximumLines, alignment: alignment, lineLimit: lineLimit)
    {
      return previous
    }
    return TextBlock(
      text: text, isMarkup: isMarkup, font: font, wrapWidth: wrapWidth,
      maximumLines: maximumLines, alignment: alignment, lineLimit: lineLimit)
  }

  /// Shapes `text` in `font`, wrapping at `wrapWidth` (words first, then any
  /// character) into at most `maximumLines` lines (`Int.max`: all of them,
  /// none ellipsized), counted as `lineLimit` says, aligned as `alignment` says.
  public init(
    text: String, isMarkup: Bool, font: String, wrapWidth: Double, maximumLines: Int,
    alignment: Alignment = .center, lineLimit: LineLimit = .eachParagraph
  ) {
    source = Source(
      text: text, isMarkup: isMarkup, font: font, wrapWidth: wrapWidth,
      maximumLines: maximumLines, alignment: alignment, lineLimit: lineLimit)
    let fontMap = pango_cairo_font_map_get_default()
    let context = pango_font_map_create_context(fontMap)!
    let options = cairo_font_options_create()
    cairo_font_options_set_hint_metrics(options, CAIRO_HINT_METRICS_OFF)
    cairo_font_options_set_hint_style(options, CAIRO_HINT_STYLE_SLIGHT)
    cairo_font_options_set_antialias(options, CAIRO_ANTIALIAS_GRAY)
    pango_cairo_context_set_font_options(context, options)
    cairo_font_options_destroy(options)
    // Measured with the options of the image surfaces it is drawn into, the
    // layout stays valid when drawn: otherwise Pango lays it out again there.
    pango_cairo_update_context(TextBlock.measuringCanvas, context)
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
    TextBlock.capSize(of: description)
    pango_layout_set_font_description(layout, description)
    pango_font_description_free(description)

    // Pango does not wrap a run of tabs wider than the line: the line grows past
    // the wrap width, and centring pushes its text out of the box. A toast has no
    // columns to line up, so a tab shows as a space.
    let text = TextBlock.tabsAsSpaces(text)
    // A message is cut at its limit; every line of a bar's details shows.
    let limited = maximumLines < Int(Int32.max)
    let shown = limited ? Toast.truncated(text) : text
    if isMarkup && shown == text && TextBlock.markupError(text) == nil {
      pango_layout_set_markup(layout, text, -1)
      if let attributes = pango_layout_get_attributes(layout) {
        TextBlock.capSizes(in: attributes)
        pango_layout_set_attributes(layout, attributes)
      }
    } else {
      pango_layout_set_text(layout, shown, -1)
    }
    // Pango measures in Int32 units of 1/1024 px: keep the width well inside them.
    let wrap = min(max(wrapWidth, 1), TextBlock.maximumWrapWidth)
    self.wrapWidth = wrap
    pango_layout_set_width(layout, Int32((wrap * Double(PANGO_SCALE)).rounded(.down)))
    pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR)
    pango_layout_set_alignment(
      layout, alignment == .center ? PANGO_ALIGN_CENTER : PANGO_ALIGN_LEFT)
    var cut = false
    var cutLayouts = 0
    if limited && lineLimit == .wholeText {
      (cut, cutLayouts) = TextBlock.cut(layout, toLines: max(1, maximumLines))
    } else if limited {
      pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
      // A negative height limits the lines of each paragraph; when several
      // paragraphs together are still too many, they are joined into one (Pango
      // starts a paragraph at a line feed, a carriage return and U+2029).
      pango_layout_set_height(layout, Int32(-max(1, maximumLines)))
    }
    if limited && lineLimit == .eachParagraph
      && pango_layout_get_line_count(layout) > Int32(maximumLines)
    {
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
    isEllipsized = cut || pango_layout_is_ellipsized(layout) != 0
    self.cutLayouts = cutLayouts
  }

  /// Cuts the text of `layout` (wrapped, not ellipsized) after its first
  /// `maximum` lines, the last of them ending in an ellipsis; the markup's
  /// attributes stay on the text kept. Returns whether it cut, and how many
  /// texts were laid out.
  ///
  /// The ellipsis takes the place of the white space the last line ends in,
  /// or of its last word (then of its last characters, each whole: an
  /// accented letter is never split) when it would not fit: the longest of
  /// those texts that fits. However costly the characters are to shape, it
  /// takes a few layouts, not one per character: at most about twice the
  /// binary logarithm of the last line's characters, fewer the less must go.
  private static func cut(_ layout: OpaquePointer, toLines maximum: Int) -> (Bool, Int) {
    // Each paragraph broken into one line more than shown at most (Pango puts
    // the rest of it in that line): the lines shown are those of the whole
    // text, without breaking all of a long text into lines first.
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_END)
    pango_layout_set_height(layout, Int32(-(maximum + 1)))
    // The text up to the end of the last line shown, read before the lines
    // go with the settings; nil when every line shows.
    var head: [UInt8]?
    var start = 0
    if pango_layout_get_line_count(layout) > Int32(maximum),
      let line = pango_layout_get_line_readonly(layout, Int32(maximum - 1)),
      let text = pango_layout_get_text(layout)
    {
      start = Int(line.pointee.start_index)
      let count = start + Int(line.pointee.length)
      head = text.withMemoryRebound(to: UInt8.self, capacity: count) {
        Array(UnsafeBufferPointer(start: $0, count: count))
      }
    }
    pango_layout_set_ellipsize(layout, PANGO_ELLIPSIZE_NONE)
    pango_layout_set_height(layout, -1)
    // Every line shows: the text is laid out again as it is.
    guard let head else { return (false, 2) }
    var layouts = 1
    let ellipsis = Array("…".utf8)
    let spaces: Set<UInt8> = [0x20, 0x09, 0x0a, 0x0d]
    /// The text up to `end`, without the white space it ends in.
    func stripped(_ end: Int) -> ArraySlice<UInt8> {
      var end = end
      while end > 0, spaces.contains(head[end - 1]) { end -= 1 }
      return head[..<end]
    }
    /// Lays out `kept` and the ellipsis; whether it fits.
    func fits(_ kept: ArraySlice<UInt8>) -> Bool {
      pango_layout_set_text(layout, String(decoding: kept + ellipsis, as: UTF8.self), -1)
      layouts += 1
      return pango_layout_get_line_count(layout) <= Int32(maximum)
    }
    let first = stripped(head.count)
    guard !fits(first), first.count > start else { return (true, layouts) }
    // The ends to try next, in order: each character's (never inside one,
    // as a letter's accents) from the first shown of the line, up to its last
    // word gone, or its last character gone when it has one word.
    let shown = first[start...].firstIndex { !spaces.contains($0) } ?? first.count
    var ends: [Int] = []
    var end = start
    for character in String(decoding: first[start...], as: UTF8.self) {
      end += character.utf8.count
      if end > shown && end < first.count { ends.append(end) }
    }
    if let space = first[start...].lastIndex(where: spaces.contains), space > start {
      ends = space > shown ? ends.filter { $0 < space } + [space] : []
    }
    // A longer text fits no better: from the longest end, 1, 3, 7, 15…
    // ends shorter until one fits (the first often does), then halving
    // between it and the shortest known not to fit.
    var best = -1
    var tooLong = ends.count
    var laidOut = -1
    var step = 1
    while best < 0 && tooLong > 0 {
      laidOut = max(tooLong - step, 0)
      if fits(stripped(ends[laidOut])) { best = laidOut } else { tooLong = laidOut }
      step *= 2
    }
    while tooLong - best > 1 && best >= 0 {
      laidOut = (best + tooLong) / 2
      if fits(stripped(ends[laidOut])) { best = laidOut } else { tooLong = laidOut }
    }
    guard best >= 0 else {
      // Nothing of the last line fits: the lines before, and the ellipsis.
      _ = fits(stripped(start))
      return (true, layouts)
    }
    if laidOut != best { _ = fits(stripped(ends[best])) }
    return (true, layouts)
  }

  deinit {
    g_object_unref(UnsafeMutableRawPointer(layout))
  }

  /// How many characters no installed font has a glyph for (drawn as boxes).
  public var unknownGlyphCount: Int { Int(pango_layout_get_unknown_glyphs_count(layout)) }

  /// Whether the block shows no text.
  public var isEmpty: Bool { height == 0 || pango_layout_get_character_count(layout) == 0 }

  /// Draws the block with its wrap box's top-left corner at (x, y), `scale`
  /// times its size.
  func draw(in cairo: OpaquePointer, x: Double, y: Double, scale: Double = 1) {
    cairo_save(cairo)
    cairo_translate(cairo, x, y)
    cairo_scale(cairo, scale, scale)
    // Pango lays the text out again after every update of its context, even
    // one that changes nothing: update it only for a new scale (Pango may pick
    // other fonts for another pixel size) or a surface other than an image
    // (whose font options the layout was measured with).
    var matrix = cairo_matrix_t()
    cairo_get_matrix(cairo, &matrix)
    let linear = (matrix.xx, matrix.yx, matrix.xy, matrix.yy)
    if linear != laidOutFor
      || cairo_surface_get_type(cairo_get_target(cairo)) != CAIRO_SURFACE_TYPE_IMAGE
    {
      pango_cairo_update_layout(cairo, layout)
      laidOutFor = linear
    }
    cairo_move_to(cairo, 0, 0)
    pango_cairo_show_layout(cairo, layout)
    cairo_restore(cairo)
  }

  /// A Cairo context on an image surface, as every toast is drawn into (an shm
  /// buffer, a box image, a preview): layouts are measured with its surface's
  /// font options, so that drawing them at scale 1 finds nothing changed.
  /// Only read after it is made (the surface's options are read here, once).
  nonisolated(unsafe) static let measuringCanvas: OpaquePointer = {
    let surface = cairo_image_surface_create(CAIRO_FORMAT_ARGB32, 1, 1)
    let cairo = cairo_create(surface)!
    let options = cairo_font_options_create()
    cairo_surface_get_font_options(surface, options)
    cairo_font_options_destroy(options)
    cairo_surface_destroy(surface)
    return cairo
  }()

  /// The widest wrap width, in logical pixels: a million, far inside Pango's
  /// Int32 units.
  static let maximumWrapWidth = 1_000_000.0

  /// The largest font Pango is asked for, in points (and as many pixels for
  /// absolute sizes): larger than any screen, far below sizes FreeType
  /// refuses. A refused size puts cairo's font face into an error state that
  /// blanks every later text in that face, for the rest of the process; text
  /// that is still too large for the output is shrunk by the layout instead.
  static let maximumFontSize: Int32 = 1024

  /// Brings a font description's size down to ``maximumFontSize``.
  static func capSize(of description: OpaquePointer?) {
    guard let description else { return }
    let cap = maximumFontSize * PANGO_SCALE
    guard pango_font_description_get_size(description) > cap else { return }
    if pango_font_description_get_size_is_absolute(description) != 0 {
      pango_font_description_set_absolute_size(description, Double(cap))
    } else {
      pango_font_description_set_size(description, cap)
    }
  }

  /// Caps the sizes markup asks for (`size`, `font`, nested `<big>` scales) as
  /// ``capSize(of:)`` does.
  static func capSizes(in attributes: OpaquePointer) {
    final class Scales {
      var spans: [(start: UInt32, end: UInt32, value: Double)] = []
    }
    let scales = Scales()
    let found = pango_attr_list_filter(
      attributes,
      { attribute, data in
        guard let attribute, let data else { return 0 }
        let cap = TextBlock.maximumFontSize * PANGO_SCALE
        switch attribute.pointee.klass.pointee.type {
        case PANGO_ATTR_SIZE, PANGO_ATTR_ABSOLUTE_SIZE:
          attribute.withMemoryRebound(to: PangoAttrSize.self, capacity: 1) {
            $0.pointee.size = min($0.pointee.size, cap)
          }
        case PANGO_ATTR_FONT_DESC:
          attribute.withMemoryRebound(to: PangoAttrFontDesc.self, capacity: 1) {
            TextBlock.capSize(of: $0.pointee.desc)
          }
        case PANGO_ATTR_SCALE:
          let value = attribute.withMemoryRebound(to: PangoAttrFloat.self, capacity: 1) {
            $0.pointee.value
          }
          Unmanaged<Scales>.fromOpaque(data).takeUnretainedValue().spans.append(
            (attribute.pointee.start_index, attribute.pointee.end_index, value))
        default:
          break
        }
        return 0  // keep every attribute
      }, Unmanaged.passUnretained(scales).toOpaque())
    if let found { pango_attr_list_unref(found) }
    // Nested scales multiply: where they would pass the cap together, none applies.
    var largest = 1.0
    for span in scales.spans {
      let product = scales.spans.filter { $0.start <= span.start && span.start < $0.end }
        .reduce(1.0) { $0 * $1.value }
      largest = max(largest, product)
    }
    let budget = Double(maximumFontSize) / Double(Design.defaultFontPoints) / 4
    guard largest > budget else { return }
    let neutral = pango_attr_list_filter(
      attributes,
      { attribute, _ in
        guard let attribute, attribute.pointee.klass.pointee.type == PANGO_ATTR_SCALE else {
          return 0
        }
        attribute.withMemoryRebound(to: PangoAttrFloat.self, capacity: 1) { $0.pointee.value = 1 }
        return 0
      }, nil)
    if let neutral { pango_attr_list_unref(neutral) }
  }

  /// `text` with every tab replaced by a space.
  static func tabsAsSpaces(_ text: String) -> String {
    guard text.utf8.contains(UInt8(ascii: "\t")) else { return text }
    return String(String.UnicodeScalarView(text.unicodeScalars.map { $0 == "\t" ? " " : $0 }))
  }

  /// Starts Pango's font set-up now: creating the font map makes Pango load
  /// fontconfig's configuration and cache in a thread of its own, which the
  /// first layout waits for. Called before the compositor connection, the
  /// set-up runs while the compositor answers instead of after.
  ///
  /// The thread starts with SIGINT and SIGTERM blocked, as the event loop
  /// blocks them in the main thread to read them: sent to that thread, one
  /// would end the process without its goodbyes.
  public static func startFontSetUp() {
    var blocked = sigset_t()
    var saved = sigset_t()
    sigemptyset(&blocked)
    sigaddset(&blocked, SIGINT)
    sigaddset(&blocked, SIGTERM)
    pthread_sigmask(SIG_BLOCK, &blocked, &saved)
    _ = pango_cairo_font_map_get_default()
    pthread_sigmask(SIG_SETMASK, &saved, nil)
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
