import CGio
import SystemSupport

/// A D-Bus interface as a connection serves it: its methods and signals with
/// their arguments, which the dispatch checks calls against and
/// `Introspect` describes.
package struct BusInterface: Sendable {
  /// A named argument of a method or signal and its D-Bus type (`s`, `a{sv}`).
  package struct Argument: Sendable {
    /// Its name, for `Introspect`.
    package var name: String
    /// Its D-Bus type.
    package var type: String

    /// An argument called `name` of type `type`.
    package init(_ name: String, _ type: String) {
      self.name = name
      self.type = type
    }
  }

  /// A method: what it takes and what it answers.
  package struct Method: Sendable {
    /// Its name (`Notify`).
    package var name: String
    /// What a call carries, in order.
    package var inputs: [Argument]
    /// What the answer carries, in order.
    package var outputs: [Argument]

    /// A method called `name`.
    package init(_ name: String, inputs: [Argument] = [], outputs: [Argument] = []) {
      self.name = name
      self.inputs = inputs
      self.outputs = outputs
    }

    /// The signature a call must have: its inputs' types in order.
    package var inputSignature: String { inputs.map(\.type).joined() }
  }

  /// A signal and its arguments.
  package struct Signal: Sendable {
    /// Its name (`NotificationClosed`).
    package var name: String
    /// What it carries, in order.
    package var arguments: [Argument]

    /// A signal called `name`.
    package init(_ name: String, _ arguments: [Argument]) {
      self.name = name
      self.arguments = arguments
    }
  }

  /// The interface's name (`org.freedesktop.Notifications`).
  package var name: String
  /// Its methods.
  package var methods: [Method]
  /// Its signals.
  package var signals: [Signal]

  /// An interface called `name`.
  package init(_ name: String, methods: [Method], signals: [Signal] = []) {
    self.name = name
    self.methods = methods
    self.signals = signals
  }

  /// The interface as `Introspect` writes it.
  var introspection: String {
    func argument(_ argument: Argument, direction: String?) -> String {
      "      <arg name=\"\(argument.name)\" type=\"\(escaped(argument.type))\""
        + (direction.map { " direction=\"\($0)\"" } ?? "") + "/>\n"
    }
    var text = "  <interface name=\"\(name)\">\n"
    for method in methods {
      text += "    <method name=\"\(method.name)\">\n"
      for input in method.inputs { text += argument(input, direction: "in") }
      for output in method.outputs { text += argument(output, direction: "out") }
      text += "    </method>\n"
    }
    for signal in signals {
      text += "    <signal name=\"\(signal.name)\">\n"
      for item in signal.arguments { text += argument(item, direction: nil) }
      text += "    </signal>\n"
    }
    return text + "  </interface>\n"
  }

  /// `org.freedesktop.DBus.Peer`: every object answers it.
  static let peer = BusInterface(
    "org.freedesktop.DBus.Peer",
    methods: [
      Method("Ping"), Method("GetMachineId", outputs: [Argument("machine_uuid", "s")]),
    ])
  /// `org.freedesktop.DBus.Introspectable`.
  static let introspectable = BusInterface(
    "org.freedesktop.DBus.Introspectable",
    methods: [Method("Introspect", outputs: [Argument("xml_data", "s")])])
  /// `org.freedesktop.DBus.Properties`: the served interfaces have no properties.
  static let properties = BusInterface(
    "org.freedesktop.DBus.Properties",
    methods: [
      Method(
        "Get", inputs: [Argument("interface_name", "s"), Argument("property_name", "s")],
        outputs: [Argument("value", "v")]),
      Method(
        "GetAll", inputs: [Argument("interface_name", "s")],
        outputs: [Argument("properties", "a{sv}")]),
      Method(
        "Set",
        inputs: [
          Argument("interface_name", "s"), Argument("property_name", "s"),
          Argument("value", "v"),
        ]),
    ],
    signals: [
      Signal(
        "PropertiesChanged",
        [
          Argument("interface_name", "s"), Argument("changed_properties", "a{sv}"),
          Argument("invalidated_properties", "as"),
        ])
    ])
}

/// `<`, `>`, `&` and `"` as XML writes them in an attribute (a type such as `a{sv}` has none).
private func escaped(_ text: String) -> String {
  var result = ""
  for character in text {
    switch character {
    case "<": result += "&lt;"
    case ">": result += "&gt;"
    case "&": result += "&amp;"
    case "\"": result += "&quot;"
    default: result.append(character)
    }
  }
  return result
}

/// The objects a connection serves and the answer to every method call
/// that reaches them (``answer(_:)``, for ``BusConnection/onMethodCall``).
///
/// A call is checked before its handler hears it: an object that is not
/// served is `UnknownObject`, an interface it lacks `UnknownInterface`, a
/// method it lacks `UnknownMethod`, arguments of another signature
/// `InvalidArgs`. Every object also answers `org.freedesktop.DBus.Peer`
/// (`Ping`, `GetMachineId`), `org.freedesktop.DBus.Introspectable` (its
/// interfaces as XML; the paths above it list their children, so a tool
/// can walk down from `/`) and `org.freedesktop.DBus.Properties` (none).
package final class BusObjects {
  /// Answers a call of `method` (checked already): the reply or an error
  /// (``BusMessage/reply(_:)``, ``BusMessage/error(_:_:)``), nil when the
  /// call cannot be answered.
  package typealias Handler = (_ method: String, _ call: BusMessage) -> BusMessage?

  private struct Served {
    var interface: BusInterface
    var handler: Handler
  }

  /// The interfaces served, by object path.
  private var objects: [String: [Served]] = [:]

  /// No object served yet.
  package init() {}

  /// Serves `interface` at `path`; `handler` answers its methods' calls.
  package func serve(_ interface: BusInterface, at path: String, handler: @escaping Handler) {
    objects[path, default: []].removeAll { $0.interface.name == interface.name }
    objects[path, default: []].append(Served(interface: interface, handler: handler))
  }

  /// Stops serving the object at `path`.
  package func withdraw(_ path: String) { objects[path] = nil }

  /// The answer to a method call: the handler's, or the error the checks
  /// above give; nil when the call cannot be answered at all.
  package func answer(_ call: BusMessage) -> BusMessage? {
    guard let path = call.path, let member = call.member else {
      return call.error(BusError.unknownMethod, "a call without a path or member")
    }
    let served = objects[path] ?? []
    let interface = call.interface
    // Peer's methods are any object's, served or not (as libdbus answers them).
    if interface == BusInterface.peer.name || (interface == nil && served.isEmpty) {
      if let answer = answerPeer(member, call) { return answer }
    }
    let children = childNodes(of: path)
    guard !served.isEmpty || !children.isEmpty else {
      return call.error(BusError.unknownObject, "no object at \(path)")
    }
    switch interface {
    case BusInterface.introspectable.name?:
      guard member == "Introspect" else { return unknownMethod(call, member, interface) }
      return checked(call, BusInterface.introspectable.methods[0]) {
        call.reply(Variant.tuple([Variant.string(introspection(served, children: children))]))
      }
    case BusInterface.properties.name?:
      return answerProperties(member, call, served)
    case nil:
      if member == "Introspect" && call.signature.isEmpty {
        return call.reply(
          Variant.tuple([Variant.string(introspection(served, children: children))]))
      }
      guard
        let (method, handler) = served.lazy.compactMap({ entry in
          entry.interface.methods.first { $0.name == member }.map { ($0, entry.handler) }
        }).first
      else { return unknownMethod(call, member, nil) }
      return checked(call, method) { handler(member, call) }
    case let name?:
      guard let entry = served.first(where: { $0.interface.name == name }) else {
        return call.error(
          BusError.unknownInterface, "the object at \(path) has no interface \(name)")
      }
      guard let method = entry.interface.methods.first(where: { $0.name == member }) else {
        return unknownMethod(call, member, name)
      }
      return checked(call, method) { entry.handler(member, call) }
    }
  }

  /// The handler's answer when the call's arguments are those of `method`,
  /// else `InvalidArgs`.
  private func checked(
    _ call: BusMessage, _ method: BusInterface.Method, _ answer: () -> BusMessage?
  )
    -> BusMessage?
  {
    let signature = call.signature
    guard signature == method.inputSignature else {
      return call.error(
        BusError.invalidArgs,
        "\(method.name) takes arguments of type '\(method.inputSignature)', not '\(signature)'")
    }
    return answer()
  }

  private func unknownMethod(_ call: BusMessage, _ member: String, _ interface: String?)
    -> BusMessage?
  {
    call.error(
      BusError.unknownMethod,
      "no method \(member)" + (interface.map { " in \($0)" } ?? "") + " at \(call.path ?? "")")
  }

  /// `Ping` and `GetMachineId`; nil for another member.
  private func answerPeer(_ member: String, _ call: BusMessage) -> BusMessage? {
    switch member {
    case "Ping":
      return checked(call, BusInterface.peer.methods[0]) { call.reply() }
    case "GetMachineId":
      return checked(call, BusInterface.peer.methods[1]) {
        guard let id = Self.machineID else {
          return call.error(BusError.failed, "this machine has no machine id")
        }
        return call.reply(Variant.tuple([Variant.string(id)]))
      }
    default:
      return call.interface == nil ? nil : unknownMethod(call, member, call.interface)
    }
  }

  /// `GetAll` of a served interface (none: no properties), and the errors of the others.
  private func answerProperties(_ member: String, _ call: BusMessage, _ served: [Served])
    -> BusMessage?
  {
    guard let method = BusInterface.properties.methods.first(where: { $0.name == member }) else {
      return unknownMethod(call, member, BusInterface.properties.name)
    }
    return checked(call, method) {
      let name = call.argument(0, Variant.text) ?? ""
      guard served.contains(where: { $0.interface.name == name }) else {
        return call.error(BusError.unknownInterface, "no interface \(name) at \(call.path ?? "")")
      }
      switch member {
      case "GetAll":
        return call.reply(Variant.tuple([Variant.noProperties()]))
      default:
        let property = call.argument(1, Variant.text) ?? ""
        return call.error(BusError.unknownProperty, "\(name) has no property \(property)")
      }
    }
  }

  /// The next names below `path` on the way to the served objects (`org`
  /// below `/`), sorted.
  private func childNodes(of path: String) -> [String] {
    let prefix = path == "/" ? "/" : path + "/"
    var names: Set<Substring> = []
    for served in objects.keys where served.hasPrefix(prefix) && served != path {
      if let name = served.dropFirst(prefix.count).split(separator: "/").first {
        names.insert(name)
      }
    }
    return names.map(String.init).sorted()
  }

  private func introspection(_ served: [Served], children: [String]) -> String {
    var text = """
      <!DOCTYPE node PUBLIC "-//freedesktop//DTD D-BUS Object Introspection 1.0//EN"
       "http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd">
      <node>

      """
    let standard = [BusInterface.peer, BusInterface.introspectable, BusInterface.properties]
    for interface in standard + served.map(\.interface) { text += interface.introspection }
    for child in children { text += "  <node name=\"\(child)\"/>\n" }
    return text + "</node>\n"
  }

  /// The machine's id (`/etc/machine-id`, or D-Bus's own copy), read once.
  private static let machineID: String? = {
    for path in ["/etc/machine-id", "/var/lib/dbus/machine-id"] {
      guard case .success(let file) = readRegularFile(path, limit: 64) else { continue }
      let id = String(decoding: file.bytes, as: UTF8.self).filter { !$0.isWhitespace }
      if id.utf8.count == 32 && id.allSatisfy(\.isHexDigit) { return id }
    }
    return nil
  }()
}

/// The standard D-Bus error names an answer uses.
package enum BusError {
  /// A failure with no name of its own.
  package static let failed = "org.freedesktop.DBus.Error.Failed"
  /// Arguments of the wrong type or value.
  package static let invalidArgs = "org.freedesktop.DBus.Error.InvalidArgs"
  /// No such method.
  package static let unknownMethod = "org.freedesktop.DBus.Error.UnknownMethod"
  /// No object at the path.
  package static let unknownObject = "org.freedesktop.DBus.Error.UnknownObject"
  /// The object has no such interface.
  package static let unknownInterface = "org.freedesktop.DBus.Error.UnknownInterface"
  /// The interface has no such property.
  package static let unknownProperty = "org.freedesktop.DBus.Error.UnknownProperty"
  /// A limit of the service's was reached.
  package static let limitsExceeded = "org.freedesktop.DBus.Error.LimitsExceeded"
}
