import CGio
import Glibc

/// What a screen reader sees of a presenter on the accessibility bus: an
/// application object named `wl-toast` whose children are the toasts on
/// screen, each a `notification` whose name is what it says.
///
/// The tree answers the calls a screen reader (through libatspi) makes about
/// an object before it presents an event from it: role, states, name, parent,
/// children, application, interfaces, attributes, relations. Orca drops events
/// from objects it cannot ask about.
package final class AccessibleTree {
  /// One toast's object.
  struct Node: Equatable {
    /// The presenter's number for the toast; the object's path ends with it.
    var id: Int
    /// What the toast says (``ToastModel/Toast/spokenText``).
    var name: String
  }

  static let rootPath = "/org/a11y/atspi/accessible/root"
  static let nullPath = "/org/a11y/atspi/null"
  private static let cachePath = "/org/a11y/atspi/cache"
  private static let nodePrefix = "/org/a11y/atspi/accessible/"

  /// AT-SPI roles (AtspiRole) and states (AtspiStateType, bit numbers).
  static let applicationRole: UInt32 = 75
  static let notificationRole: UInt32 = 101
  private static let enabledState = 8
  private static let sensitiveState = 24
  private static let showingState = 25
  private static let visibleState = 30

  /// The application's name, as screen readers say it.
  let applicationName: String
  /// The toolkit's version, for `org.a11y.atspi.Application.Version`.
  let version: String
  /// Our unique name on the accessibility bus.
  package var busName = ""
  /// The desktop object the registry embedded the application in.
  var desktop: (bus: String, path: String) = ("", AccessibleTree.nullPath)
  /// The number the registry gave the application (`Application.Id`).
  private var applicationID: Int32 = 0
  /// The toasts' objects, in the order they appeared.
  private(set) var nodes: [Node] = []

  /// An empty tree: the application, no toasts yet.
  package init(applicationName: String, version: String) {
    self.applicationName = applicationName
    self.version = version
  }

  /// The object path of the toast numbered `id`.
  static func path(of id: Int) -> String { nodePrefix + String(id) }

  /// A reference `(so)` to our object at `path`.
  func reference(_ path: String) -> OpaquePointer { Variant.reference(busName, path) }

  /// Adds a toast's object; returns its index among the children.
  package func add(id: Int, name: String) -> Int {
    nodes.append(Node(id: id, name: name))
    return nodes.count - 1
  }

  /// Renames a toast's object; returns whether the name changed.
  func rename(id: Int, to name: String) -> Bool {
    guard let index = nodes.firstIndex(where: { $0.id == id }), nodes[index].name != name else {
      return false
    }
    nodes[index].name = name
    return true
  }

  /// Removes a toast's object; returns the index it had.
  func remove(id: Int) -> Int? {
    guard let index = nodes.firstIndex(where: { $0.id == id }) else { return nil }
    nodes.remove(at: index)
    return index
  }

  /// Whether the toast numbered `id` has an object.
  func contains(id: Int) -> Bool { nodes.contains { $0.id == id } }

  // MARK: - Answers

  private enum Object {
    case root
    case node(Int)
  }

  private func object(at path: String?) -> Object? {
    guard let path else { return nil }
    if path == Self.rootPath { return .root }
    guard path.hasPrefix(Self.nodePrefix), let id = Int(path.dropFirst(Self.nodePrefix.count)),
      let index = nodes.firstIndex(where: { $0.id == id })
    else { return nil }
    return .node(index)
  }

  /// The answer to a method call on one of our objects (or an error); nil
  /// when the call cannot be answered.
  package func answer(_ call: BusMessage) -> BusMessage? {
    let member = call.member ?? ""
    if call.path == Self.cachePath && member == "GetItems" {
      // No cache of ours: libatspi then asks each object itself.
      return call.reply(Variant.tuple([Variant.array("((so)(so)(so)iiassusau)", [])]))
    }
    guard let object = object(at: call.path) else {
      return call.error("org.freedesktop.DBus.Error.UnknownObject", "no such object")
    }
    switch (call.interface, member) {
    case ("org.freedesktop.DBus.Properties", "Get"):
      guard let interface = call.argument(0, Variant.text),
        let name = call.argument(1, Variant.text),
        let value = property(name, of: interface, on: object)
      else { return call.error("org.freedesktop.DBus.Error.UnknownProperty", "no such property") }
      return call.reply(Variant.tuple([Variant.boxed(value)]))
    case ("org.freedesktop.DBus.Properties", "GetAll"):
      let interface = call.argument(0, Variant.text) ?? ""
      let entries = propertyNames(of: interface, on: object).compactMap { name in
        property(name, of: interface, on: object).map {
          Variant.dictionaryEntry(Variant.string(name), Variant.boxed($0))
        }
      }
      return call.reply(Variant.tuple([Variant.array("{sv}", entries)]))
    case ("org.freedesktop.DBus.Properties", "Set"):
      // The registry numbers the application; nothing else is writable.
      if case .root = object, call.argument(1, Variant.text) == "Id",
        let id = call.argument(2, { Variant.unboxed($0) { Variant.int32(of: $0) } })
      {
        applicationID = id
        return call.reply()
      }
      return call.error("org.freedesktop.DBus.Error.PropertyReadOnly", "read-only property")
    case ("org.freedesktop.DBus.Peer", "Ping"):
      return call.reply()
    case ("org.freedesktop.DBus.Introspectable", "Introspect"):
      return call.reply(Variant.tuple([Variant.string(introspection(of: object))]))
    case ("org.a11y.atspi.Application", "GetLocale"):
      return call.reply(Variant.tuple([Variant.string(Self.locale)]))
    case ("org.a11y.atspi.Application", "GetApplicationBusAddress"):
      // No private peer-to-peer bus: screen readers keep to the accessibility bus.
      return call.reply(Variant.tuple([Variant.string("")]))
    case (_, _) where call.interface == nil || call.interface == "org.a11y.atspi.Accessible":
      guard let body = accessibleMethod(member, call: call, on: object) else {
        return call.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method")
      }
      return call.reply(Variant.tuple([body]))
    default:
      return call.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method")
    }
  }

  /// The answer of a method of `org.a11y.atspi.Accessible`; nil for another method.
  private func accessibleMethod(_ member: String, call: BusMessage, on object: Object)
    -> OpaquePointer?
  {
    let body: OpaquePointer
    switch member {
    case "GetRole":
      body = Variant.uint32(role(of: object))
    case "GetRoleName", "GetLocalizedRoleName":
      body = Variant.string(
        role(of: object) == Self.notificationRole ? "notification" : "application")
    case "GetState":
      var bits: UInt32 = 0
      if case .node = object {
        for state in [Self.enabledState, Self.sensitiveState, Self.showingState, Self.visibleState]
        {
          bits |= 1 << UInt32(state)
        }
      }
      body = Variant.array("u", [Variant.uint32(bits), Variant.uint32(0)])
    case "GetChildren":
      body = Variant.array("(so)", children(of: object).map { reference(Self.path(of: $0.id)) })
    case "GetChildAtIndex":
      let index = call.argument(0, Variant.int32(of:)).map(Int.init) ?? -1
      let children = children(of: object)
      body =
        children.indices.contains(index)
        ? reference(Self.path(of: children[index].id)) : Variant.reference("", Self.nullPath)
    case "GetIndexInParent":
      if case .node(let index) = object {
        body = Variant.int32(Int32(index))
      } else {
        body = Variant.int32(-1)
      }
    case "GetApplication":
      body = reference(Self.rootPath)
    case "GetInterfaces":
      var names = ["org.a11y.atspi.Accessible"]
      if case .root = object { names.append("org.a11y.atspi.Application") }
      body = Variant.array("s", names.map(Variant.string))
    case "GetAttributes":
      body = Variant.array("{ss}", [])
    case "GetRelationSet":
      body = Variant.array("(ua(so))", [])
    default:
      return nil
    }
    return body
  }

  private func role(of object: Object) -> UInt32 {
    if case .node = object { return Self.notificationRole }
    return Self.applicationRole
  }

  private func children(of object: Object) -> [Node] {
    if case .root = object { return nodes }
    return []
  }

  private func propertyNames(of interface: String, on object: Object) -> [String] {
    switch interface {
    case "org.a11y.atspi.Accessible":
      ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId", "HelpText"]
    case "org.a11y.atspi.Application":
      if case .root = object { ["ToolkitName", "Version", "AtspiVersion", "Id"] } else { [] }
    default: []
    }
  }

  private func property(_ name: String, of interface: String, on object: Object) -> OpaquePointer? {
    guard propertyNames(of: interface, on: object).contains(name) else { return nil }
    switch name {
    case "Name":
      if case .node(let index) = object { return Variant.string(nodes[index].name) }
      return Variant.string(applicationName)
    case "Description", "AccessibleId", "HelpText":
      return Variant.string("")
    case "Parent":
      if case .node = object { return reference(Self.rootPath) }
      return Variant.reference(desktop.bus, desktop.path)
    case "ChildCount":
      return Variant.int32(Int32(children(of: object).count))
    case "Locale":
      return Variant.string(Self.locale)
    case "ToolkitName":
      return Variant.string(applicationName)
    case "Version":
      return Variant.string(version)
    case "AtspiVersion":
      return Variant.string("2.1")
    case "Id":
      return Variant.int32(applicationID)
    default:
      return nil
    }
  }

  /// The user's language (`LC_ALL`, `LC_MESSAGES`, `LANG`), as libatspi's own apps say it.
  private static let locale: String = {
    for name in ["LC_ALL", "LC_MESSAGES", "LANG"] {
      if let value = getenv(name).map({ String(cString: $0) }), !value.isEmpty { return value }
    }
    return "C"
  }()

  private func introspection(of object: Object) -> String {
    var text = "<node>"
    text += "<interface name=\"org.a11y.atspi.Accessible\"/>"
    if case .root = object { text += "<interface name=\"org.a11y.atspi.Application\"/>" }
    return text + "</node>"
  }
}
