import CUdev
import Glibc
import SystemSupport

/// A backlight device as libudev shows it: present at start, or named by an
/// event.
struct UdevDevice: Equatable, Sendable {
  /// Its path in sysfs, which names it.
  var path: String
  /// The event's action (`add`, `change`, `remove`); nil for a device
  /// present at start.
  var action: String?
  /// Its `brightness` and `max_brightness`, read when the event came (not
  /// for `remove`).
  var reading: BacklightState.Reading
}

/// libudev's monitor of the `backlight` subsystem's devices, through
/// libudev.so.1 opened with dlopen when the watch starts: its descriptor for
/// the event loop, the devices present, the events that came.
///
/// The monitor listens to udevd's events, after its rules ran; with no udevd
/// (`/run/udev/control` missing: a container, a system without udev) it
/// listens to the kernel's own, which a container may never hear.
final class UdevMonitor {
  private let library: UdevLibrary
  private let udev: OpaquePointer
  private let monitor: OpaquePointer
  private let subsystem = "backlight"

  /// A monitor of the backlight devices, receiving, through the library
  /// `libraryName`.
  init(libraryName: String = "libudev.so.1") throws(WatchError) {
    library = try UdevLibrary.open(libraryName)
    guard let udev = library.new() else {
      throw WatchError("watch backlight: libudev: \(Errno(rawValue: errno))")
    }
    let group = access("/run/udev/control", F_OK) == 0 ? "udev" : "kernel"
    guard let monitor = library.monitorNew(udev, group) else {
      let code = errno
      _ = library.unref(udev)
      throw WatchError(
        "watch backlight: cannot listen to device events: \(Errno(rawValue: code))")
    }
    self.udev = udev
    self.monitor = monitor
    var status = library.filterSubsystem(monitor, subsystem, nil)
    if status >= 0 { status = library.enableReceiving(monitor) }
    guard status >= 0 else {
      _ = library.monitorUnref(monitor)
      _ = library.unref(udev)
      throw WatchError(
        "watch backlight: cannot listen to device events: \(Errno(rawValue: -status))")
    }
  }

  deinit {
    _ = library.monitorUnref(monitor)
    _ = library.unref(udev)
  }

  /// The descriptor to wait on for events (not blocking).
  var fileDescriptor: Int32 { library.monitorFD(monitor) }

  /// The devices present now, with their attributes.
  func present() -> [UdevDevice] {
    guard let enumerate = library.enumerateNew(udev) else { return [] }
    defer { _ = library.enumerateUnref(enumerate) }
    guard library.enumerateMatchSubsystem(enumerate, subsystem) >= 0,
      library.enumerateScan(enumerate) >= 0
    else { return [] }
    var devices: [UdevDevice] = []
    var entry = library.enumerateList(enumerate)
    while let current = entry {
      if let name = library.entryName(current),
        let device = library.deviceFromPath(udev, name)
      {
        devices.append(describe(device, action: nil))
        _ = library.deviceUnref(device)
      }
      entry = library.entryNext(current)
    }
    return devices
  }

  /// The events that came since the last call (none when none did).
  func receive() -> [UdevDevice] {
    var devices: [UdevDevice] = []
    while let device = library.receive(monitor) {
      let action = library.action(device).map { String(cString: $0) } ?? "change"
      devices.append(describe(device, action: action))
      _ = library.deviceUnref(device)
    }
    return devices
  }

  private func describe(_ device: OpaquePointer, action: String?) -> UdevDevice {
    let path = library.syspath(device).map { String(cString: $0) } ?? ""
    guard action != "remove" else {
      return UdevDevice(
        path: path, action: action, reading: .init(brightness: nil, maxBrightness: nil))
    }
    func value(_ name: String) -> String? {
      library.attribute(device, name).map { String(cString: $0) }
    }
    return UdevDevice(
      path: path, action: action,
      reading: .init(brightness: value("brightness"), maxBrightness: value("max_brightness")))
  }
}

/// libudev's functions that the monitor calls, looked up after dlopen.
private struct UdevLibrary {
  let new: wlt_udev_new
  let unref: wlt_udev_unref
  let monitorNew: wlt_udev_monitor_new_from_netlink
  let filterSubsystem: wlt_udev_monitor_filter_add_match_subsystem_devtype
  let enableReceiving: wlt_udev_monitor_enable_receiving
  let monitorFD: wlt_udev_monitor_get_fd
  let receive: wlt_udev_monitor_receive_device
  let monitorUnref: wlt_udev_monitor_unref
  let enumerateNew: wlt_udev_enumerate_new
  let enumerateMatchSubsystem: wlt_udev_enumerate_add_match_subsystem
  let enumerateScan: wlt_udev_enumerate_scan_devices
  let enumerateList: wlt_udev_enumerate_get_list_entry
  let enumerateUnref: wlt_udev_enumerate_unref
  let entryNext: wlt_udev_list_entry_get_next
  let entryName: wlt_udev_list_entry_get_name
  let deviceFromPath: wlt_udev_device_new_from_syspath
  let syspath: wlt_udev_device_get_syspath
  let action: wlt_udev_device_get_action
  let attribute: wlt_udev_device_get_sysattr_value
  let deviceUnref: wlt_udev_device_unref

  /// Opens the library `name` (Debian's libudev1 installs `libudev.so.1`);
  /// it stays loaded.
  static func open(_ name: String) throws(WatchError) -> UdevLibrary {
    do {
      return try open(LoadedLibrary(name, context: "watch backlight", package: "libudev1"))
    } catch { throw WatchError(error.description) }
  }

  /// The functions of `library`, looked up.
  private static func open(_ library: LoadedLibrary) throws(LibraryError) -> UdevLibrary {
    UdevLibrary(
      new: try library.function("udev_new", as: wlt_udev_new.self),
      unref: try library.function("udev_unref", as: wlt_udev_unref.self),
      monitorNew: try library.function(
        "udev_monitor_new_from_netlink", as: wlt_udev_monitor_new_from_netlink.self),
      filterSubsystem: try library.function(
        "udev_monitor_filter_add_match_subsystem_devtype",
        as: wlt_udev_monitor_filter_add_match_subsystem_devtype.self),
      enableReceiving: try library.function(
        "udev_monitor_enable_receiving", as: wlt_udev_monitor_enable_receiving.self),
      monitorFD: try library.function("udev_monitor_get_fd", as: wlt_udev_monitor_get_fd.self),
      receive: try library.function(
        "udev_monitor_receive_device", as: wlt_udev_monitor_receive_device.self),
      monitorUnref: try library.function("udev_monitor_unref", as: wlt_udev_monitor_unref.self),
      enumerateNew: try library.function("udev_enumerate_new", as: wlt_udev_enumerate_new.self),
      enumerateMatchSubsystem: try library.function(
        "udev_enumerate_add_match_subsystem", as: wlt_udev_enumerate_add_match_subsystem.self),
      enumerateScan: try library.function(
        "udev_enumerate_scan_devices", as: wlt_udev_enumerate_scan_devices.self),
      enumerateList: try library.function(
        "udev_enumerate_get_list_entry", as: wlt_udev_enumerate_get_list_entry.self),
      enumerateUnref: try library.function(
        "udev_enumerate_unref", as: wlt_udev_enumerate_unref.self),
      entryNext: try library.function(
        "udev_list_entry_get_next", as: wlt_udev_list_entry_get_next.self),
      entryName: try library.function(
        "udev_list_entry_get_name", as: wlt_udev_list_entry_get_name.self),
      deviceFromPath: try library.function(
        "udev_device_new_from_syspath", as: wlt_udev_device_new_from_syspath.self),
      syspath: try library.function(
        "udev_device_get_syspath", as: wlt_udev_device_get_syspath.self),
      action: try library.function("udev_device_get_action", as: wlt_udev_device_get_action.self),
      attribute: try library.function(
        "udev_device_get_sysattr_value", as: wlt_udev_device_get_sysattr_value.self),
      deviceUnref: try library.function("udev_device_unref", as: wlt_udev_device_unref.self))
  }
}
