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
    guard let handle = dlopen(name, RTLD_NOW | RTLD_LOCAL) else {
      let reason = dlerror().map { String(cString: $0) } ?? "cannot open \(name)"
      throw WatchError("watch backlight: \(reason) (Debian's package libudev1)")
    }
    var missing: String?
    func symbol<Function>(_ symbol: String, _: Function.Type) -> Function? {
      guard let address = dlsym(handle, symbol) else {
        missing = missing ?? symbol
        return nil
      }
      return unsafeBitCast(address, to: Function.self)
    }
    guard let new = symbol("udev_new", wlt_udev_new.self),
      let unref = symbol("udev_unref", wlt_udev_unref.self),
      let monitorNew = symbol(
        "udev_monitor_new_from_netlink", wlt_udev_monitor_new_from_netlink.self),
      let filterSubsystem = symbol(
        "udev_monitor_filter_add_match_subsystem_devtype",
        wlt_udev_monitor_filter_add_match_subsystem_devtype.self),
      let enableReceiving = symbol(
        "udev_monitor_enable_receiving", wlt_udev_monitor_enable_receiving.self),
      let monitorFD = symbol("udev_monitor_get_fd", wlt_udev_monitor_get_fd.self),
      let receive = symbol("udev_monitor_receive_device", wlt_udev_monitor_receive_device.self),
      let monitorUnref = symbol("udev_monitor_unref", wlt_udev_monitor_unref.self),
      let enumerateNew = symbol("udev_enumerate_new", wlt_udev_enumerate_new.self),
      let enumerateMatchSubsystem = symbol(
        "udev_enumerate_add_match_subsystem", wlt_udev_enumerate_add_match_subsystem.self),
      let enumerateScan = symbol(
        "udev_enumerate_scan_devices", wlt_udev_enumerate_scan_devices.self),
      let enumerateList = symbol(
        "udev_enumerate_get_list_entry", wlt_udev_enumerate_get_list_entry.self),
      let enumerateUnref = symbol("udev_enumerate_unref", wlt_udev_enumerate_unref.self),
      let entryNext = symbol("udev_list_entry_get_next", wlt_udev_list_entry_get_next.self),
      let entryName = symbol("udev_list_entry_get_name", wlt_udev_list_entry_get_name.self),
      let deviceFromPath = symbol(
        "udev_device_new_from_syspath", wlt_udev_device_new_from_syspath.self),
      let syspath = symbol("udev_device_get_syspath", wlt_udev_device_get_syspath.self),
      let action = symbol("udev_device_get_action", wlt_udev_device_get_action.self),
      let attribute = symbol(
        "udev_device_get_sysattr_value", wlt_udev_device_get_sysattr_value.self),
      let deviceUnref = symbol("udev_device_unref", wlt_udev_device_unref.self)
    else {
      throw WatchError("watch backlight: \(name) lacks \(missing ?? "a function")")
    }
    return UdevLibrary(
      new: new, unref: unref, monitorNew: monitorNew, filterSubsystem: filterSubsystem,
      enableReceiving: enableReceiving, monitorFD: monitorFD, receive: receive,
      monitorUnref: monitorUnref, enumerateNew: enumerateNew,
      enumerateMatchSubsystem: enumerateMatchSubsystem, enumerateScan: enumerateScan,
      enumerateList: enumerateList, enumerateUnref: enumerateUnref, entryNext: entryNext,
      entryName: entryName, deviceFromPath: deviceFromPath, syspath: syspath, action: action,
      attribute: attribute, deviceUnref: deviceUnref)
  }
}
