import Glibc
import SystemSupport

/// Where a D-Bus message bus listens, from a bus address such as
/// `unix:path=/run/user/1000/bus,guid=…`: the Unix sockets it names, in the
/// order to try them. Other transports (`tcp:`, `launchd:`…) are skipped:
/// session and accessibility buses on Linux listen on Unix sockets.
package struct BusAddress: Equatable, Sendable {
  /// A Unix socket: a file, or a name in the abstract namespace.
  package enum Socket: Equatable, Sendable {
    /// `unix:path=`.
    case path(String)
    /// `unix:abstract=`.
    case abstract(String)
  }

  /// The sockets of the address, in order.
  package var sockets: [Socket]

  /// Reads a bus address: entries separated by `;`, each `transport:key=value,…`
  /// with `%XX` escapes in values. Entries that are not Unix sockets, or are
  /// malformed, are skipped.
  package init(_ text: String) {
    var sockets: [Socket] = []
    for entry in text.split(separator: ";") {
      guard let colon = entry.firstIndex(of: ":"), entry[..<colon] == "unix" else { continue }
      var path: String?
      var abstract: String?
      for pair in entry[entry.index(after: colon)...].split(separator: ",") {
        guard let equals = pair.firstIndex(of: "="),
          let value = Self.unescaped(pair[pair.index(after: equals)...])
        else { continue }
        switch pair[..<equals] {
        case "path": path = value
        case "abstract": abstract = value
        default: break
        }
      }
      if let path, !path.isEmpty {
        sockets.append(.path(path))
      } else if let abstract, !abstract.isEmpty {
        sockets.append(.abstract(abstract))
      }
    }
    self.sockets = sockets
  }

  /// The accessibility bus named by `AT_SPI_BUS_ADDRESS` (`given`, read from
  /// the environment by default), which libatspi also prefers to asking
  /// `org.a11y.Bus.GetAddress`; nil when unset or naming no Unix socket.
  package static func accessibilityOverride(
    _ given: String? = getenv("AT_SPI_BUS_ADDRESS").map { String(cString: $0) }
  ) -> BusAddress? {
    guard let given, !given.isEmpty else { return nil }
    let address = BusAddress(given)
    return address.sockets.isEmpty ? nil : address
  }

  /// The session bus: `DBUS_SESSION_BUS_ADDRESS`, or else `$XDG_RUNTIME_DIR/bus`
  /// when that socket exists (as GLib and sd-bus find it); nil when there is none.
  package static func session() -> BusAddress? {
    if let text = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }) {
      let address = BusAddress(text)
      return address.sockets.isEmpty ? nil : address
    }
    guard let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), !runtime.isEmpty
    else { return nil }
    var status = stat()
    let path = runtime + "/bus"
    guard stat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK else { return nil }
    return BusAddress("unix:path=" + path)
  }

  /// Why ``session()`` finds no bus, for a message: `no session bus: …`.
  package static var noSessionBus: String {
    guard let text = getenv("DBUS_SESSION_BUS_ADDRESS").map({ String(cString: $0) }) else {
      return "no session bus: DBUS_SESSION_BUS_ADDRESS is unset and $XDG_RUNTIME_DIR/bus is none"
    }
    // Printable and short, whatever the variable holds.
    let shown = String(
      String.UnicodeScalarView(
        text.unicodeScalars.prefix(200).map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    return "no session bus: DBUS_SESSION_BUS_ADDRESS ('\(shown)') names no Unix socket"
  }

  /// The sockets in words, for a message: `/run/user/1000/bus`, an abstract
  /// name as `@name`, several separated by commas; `no Unix socket` for none.
  package var socketList: String {
    guard !sockets.isEmpty else { return "no Unix socket" }
    return sockets.map { socket in
      switch socket {
      case .path(let path): path
      case .abstract(let name): "@" + name
      }
    }.joined(separator: ", ")
  }

  /// A value with its `%XX` escapes decoded; nil when an escape is malformed.
  private static func unescaped(_ value: Substring) -> String? {
    percentDecoded(value).map { String(decoding: $0, as: UTF8.self) }
  }

  /// The bytes of `text` with its `%XX` escapes decoded, as D-Bus addresses
  /// and URIs write them; nil when an escape is malformed.
  package static func percentDecoded(_ text: Substring) -> [UInt8]? {
    var bytes: [UInt8] = []
    bytes.reserveCapacity(text.utf8.count)
    var iterator = text.utf8.makeIterator()
    while let byte = iterator.next() {
      guard byte == UInt8(ascii: "%") else {
        bytes.append(byte)
        continue
      }
      guard let high = iterator.next().flatMap(Self.hexDigit),
        let low = iterator.next().flatMap(Self.hexDigit)
      else { return nil }
      bytes.append(high << 4 | low)
    }
    return bytes
  }

  private static func hexDigit(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
  }

  /// A non-blocking stream socket connected to the first socket of the address
  /// that accepts; nil when none does.
  package func connect() -> FileDescriptor? {
    for socket in sockets {
      if let fd = Self.connect(to: socket) { return fd }
    }
    return nil
  }

  private static func connect(to socket: Socket) -> FileDescriptor? {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes: [UInt8]
    switch socket {
    case .path(let path): bytes = Array(path.utf8)
    case .abstract(let name): bytes = [0] + Array(name.utf8)
    }
    let fits = withUnsafeMutableBytes(of: &address.sun_path) { buffer in
      guard bytes.count < buffer.count else { return false }
      buffer.copyBytes(from: bytes)
      return true
    }
    guard fits else { return nil }
    // An abstract name's length is exact; a path ends at its NUL.
    let length =
      MemoryLayout.offset(of: \sockaddr_un.sun_path)! + bytes.count
      + (bytes.first == 0 ? 0 : 1)
    guard
      let fd = FileDescriptor(
        returnedBy: Glibc.socket(
          AF_UNIX,
          Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            | Int32(SOCK_NONBLOCK.rawValue), 0))
    else { return nil }
    let raw = fd.rawValue
    let result = withUnsafePointer(to: &address) { pointer in
      pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { address in
        retryingOnInterrupt { Glibc.connect(raw, address, socklen_t(length)) }
      }
    }
    // A Unix socket connects at once or not at all (EAGAIN: a full backlog).
    guard result == 0 else { return nil }
    return fd
  }
}
