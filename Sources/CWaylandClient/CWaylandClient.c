#define _GNU_SOURCE
#include "CWaylandClient.h"

#include <errno.h>
#include <sys/mman.h>
#include <unistd.h>
#include <wayland-client-protocol.h>

#define WLT_DEFINE_ACCESSOR(name) \
  const struct wl_interface *wlt_##name##_interface(void) { return &name##_interface; }
WLT_CORE_INTERFACES(WLT_DEFINE_ACCESSOR)
#undef WLT_DEFINE_ACCESSOR

int wlt_create_shm_file(int64_t size) {
  int fd = memfd_create("wl-toast-shm", MFD_CLOEXEC | MFD_ALLOW_SEALING);
  if (fd < 0) return -1;
  int rc;
  do {
    rc = ftruncate(fd, (off_t)size);
  } while (rc < 0 && errno == EINTR);
  if (rc < 0) {
    int saved = errno;
    close(fd);
    errno = saved;
    return -1;
  }
  return fd;
}
