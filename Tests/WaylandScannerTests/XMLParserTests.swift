import Testing
import WaylandScanner

@Suite("XML parser")
struct XMLParserTests {
  @Test func parsesElementsAttributesAndChildren() throws {
    let root = try parseXML(
      """
      <?xml version="1.0" encoding="UTF-8"?>
      <root name="r">
        <item id="1"/>
        <item id="2"></item>
        <other/>
      </root>
      """)
    #expect(root.name == "root")
    #expect(root.attributes == ["name": "r"])
    #expect(root.children.map(\.name) == ["item", "item", "other"])
    #expect(root.children("item").map { $0.attributes["id"] } == ["1", "2"])
    #expect(root.child("other")?.children.isEmpty == true)
    #expect(root.child("missing") == nil)
  }

  @Test func acceptsBothQuoteStyles() throws {
    let root = try parseXML(#"<a double="it's" single='say "hi"' spaced = "x" />"#)
    #expect(root.attributes["double"] == "it's")
    #expect(root.attributes["single"] == #"say "hi""#)
    #expect(root.attributes["spaced"] == "x")
  }

  @Test func decodesEntitiesInAttributesAndText() throws {
    let root = try parseXML(
      #"<a value="&lt;&amp;&gt;&quot;&apos;&#65;&#x41;&#X42;">x &lt; y &amp;&amp; &#65;&#x42;</a>"#)
    #expect(root.attributes["value"] == #"<&>"'AAB"#)
    #expect(root.text == "x < y && AB")
  }

  @Test func decodesNonASCIINumericEntities() throws {
    let root = try parseXML("<a v=\"&#xE9;&#8364;\">&#x1F600;</a>")
    #expect(root.attributes["v"] == "é€")
    #expect(root.text == "😀")
  }

  @Test func skipsCommentsAndProcessingInstructions() throws {
    let root = try parseXML(
      """
      <?xml version="1.0"?>
      <!-- before the root -->
      <!DOCTYPE protocol SYSTEM "wayland.dtd">
      <a>one<!-- a comment with <tags> & stray ampersands -->two<?pi data?>three<b/></a>
      <!-- after the root -->
      """)
    #expect(root.name == "a")
    #expect(root.text == "onetwothree")
    #expect(root.children.map(\.name) == ["b"])
  }

  @Test func keepsCDATAVerbatim() throws {
    let root = try parseXML("<a>x &amp; <![CDATA[<b>&amp;</b>]]> y</a>")
    #expect(root.text == "x & <b>&amp;</b> y")
    #expect(root.children.isEmpty)
  }

  @Test func collectsTextAroundChildren() throws {
    let root = try parseXML("<a>head<b>inner</b>tail</a>")
    #expect(root.text == "headtail")
    #expect(root.child("b")?.text == "inner")
  }

  @Test func parsesSelfClosingTags() throws {
    let root = try parseXML("<a><b/><c x='1'/><d y=\"2\" /></a>")
    #expect(root.children.map(\.name) == ["b", "c", "d"])
    #expect(root.children.allSatisfy { $0.children.isEmpty && $0.text.isEmpty })
    #expect(root.child("c")?.attributes["x"] == "1")
    #expect(root.child("d")?.attributes["y"] == "2")
  }

  @Test func recordsElementLines() throws {
    let root = try parseXML(
      """
      <?xml version="1.0"?>
      <a>
        <b/>

        <c
          x="1">
          <d/>
        </c>
      </a>
      """)
    #expect(root.line == 2)
    #expect(root.child("b")?.line == 3)
    #expect(root.child("c")?.line == 5)
    #expect(root.child("c")?.child("d")?.line == 7)
  }

  @Test func normalizesWhiteSpaceInAttributeValues() throws {
    // XML 1.0, 3.3.3: a literal line break or tab in a value is read as a space
    // (xdg-shell and linux-dmabuf wrap long summaries this way).
    let root = try parseXML("<a x=\"one\ntwo\tthree\r\nfour\">\n<b/></a>")
    #expect(root.attributes["x"] == "one two three four")
    #expect(root.child("b")?.line == 4)
  }

  @Test func keepsLineBreaksWrittenAsCharacterReferences() throws {
    let root = try parseXML("<a x=\"one&#10;two&#9;three\"/>")
    #expect(root.attributes["x"] == "one\ntwo\tthree")
  }

  @Test func normalizesLineEnds() throws {
    let root = try parseXML("<a>\r\n<b/>\r<c>one\r\ntwo\rthree</c>\r\n</a>")
    #expect(root.child("b")?.line == 2)
    #expect(root.child("c")?.line == 3)
    #expect(root.child("c")?.text == "one\ntwo\nthree")
  }

  @Test func reportsAnUnclosedElementAtItsStart() {
    let error = #expect(throws: ScannerError.self) {
      try parseXML("<a>\n  <b>\n  </b>\n")
    }
    #expect(error?.line == 1)
    #expect(error?.message.contains("<a>") == true)
  }

  @Test func refusesElementsNestedTooDeeply() throws {
    // The parser recurses once per element: a limit, not the stack, ends deep nesting.
    let nested = { (levels: Int) in
      String(repeating: "<a>", count: levels) + String(repeating: "</a>", count: levels)
    }
    _ = try parseXML(nested(256))
    let error = #expect(throws: ScannerError.self) { try parseXML(nested(100_000)) }
    #expect(error?.message == "elements nested deeper than 256 levels")
  }

  @Test func reportsAMismatchedClosingTag() {
    let error = #expect(throws: ScannerError.self) {
      try parseXML("<a>\n  <b>\n  </c>\n</a>")
    }
    #expect(error?.line == 3)
    #expect(error?.message == "</c> closes <b>")
  }

  @Test func reportsAnUnknownEntityInAnAttribute() {
    let error = #expect(throws: ScannerError.self) {
      try parseXML("<a>\n\n  <b x=\"&bogus;\"/>\n</a>")
    }
    #expect(error?.line == 3)
    #expect(error?.message.contains("&bogus;") == true)
  }

  @Test(arguments: [
    "<a>&bogus;</a>", "<a>&;</a>", "<a>&#xZZ;</a>", "<a>&#12a;</a>", "<a>&#x110000;</a>",
    "<a>&#xD800;</a>", "<a>&#99999999999;</a>", "<a>&amp</a>", "<a x='&lt'/>",
  ])
  func rejectsBadEntities(_ text: String) {
    let error = #expect(throws: ScannerError.self) { try parseXML(text) }
    #expect(error?.line == 1)
  }

  @Test func reportsABadEntityInTextWithALine() {
    let error = #expect(throws: ScannerError.self) {
      try parseXML("<a>\n  <b>\n    &nope;\n  </b>\n</a>")
    }
    // The text is decoded when its element closes, so the line is that of the
    // entity or a later one, never an earlier one.
    let line = error?.line ?? 0
    #expect((3...4).contains(line))
  }

  @Test(arguments: [
    ("", 1),
    ("just text", 1),
    ("<a>", 1),
    ("<a></a><b/>", 1),
    ("<a>\n</a>\n<b/>", 3),
    ("<a x=1/>", 1),
    ("<a x/>", 1),
    ("<a x='1/>", 1),
    ("<a\n  x=\"1\"\n  y>", 3),
    ("<a>\n<!-- never closed\n</a>", 2),
    ("<a><![CDATA[ open", 1),
    ("<?xml version='1.0'", 1),
    ("<a></ a>", 1),
    ("<a></a", 1),
    ("<>", 1),
  ])
  func rejectsMalformedInput(_ text: String, line: Int) {
    let error = #expect(throws: ScannerError.self) { try parseXML(text) }
    #expect(error?.line == line, "\(text.debugDescription): \(String(describing: error))")
  }

  @Test func neverCrashesOnTruncatedInput() {
    let document = """
      <?xml version="1.0"?>
      <!-- comment -->
      <protocol name="p&amp;q">
        <interface name='i' version="2">
          <description summary="s">text &lt; &#65; <![CDATA[raw]]></description>
          <request name="r"><arg name="a" type="uint"/></request>
        </interface>
      </protocol>
      """
    let bytes = Array(document.utf8)
    for count in 0..<bytes.count {
      let prefix = String(decoding: bytes[..<count], as: UTF8.self)
      do {
        _ = try parseXML(prefix)
        Issue.record("a truncated document of \(count) bytes parsed")
      } catch {
        #expect(error.line != nil, "no line for \(count) bytes: \(error)")
      }
    }
    #expect(throws: Never.self) { try parseXML(document) }
  }

  @Test func describesErrorsWithTheirLine() {
    #expect(ScannerError("bad", line: 7).description == "line 7: bad")
    #expect(ScannerError("bad").description == "bad")
  }
}
