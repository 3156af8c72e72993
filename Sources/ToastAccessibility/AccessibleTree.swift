import Bus
import CGio
import Glibc

/// What a screen reader asks of a toast through AT-SPI's `DoAction`.
package enum AccessibleAction: Equatable, Sendable {
  /// Choose the button at this index, as a click on it does.
  case button(Int)
  /// Click a card's body: its default action (``ToastModel/ToastOutcome/activated``).
  case activate
  /// Dismiss a card, as a right click on it does.
  case dismiss
}

/// One action of an accessible object: what it does, and its name and
/// description as `org.a11y.atspi.Action` gives them (no key binding of its
/// own: the keyboard reaches a toast's buttons once it has the keyboard).
package struct NamedAction: Equatable, Sendable {
  /// What doing it asks of the toast.
  package var action: AccessibleAction
  /// Its name, as toolkits name theirs (`click`, `activate`, `dismiss`).
  package var name: String
  /// What it does, in words.
  package var description: String

  /// An action named `name`, described as `description`, doing `action`.
  package init(_ action: AccessibleAction, name: String, description: String) {
    self.action = action
    self.name = name
    self.description = description
  }
}

/// What a screen reader sees of a presenter on the accessibility bus: an
/// application object named `wl-toast` whose children are the toasts on
/// screen, each a `notification` whose name is what it says, and whose
/// children are its buttons, each a `push button` named by its label, with
/// one action ("click") a screen reader can do. A notification's card has
/// actions of its own, as its body takes clicks (``cardActions(defaultAction:)``).
///
/// The tree answers the calls a screen reader (through libatspi) makes about
/// an object before it presents an event from it: role, states, name, parent,
/// children, application, interfaces, attributes, relations, and a button's
/// `org.a11y.atspi.Action`. Orca drops events from objects it cannot ask about.
package final class AccessibleTree {
  /// One toast's object.
  struct Node: Equatable {
    /// The presenter's number for the toast; the object's path ends with it.
    var id: Int
    /// What the toast says (``ToastModel/Toast/spokenText``).
    var name: String
    /// The labels of its buttons in their order (Tab's): its children.
    var buttons: [String] = []
    /// The button with the keyboard focus; nil while the toast has no keyboard.
    var focused: Int?
    /// The actions of the toast's own object (a card's: ``cardActions(defaultAction:)``).
    var actions: [NamedAction] = []
  }

  static let rootPath = "/org/a11y/atspi/accessible/root"
  static let nullPath = "/org/a11y/atspi/null"
  private static let cachePath = "/org/a11y/atspi/cache"
  private static let nodePrefix = "/org/a11y/atspi/accessible/"

  /// AT-SPI roles (AtspiRole) and states (AtspiStateType, bit numbers).
  static let applicationRole: UInt32 = 75
  static let notificationRole: UInt32 = 101
  static let pushButtonRole: UInt32 = 43
  private static let enabledState = 8
  private static let focusableState = 11
  private static let focusedState = 12
  private static let sensitiveState = 24
  private static let showingState = 25
  private static let visibleState = 30

  /// The one action of a button, as GTK names a button's: its name,
  /// description and key binding (none of its own: Enter and Space choose
  /// the focused button).
  static let clickAction = (name: "click", description: "Activates the button", keyBinding: "")

  /// The actions of a card's own object, as its body takes clicks:
  /// `activate`, a left click or tap on the body, when the card has a
  /// default action (described by that action's label, `defaultAction`);
  /// then `dismiss`, a right click.
  package static func cardActions(defaultAction: String?) -> [NamedAction] {
    (defaultAction.map { [NamedAction(.activate, name: "activate", description: $0)] } ?? [])
      + [NamedAction(.dismiss, name: "dismiss", description: "Dismisses the notification")]
  }

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
  /// Called when a screen reader does an action (`DoAction`) of a button or
  /// a toast, with the toast's number and what the action asks, while the
  /// call is answered: what it does must wait until the answer has gone out.
  package var onAction: ((_ id: Int, _ action: AccessibleAction) -> Void)?

  /// An empty tree: the application, no toasts yet.
  package init(applicationName: String, version: String) {
    self.applicationName = applicationName
    self.version = version
  }

  /// The object path of the toast numbered `id`.
  static func path(of id: Int) -> String { nodePrefix + String(id) }

  /// The object path of the button at `button` of the toast numbered `id`.
  static func path(of id: Int, button: Int) -> String {
    nodePrefix + String(id) + "/" + String(button)
  }

  /// A reference `(so)` to our object at `path`.
  func reference(_ path: String) -> OpaquePointer { Variant.reference(busName, path) }

  /// Adds a toast's object, with a child for each of `buttons` (their
  /// labels) and `actions` of its own; returns its index among the
  /// application's children.
  package func add(
    id: Int, name: String, buttons: [String] = [], actions: [NamedAction] = []
  ) -> Int {
    nodes.append(Node(id: id, name: name, buttons: buttons, actions: actions))
    return nodes.count - 1
  }

  /// Gives the toast numbered `id`'s own object these actions.
  func setActions(_ actions: [NamedAction], of id: Int) {
    guard let index = nodes.firstIndex(where: { $0.id == id }) else { return }
    nodes[index].actions = actions
  }

  /// The labels of the buttons of the toast numbered `id` (none when it has no object).
  func buttons(of id: Int) -> [String] {
    nodes.first { $0.id == id }?.buttons ?? []
  }

  /// Gives the toast numbered `id` these buttons; a focus on one that is gone goes.
  func setButtons(_ labels: [String], of id: Int) {
    guard let index = nodes.firstIndex(where: { $0.id == id }) else { return }
    nodes[index].buttons = labels
    if let focused = nodes[index].focused, focused >= labels.count { nodes[index].focused = nil }
  }

  /// The button of the toast numbered `id` with the keyboard focus.
  func focusedButton(of id: Int) -> Int? {
    nodes.first { $0.id == id }?.focused
  }

  /// Gives the keyboard focus to `button` of the toast numbered `id` (nil:
  /// none of its buttons has it); a button it does not have gets none.
  func setFocus(_ button: Int?, of id: Int) {
    guard let index = nodes.firstIndex(where: { $0.id == id }) else { return }
    nodes[index].focused = button.flatMap { nodes[index].buttons.indices.contains($0) ? $0 : nil }
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

  /// One of our objects: the application, a toast (its index in ``nodes``)
  /// or one of its buttons.
  private enum Object {
    case root
    case node(Int)
    case button(node: Int, index: Int)
  }

  private func object(at path: String?) -> Object? {
    guard let path else { return nil }
    if path == Self.rootPath { return .root }
    guard path.hasPrefix(Self.nodePrefix) else { return nil }
    let parts = path.dropFirst(Self.nodePrefix.count).split(
      separator: "/", omittingEmptySubsequences: false)
    guard (1...2).contains(parts.count), let id = Self.number(parts[0]),
      let index = nodes.firstIndex(where: { $0.id == id })
    else { return nil }
    guard parts.count == 2 else { return .node(index) }
    guard let button = Self.number(parts[1]), nodes[index].buttons.indices.contains(button)
    else { return nil }
    return .button(node: index, index: button)
  }

  /// A path element that is a number as ``path(of:)`` writes it (no sign, no leading zero).
  private static func number(_ text: Substring) -> Int? {
    guard let value = Int(text), value >= 0, String(value) == text else { return nil }
    return value
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
    case ("org.a11y.atspi.Action", _):
      guard let (id, actions) = actions(of: object),
        let body = actionMethod(member, call: call, actions: actions, of: id)
      else { return call.error("org.freedesktop.DBus.Error.UnknownMethod", "no such method") }
      return call.reply(Variant.tuple([body]))
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
      body = Variant.string(roleName(of: object))
    case "GetState":
      var bits: UInt32 = 0
      for state in states(of: object) { bits |= 1 << UInt32(state) }
      body = Variant.array("u", [Variant.uint32(bits), Variant.uint32(0)])
    case "GetChildren":
      body = Variant.array("(so)", children(of: object).map { reference($0) })
    case "GetChildAtIndex":
      let index = call.argument(0, Variant.int32(of:)).map(Int.init) ?? -1
      let children = children(of: object)
      body =
        children.indices.contains(index)
        ? reference(children[index]) : Variant.reference("", Self.nullPath)
    case "GetIndexInParent":
      switch object {
      case .root: body = Variant.int32(-1)
      case .node(let index), .button(_, let index): body = Variant.int32(Int32(index))
      }
    case "GetApplication":
      body = reference(Self.rootPath)
    case "GetInterfaces":
      body = Variant.array("s", interfaces(of: object).map(Variant.string))
    case "GetAttributes":
      body = Variant.array("{ss}", [])
    case "GetRelationSet":
      body = Variant.array("(ua(so))", [])
    default:
      return nil
    }
    return body
  }

  /// The number of the toast an object belongs to and the object's actions:
  /// a button's one, a toast's own; nil for an object without any.
  private func actions(of object: Object) -> (id: Int, actions: [NamedAction])? {
    switch object {
    case .root:
      return nil
    case .node(let index):
      guard !nodes[index].actions.isEmpty else { return nil }
      return (nodes[index].id, nodes[index].actions)
    case .button(let node, let index):
      let click = NamedAction(
        .button(index), name: Self.clickAction.name, description: Self.clickAction.description)
      return (nodes[node].id, [click])
    }
  }

  /// The answer of a method of `org.a11y.atspi.Action` on an object with
  /// `actions`, of the toast numbered `id`; nil for another method.
  private func actionMethod(
    _ member: String, call: BusMessage, actions: [NamedAction], of id: Int
  ) -> OpaquePointer? {
    let action = call.argument(0, Variant.int32(of:)).flatMap { index in
      actions.indices.contains(Int(index)) ? actions[Int(index)] : nil
    }
    let keyBinding = Self.clickAction.keyBinding
    switch member {
    case "GetName", "GetLocalizedName":
      return Variant.string(action?.name ?? "")
    case "GetDescription":
      return Variant.string(action?.description ?? "")
    case "GetKeyBinding":
      return Variant.string(action == nil ? "" : keyBinding)
    case "GetActions":
      let entries = actions.map { action in
        Variant.tuple([
          Variant.string(action.name), Variant.string(action.description),
          Variant.string(keyBinding),
        ])
      }
      return Variant.array("(sss)", entries)
    case "DoAction":
      guard let action else { return Variant.boolean(false) }
      onAction?(id, action.action)
      return Variant.boolean(true)
    default:
      return nil
    }
  }

  private func role(of object: Object) -> UInt32 {
    switch object {
    case .root: Self.applicationRole
    case .node: Self.notificationRole
    case .button: Self.pushButtonRole
    }
  }

  private func roleName(of object: Object) -> String {
    switch object {
    case .root: "application"
    case .node: "notification"
    case .button: "push button"
    }
  }

  /// The states an object is in (AtspiStateType numbers): a toast is on
  /// screen; a button can take the focus, and may have it.
  private func states(of object: Object) -> [Int] {
    let shown = [Self.enabledState, Self.sensitiveState, Self.showingState, Self.visibleState]
    switch object {
    case .root:
      return []
    case .node:
      return shown
    case .button(let node, let index):
      return shown + [Self.focusableState]
        + (nodes[node].focused == index ? [Self.focusedState] : [])
    }
  }

  /// The paths of an object's children, in order.
  private func children(of object: Object) -> [String] {
    switch object {
    case .root: nodes.map { Self.path(of: $0.id) }
    case .node(let index):
      nodes[index].buttons.indices.map { Self.path(of: nodes[index].id, button: $0) }
    case .button: []
    }
  }

  private func interfaces(of object: Object) -> [String] {
    switch object {
    case .root: ["org.a11y.atspi.Accessible", "org.a11y.atspi.Application"]
    case .node, .button:
      ["org.a11y.atspi.Accessible"] + (actions(of: object) == nil ? [] : ["org.a11y.atspi.Action"])
    }
  }

  private func propertyNames(of interface: String, on object: Object) -> [String] {
    switch interface {
    case "org.a11y.atspi.Accessible":
      ["Name", "Description", "Parent", "ChildCount", "Locale", "AccessibleId", "HelpText"]
    case "org.a11y.atspi.Application":
      if case .root = object { ["ToolkitName", "Version", "AtspiVersion", "Id"] } else { [] }
    case "org.a11y.atspi.Action":
      actions(of: object) == nil ? [] : ["NActions"]
    default: []
    }
  }

  private func property(_ name: String, of interface: String, on object: Object) -> OpaquePointer? {
    guard propertyNames(of: interface, on: object).contains(name) else { return nil }
    switch name {
    case "Name":
      switch object {
      case .root: return Variant.string(applicationName)
      case .node(let index): return Variant.string(nodes[index].name)
      case .button(let node, let index): return Variant.string(nodes[node].buttons[index])
      }
    case "Description", "AccessibleId", "HelpText":
      return Variant.string("")
    case "Parent":
      switch object {
      case .root: return Variant.reference(desktop.bus, desktop.path)
      case .node: return reference(Self.rootPath)
      case .button(let node, _): return reference(Self.path(of: nodes[node].id))
      }
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
    case "NActions":
      return Variant.int32(Int32(actions(of: object)?.actions.count ?? 0))
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
    let interfaces = interfaces(of: object).map { "<interface name=\"\($0)\"/>" }
    return "<node>" + interfaces.joined() + "</node>"
  }
}
