import Bus
import SystemSupport
import TestSupport
import Testing

/// A connection of ours to the bus at `address`, in `loop`, once its `Hello`
/// is answered; calls without a limit of their own have `callLimit`.
func greetedConnection(
  to address: String, loop: EventLoop, callLimit: Duration = BusConnection.callLimit
) throws -> BusConnection {
  let connection = try #require(
    BusConnection(address: BusAddress(address), loop: loop, callLimit: callLimit))
  try waitUntil("the bus to answer Hello") {
    try loop.iterate(timeout: .milliseconds(50))
    return connection.uniqueName != nil
  }
  return connection
}
