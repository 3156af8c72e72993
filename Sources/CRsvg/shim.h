#ifndef WL_TOAST_CRSVG_H
#define WL_TOAST_CRSVG_H

#include <stddef.h>
#include <stdint.h>

// The part of librsvg (2.46 and later, <librsvg/rsvg.h>) that wl-toast calls.
//
// Nothing links librsvg: linked, it adds about 3.5 ms and 4.5 MiB to every
// start of a process, for toasts that mostly have no icon. wl-toast opens it
// with dlopen when it draws its first SVG and looks these functions up, so
// they are declared here as pointer types, with void pointers for GObject
// types (RsvgHandle *, cairo_t *, GError **).

/// RsvgRectangle.
typedef struct wlt_rsvg_rectangle {
  double x;
  double y;
  double width;
  double height;
} wlt_rsvg_rectangle;

/// RsvgHandle *rsvg_handle_new_from_data(const guint8 *data, gsize data_len,
///                                       GError **error);
typedef void *(*wlt_rsvg_handle_new_from_data)(const uint8_t *data, size_t length, void **error);

/// gboolean rsvg_handle_render_document(RsvgHandle *handle, cairo_t *cr,
///                                      const RsvgRectangle *viewport, GError **error);
typedef int (*wlt_rsvg_handle_render_document)(void *handle, void *cairo,
                                               const wlt_rsvg_rectangle *viewport, void **error);

#endif
