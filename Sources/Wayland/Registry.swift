import CWaylandClient

/// The compositor's globals, and binding to them at a version both sides speak.
public final class Registry {
  /// One global the compositor advertises.
  public struct Global: Equatable, Sendable {
    /// The global's numeric name, used to bind it.
    public var name: UInt32
    /// The interface name, such as `wl_output`.
    public var interface: String
    /// The highest version the compositor offers.
    public var version: UInt32
  }

  /// The `wl_registry` object.
  public let object: WlRegistry
  /// The globals currently advertised, by numeric name.
  public private(set) var globals: [UInt32: Global] = [:]
  /// Called for every global advertised after the first roundtrip.
  public var onGlobal: ((Global) -> Void)?
  /// Called with the global when the compositor removes it (an output unplugged).
  public var onGlobalRemove: ((Global) -> Void)?

  /// Fetches the registry and waits for the initial list of globals, at
  /// most `limit` (a stopped compositor accepts connections and never answers).
  ///
  /// - Throws: ``WaylandError/noAnswer(display:within:)`` when `limit` passes
  ///   first; the connection's error when it fails.
  public init(display: Display, within limit: Duration = Display.answerLimit)
    throws(WaylandError)
  {
    object = display.object.getRegistry()
    object.onEvent = { [unowned self] event in
      switch event {
      case .global(let name, let interface, let version):
        let global = Global(name: name, interface: interface, version: version)
        globals[name] = global
        onGlobal?(global)
      case .globalRemove(let name):
        if let global = globals.removeValue(forKey: name) { onGlobalRemove?(global) }
      }
    }
    try display.roundtrip(within: limit)
  }

  /// The advertised globals of one interface, in ascending name order.
  public func globals<T: Interface>(of type: T.Type) -> [Global] {
    globals.values.filter { $0.interface == T.interfaceName }.sorted { $0.name < $1.name }
  }

  /// Binds the first global of an interface at `min(advertised, supported)`,
  /// or at most at `version` when given.
  ///
  /// - Throws: ``WaylandError/missingGlobal(interface:)`` naming the interface.
  public func bind<T: Interface>(_ type: T.Type, maximumVersion: UInt32? = nil) throws(WaylandError)
    -> T
  {
    guard let global = globals(of: type).first else {
      throw .missingGlobal(interface: T.interfaceName)
    }
    return bind(global, as: type, maximumVersion: maximumVersion)
  }

  /// Binds one advertised global at `min(advertised, supported)`.
  public func bind<T: Interface>(_ global: Global, as type: T.Type, maximumVersion: UInt32? = nil)
    -> T
  {
    let version = min(global.version, T.supportedVersion, maximumVersion ?? .max)
    return object.bind(name: global.name, type, version: version)
  }
}
