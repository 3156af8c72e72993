#ifndef WLTOAST_CWAYLANDCLIENT_H
#define WLTOAST_CWAYLANDCLIENT_H

#include <stdint.h>
#include <signal.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>
#include <wayland-client-core.h>

/* Interface tables of the core protocol, which live in libwayland-client.
 * Swift imports the tables as values; these accessors give their real
 * addresses, which libwayland compares and keeps. */
#define WLT_CORE_INTERFACES(X) \
  X(wl_display) X(wl_registry) X(wl_callback) X(wl_compositor) X(wl_shm_pool) \
  X(wl_shm) X(wl_buffer) X(wl_data_offer) X(wl_data_source) X(wl_data_device) \
  X(wl_data_device_manager) X(wl_shell) X(wl_shell_surface) X(wl_surface) \
  X(wl_seat) X(wl_pointer) X(wl_keyboard) X(wl_touch) X(wl_output) \
  X(wl_region) X(wl_subcompositor) X(wl_subsurface)

#define WLT_DECLARE_ACCESSOR(name) const struct wl_interface *wlt_##name##_interface(void);
WLT_CORE_INTERFACES(WLT_DECLARE_ACCESSOR)
#undef WLT_DECLARE_ACCESSOR

/* An anonymous, close-on-exec shared-memory file of `size` bytes, or -1 with errno set. */
int wlt_create_shm_file(int64_t size);

/* wl_fixed_t conversions (static inline in the headers, kept here for clarity). */
static inline double wlt_fixed_to_double(int32_t f) { return wl_fixed_to_double(f); }
static inline int32_t wlt_fixed_from_double(double d) { return wl_fixed_from_double(d); }

#endif
