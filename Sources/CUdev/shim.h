#ifndef WL_TOAST_CUDEV_H
#define WL_TOAST_CUDEV_H

// libudev, for `wl-toast watch backlight`: its declarations only
// (libudev-dev at build time). Nothing links it: the watcher opens
// libudev.so.1 with dlopen when the watch starts and looks up the functions
// below, declared here as pointer types of the header's own declarations.
#include <libudev.h>

typedef __typeof__(&udev_new) wlt_udev_new;
typedef __typeof__(&udev_unref) wlt_udev_unref;
typedef __typeof__(&udev_monitor_new_from_netlink) wlt_udev_monitor_new_from_netlink;
typedef __typeof__(&udev_monitor_filter_add_match_subsystem_devtype)
    wlt_udev_monitor_filter_add_match_subsystem_devtype;
typedef __typeof__(&udev_monitor_enable_receiving) wlt_udev_monitor_enable_receiving;
typedef __typeof__(&udev_monitor_get_fd) wlt_udev_monitor_get_fd;
typedef __typeof__(&udev_monitor_receive_device) wlt_udev_monitor_receive_device;
typedef __typeof__(&udev_monitor_unref) wlt_udev_monitor_unref;
typedef __typeof__(&udev_enumerate_new) wlt_udev_enumerate_new;
typedef __typeof__(&udev_enumerate_add_match_subsystem) wlt_udev_enumerate_add_match_subsystem;
typedef __typeof__(&udev_enumerate_scan_devices) wlt_udev_enumerate_scan_devices;
typedef __typeof__(&udev_enumerate_get_list_entry) wlt_udev_enumerate_get_list_entry;
typedef __typeof__(&udev_enumerate_unref) wlt_udev_enumerate_unref;
typedef __typeof__(&udev_list_entry_get_next) wlt_udev_list_entry_get_next;
typedef __typeof__(&udev_list_entry_get_name) wlt_udev_list_entry_get_name;
typedef __typeof__(&udev_device_new_from_syspath) wlt_udev_device_new_from_syspath;
typedef __typeof__(&udev_device_get_syspath) wlt_udev_device_get_syspath;
typedef __typeof__(&udev_device_get_action) wlt_udev_device_get_action;
typedef __typeof__(&udev_device_get_sysattr_value) wlt_udev_device_get_sysattr_value;
typedef __typeof__(&udev_device_unref) wlt_udev_device_unref;

#endif
