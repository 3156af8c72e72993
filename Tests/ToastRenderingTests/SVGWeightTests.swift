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
