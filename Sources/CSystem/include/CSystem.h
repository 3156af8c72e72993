#ifndef WLTOAST_CSYSTEM_H
#define WLTOAST_CSYSTEM_H

#include <spawn.h>
#include <sys/types.h>
#include <sys/signalfd.h>
#include <sys/timerfd.h>

/* Accepts a connection as a close-on-exec, non-blocking descriptor; -1 with errno. */
int wlt_accept(int fd);

/* The uid of the peer of a Unix socket, or -1 with errno set. */
long long wlt_peer_uid(int fd);

/* A close-on-exec pipe; 0, or -1 with errno. */
int wlt_pipe(int fds[2]);

/* Closes every descriptor from 3 up except keep1 and keep2 (both >= 3). */
int wlt_close_other_fds(int keep1, int keep2);

/* Sets or clears FD_CLOEXEC; 0, or -1 with errno. */
int wlt_set_cloexec(int fd, int on);

/* Adds a spawn action closing every descriptor from `from` up; 0, or an errno. */
int wlt_spawn_close_from(posix_spawn_file_actions_t *actions, int from);

/* A close-on-exec memory file (memfd_create); -1 with errno. */
int wlt_memory_file(const char *name);

/* Adds a spawn action changing to `path`; 0, or an errno. */
int wlt_spawn_chdir(posix_spawn_file_actions_t *actions, const char *path);

/* posix_spawnp with the child's umask `mask`: from a thread of its own whose
   umask is unshared from the process's (unshare CLONE_FS), so that no other
   thread's files see `mask`. 0, or an errno. */
int wlt_spawn_with_umask(pid_t *pid, const char *file, const posix_spawn_file_actions_t *actions,
                         const posix_spawnattr_t *attributes, char *const argv[],
                         char *const envp[], mode_t mask);

/* One malloc arena for every thread (mallopt M_ARENA_MAX 1); 1 when set. */
int wlt_single_malloc_arena(void);

#endif
