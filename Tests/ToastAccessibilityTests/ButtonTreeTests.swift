import Bus
import CGio
import Testing

@testable import ToastAccessibility

/// A toast's buttons in the accessible tree, as a screen reader asks about
/// them: push buttons named by their labels, children of the toast's
/// notification, with one action that chooses them.
struct ButtonTreeTests {
  /// A tree with one toast, number 3, and its buttons Undo and Keep.
  static func tree() -> AccessibleTree {
    let tree = AccessibleTree(applicationName: "wl-toast", version: "0.1.0")
    tree.busName = ":1.7"
    tree.desktop = (":1.0", AccessibleTree.rootPath)
    _ = tree.add(id: 3, name: "Deleted 3 files", buttons: ["Undo", "Keep"])
    return tree
  }

  static let toast = AccessibleTree.path(of: 3)
  static let undo = AccessibleTree.path(of: 3, button: 0)
  static let keep = AccessibleTree.path(of: 3, button: 1)

  /// An `org.a11y.atspi.Accessible` property of the object at `path`, read with `read`.
  static func property<Value>(
    _ tree: AccessibleTree, _ path: String, _ name: String,
    interface: String = "org.a11y.atspi.Accessible", _ read: @escaping (OpaquePointer) -> Value?
  ) -> Value? {
    ask(
      tree, path, "org.freedesktop.DBus.Properties", "Get",
      [Variant.string(interface), Variant.string(name)]
    ).argument(0) { Variant.unboxed($0, read) }
  }

  static func reference(_ value: OpaquePointer) -> [String] {
    Variant.children(value, Variant.text)
  }

  /// The states (AtspiStateType numbers) `GetState` gives for the object at `path`.
  static func states(_ tree: AccessibleTree, _ path: String) -> Set<Int> {
    let words =
      ask(tree, path, "org.a11y.atspi.Accessible", "GetState").argument(0) {
        Variant.children($0) { g_variant_get_uint32($0) }
      } ?? []
    var states: Set<Int> = []
    for (word, bits) in words.enumerated() {
      for bit in 0..<32 where bits & (1 << UInt32(bit)) != 0 { states.insert(word * 32 + bit) }
    }
    return states
  }

  @Test func eachButtonIsAPushButtonChildOfItsToastNamedByItsLabel() throws {
    let tree = Self.tree()
    let role = ask(tree, Self.keep, "org.a11y.atspi.Accessible", "GetRole")
    #expect(role.argument(0) { g_variant_get_uint32($0) } == 43, "ATSPI_ROLE_PUSH_BUTTON")
    let roleName = ask(tree, Self.keep, "org.a11y.atspi.Accessible", "GetRoleName")
    #expect(roleName.argument(0, Variant.text) == "push button")
    #expect(Self.property(tree, Self.keep, "Name", Variant.text) == "Keep")
    #expect(Self.property(tree, Self.undo, "Name", Variant.text) == "Undo")

    // Down: the toast's children are its buttons, in order.
    let children = ask(tree, Self.toast, "org.a11y.atspi.Accessible", "GetChildren")
    #expect(
      children.argument(0) { Variant.children($0, Self.reference) } == [
        [":1.7", Self.undo], [":1.7", Self.keep],
      ])
    #expect(Self.property(tree, Self.toast, "ChildCount", Variant.int32(of:)) == 2)
    let second = ask(
      tree, Self.toast, "org.a11y.atspi.Accessible", "GetChildAtIndex", [Variant.int32(1)])
    #expect(second.argument(0, Self.reference) == [":1.7", Self.keep])
    let none = ask(
      tree, Self.toast, "org.a11y.atspi.Accessible", "GetChildAtIndex", [Variant.int32(2)])
    #expect(none.argument(0, Self.reference) == ["", AccessibleTree.nullPath])

    // Up: each button's parent is the toast, at its index; the toast the application's.
    #expect(Self.property(tree, Self.keep, "Parent", Self.reference) == [":1.7", Self.toast])
    for (path, index) in [(Self.undo, 0), (Self.keep, 1), (Self.toast, 0)] {
      let answer = ask(tree, path, "org.a11y.atspi.Accessible", "GetIndexInParent")
      #expect(answer.argument(0, Variant.int32(of:)) == Int32(index), "\(path)")
    }
    #expect(Self.property(tree, AccessibleTree.rootPath, "ChildCount", Variant.int32(of:)) == 1)
    #expect(Self.property(tree, Self.keep, "ChildCount", Variant.int32(of:)) == 0)
    let leaves = ask(tree, Self.keep, "org.a11y.atspi.Accessible", "GetChildren")
    #expect(leaves.argument(0) { Variant.children($0, Self.reference) } == [])
    let application = ask(tree, Self.keep, "org.a11y.atspi.Accessible", "GetApplication")
    #expect(application.argument(0, Self.reference) == [":1.7", AccessibleTree.rootPath])

    let interfaces = ask(tree, Self.keep, "org.a11y.atspi.Accessible", "GetInterfaces")
    #expect(
      interfaces.argument(0) { Variant.children($0, Variant.text) } == [
        "org.a11y.atspi.Accessible", "org.a11y.atspi.Action",
      ])
    let toastInterfaces = ask(tree, Self.toast, "org.a11y.atspi.Accessible", "GetInterfaces")
    #expect(
      toastInterfaces.argument(0) { Variant.children($0, Variant.text) } == [
        "org.a11y.atspi.Accessible"
      ])
  }

  @Test func aButtonIsFocusableAndFocusedOnlyWhileItHasTheFocus() {
    let tree = Self.tree()
    // AtspiStateType: enabled 8, focusable 11, focused 12, sensitive 24, showing 25, visible 30.
    let usable: Set<Int> = [8, 11, 24, 25, 30]
    #expect(Self.states(tree, Self.undo) == usable)
    #expect(Self.states(tree, Self.keep) == usable)
    tree.setFocus(1, of: 3)
    #expect(Self.states(tree, Self.keep) == usable.union([12]))
    #expect(Self.states(tree, Self.undo) == usable)
    #expect(Self.states(tree, Self.toast) == [8, 24, 25, 30], "the toast itself takes no focus")
    tree.setFocus(0, of: 3)
    #expect(Self.states(tree, Self.undo) == usable.union([12]))
    #expect(Self.states(tree, Self.keep) == usable)
    tree.setFocus(nil, of: 3)
    #expect(!Self.states(tree, Self.undo).contains(12))
    tree.setFocus(2, of: 3)
    #expect(tree.focusedButton(of: 3) == nil, "no such button: no focus")
  }

  @Test func aButtonsOneActionIsClickAndDoingItCallsBackWithTheButton() throws {
    let tree = Self.tree()
    var done: [[Int]] = []
    tree.onAction = { id, action in
      if case .button(let button) = action { done.append([id, button]) }
    }
    let action = "org.a11y.atspi.Action"
    #expect(Self.property(tree, Self.keep, "NActions", interface: action, Variant.int32(of:)) == 1)
    let all = ask(
      tree, Self.keep, "org.freedesktop.DBus.Properties", "GetAll", [Variant.string(action)])
    #expect(all.type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN)
    #expect(all.argument(0) { g_variant_n_children($0) } == 1, "NActions alone")
    for member in ["GetName", "GetLocalizedName"] {
      let name = ask(tree, Self.keep, action, member, [Variant.int32(0)])
      #expect(name.argument(0, Variant.text) == "click", "\(member)")
    }
    let description = ask(tree, Self.keep, action, "GetDescription", [Variant.int32(0)])
    #expect(description.argument(0, Variant.text) == "Activates the button")
    let binding = ask(tree, Self.keep, action, "GetKeyBinding", [Variant.int32(0)])
    #expect(binding.argument(0, Variant.text) == "", "no shortcut of its own")
    let actions = ask(tree, Self.keep, action, "GetActions")
    #expect(
      actions.argument(0) { Variant.children($0) { Variant.children($0, Variant.text) } } == [
        ["click", "Activates the button", ""]
      ])

    let keep = ask(tree, Self.keep, action, "DoAction", [Variant.int32(0)])
    #expect(keep.argument(0, Variant.bool) == true)
    #expect(done == [[3, 1]], "Keep, the second button of toast 3")
    let undo = ask(tree, Self.undo, action, "DoAction", [Variant.int32(0)])
    #expect(undo.argument(0, Variant.bool) == true)
    let other = ask(tree, Self.undo, action, "DoAction", [Variant.int32(1)])
    #expect(other.argument(0, Variant.bool) == false, "a button has one action")
    #expect(done == [[3, 1], [3, 0]])

    // The toast is no button: no action.
    let toast = ask(tree, Self.toast, action, "DoAction", [Variant.int32(0)])
    #expect(toast.errorName == "org.freedesktop.DBus.Error.UnknownMethod")
    let count = ask(
      tree, Self.toast, "org.freedesktop.DBus.Properties", "Get",
      [Variant.string(action), Variant.string("NActions")])
    #expect(count.errorName == "org.freedesktop.DBus.Error.UnknownProperty")
    #expect(done == [[3, 1], [3, 0]])
  }

  @Test func aCardsObjectHasItsBodysClicksAsActions() throws {
    let tree = Self.tree()
    _ = tree.add(
      id: 5, name: "Calendar: Meeting. Room 4", buttons: ["Snooze"],
      actions: AccessibleTree.cardActions(defaultAction: "Open"))
    _ = tree.add(
      id: 6, name: "Mail: New mail", actions: AccessibleTree.cardActions(defaultAction: nil))
    var done: [String] = []
    tree.onAction = { id, action in done.append("\(id) \(action)") }
    let action = "org.a11y.atspi.Action"
    let card = AccessibleTree.path(of: 5)
    let interfaces = ask(tree, card, "org.a11y.atspi.Accessible", "GetInterfaces")
    #expect(
      interfaces.argument(0) { Variant.children($0, Variant.text) } == [
        "org.a11y.atspi.Accessible", "org.a11y.atspi.Action",
      ])
    #expect(Self.property(tree, card, "NActions", interface: action, Variant.int32(of:)) == 2)
    let actions = ask(tree, card, action, "GetActions")
    #expect(
      actions.argument(0) { Variant.children($0) { Variant.children($0, Variant.text) } } == [
        ["activate", "Open", ""], ["dismiss", "Dismisses the notification", ""],
      ])
    let second = ask(tree, card, action, "GetName", [Variant.int32(1)])
    #expect(second.argument(0, Variant.text) == "dismiss")
    // Without a default action, a card can only be dismissed.
    let plain = ask(tree, AccessibleTree.path(of: 6), action, "GetActions")
    #expect(
      plain.argument(0) { Variant.children($0) { Variant.children($0, Variant.text) } } == [
        ["dismiss", "Dismisses the notification", ""]
      ])

    for (path, index): (String, Int32) in [(card, 0), (card, 1), (AccessibleTree.path(of: 6), 0)] {
      let answer = ask(tree, path, action, "DoAction", [Variant.int32(index)])
      #expect(answer.argument(0, Variant.bool) == true, "\(path) \(index)")
    }
    let beyond = ask(tree, card, action, "DoAction", [Variant.int32(2)])
    #expect(beyond.argument(0, Variant.bool) == false, "no third action")
    let snooze = ask(
      tree, AccessibleTree.path(of: 5, button: 0), action, "DoAction", [Variant.int32(0)])
    #expect(snooze.argument(0, Variant.bool) == true)
    #expect(done == ["5 activate", "5 dismiss", "6 dismiss", "5 button(0)"])
  }

  @Test func onlyTheButtonsAToastHasAreObjects() {
    let tree = Self.tree()
    let prefix = "/org/a11y/atspi/accessible/"
    for path in [
      AccessibleTree.path(of: 3, button: 2), prefix + "3/01", prefix + "03",
      prefix + "3/1/0", prefix + "4/0",
    ] {
      let answer = ask(tree, path, "org.a11y.atspi.Accessible", "GetRole")
      #expect(answer.errorName == "org.freedesktop.DBus.Error.UnknownObject", "\(path)")
    }
    // Fewer buttons after an update: the one that went is gone, and its focus with it.
    tree.setFocus(1, of: 3)
    tree.setButtons(["Undo"], of: 3)
    #expect(tree.buttons(of: 3) == ["Undo"] && tree.focusedButton(of: 3) == nil)
    let gone = ask(tree, Self.keep, "org.a11y.atspi.Accessible", "GetRole")
    #expect(gone.errorName == "org.freedesktop.DBus.Error.UnknownObject")
    #expect(Self.property(tree, Self.toast, "ChildCount", Variant.int32(of:)) == 1)
    // A toast without buttons has no children.
    _ = tree.add(id: 4, name: "Saved")
    #expect(Self.property(tree, AccessibleTree.path(of: 4), "ChildCount", Variant.int32(of:)) == 0)
  }
}
