import Wayland

/// river's status reports (river-status-unstable-v1) on a Wayland connection,
/// as ``RiverStatusEvent``s: one output status object per wl_output (outputs
/// plugged in later included), one seat status object per wl_seat.
///
/// The events arrive while the connection's events are dispatched (by the
/// presenter's event loop when it shares the connection).
package final class RiverStatus {
  /// The highest version of zriver_status_manager_v1 spoken (river 0.3 offers 4).
  package static let highestVersion: UInt32 = 4

  /// The version bound: 3 and up report modes, 2 and up urgent tags.
  package let version: UInt32
  private let registry: Registry
  private let manager: ZriverStatusManagerV1
  private var outputs: [UInt32: (output: WlOutput, status: ZriverOutputStatusV1)] = [:]
  private var seats: [UInt32: (seat: WlSeat, status: ZriverSeatStatusV1)] = [:]
  private let onEvent: (RiverStatusEvent) -> Void

  /// Binds river's status manager on `display` and starts watching every output
  /// and seat; `onEvent` hears each report.
  ///
  /// - Throws: ``WaylandError/missingGlobal(interface:)`` when the compositor
  ///   does not offer zriver_status_manager_v1 (it is not river).
  package init(display: Display, onEvent: @escaping (RiverStatusEvent) -> Void) throws(WaylandError)
  {
    self.onEvent = onEvent
    registry = try Registry(display: display)
    manager = try registry.bind(ZriverStatusManagerV1.self, maximumVersion: Self.highestVersion)
    version = manager.version
    for global in registry.globals.values.sorted(by: { $0.name < $1.name }) { add(global) }
    registry.onGlobal = { [unowned self] global in add(global) }
    registry.onGlobalRemove = { [unowned self] global in remove(global) }
  }

  deinit {
    registry.onGlobal = nil
    registry.onGlobalRemove = nil
  }

  private func add(_ global: Registry.Global) {
    switch global.interface {
    case WlOutput.interfaceName:
      let output = registry.bind(global, as: WlOutput.self)
      let status = manager.getRiverOutputStatus(output: output)
      let name = global.name
      status.onEvent = { [unowned self] event in
        switch event {
        case .focusedTags(let tags): onEvent(.focusedTags(output: name, tags: tags))
        case .urgentTags(let tags): onEvent(.urgentTags(output: name, tags: tags))
        case .viewTags(let tags): onEvent(.viewTags(output: name, tags: viewTagSets(tags)))
        case .layoutName, .layoutNameClear: break
        }
      }
      outputs[name] = (output, status)
    case WlSeat.interfaceName:
      let seat = registry.bind(global, as: WlSeat.self)
      let status = manager.getRiverSeatStatus(seat: seat)
      status.onEvent = { [unowned self] event in
        switch event {
        case .mode(let name): onEvent(.mode(name))
        case .focusedView(let title): onEvent(.focusedView(title: title))
        case .focusedOutput, .unfocusedOutput: break
        }
      }
      seats[global.name] = (seat, status)
    default:
      break
    }
  }

  private func remove(_ global: Registry.Global) {
    if let gone = outputs.removeValue(forKey: global.name) {
      gone.status.destroy()
      gone.output.destroy()
      onEvent(.outputRemoved(output: global.name))
    }
    if let gone = seats.removeValue(forKey: global.name) {
      gone.status.destroy()
      gone.seat.destroy()
    }
  }
}
