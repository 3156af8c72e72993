import CGio
import CSystem
import Glibc
import SystemSupport

/// A connection to a private D-Bus bus through GDBus, with the calls the
/// harness needs: whether a name has an owner, the connections on the bus and
/// their processes, a boolean property to set (a screen reader's
/// `org.a11y.Status`), and KWin's screenshots (`org.kde.KWin.ScreenShot2`,
/// whose pixels come back through a pipe).
///
/// Swift cannot call C variadic functions, so messages are built from
/// `g_variant_new_*` values and tuples rather than format strings.
final class SessionBus {
  private let connection: OpaquePointer

  /// Connects to the bus at `address` (`unix:path=...`) and says hello.
  init(address: String) throws {
    var error: UnsafeMutablePointer<GError>?
    let flags = GDBusConnectionFlags(
      rawValue: G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT.rawValue
        | G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION.rawValue)
    guard let connection = g_dbus_connection_new_for_address_sync(address, flags, nil, nil, &error)
    else {
      throw HarnessError("cannot connect to the bus at \(address): \(Self.message(of: error))")
    }
    self.connection = connection
  }

  deinit {
    g_dbus_connection_close_sync(connection, nil, nil)
    g_object_unref(UnsafeMutableRawPointer(connection))
  }

  /// Whether some client owns a well-known name, such as `org.kde.KWin`.
  func nameHasOwner(_ name: String) throws -> Bool {
    var child: OpaquePointer? = g_variant_new_string(name)
    let reply = try call(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", method: "NameHasOwner",
      parameters: g_variant_new_tuple(&child, 1), replyType: "(b)")
    defer { g_variant_unref(reply) }
    let value = g_variant_get_child_value(reply, 0)
    defer { g_variant_unref(value) }
    return g_variant_get_boolean(value) != 0
  }

  /// The names on the bus, unique (`:1.4`) and well-known.
  func listNames() throws -> [String] {
    let reply = try call(
      destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
      interface: "org.freedesktop.DBus", method: "ListNames", parameters: nil, replyType: "(as)")
    defer { g_variant_unref(reply) }
    let list = g_variant_get_child_value(reply, 0)!
    defer { g_variant_unref(list) }
    return (0..<g_variant_n_children(list)).map { index in
      let item = g_variant_get_child_value(list, index)!
      defer { g_variant_unref(item) }
      return String(cString: g_variant_get_string(item, nil))
    }
  }

  /// The unique name (`:1.5`) of the client that owns `name`; nil when none does.
  func owner(of name: String) -> String? {
    var child: OpaquePointer? = g_variant_new_string(name)
    guard
      let reply = try? call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", method: "GetNameOwner",
        parameters: g_variant_new_tuple(&child, 1), replyType: "(s)")
    else { return nil }
    defer { g_variant_unref(reply) }
    let value = g_variant_get_child_value(reply, 0)!
    defer { g_variant_unref(value) }
    return String(cString: g_variant_get_string(value, nil))
  }

  /// The process id of the client that owns `name`; nil when it is gone.
  func processID(of name: String) -> Int32? {
    var child: OpaquePointer? = g_variant_new_string(name)
    guard
      let reply = try? call(
        destination: "org.freedesktop.DBus", path: "/org/freedesktop/DBus",
        interface: "org.freedesktop.DBus", method: "GetConnectionUnixProcessID",
        parameters: g_variant_new_tuple(&child, 1), replyType: "(u)")
    else { return nil }
    defer { g_variant_unref(reply) }
    let value = g_variant_get_child_value(reply, 0)!
    defer { g_variant_unref(value) }
    return Int32(bitPattern: g_variant_get_uint32(value))
  }

  /// The unique names of the connections that process `pid` has on the bus.
  func connections(of pid: Int32) throws -> [String] {
    try listNames().filter { $0.hasPrefix(":") && processID(of: $0) == pid }
  }

  /// Sets a boolean property through `org.freedesktop.DBus.Properties.Set`.
  func setProperty(
    destination: String, path: String, interface: String, name: String, to value: Bool
  ) throws {
    var children: [OpaquePointer?] = [
      g_variant_new_string(interface), g_variant_new_string(name),
      g_variant_new_variant(g_variant_new_boolean(value ? 1 : 0)),
    ]
    let reply = try call(
      destination: destination, path: path, interface: "org.freedesktop.DBus.Properties",
      method: "Set", parameters: g_variant_new_tuple(&children, 3), replyType: "()")
    g_variant_unref(reply)
  }

  /// A string returned by a method that takes no arguments, such as
  /// `org.a11y.Bus.GetAddress`.
  func string(
    from destination: String, path: String, interface: String, method: String
  ) throws -> String {
    let reply = try call(
      destination: destination, path: path, interface: interface, method: method,
      parameters: nil, replyType: "(s)")
    defer { g_variant_unref(reply) }
    let value = g_variant_get_child_value(reply, 0)!
    defer { g_variant_unref(value) }
    return String(cString: g_variant_get_string(value, nil))
  }

  /// Captures KWin's whole workspace at full device resolution, without the cursor.
  func captureWorkspace(timeout: Double = 20) throws -> KWinScreenshot {
    var children: [OpaquePointer?] = []
    let options = g_variant_builder_new(variantType("a{sv}"))
    for (key, value) in [("native-resolution", true), ("include-cursor", false)] {
      g_variant_builder_add_value(
        options,
        g_variant_new_dict_entry(
          g_variant_new_string(key), g_variant_new_variant(g_variant_new_boolean(value ? 1 : 0))))
    }
    children.append(g_variant_builder_end(options))
    g_variant_builder_unref(options)
    children.append(g_variant_new_handle(0))  // index 0 of the fd list below
    let parameters = g_variant_new_tuple(&children, gsize(children.count))

    var fds: [Int32] = [0, 0]
    guard wlt_pipe(&fds) == 0 else { throw HarnessError("pipe failed: \(Errno.current)") }
    defer { close(fds[0]) }
    var error: UnsafeMutablePointer<GError>?
    let fdList = g_unix_fd_list_new()
    // The list holds its own duplicate of the write end; it must be released
    // (below) before the read end can ever see end of file.
    _ = g_unix_fd_list_append(fdList, fds[1], &error)
    close(fds[1])
    let reply = g_dbus_connection_call_with_unix_fd_list_sync(
      connection, "org.kde.KWin", "/org/kde/KWin/ScreenShot2", "org.kde.KWin.ScreenShot2",
      "CaptureWorkspace", parameters, variantType("(a{sv})"), G_DBUS_CALL_FLAGS_NONE,
      Int32(timeout * 1000), fdList, nil, nil, &error)
    g_object_unref(UnsafeMutableRawPointer(fdList))
    guard let reply else {
      throw HarnessError("KWin's CaptureWorkspace failed: \(Self.message(of: error))")
    }
    defer { g_variant_unref(reply) }
    let results = g_variant_get_child_value(reply, 0)
    defer { g_variant_unref(results) }
    func number(_ key: String) -> UInt32? {
      guard let value = g_variant_lookup_value(results, key, variantType("u")) else { return nil }
      defer { g_variant_unref(value) }
      return g_variant_get_uint32(value)
    }
    var scale = 0.0
    if let value = g_variant_lookup_value(results, "scale", variantType("d")) {
      scale = g_variant_get_double(value)
      g_variant_unref(value)
    }
    guard let width = number("width"), let height = number("height"),
      let stride = number("stride"), let format = number("format")
    else {
      throw HarnessError(
        "KWin's screenshot reply lacks width, height, stride or format: \(Self.text(of: results))")
    }
    let size = Int(stride) * Int(height)
    let data = try readAll(fds[0], count: size, timeout: timeout)
    return KWinScreenshot(
      width: Int(width), height: Int(height), stride: Int(stride), format: format, scale: scale,
      data: data)
  }

  /// Reads exactly `count` bytes (KWin writes them from a thread after replying).
  private func readAll(_ fd: Int32, count: Int, timeout: Double) throws -> [UInt8] {
    var data = [UInt8](repeating: 0, count: count)
    var filled = 0
    let deadline = now() + timeout
    while filled < count {
      var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
      let remaining = deadline - now()
      guard remaining > 0 else {
        throw HarnessError("KWin sent \(filled) of \(count) screenshot bytes in \(timeout) s")
      }
      if poll(&pfd, 1, Int32(remaining * 1000) + 1) <= 0 { continue }
      let got = data.withUnsafeMutableBytes { buffer in
        read(fd, buffer.baseAddress! + filled, count - filled)
      }
      if got < 0 && errno == EINTR { continue }
      guard got > 0 else {
        throw HarnessError("the screenshot pipe closed after \(filled) of \(count) bytes")
      }
      filled += got
    }
    return data
  }

  private func call(
    destination: String, path: String, interface: String, method: String,
    parameters: OpaquePointer?, replyType: StaticString
  ) throws -> OpaquePointer {
    var error: UnsafeMutablePointer<GError>?
    guard
      let reply = g_dbus_connection_call_sync(
        connection, destination, path, interface, method, parameters, variantType(replyType),
        G_DBUS_CALL_FLAGS_NONE, 10_000, nil, &error)
    else {
      throw HarnessError("D-Bus \(interface).\(method) failed: \(Self.message(of: error))")
    }
    return reply
  }

  /// A GVariant type from its string; GLib keeps such types as the string itself.
  private func variantType(_ text: StaticString) -> OpaquePointer {
    OpaquePointer(UnsafeRawPointer(text.utf8Start))
  }

  private static func text(of value: OpaquePointer?) -> String {
    guard let value, let printed = g_variant_print(value, 1) else { return "?" }
    defer { g_free(printed) }
    return String(cString: printed)
  }

  private static func message(of error: UnsafeMutablePointer<GError>?) -> String {
    guard let error else { return "unknown error" }
    defer { g_error_free(error) }
    return error.pointee.message.map { String(cString: $0) } ?? "unknown error"
  }
}

/// The configuration of a private session bus for a test or a benchmark,
/// listening at `path` (from `scripts/private-bus.conf`, which `make leaks`
/// uses too): every client may own any name and talk to any other. With
/// `services`, the bus starts the services described there (D-Bus
/// activation); without, it only routes messages, so no process but those
/// the test starts ever joins it.
package func privateBusConfiguration(listeningAt path: String, services: String? = nil) throws
  -> String
{
  let template = repositoryDirectory + "/scripts/private-bus.conf"
  guard let data = readFile(template) else {
    throw HarnessError("cannot read \(template)")
  }
  return String(decoding: data, as: UTF8.self)
    .replacing("@ADDRESS@", with: "unix:path=" + path)
    .replacing("@SERVICEDIR@", with: services.map { "<servicedir>\($0)</servicedir>" } ?? "")
}

/// Starts `dbus-daemon` on a private session bus of its own (see
/// ``privateBusConfiguration(listeningAt:services:)``: no service
/// activation) listening at `directory/bus`, its configuration in
/// `directory/bus.conf` and its log in `directory/dbus.log`, and waits
/// until it accepts a connection; the daemon (stopped again when it does
/// not) and that connection.
func startPrivateSessionBus(in directory: String, environment: [String: String]) throws
  -> (daemon: ChildProcess, session: SessionBus)
{
  try writeFile(
    directory + "/bus.conf", try privateBusConfiguration(listeningAt: directory + "/bus"))
  let daemon = try ChildProcess(
    ["dbus-daemon", "--nofork", "--nopidfile", "--config-file=\(directory)/bus.conf"],
    environment: environment, logPath: directory + "/dbus.log")
  var session: SessionBus?
  do {
    try waitUntil("the private session bus to accept a connection", timeout: 15) {
      guard daemon.isRunning else { throw HarnessError("dbus-daemon exited") }
      session = try? SessionBus(address: "unix:path=\(directory)/bus")
      return session != nil
    }
  } catch {
    daemon.terminate()
    throw error
  }
  return (daemon, session!)
}

/// One raw screenshot as KWin sends it: QImage rows of `stride` bytes.
struct KWinScreenshot {
  var width: Int
  var height: Int
  var stride: Int
  /// QImage::Format: 4, 5, 6 are 32-bit 0xAARRGGBB in host order; 17, 18, 19 are R, G, B, A bytes.
  var format: UInt32
  /// The output's scale as KWin reports it with the picture.
  var scale: Double
  var data: [UInt8]

  /// The picture as RGB; KWin's pictures are opaque (over the black background).
  func image() throws -> Image {
    let order: (Int, Int, Int)
    switch format {
    case 4, 5, 6: order = (2, 1, 0)
    case 17, 18, 19: order = (0, 1, 2)
    default: throw HarnessError("KWin sent a screenshot in QImage format \(format)")
    }
    var bytes = [UInt8](repeating: 0, count: width * height * 3)
    data.withUnsafeBufferPointer { source in
      bytes.withUnsafeMutableBufferPointer { target in
        for y in 0..<height {
          var from = y * stride
          var to = y * width * 3
          for _ in 0..<width {
            target[to] = source[from + order.0]
            target[to + 1] = source[from + order.1]
            target[to + 2] = source[from + order.2]
            from += 4
            to += 3
          }
        }
      }
    }
    return Image(width: width, height: height, bytes: bytes)
  }
}
