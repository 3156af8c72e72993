// libudev, for `wl-toast watch backlight`: its declarations only
// (libudev-dev at build time). Nothing links it: the watcher opens
// libudev.so.1 with dlopen when the watch starts.
#include <libudev.h>
