import Bus
@testable import ToastAccessibility

/// Asks the tree `member` of `interface` on `path` and returns the answer.
func ask(
  _ tree: AccessibleTree, _ path: String, _ interface: String, _ member: String,
  _ arguments: [OpaquePointer] = []
) -> BusMessage {
  let call = BusMessage.call(
    destination: ":1.1", path: path, interface: interface, member: member,
    body: arguments.isEmpty ? nil : Variant.tuple(arguments))
  // As it would arrive from a bus: numbered.
  _ = call.encoded(serial: 5)
  return tree.answer(call)!
}
