import CWaylandClient
import Glibc

/// Builds libwayland interface tables for extension protocols at run time.
///
/// The generated `ProtocolTables` allocates every table first and fills them
/// afterwards, so interfaces may refer to each other in any order. Tables live
/// for the whole process, as libwayland expects.
enum InterfaceTable {
  typealias Message = (name: String, signature: String, types: [UnsafePointer<wl_interface>?])

  /// A core interface table that has no C accessor, found by its symbol in libwayland-client.
  static func core(_ symbol: String) -> UnsafePointer<wl_interface>? {
    dlsym(UnsafeMutableRawPointer(bitPattern: 0), symbol).map {
      UnsafePointer($0.assumingMemoryBound(to: wl_interface.self))
    }
  }

  static func allocate(count: Int) -> UnsafeMutablePointer<wl_interface> {
    let table = UnsafeMutablePointer<wl_interface>.allocate(capacity: max(count, 1))
    table.initialize(repeating: wl_interface(), count: max(count, 1))
    return table
  }

  static func fill(
    _ slot: UnsafeMutablePointer<wl_interface>, name: String, version: Int32,
    requests: [Message], events: [Message]
  ) {
    slot.pointee = wl_interface(
      name: strdup(name), version: version,
      method_count: Int32(requests.count), methods: messages(requests),
      event_count: Int32(events.count), events: messages(events))
  }

  private static func messages(_ list: [Message]) -> UnsafePointer<wl_message>? {
    guard !list.isEmpty else { return nil }
    let messages = UnsafeMutablePointer<wl_message>.allocate(capacity: list.count)
    for (index, message) in list.enumerated() {
      let types = UnsafeMutablePointer<UnsafePointer<wl_interface>?>.allocate(
        capacity: max(message.types.count, 1))
      types.initialize(repeating: nil, count: max(message.types.count, 1))
      for (slot, type) in message.types.enumerated() { types[slot] = type }
      (messages + index).initialize(
        to: wl_message(
          name: strdup(message.name), signature: strdup(message.signature),
          types: types))
    }
    return UnsafePointer(messages)
  }
}
