import Testing
import WaylandScanner

@Suite("Protocol model")
struct ModelTests {
  @Test func readsProtocolAndInterfaces() throws {
    let spec = try parseProtocol(
      """
      <interface name="a_one" version="4">
        <description summary="the first">
          Body text.
        </description>
      </interface>
      <interface name="a_two"/>
      """)
    #expect(spec.name == "test")
    #expect(spec.interfaces.map(\.name) == ["a_one", "a_two"])
    #expect(spec.interfaces[0].version == 4)
    #expect(spec.interfaces[1].version == 1)
    #expect(spec.interfaces[0].description?.summary == "the first")
    #expect(spec.interfaces[0].description?.body.contains("Body text.") == true)
    #expect(spec.interfaces[1].description == nil)
  }

  @Test func keepsMessagesInOpcodeOrder() throws {
    let interface = try parseInterface(
      """
      <interface name="i" version="3">
        <request name="first"/>
        <event name="e_first"/>
        <enum name="en"><entry name="a" value="0"/></enum>
        <request name="second" since="2"/>
        <event name="e_second" since="3"/>
        <request name="gone" type="destructor"/>
      </interface>
      """)
    #expect(interface.requests.map(\.name) == ["first", "second", "gone"])
    #expect(interface.events.map(\.name) == ["e_first", "e_second"])
    #expect(interface.requests.map(\.since) == [1, 2, 1])
    #expect(interface.events.map(\.since) == [1, 3])
    #expect(interface.requests.map(\.isDestructor) == [false, false, true])
    #expect(interface.enums.map(\.name) == ["en"])
  }

  @Test func readsADestructorEvent() throws {
    let interface = try parseInterface(
      """
      <interface name="cb" version="1">
        <event name="done" type="destructor"><arg name="data" type="uint"/></event>
      </interface>
      """)
    #expect(interface.events.first?.isDestructor == true)
    #expect(interface.requests.isEmpty)
  }

  @Test func readsEveryArgumentKind() throws {
    let request = try parseRequest(
      """
        <arg name="a_int" type="int" summary="signed"/>
        <arg name="a_uint" type="uint"/>
        <arg name="a_fixed" type="fixed"/>
        <arg name="a_string" type="string" allow-null="true"/>
        <arg name="a_object" type="object" interface="wl_surface" allow-null="false"/>
        <arg name="a_new_id" type="new_id" interface="wl_callback"/>
        <arg name="a_array" type="array"/>
        <arg name="a_fd" type="fd"/>
        <arg name="a_generic" type="new_id"/>
      """)
    let arguments = request.arguments
    #expect(
      arguments.map(\.kind) == [
        .int, .uint, .fixed, .string, .object, .newID, .array, .fd, .newID,
      ])
    #expect(arguments.map(\.name).first == "a_int")
    #expect(arguments[0].summary == "signed")
    #expect(arguments[1].summary == nil)
    #expect(
      arguments.map(\.allowNull) == [false, false, false, true, false, false, false, false, false])
    #expect(arguments[4].interface == "wl_surface")
    #expect(arguments[5].interface == "wl_callback")
    #expect(arguments[8].interface == nil)
    #expect(ArgumentKind.newID.rawValue == "new_id")
  }

  @Test func readsEnumReferences() throws {
    let request = try parseRequest(
      """
        <arg name="local" type="uint" enum="anchor"/>
        <arg name="remote" type="int" enum="other_iface.layer"/>
        <arg name="plain" type="uint"/>
      """)
    #expect(request.arguments.map(\.enumName) == ["anchor", "other_iface.layer", nil])
  }

  @Test func readsEnumsAndBitfields() throws {
    let interface = try parseInterface(
      """
      <interface name="i" version="4">
        <enum name="anchor" bitfield="true">
          <entry name="none" value="0"/>
          <entry name="top" value="1" summary="top edge"/>
          <entry name="big" value="0x10"/>
          <entry name="upper" value="0XFF" since="3"/>
        </enum>
        <enum name="error">
          <description summary="errors"/>
          <entry name="role" value="0"/>
          <entry name="90" value="4294967295"/>
        </enum>
      </interface>
      """)
    let anchor = interface.enums[0]
    let error = interface.enums[1]
    #expect(anchor.isBitfield)
    #expect(!error.isBitfield)
    #expect(anchor.entries.map(\.name) == ["none", "top", "big", "upper"])
    #expect(anchor.entries.map(\.value) == [0, 1, 16, 255])
    #expect(anchor.entries.map(\.since) == [1, 1, 1, 3])
    #expect(anchor.entries.map(\.summary) == [nil, "top edge", nil, nil])
    #expect(error.description?.summary == "errors")
    #expect(error.entries.map(\.value) == [0, UInt32.max])
  }

  /// Overflows and nesting that once crashed the scanner (Tests/Fuzz/scanner/crashes).
  static let crashingEntryValues: [String] = [
    "(-9223372036854775807 - 1) / -1", "(-9223372036854775807 - 1) % -1",
    String(repeating: "(", count: 65) + "1" + String(repeating: ")", count: 65),
    String(repeating: "-", count: 1_000) + "1",
  ]

  @Test func readsEntryValuesWrittenAsCConstantExpressions() throws {
    // The reference scanner copies values into C unchanged, so protocols may use
    // C expressions: plasma-window-management writes `1 << 3`.
    let interface = try parseInterface(
      """
      <interface name="i" version="1">
        <enum name="state" bitfield="true">
          <entry name="shifted" value="1 &lt;&lt; 3"/>
          <entry name="combined" value="(1 &lt;&lt; 4) | 0x2"/>
          <entry name="octal" value="010"/>
          <entry name="suffixed" value="7u"/>
          <entry name="arithmetic" value="2 + 3 * 4 - 10 / 5 % 3"/>
          <entry name="negative" value="-1"/>
          <entry name="complement" value="~0x0F &amp; 0xFF"/>
          <entry name="exclusive" value="6 ^ 3 >> 1"/>
        </enum>
      </interface>
      """)
    #expect(interface.enums[0].entries.map(\.value) == [8, 18, 8, 7, 12, UInt32.max, 0xF0, 7])
  }

  @Test(
    arguments: [
      "", "x", "1 <<", "(1", "1)", "1 / 0", "1 << 64", "4294967296", "-2147483649", "0x", "08",
      "1 || 2", "1 && 2", "1 < 2", "1 % 0",
    ] + ModelTests.crashingEntryValues)
  func rejectsEntryValuesThatAreNotConstants(_ value: String) {
    let error = #expect(throws: ScannerError.self) {
      try parseProtocol(
        #"<interface name="i"><enum name="e"><entry name="a" value=""#
          + value.map { $0 == "&" ? "&amp;" : $0 == "<" ? "&lt;" : String($0) }.joined()
          + #""/></enum></interface>"#)
    }
    #expect(error?.message == "value=\"\(value)\" is not a number")
  }

  @Test func rejectsAnUnknownArgumentType() {
    let error = #expect(throws: ScannerError.self) {
      try ProtocolSpec(
        xml: """
          <protocol name="p">
            <interface name="i" version="1">
              <request name="r">
                <arg name="bad" type="double"/>
              </request>
            </interface>
          </protocol>
          """)
    }
    #expect(error?.line == 4)
    #expect(error?.message == "argument bad has unknown type double")
  }

  @Test func rejectsAWrongRootElement() {
    let error = #expect(throws: ScannerError.self) {
      try ProtocolSpec(xml: "<?xml version=\"1.0\"?>\n<interface name=\"i\"/>")
    }
    #expect(error?.line == 2)
    #expect(error?.message.contains("<interface>") == true)
  }

  @Test(arguments: [
    (#"<interface version="1"/>"#, "<interface> needs a name attribute"),
    (#"<interface name="i" version="two"/>"#, #"version="two" is not a number"#),
    (#"<interface name="i" version="-1"/>"#, #"version="-1" is not a number"#),
    (#"<interface name="i"><request/></interface>"#, "<request> needs a name attribute"),
    (
      #"<interface name="i"><event name="e" since="0xZ"/></interface>"#,
      #"since="0xZ" is not a number"#
    ),
    (
      #"<interface name="i"><request name="r"><arg name="a"/></request></interface>"#,
      "<arg> needs a type attribute"
    ),
    (
      #"<interface name="i"><enum name="e"><entry name="a"/></enum></interface>"#,
      "entry without a value in enum e"
    ),
    (
      #"<interface name="i"><enum name="e"><entry name="a" value="4294967296"/></enum>"#
        + "</interface>",
      #"value="4294967296" is not a number"#
    ),
    (
      #"<interface name="i"><enum name="e"><entry value="1"/></enum></interface>"#,
      "<entry> needs a name attribute"
    ),
    (#"<interface name=""/>"#, "<interface> needs a name attribute"),
    (#"<interface name="i">"#, "</protocol> closes <interface>"),
  ])
  func rejectsInvalidProtocols(_ interfaces: String, message: String) {
    let error = #expect(throws: ScannerError.self) { try parseProtocol(interfaces) }
    #expect(error?.message == message)
    #expect(error?.line != nil)
  }

  @Test func rejectsAProtocolWithoutAName() {
    let error = #expect(throws: ScannerError.self) { try ProtocolSpec(xml: "<protocol/>") }
    #expect(error?.message == "<protocol> needs a name attribute")
    #expect(error?.line == 1)
  }
}

/// The request `r` of interface `i`, whose arguments are `arguments`.
private func parseRequest(_ arguments: String) throws -> MessageSpec {
  try #require(
    try parseProtocol(
      "<interface name=\"i\" version=\"1\"><request name=\"r\">\n\(arguments)\n</request></interface>"
    ).interfaces.first?.requests.first)
}
