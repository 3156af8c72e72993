import Testing

@testable import ToastRendering

/// What an SVG document draws, counted before librsvg draws it.
struct SVGWeightTests {
  static func drawn(_ text: String, limit: Int = SVGWeight.limit) -> Int? {
    SVGWeight.drawnElements(in: Array(text.utf8), limit: limit)
  }

  @Test func eachElementCountsOnceWithoutReferences() {
    #expect(Self.drawn(##"<svg><g><rect/><circle r="1"/></g><path d="M0 0"/></svg>"##) == 5)
    #expect(Self.drawn("") == 0)
  }

  @Test func aUseCountsWhatItDrawsEachTime() {
    let svg = ##"""
      <svg xmlns:xlink="http://www.w3.org/1999/xlink"><defs><g id="dot"><rect/><rect/></g></defs>
      <use href="#dot"/><use xlink:href="#dot"/><use xlink:href='#dot'/></svg>
      """##
    // svg, defs, g and its two rects, then three uses of three elements each.
    #expect(Self.drawn(svg) == 5 + 3 * 4)
  }

  @Test func nestedUsesMultiplyAndSaturateAtTheLimit() {
    var body = ##"<g id="a0"><rect/></g>"##
    for level in 1...6 {
      body +=
        "<g id=\"a\(level)\">"
        + String(repeating: "<use href=\"#a\(level - 1)\"/>", count: 10) + "</g>"
    }
    let svg = "<svg><defs>" + body + ##"</defs><use href="#a6"/></svg>"##
    #expect(Self.drawn(svg) == SVGWeight.limit + 1)
    #expect((Self.drawn(svg, limit: 10_000_000) ?? 0) > 1_000_000)
  }

  @Test func aFillsURLCountsWhatItNames() {
    let svg = ##"""
      <svg><linearGradient id="g"><stop/><stop/></linearGradient>
      <rect fill="url(#g)"/><rect style="stroke:url(#g);fill:url(#g)"/></svg>
      """##
    // svg, the gradient and its stops, two rects; three fills of three.
    #expect(Self.drawn(svg) == 6 + 3 * 3)
  }

  /// Six levels of ten references of level N-1 each (10⁶ elements drawn),
  /// each reference written by `reference` (the id it names).
  static func bomb(_ reference: (String) -> String, prologue: String = "") -> String {
    var body = ##"<g id="a0"><rect/></g>"##
    for level in 1...6 {
      body +=
        "<g id=\"a\(level)\">" + String(repeating: reference("a\(level - 1)"), count: 10) + "</g>"
    }
    return prologue + "<svg><defs>" + body + "</defs>" + reference("a6") + "</svg>"
  }

  @Test func referencesWrittenAnyWayLibrsvgReadsThemCount() {
    let forms: [(String, (String) -> String)] = [
      ("a character reference", { "<use href=\"&#35;\($0)\"/>" }),
      ("a hexadecimal one", { "<use href=\"&#x23;\($0)\"/>" }),
      ("another prefix", { "<use l:href=\"#\($0)\"/>" }),
      ("url with quotes and spaces", { "<rect fill=\"URL( '#\($0)' )\"/>" }),
    ]
    for (name, form) in forms {
      #expect(Self.drawn(Self.bomb(form)) == SVGWeight.limit + 1, "\(name)")
    }
  }

  @Test func aStyleSheetsURLCountsForEveryElement() {
    var svg = ##"<svg><style>rect { fill: url(#p) }</style><pattern id="p">"##
    svg += String(repeating: "<rect/>", count: 300) + "</pattern>"
    svg += String(repeating: "<rect/>", count: 300) + "</svg>"
    #expect(Self.drawn(svg) == SVGWeight.limit + 1)
    let plain =
      ##"<svg><style>.a { fill: url(#g) }</style><linearGradient id="g"><stop/></linearGradient><rect class="a"/></svg>"##
    #expect(Self.drawn(plain).map { $0 <= 100 } == true)
  }

  @Test func anEntityHoldingMarkupIsTooMuch() {
    let entity = ##"<!DOCTYPE svg [ <!ENTITY u "&#60;use href='#a0'/&#62;"> ]>"##
    #expect(Self.drawn(entity + "<svg><g id=\"a0\"/>&u;&u;</svg>") == SVGWeight.limit + 1)
    // An entity of text only (old illustration programs write namespaces so) is fine.
    let text =
      ##"<!DOCTYPE svg [ <!ENTITY ns "http://www.w3.org/2000/svg"> ]><svg xmlns="&ns;"><rect/></svg>"##
    #expect(Self.drawn(text) == 2)
  }

  @Test func aLinksHrefIsNoReference() {
    #expect(Self.drawn(##"<svg id="top"><a href="#top"><rect/></a></svg>"##) == 3)
  }

  @Test func referencesInACircleAreNil() {
    let two = ##"<svg><g id="a"><use href="#b"/></g><g id="b"><use href="#a"/></g></svg>"##
    #expect(Self.drawn(two) == nil)
    #expect(Self.drawn(##"<svg><g id="a"><use href="#a"/></g></svg>"##) == nil)
  }

  @Test func commentsCDATAAndDeclarationsAreNoElements() {
    let svg = ##"""
      <?xml version="1.0"?><!DOCTYPE svg><!-- <use href="#x"/> --><svg>
      <style><![CDATA[ <rect/> ]]></style><rect/></svg>
      """##
    #expect(Self.drawn(svg) == 3)
  }

  @Test func brokenTagsEndTheScanWithoutACrash() {
    let broken = [
      "<", "<svg", "<svg id=\"a", "</", "<!--", "<![CDATA[", "<?", "<a href=\"#", "</a></b>",
    ]
    for text in broken { #expect(Self.drawn(text) != nil, "\(text)") }
  }
}
