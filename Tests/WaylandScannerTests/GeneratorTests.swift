import Testing
import WaylandScanner

/// A tiny core protocol: enough for extension interfaces to refer to.
private let core = """
  <interface name="wl_display" version="1">
    <request name="sync"><arg name="callback" type="new_id" interface="wl_callback"/></request>
  </interface>
  <interface name="wl_callback" version="1">
    <event name="done" type="destructor"><arg name="callback_data" type="uint"/></event>
  </interface>
  <interface name="wl_surface" version="6"/>
  <interface name="wl_output" version="4"/>
  """

@Suite("Generator")
struct GeneratorTests {
  // MARK: Versions

  @Test func requestNewerThanVersionOneThrowsAndChecksTheVersion() throws {
    let source = try generate(
      """
      <interface name="t_obj" version="3">
        <request name="move" since="2"><arg name="x" type="int"/></request>
        <request name="plain"><arg name="x" type="int"/></request>
        <request name="later" since="3"/>
      </interface>
      """
    ).source
    expectContains(
      source,
      "public func move(x: Int32) throws(WaylandError) {",
      "try requireVersion(2, request: \"move\")",
      "/// Since version 2; throws when the object's version is older.",
      "public func later() throws(WaylandError) {",
      "try requireVersion(3, request: \"later\")",
      "public func plain(x: Int32) {")
    expectLacks(source, "requireVersion(1")
  }

  @Test func eventAndEntrySinceAreDocumented() throws {
    let source = try generate(
      """
      <interface name="t_obj" version="3">
        <event name="late" since="3"/>
        <enum name="mode">
          <entry name="old" value="0" summary="the old one"/>
          <entry name="new" value="1" summary="the new one" since="2"/>
          <entry name="newer" value="2" since="3"/>
        </enum>
      </interface>
      """
    ).source
    expectContains(
      source,
      "/// Since version 3.\n    case late",
      "/// The old one.\n    public static let old",
      "/// The new one. Since version 2.\n    public static let new",
      "/// Since version 3.\n    public static let newer")
  }

  // MARK: Enums

  @Test func bitfieldIsAnOptionSetWithAnEmptyZero() throws {
    let source = try generate(
      object: """
        <enum name="anchor" bitfield="true">
          <entry name="none" value="0"/>
          <entry name="top" value="1"/>
          <entry name="wide" value="0x10"/>
        </enum>
        """
    ).source
    expectContains(
      source,
      "public struct Anchor: OptionSet, Hashable, Sendable {",
      "public let rawValue: UInt32",
      "public init(rawValue: UInt32) { self.rawValue = rawValue }",
      "public static let none: Anchor = []",
      "public static let top = Anchor(rawValue: 1)",
      "public static let wide = Anchor(rawValue: 16)")
    expectLacks(source, "Anchor(rawValue: 0)", "RawRepresentable")
  }

  @Test func plainEnumIsRawRepresentable() throws {
    let source = try generate(
      object: """
        <enum name="error">
          <entry name="role" value="0"/>
          <entry name="default" value="1"/>
          <entry name="90" value="0x5A"/>
        </enum>
        """
    ).source
    expectContains(
      source,
      "public struct Error: RawRepresentable, Hashable, Sendable {",
      "public static let role = Error(rawValue: 0)",
      "public static let `default` = Error(rawValue: 1)",
      "public static let _90 = Error(rawValue: 90)")
    expectLacks(source, "OptionSet", "= []")
  }

  @Test func localEnumArgumentsUseTheEnumType() throws {
    let source = try generate(
      object: """
        <enum name="layer"><entry name="top" value="2"/></enum>
        <request name="put">
          <arg name="layer" type="uint" enum="layer"/>
          <arg name="signed_layer" type="int" enum="layer"/>
          <arg name="unknown" type="uint" enum="nowhere"/>
        </request>
        <event name="moved">
          <arg name="layer" type="uint" enum="layer"/>
          <arg name="signed_layer" type="int" enum="layer"/>
        </event>
        """
    ).source
    expectContains(
      source,
      "public func put(layer: Layer, signedLayer: Layer, unknown: UInt32) {",
      "arguments[0] = wl_argument(u: layer.rawValue)\n"
        + "      arguments[1] = wl_argument(i: Int32(bitPattern: signedLayer.rawValue))\n"
        + "      arguments[2] = wl_argument(u: unknown)\n",
      "case moved(layer: Layer, signedLayer: Layer)",
      "onEvent?(.moved(layer: Layer(rawValue: arguments[0].u), "
        + "signedLayer: Layer(rawValue: UInt32(bitPattern: arguments[1].i))))")
  }

  @Test func enumOfAnotherInterfaceIsQualified() throws {
    let source = try generate(
      """
      <interface name="other_iface" version="1">
        <enum name="name"><entry name="a" value="1"/></enum>
      </interface>
      <interface name="user" version="1">
        <request name="pick"><arg name="value" type="uint" enum="other_iface.name"/></request>
        <event name="picked"><arg name="value" type="int" enum="other_iface.name"/></event>
        <event name="missing"><arg name="value" type="int" enum="other_iface.nothing"/></event>
      </interface>
      """
    ).source
    expectContains(
      source,
      "public func pick(value: OtherIface.Name) {",
      "wl_argument(u: value.rawValue)",
      "case picked(value: OtherIface.Name)",
      "OtherIface.Name(rawValue: UInt32(bitPattern: arguments[0].i))",
      "case missing(value: Int32)")
  }

  @Test func emptyEnumReferencesNameNoEnum() throws {
    // `enum=""` once crashed the generator (Tests/Fuzz/scanner/crashes).
    let source = try generate(
      object: """
        <enum name="layer"><entry name="top" value="2"/></enum>
        <request name="put">
          <arg name="empty" type="uint" enum=""/>
          <arg name="dot" type="int" enum="."/>
          <arg name="trailing" type="uint" enum="t_obj."/>
        </request>
        """
    ).source
    expectContains(source, "public func put(empty: UInt32, dot: Int32, trailing: UInt32) {")
  }

  // MARK: Object types

  @Test func unknownInterfaceBecomesProxy() throws {
    let generated = try generate(
      object: """
        <request name="set_popup"><arg name="popup" type="object" interface="xdg_popup"/></request>
        <request name="set_parent">
          <arg name="parent" type="object" interface="xdg_toplevel" allow-null="true"/>
        </request>
        <request name="set_any"><arg name="thing" type="object"/></request>
        <event name="entered"><arg name="popup" type="object" interface="xdg_popup"/></event>
        <event name="left">
          <arg name="popup" type="object" interface="xdg_popup" allow-null="true"/>
        </event>
        """)
    expectContains(
      generated.source,
      "public func setPopup(_ popup: Proxy) {",
      "wl_argument(o: popup.objectPointer)",
      "public func setParent(_ parent: Proxy?) {",
      "wl_argument(o: parent?.objectPointer)",
      "public func setAny(thing: Proxy) {",
      "case entered(popup: Proxy)",
      "guard let popup: Proxy = Marshal.object(arguments[0].o) else { return }",
      "onEvent?(.entered(popup: popup))",
      "case left(popup: Proxy?)",
      "let popup: Proxy? = Marshal.object(arguments[0].o)")
    expectContains(
      generated.tables, #"("set_popup", "o", [nil])"#, #"("set_parent", "?o", [nil])"#)
  }

  @Test func knownInterfacesAreTyped() throws {
    let generated = try generate(
      """
      <interface name="t_obj" version="1">
        <request name="attach">
          <arg name="surface" type="object" interface="wl_surface"/>
          <arg name="peer" type="object" interface="t_obj" allow-null="true"/>
        </request>
      </interface>
      """, core: core)
    expectContains(generated.source, "public func attach(surface: WlSurface, peer: TObj?) {")
  }

  @Test func newIDWithoutInterfaceIsGeneric() throws {
    let generated = try generate(
      """
      <interface name="t_registry" version="1">
        <request name="bind">
          <arg name="name" type="uint"/>
          <arg name="id" type="new_id"/>
        </request>
      </interface>
      """)
    expectContains(
      generated.source,
      "public func bind<T: Interface>(name: UInt32, _ type: T.Type, version: UInt32) -> T {",
      """
          let interfaceName = Marshal.cString(T.interfaceName)
          defer { Marshal.free(interfaceName) }
          return withUnsafeTemporaryAllocation(of: wl_argument.self, capacity: 4) { arguments in
            arguments[0] = wl_argument(u: name)
            arguments[1] = wl_argument(s: interfaceName)
            arguments[2] = wl_argument(u: version)
            arguments[3] = wl_argument(n: 0)
            return marshalConstructor(opcode: 0, arguments: arguments, as: T.self, version: version)
          }
      """)
    expectContains(generated.tables, #"("bind", "usun", [nil, nil, nil, nil])"#)
  }

  @Test func newIDWithInterfaceReturnsTheObject() throws {
    let generated = try generate(
      """
      <interface name="t_maker" version="1">
        <request name="make">
          <arg name="id" type="new_id" interface="t_made"/>
          <arg name="size" type="int"/>
        </request>
        <event name="made"><arg name="id" type="new_id" interface="t_made"/></event>
      </interface>
      <interface name="t_made" version="1"/>
      """)
    expectContains(
      generated.source,
      "public func make(size: Int32) -> TMade {",
      """
          return withUnsafeTemporaryAllocation(of: wl_argument.self, capacity: 2) { arguments in
            arguments[0] = wl_argument(n: 0)
            arguments[1] = wl_argument(i: size)
            return marshalConstructor(opcode: 0, arguments: arguments, as: TMade.self, version: version)
          }
      """,
      "case made(id: TMade)",
      "guard let id = Marshal.adopt(arguments[0].o, as: TMade.self, parent: self) else { return }",
      "onEvent?(.made(id: id))")
    expectLacks(generated.source, "@discardableResult", "<T: Interface>")
    expectContains(generated.tables, #"("make", "ni", [UnsafePointer(table + 1), nil])"#)
  }

  // MARK: Lifetimes

  @Test func destructorEventKeepsTheObjectAlive() throws {
    let source = try generate(
      """
      <interface name="t_obj" version="1">
        <request name="frame"><arg name="callback" type="new_id" interface="t_callback"/></request>
      </interface>
      <interface name="t_callback" version="1">
        <event name="done" type="destructor"><arg name="data" type="uint"/></event>
      </interface>
      """
    ).source
    expectContains(
      source,
      "super.init(adopting: pointer, keepAliveUntilDestroyed: false)",
      "super.init(adopting: pointer, keepAliveUntilDestroyed: true)",
      "  @discardableResult\n  public func frame() -> TCallback {",
      "onEvent?(.done(data: arguments[0].u))\n      finishDestructorEvent()")
    let callback = try #require(source.range(of: "public final class TCallback"))
    #expect(
      source[callback.lowerBound...].contains("keepAliveUntilDestroyed: true"),
      "the callback class keeps itself alive")
    #expect(
      !source[..<callback.lowerBound].contains("keepAliveUntilDestroyed: true"),
      "the creating class does not")
  }

  @Test func destructorRequests() throws {
    let source = try generate(
      """
      <interface name="t_plain" version="3">
        <request name="noop"/>
        <request name="destroy" type="destructor" since="3"/>
      </interface>
      <interface name="t_reasoned" version="1">
        <request name="release" type="destructor"><arg name="reason" type="uint"/></request>
      </interface>
      """
    ).source
    expectContains(
      source,
      "override class var destructorRequest: (opcode: UInt32, since: UInt32)? { (1, 3) }",
      "public func release(reason: UInt32) {",
      "marshalDestructor(opcode: 0, arguments: arguments)",
      "public func noop() {\n    marshal(opcode: 0)\n  }")
    // The argument-less destroy request is Proxy.destroy(), not a generated method.
    expectLacks(source, "func destroy", "requireVersion(3")
    #expect(source.components(separatedBy: "destructorRequest").count == 2)
  }

  @Test func displayIsNotDispatchedOrOwned() throws {
    let generated = try generate(core)
    expectContains(
      generated.source,
      "super.init(adopting: pointer, dispatch: false, owned: false)",
      "@discardableResult\n  public func sync() -> WlCallback {")
  }

  // MARK: Arguments

  @Test func firstLabelIsDroppedWhenTheMethodNamesIt() throws {
    let source = try generate(
      """
      <interface name="t_obj" version="1">
        <enum name="anchor" bitfield="true"><entry name="top" value="1"/></enum>
        <request name="set_anchor"><arg name="anchor" type="uint" enum="anchor"/></request>
        <request name="set_size">
          <arg name="width" type="uint"/>
          <arg name="height" type="uint"/>
        </request>
        <request name="set_app_id"><arg name="app_id" type="string"/></request>
        <request name="set_pair">
          <arg name="first" type="int"/>
          <arg name="pair" type="int"/>
        </request>
        <request name="get_thing">
          <arg name="id" type="new_id" interface="t_thing"/>
          <arg name="thing" type="object" interface="t_obj"/>
        </request>
      </interface>
      <interface name="t_thing" version="1"/>
      """
    ).source
    expectContains(
      source,
      "public func setAnchor(_ anchor: Anchor) {",
      "public func setSize(width: UInt32, height: UInt32) {",
      "public func setAppId(_ appId: String) {",
      "public func setPair(first: Int32, pair: Int32) {",
      "public func getThing(_ thing: TObj) -> TThing {")
  }

  @Test func everyArgumentKindIsMarshalled() throws {
    let everyKind = """
      <arg name="count" type="int"/><arg name="mask" type="uint"/>
      <arg name="scale" type="fixed"/><arg name="label" type="string"/>
      <arg name="note" type="string" allow-null="true"/><arg name="payload" type="array"/>
      <arg name="fd" type="fd"/>
      """
    let generated = try generate(
      object: """
        <request name="send">\(everyKind)</request>
        <event name="received">\(everyKind)</event>
        """)
    expectContains(
      generated.source,
      "public func send(count: Int32, mask: UInt32, scale: Double, label: String, note: String?, "
        + "payload: [UInt8], fd: Int32) {",
      """
          let labelCString = Marshal.cString(label)
          defer { Marshal.free(labelCString) }
          let noteCString = Marshal.cString(note)
          defer { Marshal.free(noteCString) }
          let payloadArray = Marshal.array(payload)
          defer { Marshal.free(payloadArray) }
          withUnsafeTemporaryAllocation(of: wl_argument.self, capacity: 7) { arguments in
            arguments[0] = wl_argument(i: count)
            arguments[1] = wl_argument(u: mask)
            arguments[2] = wl_argument(f: wlt_fixed_from_double(scale))
            arguments[3] = wl_argument(s: labelCString)
            arguments[4] = wl_argument(s: noteCString)
            arguments[5] = wl_argument(a: payloadArray)
            arguments[6] = wl_argument(h: fd)
            marshal(opcode: 0, arguments: arguments)
          }
      """,
      "case received(count: Int32, mask: UInt32, scale: Double, label: String, note: String?, "
        + "payload: [UInt8], fd: Int32)",
      "count: arguments[0].i, mask: arguments[1].u, scale: wlt_fixed_to_double(arguments[2].f), "
        + "label: Marshal.string(arguments[3].s) ?? \"\", note: Marshal.string(arguments[4].s), "
        + "payload: Marshal.bytes(arguments[5].a), fd: arguments[6].h")
    expectContains(
      generated.tables, #"("send", "iufs?sah", [nil, nil, nil, nil, nil, nil, nil])"#,
      #"("received", "iufs?sah", [nil, nil, nil, nil, nil, nil, nil])"#)
  }

  @Test func keywordNamesAreEscapedWhereNeeded() throws {
    let source = try generate(
      object: """
        <request name="default"><arg name="x" type="int"/><arg name="in" type="int"/></request>
        <event name="protocol"><arg name="in" type="int"/></event>
        """
    ).source
    expectContains(
      source,
      "public func `default`(x: Int32, in: Int32) {",
      "wl_argument(i: `in`)",
      "case `protocol`(in: Int32)",
      "onEvent?(.`protocol`(in: arguments[0].i))")
  }

  @Test func temporariesNeverShadowArguments() throws {
    let generated = try generate(
      object: """
        <request name="send">
          <arg name="arguments" type="int"/>
          <arg name="label" type="string"/>
          <arg name="label_c_string" type="string"/>
          <arg name="marshal" type="uint"/>
        </request>
        <request name="make">
          <arg name="id" type="new_id" interface="t_obj"/>
          <arg name="version" type="uint"/>
        </request>
        <request name="bind">
          <arg name="id" type="new_id"/>
          <arg name="type" type="uint"/>
        </request>
        <event name="seen"><arg name="arguments" type="object" interface="t_obj"/></event>
        """)
    expectContains(
      generated.source,
      "public func send(arguments: Int32, label: String, labelCString: String, "
        + "marshal marshal2: UInt32) {",
      "let labelCString2 = Marshal.cString(label)",
      "let labelCStringCString = Marshal.cString(labelCString)",
      "{ arguments2 in\n      arguments2[0] = wl_argument(i: arguments)",
      "arguments2[3] = wl_argument(u: marshal2)",
      "marshal(opcode: 0, arguments: arguments2)",
      // A typed constructor passes the object's own version.
      "public func make(version version2: UInt32) -> TObj {",
      "arguments[1] = wl_argument(u: version2)",
      "as: TObj.self, version: version)",
      "public func bind<T: Interface>(_ type: T.Type, version: UInt32, type type2: UInt32) -> T {",
      "arguments[3] = wl_argument(u: type2)",
      "guard let arguments2: TObj = Marshal.object(arguments[0].o) else { return }",
      "onEvent?(.seen(arguments: arguments2))")
  }

  @Test func eventsWithoutArgumentsAreBareCases() throws {
    let source = try generate(
      """
      <interface name="t_obj" version="1">
        <event name="closed"/>
        <event name="sized"><arg name="width" type="int"/></event>
      </interface>
      <interface name="t_silent" version="1"/>
      """
    ).source
    expectContains(
      source,
      "public enum Event {",
      "case closed\n",
      "public var onEvent: ((Event) -> Void)?",
      "override func clearHandlers() { onEvent = nil }",
      "case 0:\n      onEvent?(.closed)",
      "case 1:\n      onEvent?(.sized(width: arguments[0].i))")
    // An interface without events has no event machinery.
    let silent = try #require(source.range(of: "public final class TSilent"))
    #expect(!source[silent.lowerBound...].contains("onEvent"))
  }

  // MARK: Documentation

  @Test func documentationComesFromDescriptions() throws {
    let source = try generate(
      object: """
        <description summary="an object">
          First paragraph,
          two lines.

          Second paragraph.
        </description>
        <request name="plain"/>
        <request name="documented">
          <description summary="does things"/>
        </request>
        """
    ).source
    expectContains(
      source,
      "/// An object.\n///\n/// First paragraph,\n/// two lines.\n///\n/// Second paragraph.\n"
        + "public final class TObj: Proxy, Interface {",
      "/// The plain request.\n  public func plain() {",
      "/// Does things.\n  public func documented() {")
  }

  @Test func summariesStayOnOneCommentLine() throws {
    // Summaries wrapped over lines in the file, as in xdg-shell and linux-dmabuf, and a
    // line break written as a character reference.
    let source = try generate(
      object: """
        <description summary="an object&#10;on two lines"/>
        <request name="wrapped">
          <description summary="Immediately create a wl_buffer from the given
                             dmabufs"/>
        </request>
        <enum name="error">
          <entry name="bad" value="0" summary="Provided value is
              not a valid variant"/>
        </enum>
        """
    ).source
    expectContains(
      source,
      "/// An object on two lines.\npublic final class TObj",
      "/// Immediately create a wl_buffer from the given dmabufs.\n  public func wrapped() {",
      "/// Provided value is not a valid variant.\n    public static let bad")
  }

  @Test func bodyLineBreaksOfAnyKindStartNewCommentLines() throws {
    let source = try generate(
      "<interface name=\"t_obj\" version=\"1\">"
        + "<description summary=\"s\">one&#13;two&#xD;&#xA;three&#x2028;four</description>"
        + "</interface>"
    ).source
    expectContains(source, "/// S.\n///\n/// one\n/// two\n/// three\n/// four\npublic final class")
  }

  // MARK: Tables

  @Test func tablesCarrySignaturesAndTypes() throws {
    let generated = try generate(
      """
      <interface name="zt_shell" version="2">
        <request name="get_layer_surface">
          <arg name="id" type="new_id" interface="zt_layer_surface"/>
          <arg name="surface" type="object" interface="wl_surface"/>
          <arg name="output" type="object" interface="wl_output" allow-null="true"/>
          <arg name="layer" type="uint"/>
          <arg name="namespace" type="string"/>
        </request>
        <request name="set_layer" since="2"><arg name="layer" type="uint"/></request>
      </interface>
      <interface name="zt_layer_surface" version="1">
        <event name="closed"/>
      </interface>
      """, core: core)
    expectContains(
      generated.tables,
      "enum ProtocolTables {",
      "let table = InterfaceTable.allocate(count: 2)",
      #"table + 0, name: "zt_shell", version: 2,"#,
      #"("get_layer_surface", "no?ous", [UnsafePointer(table + 1), wlt_wl_surface_interface(), "#
        + "wlt_wl_output_interface(), nil, nil])",
      #"("set_layer", "2u", [nil])"#,
      #"table + 1, name: "zt_layer_surface", version: 1,"#,
      "requests: [],",
      #"("closed", "", [])"#,
      "return table")
    // Core interfaces live in libwayland and get no table of their own.
    expectLacks(generated.tables, #"name: "wl_surface""#, #"name: "wl_display""#)
    expectContains(
      generated.source,
      "public static var interface: UnsafePointer<wl_interface> { "
        + "UnsafePointer(ProtocolTables.table + 0) }",
      "public static var interface: UnsafePointer<wl_interface> { "
        + "UnsafePointer(ProtocolTables.table + 1) }",
      "public func getLayerSurface(_ surface: WlSurface, output: WlOutput?, layer: UInt32, "
        + "namespace: String) -> ZtLayerSurface {")
  }

  @Test func coreInterfacesUseTheLibraryTables() throws {
    let spec = try ProtocolSpec(xml: protocolXML(core, name: "wayland"))
    let generator = Generator(inputs: [Generator.Input(spec: spec, isCore: true)])
    let source = generator.source(for: spec)
    expectContains(
      source,
      "// Generated by wayland-scanner from the wayland protocol. Do not edit.",
      "public static let interfaceName = \"wl_surface\"",
      "public static let supportedVersion: UInt32 = 6",
      "public static var interface: UnsafePointer<wl_interface> { wlt_wl_surface_interface() }")
    expectContains(generator.tablesSource(), "InterfaceTable.allocate(count: 0)")
    expectLacks(generator.tablesSource(), "InterfaceTable.fill(")
  }

  @Test func tablesNumberExtensionsAcrossProtocols() throws {
    let first = try ProtocolSpec(xml: protocolXML(#"<interface name="a_one" version="1"/>"#))
    let second = try ProtocolSpec(
      xml: protocolXML(
        """
        <interface name="b_one" version="1">
          <request name="link"><arg name="other" type="object" interface="a_one"/></request>
        </interface>
        <interface name="b_two" version="1"/>
        """))
    let coreSpec = try ProtocolSpec(xml: protocolXML(core))
    let generator = Generator(inputs: [
      Generator.Input(spec: coreSpec, isCore: true),
      Generator.Input(spec: first, isCore: false),
      Generator.Input(spec: second, isCore: false),
    ])
    let tables = generator.tablesSource()
    expectContains(
      tables,
      "InterfaceTable.allocate(count: 3)",
      #"table + 0, name: "a_one""#,
      #"table + 1, name: "b_one""#,
      #"table + 2, name: "b_two""#,
      #"("link", "o", [UnsafePointer(table + 0)])"#)
    expectContains(
      generator.source(for: second), "public func link(other: AOne) {",
      "{ UnsafePointer(ProtocolTables.table + 2) }")
  }

  @Test func firstLabelIsDroppedOnlyOnWholeWords() throws {
    let source = try generate(
      """
      <interface name="t_pool" version="1">
        <request name="resize"><arg name="size" type="int"/></request>
      </interface>
      """
    ).source
    expectContains(source, "public func resize(size: Int32) {")
  }

  @Test func objectsOfUnknownInterfacesAreLeftOutOrUntyped() throws {
    let source = try generate(
      """
      <interface name="t_maker" version="1">
        <request name="make"><arg name="id" type="new_id" interface="t_elsewhere"/></request>
        <event name="made"><arg name="id" type="new_id" interface="t_elsewhere"/></event>
      </interface>
      """
    ).source
    expectContains(
      source, "// make is left out: it creates a t_elsewhere, which no loaded protocol defines.",
      "case made(id: Proxy)", "Marshal.adoptUntyped(arguments[0].o, parent: self)")
    expectLacks(source, "public func make(")
  }
}
