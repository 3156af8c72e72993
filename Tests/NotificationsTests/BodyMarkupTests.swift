import Notifications
import Testing

/// A body's markup as Pango markup: a table of cases, bombs, and every
/// output checked valid by Pango.
struct BodyMarkupTests {
  static let cases: [(body: String, pango: String, plain: String)] = [
    ("plain text", "plain text", "plain text"),
    ("<b>bold</b> <i>it</i> <u>under</u>", "<b>bold</b> <i>it</i> <u>under</u>", "bold it under"),
    ("<B>upper</B>", "<b>upper</b>", "upper"),
    (
      "see <a href=\"https://example.com/?a=1&b=2\">the page</a>", "see <u>the page</u>",
      "see the page"
    ),
    ("<img src=\"/a.png\" alt=\"a cat\"/> purrs", "a cat purrs", "a cat purrs"),
    ("<img src='/a.png' alt='&lt;3'>", "&lt;3", "<3"),
    ("<img src=\"/a.png\"/>", "", ""),
    ("<span size=\"100000\">big</span>", "big", "big"),
    ("<p>one</p><p>two</p>", "onetwo", "onetwo"),
    ("line<br>break<br/>again", "line\nbreak\nagain", "line\nbreak\nagain"),
    ("a < b && c > d", "a &lt; b &amp;&amp; c &gt; d", "a < b && c > d"),
    ("x<3", "x&lt;3", "x<3"),
    ("John <john@example.com>", "John &lt;john@example.com&gt;", "John <john@example.com>"),
    ("<https://example.com>", "&lt;https://example.com&gt;", "<https://example.com>"),
    ("<b", "&lt;b", "<b"),
    ("<b title='a>b'>q</b>", "<b>q</b>", "q"),
    ("<b title='<i>'>q</b>", "&lt;b title='<i>'&gt;q</i>", "<b title=''>q"),
    ("&amp; &lt; &gt; &quot; &apos;", "&amp; &lt; &gt; \" '", "& < > \" '"),
    ("&#60;&#x3C;&#X263A;&#9731;", "&lt;&lt;☺☃", "<<☺☃"),
    ("&nbsp; &copy; &unknown;", "&amp;nbsp; &amp;copy; &amp;unknown;", "&nbsp; &copy; &unknown;"),
    (
      "&#0; &#xD800; &#x110000; &#99999999999;",
      "&amp;#0; &amp;#xD800; &amp;#x110000; &amp;#99999999999;",
      "&#0; &#xD800; &#x110000; &#99999999999;"
    ),
    ("&#1;&#x9;", "\t", "\t"),
    ("& alone; &", "&amp; alone; &amp;", "& alone; &"),
    ("<b><i>both</b> italic</i>", "<b><i>both</i></b><i> italic</i>", "both italic"),
    ("<b><b>twice</b> still</b> not", "<b>twice still</b> not", "twice still not"),
    ("</b>stray close<b>unclosed", "stray close<b>unclosed</b>", "stray closeunclosed"),
    ("<u><a href='x'>link</a></u>", "<u><u>link</u></u>", "link"),
    ("<b/>empty", "empty", "empty"),
    ("a\r\nb\rc\u{1}d\u{7F}e\u{85}f", "a\nb\ncdef", "a\nb\ncdef"),
  ]

  @Test(arguments: cases.indices)
  func theSpecificationsSubsetBecomesValidPango(_ index: Int) {
    let (body, pango, plain) = Self.cases[index]
    let markup = BodyMarkup.pango(body)
    #expect(markup == pango, "\(body)")
    #expect(pangoError(markup) == nil, "\(body) -> \(markup)")
    #expect(BodyMarkup.plainText(body) == plain, "\(body)")
  }

  @Test func tenThousandNestedTagsOpenOnce() {
    let body =
      String(repeating: "<b>", count: 10_000) + "deep" + String(repeating: "</b>", count: 10_000)
    let markup = BodyMarkup.pango(body)
    #expect(markup == "<b>deep</b>")
    let mixed = String(repeating: "<b><i><u><a href='x'>", count: 10_000) + "deep"
    let open = BodyMarkup.pango(mixed)
    #expect(open == "<b><i><u><u>deep</u></u></i></b>")
    #expect(pangoError(open) == nil)
  }

  @Test func crossedClosesInABombStayBalanced() {
    let body = String(repeating: "<b><i></b></i>x", count: 5_000)
    let markup = BodyMarkup.pango(body)
    #expect(pangoError(markup) == nil)
    #expect(BodyMarkup.plainText(body) == String(repeating: "x", count: 5_000))
  }

  @Test func unknownTagsAndEntitiesInBulkStayText() {
    let body =
      String(repeating: "<blink>", count: 5_000) + String(repeating: "&bogus;", count: 5_000)
      + String(repeating: "<", count: 5_000) + String(repeating: "&", count: 5_000)
    let markup = BodyMarkup.pango(body)
    #expect(pangoError(markup) == nil)
    #expect(markup.hasPrefix("&amp;bogus;"))
  }

  @Test func aTagLookedForUpToTheNextAngleBracketOnly() {
    // Quadratic if each `<` looked for a `>` to the end: 50,000 unclosed
    // quotes, each `<` stops at the next.
    let body = String(repeating: "<a title='", count: 50_000)
    let markup = BodyMarkup.pango(body)
    #expect(pangoError(markup) == nil)
    #expect(BodyMarkup.plainText(body) == body)
  }

  @Test func aCutBodyEndsWithAnEllipsisItsTagsClosed() {
    let body = "<b>" + String(repeating: "word ", count: 100) + "</b>"
    let markup = BodyMarkup.pango(body, maximumLength: 40)
    #expect(markup.unicodeScalars.count <= 40)
    #expect(markup.hasPrefix("<b>word") && markup.hasSuffix("…</b>"))
    #expect(pangoError(markup) == nil)
    let escapes = BodyMarkup.pango(String(repeating: "&", count: 100), maximumLength: 30)
    #expect(escapes.unicodeScalars.count <= 30 && pangoError(escapes) == nil)
    #expect(BodyMarkup.pango("short", maximumLength: 40) == "short", "no cut: no ellipsis")
  }

  @Test func plainTextIsEscapedForTheSummary() {
    #expect(BodyMarkup.escaped("<b>R&D</b>") == "&lt;b&gt;R&amp;D&lt;/b&gt;")
    #expect(BodyMarkup.escaped("&amp;") == "&amp;amp;", "no entity read")
    let cut = BodyMarkup.escaped(String(repeating: "<", count: 100), maximumLength: 50)
    #expect(cut.unicodeScalars.count <= 50 && cut.hasSuffix("…") && pangoError(cut) == nil)
  }
}
