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

/* One malloc arena for every thread (mallopt M_ARENA_MAX 1); 1 when set. */
int wlt_single_malloc_arena(void);

#endif
