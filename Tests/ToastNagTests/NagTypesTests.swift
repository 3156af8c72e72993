import Testing
import ToastModel
import ToastNag

/// The bar of a command line over a configuration file.
private func look(_ arguments: [String], config: String = "") throws -> Toast.BarLook {
  try #require(nag(["-m", "Hi"] + arguments, config: config).request).look
}

/// swaynag's types merged as its main merges them: the defaults, the
/// configuration file's global part, the chosen type, the command line.
@Suite struct NagTypesTests {
  @Test func theBuiltInTypes() throws {
    #expect(try look([]) == errorLook)
    #expect(try look(["-t", "error"]) == errorLook)
    #expect(try look(["-t", "warning"]) == warningLook)
    #expect(try look(["-t", "<defaults>"]) == defaultsLook)
  }

  @Test func eachLayerOverTheOneBelow() throws {
    let config = """
      background=111111
      button-gap=30
      message-padding=9
      edge=bottom
      [warning]
      background=222222
      message-padding=10
      """
    var expected = warningLook
    expected.background = color("222222")  // the type over the global part
    expected.buttonGap = 30  // the global part over the defaults
    expected.messagePadding = 11  // the command line over the type
    expected.buttonPadding = 3  // the defaults, set nowhere else
    let request = try #require(
      nag(["-m", "Hi", "-t", "warning", "--message-padding", "11"], config: config).request)
    #expect(request.look == expected)
    #expect(request.edge == .bottom)
  }

  @Test func theGlobalPartIsBelowTheType() throws {
    // error sets a background, so the file's global one never shows with it…
    #expect(try look([], config: "background=111111") == errorLook)
    // … but shows with a type that sets none.
    var mine = defaultsLook
    mine.background = color("111111")
    #expect(try look(["-t", "mine"], config: "background=111111\n[mine]\nedge=top") == mine)
  }

  @Test func theCommandLineIsOnTop() throws {
    let config = "[warning]\nbackground=222222\nedge=bottom\noutput=DP-1\nlayer=bottom\nfont=A 1"
    let request = try #require(
      nag(
        [
          "-m", "Hi", "-t", "warning", "--background", "333333", "-e", "top", "-o", "DP-2",
          "-y", "background", "-f", "B 2",
        ], config: config
      ).request)
    #expect(request.look.background == color("333333"))
    #expect(request.edge == .top)
    #expect(request.output == "DP-2")
    #expect(request.layer == .background)
    #expect(request.font == "B 2")
    // Where the command line sets nothing, the type's settings stay.
    let typeOnly = try #require(nag(["-m", "Hi", "-t", "warning"], config: config).request)
    #expect(typeOnly.edge == .bottom)
    #expect(typeOnly.output == "DP-1")
    #expect(typeOnly.layer == .bottom)
    #expect(typeOnly.font == "A 1")
  }

  @Test func aColourOfZeroIsNoColour() throws {
    // swaynag_type_merge takes a colour only when it is not 0.
    #expect(try look(["--background", "00000000"]) == errorLook)
    #expect(try look(["--background", "#00000000"]) == errorLook)
    // Given twice, the later zero unsets the earlier.
    #expect(try look(["--background", "123456", "--background", "00000000"]) == errorLook)
    // In a type, it leaves the colour below.
    #expect(try look(["-t", "mine"], config: "[mine]\ntext=00000000") == defaultsLook)
    // Opaque black is not 0.
    var black = errorLook
    black.background = color("000000")
    #expect(try look(["--background", "000000"]) == black)
    // Another transparent colour is not 0 either.
    var clear = errorLook
    clear.background = color("FFFFFF00")
    #expect(try look(["--background", "FFFFFF00"]) == clear)
    // Zero in the defaults: a type that sets no colour gets transparent black,
    // the colour of swaynag's zeroed type.
    var transparent = defaultsLook
    transparent.background = color("00000000")
    #expect(
      try look(["-t", "mine"], config: "[<defaults>]\nbackground=00000000\n[mine]\n")
        == transparent)
  }

  @Test func aSizeOfZeroIsASize() throws {
    var expected = errorLook
    expected.buttonGap = 0
    expected.borderBottomSize = 0
    #expect(try look(["--button-gap", "0"], config: "border-bottom-size=0") == expected)
  }

  @Test func theDefaultsCanBeEdited() throws {
    var expected = errorLook
    expected.buttonDismissGap = 5
    #expect(try look([], config: "[<defaults>]\nbutton-dismiss-gap=5") == expected)
    let font = try #require(nag(["-m", "Hi"], config: "[<DEFAULTS>]\nfont=pango:Serif 7").request)
    #expect(font.font == "Serif 7")
  }
}
