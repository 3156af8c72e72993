// PulseAudio's client library, for `wl-toast watch audio`: its declarations
// only (libpulse-dev at build time). Nothing links it: the watcher opens
// libpulse.so.0 with dlopen when the watch starts, so no other part of
// wl-toast pays for it. The functions it looks up (dlsym) are declared here
// as pointer types of the library's own declarations.
#ifndef WL_TOAST_CPULSE_H
#define WL_TOAST_CPULSE_H

#include <pulse/pulseaudio.h>

#define WLT_PA(name) typedef __typeof__(name) *wlt_##name;
WLT_PA(pa_mainloop_new)
WLT_PA(pa_mainloop_free)
WLT_PA(pa_mainloop_get_api)
WLT_PA(pa_mainloop_set_poll_func)
WLT_PA(pa_mainloop_prepare)
WLT_PA(pa_mainloop_poll)
WLT_PA(pa_mainloop_dispatch)
WLT_PA(pa_context_new_with_proplist)
WLT_PA(pa_context_connect)
WLT_PA(pa_context_disconnect)
WLT_PA(pa_context_unref)
WLT_PA(pa_context_set_state_callback)
WLT_PA(pa_context_get_state)
WLT_PA(pa_context_errno)
WLT_PA(pa_strerror)
WLT_PA(pa_context_subscribe)
WLT_PA(pa_context_set_subscribe_callback)
WLT_PA(pa_context_get_server_info)
WLT_PA(pa_context_get_sink_info_by_name)
WLT_PA(pa_context_get_source_info_by_name)
WLT_PA(pa_operation_unref)
WLT_PA(pa_cvolume_max)
WLT_PA(pa_proplist_new)
WLT_PA(pa_proplist_sets)
WLT_PA(pa_proplist_free)
#undef WLT_PA

#endif
