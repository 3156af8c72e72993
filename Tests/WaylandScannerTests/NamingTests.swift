import Testing
import WaylandScanner

@Suite("Naming")
struct NamingTests {
  @Test(arguments: [
    ("wl_surface", "WlSurface"),
    ("zwlr_layer_surface_v1", "ZwlrLayerSurfaceV1"),
    ("zwp_virtual_keyboard_manager_v1", "ZwpVirtualKeyboardManagerV1"),
    ("anchor", "Anchor"),
    ("keyboard_interactivity", "KeyboardInteractivity"),
    ("wl_shm", "WlShm"),
    ("xdg-popup", "XdgPopup"),
  ])
  func typeNameIsUpperCamelCase(_ wire: String, _ swift: String) {
    #expect(Naming.typeName(wire) == swift)
  }

  @Test func typeNameEscapesKeywords() {
    #expect(Naming.typeName("type") == "`Type`")
    #expect(Naming.typeName("protocol") == "`Protocol`")
    #expect(Naming.typeName("error") == "Error")
  }

  @Test(arguments: [
    ("set_size", "setSize"),
    ("get_layer_surface", "getLayerSurface"),
    ("ack_configure", "ackConfigure"),
    ("destroy", "destroy"),
    ("keyboard_interactivity", "keyboardInteractivity"),
    ("on_demand", "onDemand"),
    ("x", "x"),
    ("set_app_id", "setAppId"),
    ("rotate_90", "rotate90"),
  ])
  func memberNameIsLowerCamelCase(_ wire: String, _ swift: String) {
    #expect(Naming.memberName(wire) == swift)
    #expect(Naming.bareMemberName(wire) == swift)
  }

  @Test(arguments: [("90", "_90"), ("180", "_180"), ("2d_mode", "_2dMode")])
  func memberNameStartingWithADigitGetsAnUnderscore(_ wire: String, _ swift: String) {
    #expect(Naming.memberName(wire) == swift)
    #expect(Naming.bareMemberName(wire) == swift)
  }

  @Test(arguments: ["default", "in", "protocol", "class", "self", "repeat", "func", "var"])
  func memberNameEscapesKeywords(_ keyword: String) {
    #expect(Naming.memberName(keyword) == "`\(keyword)`")
    #expect(Naming.bareMemberName(keyword) == keyword)
  }

  @Test func onlyWholeKeywordsAreEscaped() {
    #expect(Naming.memberName("default_value") == "defaultValue")
    #expect(Naming.memberName("in_place") == "inPlace")
    #expect(Naming.memberName("protocols") == "protocols")
  }

  @Test func emptyNameBecomesAnUnderscore() {
    #expect(Naming.memberName("") == "_")
    #expect(Naming.memberName("__") == "_")
  }
}
