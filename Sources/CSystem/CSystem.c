#define _GNU_SOURCE
#include "CSystem.h"

#include <spawn.h>
#include <stddef.h>
#include <fcntl.h>
#include <malloc.h>
#include <sys/socket.h>
#include <unistd.h>

int wlt_accept(int fd) {
  return accept4(fd, NULL, NULL, SOCK_CLOEXEC | SOCK_NONBLOCK);
}

long long wlt_peer_uid(int fd) {
  struct ucred credentials;
  socklen_t length = sizeof credentials;
  if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
  return (long long)credentials.uid;
}

int wlt_pipe(int fds[2]) {
  return pipe2(fds, O_CLOEXEC);
}

int wlt_close_other_fds(int keep1, int keep2) {
  int low = keep1 < keep2 ? keep1 : keep2;
  int high = keep1 < keep2 ? keep2 : keep1;
  int result = 0;
  if (low > 3) result |= close_range(3, (unsigned)low - 1, 0);
  if (high > low + 1) result |= close_range((unsigned)low + 1, (unsigned)high - 1, 0);
  result |= close_range((unsigned)high + 1, ~0U, 0);
  return result;
}

int wlt_set_cloexec(int fd, int on) {
  int flags = fcntl(fd, F_GETFD);
  if (flags < 0) return -1;
  return fcntl(fd, F_SETFD, on ? (flags | FD_CLOEXEC) : (flags & ~FD_CLOEXEC));
}

int wlt_spawn_close_from(posix_spawn_file_actions_t *actions, int from) {
  return posix_spawn_file_actions_addclosefrom_np(actions, from);
}

int wlt_single_malloc_arena(void) {
  return mallopt(M_ARENA_MAX, 1);
}
