#define _GNU_SOURCE
#include "CSystem.h"

#include <spawn.h>
#include <stddef.h>
#include <errno.h>
#include <fcntl.h>
#include <malloc.h>
#include <pthread.h>
#include <sched.h>
#include <sys/mman.h>
#include <sys/stat.h>
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

int wlt_memory_file(const char *name) {
  return memfd_create(name, MFD_CLOEXEC);
}

int wlt_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path) {
  return posix_spawn_file_actions_addchdir_np(actions, path);
}

struct masked_spawn {
  pid_t *pid;
  const char *file;
  const posix_spawn_file_actions_t *actions;
  const posix_spawnattr_t *attributes;
  char *const *argv;
  char *const *envp;
  mode_t mask;
  int result;
};

static void *spawn_masked(void *argument) {
  struct masked_spawn *spawn = argument;
  // This thread's umask (with its directories) is its own from here on.
  if (unshare(CLONE_FS) != 0) {
    spawn->result = errno;
    return NULL;
  }
  umask(spawn->mask);
  spawn->result = posix_spawnp(spawn->pid, spawn->file, spawn->actions, spawn->attributes,
                               spawn->argv, spawn->envp);
  return NULL;
}

int wlt_spawn_with_umask(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                         const posix_spawnattr_t *attributes, char *const argv[],
                         char *const envp[], mode_t mask) {
  struct masked_spawn spawn = {pid, file, actions, attributes, argv, envp, mask, 0};
  pthread_t thread;
  int result = pthread_create(&thread, NULL, spawn_masked, &spawn);
  if (result != 0) return result;
  pthread_join(thread, NULL);
  return spawn.result;
}

int wlt_single_malloc_arena(void) {
  return mallopt(M_ARENA_MAX, 1);
}
