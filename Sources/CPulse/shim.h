// PulseAudio's client library, for `wl-toast watch audio`: its declarations
// only (libpulse-dev at build time). Nothing links it: the watcher opens
// libpulse.so.0 with dlopen when the watch starts, so no other part of
// wl-toast pays for it.
#include <pulse/pulseaudio.h>
