import CWaylandClient
import Glibc

/// A generated interface type: the class of one Wayland interface.
public protocol Interface: Proxy {
  /// The interface's name on the wire, such as `wl_surface`.
  static var interfaceName: String { get }
  /// The highest version these bindings speak.
  static var supportedVersion: UInt32 { get }
  /// The libwayland interface table.
  static var interface: UnsafePointer<wl_interface> { get }
  /// Takes ownership of a proxy that libwayland created for this interface.
  init(adopting pointer: OpaquePointer)
}

/// The base of every generated interface class: one Wayland object on the client side.
///
/// An object lives as long as its Swift reference: when the last reference goes,
/// the object is destroyed (with its destructor request, when the interface has
/// one). Objects whose interface ends with a destructor event, such as
/// `wl_callback`, keep themselves alive until that event arrives.
public class Proxy {
  /// The `wl_proxy` pointer, or nil once the object is destroyed.
  private(set) var pointer: OpaquePointer?
  /// The version the object was created with.
  public let version: UInt32
  private let owned: Bool
  private var keepAlive: Proxy?
  /// Keeps the connection open for as long as any of its objects lives.
  var connection: Connection?

  init(
    adopting pointer: OpaquePointer, dispatch: Bool = true, owned: Bool = true,
    keepAliveUntilDestroyed: Bool = false
  ) {
    self.pointer = pointer
    self.version = wl_proxy_get_version(pointer)
    self.owned = owned
    if dispatch {
      let this = Unmanaged.passUnretained(self).toOpaque()
      wl_proxy_add_dispatcher(pointer, proxyDispatcher, this, this)
    }
    if keepAliveUntilDestroyed { keepAlive = self }
  }

  deinit {
    destroy()
  }

  /// Whether the object still exists on the client side.
  public var isAlive: Bool { pointer != nil }

  /// The object's protocol id, or 0 once destroyed.
  public var id: UInt32 { pointer.map { wl_proxy_get_id($0) } ?? 0 }

  /// The pointer to pass as an object argument.
  var objectPointer: OpaquePointer? { pointer }

  /// Destroys the object: sends its destructor request when the interface has one
  /// (and the object's version has it), then frees the client-side proxy.
  /// Calling it again does nothing.
  public func destroy() {
    guard let pointer else { return }
    if owned {
      if let request = type(of: self).destructorRequest, version >= request.since {
        var arguments: [wl_argument] = []
        _ = wl_proxy_marshal_array_flags(
          pointer, request.opcode, nil, version, UInt32(WL_MARSHAL_FLAG_DESTROY), &arguments)
      } else {
        wl_proxy_destroy(pointer)
      }
    }
    self.pointer = nil
    clearHandlers()
    keepAlive = nil
  }

  /// The interface's argument-less destructor request, if it has one.
  class var destructorRequest: (opcode: UInt32, since: UInt32)? { nil }

  /// Decodes and delivers one event; generated classes override it.
  func dispatch(opcode: UInt32, arguments: UnsafeMutablePointer<wl_argument>) {}

  /// Drops event handlers so that closures capturing the object are released.
  func clearHandlers() {}

  /// Called after a destructor event was delivered: the server has already
  /// forgotten the object, so only the client side is freed.
  func finishDestructorEvent() {
    if let pointer, owned { wl_proxy_destroy(pointer) }
    pointer = nil
    clearHandlers()
    keepAlive = nil
  }

  func requireVersion(_ since: UInt32, request: String) throws(WaylandError) {
    guard version >= since else {
      throw .unsupportedVersion(
        interface: interfaceName, request: request, since: since, bound: version)
    }
  }

  var interfaceName: String {
    guard let pointer else { return "destroyed object" }
    return String(cString: wl_proxy_get_class(pointer))
  }

  /// Sends a request. Generated requests fill `arguments` in a buffer on their stack.
  func marshal(
    opcode: UInt32, arguments: UnsafeMutableBufferPointer<wl_argument> = .init(start: nil, count: 0)
  ) {
    guard let pointer else { return }
    _ = wl_proxy_marshal_array_flags(pointer, opcode, nil, version, 0, arguments.baseAddress)
  }

  /// Sends a destructor request and forgets the object.
  func marshalDestructor(
    opcode: UInt32, arguments: UnsafeMutableBufferPointer<wl_argument> = .init(start: nil, count: 0)
  ) {
    guard let pointer else { return }
    _ = wl_proxy_marshal_array_flags(
      pointer, opcode, nil, version, UInt32(WL_MARSHAL_FLAG_DESTROY), arguments.baseAddress)
    self.pointer = nil
    clearHandlers()
    keepAlive = nil
  }

  /// Sends a request that creates an object and wraps the new proxy.
  func marshalConstructor<T: Interface>(
    opcode: UInt32, arguments: UnsafeMutableBufferPointer<wl_argument>, as type: T.Type,
    version: UInt32
  ) -> T {
    guard let pointer else {
      preconditionFailure("\(T.interfaceName) requested from a destroyed \(Self.self)")
    }
    guard
      let created = wl_proxy_marshal_array_flags(
        pointer, opcode, T.interface, version, 0, arguments.baseAddress)
    else {
      fatalError("wl-toast: out of memory while creating a \(T.interfaceName)")
    }
    let object = T(adopting: created)
    object.connection = connection
    return object
  }
}

/// Helpers the generated code uses to move values in and out of `wl_argument`.
enum Marshal {
  static func cString(_ string: String?) -> UnsafeMutablePointer<CChar>? {
    string.flatMap { strdup($0) }
  }

  static func free(_ pointer: UnsafeMutablePointer<CChar>?) {
    Glibc.free(pointer)
  }

  static func array(_ bytes: [UInt8]) -> UnsafeMutablePointer<wl_array> {
    let array = UnsafeMutablePointer<wl_array>.allocate(capacity: 1)
    let data = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
    bytes.withUnsafeBytes { data.copyMemory(from: $0.baseAddress!, byteCount: bytes.count) }
    array.initialize(to: wl_array(size: bytes.count, alloc: max(bytes.count, 1), data: data))
    return array
  }

  static func free(_ array: UnsafeMutablePointer<wl_array>) {
    array.pointee.data?.deallocate()
    array.deallocate()
  }

  static func string(_ pointer: UnsafePointer<CChar>?) -> String? {
    pointer.map {
      String(decoding: UnsafeRawBufferPointer(start: $0, count: strlen($0)), as: UTF8.self)
    }
  }

  static func bytes(_ array: UnsafeMutablePointer<wl_array>?) -> [UInt8] {
    guard let array, let data = array.pointee.data, array.pointee.size > 0 else { return [] }
    return Array(UnsafeRawBufferPointer(start: data, count: array.pointee.size))
  }

  /// The Swift object of a proxy this module created, when it has the expected type.
  static func object<T: Proxy>(_ pointer: OpaquePointer?) -> T? {
    guard let pointer, let data = wl_proxy_get_user_data(pointer) else { return nil }
    return Unmanaged<Proxy>.fromOpaque(data).takeUnretainedValue() as? T
  }

  /// Wraps a proxy that libwayland created for a new_id event argument of `parent`.
  static func adopt<T: Interface>(_ pointer: OpaquePointer?, as type: T.Type, parent: Proxy) -> T? {
    guard let pointer else { return nil }
    let object = T(adopting: pointer)
    object.connection = parent.connection
    return object
  }

  /// Wraps a new object of an interface no loaded protocol defines: it can only be destroyed.
  static func adoptUntyped(_ pointer: OpaquePointer?, parent: Proxy) -> Proxy? {
    guard let pointer else { return nil }
    let object = Proxy(adopting: pointer, dispatch: false)
    object.connection = parent.connection
    return object
  }
}

/// The one dispatcher every proxy uses: finds the Swift object and lets it decode the event.
private let proxyDispatcher: wl_dispatcher_func_t = { implementation, _, opcode, _, arguments in
  guard let implementation, let arguments else { return 0 }
  let proxy = Unmanaged<Proxy>.fromOpaque(implementation).takeUnretainedValue()
  proxy.dispatch(opcode: opcode, arguments: arguments)
  return 0
}
