/* driver/proc.c - see proc.h. */
#define _GNU_SOURCE 1
#include "proc.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

/* environ with env_set applied; the vector owns copies. */
static void build_env(strvec *env, char *const env_set[]) {
  sv_init(env);
  for (char **e = environ; e && *e; e++) {
    int overridden = 0;
    const char *eq = strchr(*e, '=');
    size_t nl = eq ? (size_t)(eq - *e) : strlen(*e);
    for (char *const *s = env_set; s && *s; s++) {
      const char *seq = strchr(*s, '=');
      size_t sl = seq ? (size_t)(seq - *s) : strlen(*s);
      if (sl == nl && memcmp(*s, *e, nl) == 0) {
        overridden = 1;
        break;
      }
    }
    if (!overridden)
      sv_push(env, *e);
  }
  for (char *const *s = env_set; s && *s; s++)
    sv_push(env, *s);
}

static int decode_status(int st) {
  if (WIFEXITED(st))
    return WEXITSTATUS(st);
  if (WIFSIGNALED(st))
    return 128 + WTERMSIG(st);
  return 1;
}

int drv_run(char *const argv[], char *const env_set[], int capture,
            drv_proc_result *res) {
  memset(res, 0, sizeof *res);
  res->status = -1;
  if (capture) {
    orion_sb_init(&res->out);
    orion_sb_init(&res->err);
  }
  strvec env;
  build_env(&env, env_set);
  int po[2] = {-1, -1}, pe[2] = {-1, -1};
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  if (capture) {
    if (pipe2(po, O_CLOEXEC) != 0 || pipe2(pe, O_CLOEXEC) != 0) {
      res->spawn_errno = errno;
      goto out;
    }
    posix_spawn_file_actions_adddup2(&fa, po[1], STDOUT_FILENO);
    posix_spawn_file_actions_adddup2(&fa, pe[1], STDERR_FILENO);
  }
  fflush(stdout);
  fflush(stderr);
  pid_t pid;
  int rc = posix_spawn(&pid, argv[0], &fa, NULL, argv, env.v);
  if (rc != 0) {
    res->spawn_errno = rc;
    goto out;
  }
  if (capture) {
    close(po[1]);
    close(pe[1]);
    po[1] = pe[1] = -1;
    struct pollfd fds[2] = {{po[0], POLLIN, 0}, {pe[0], POLLIN, 0}};
    orion_strbuf *dst[2] = {&res->out, &res->err};
    int open_fds = 2;
    while (open_fds > 0) {
      if (poll(fds, 2, -1) < 0) {
        if (errno == EINTR)
          continue;
        break;
      }
      for (int i = 0; i < 2; i++) {
        if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR)))
          continue;
        orion_sb_reserve(dst[i], 65536);
        ssize_t r = read(fds[i].fd, dst[i]->p + dst[i]->len, 65536);
        if (r < 0 && errno == EINTR)
          continue;
        if (r <= 0) {
          close(fds[i].fd);
          fds[i].fd = -1;
          open_fds--;
          if (i == 0)
            po[0] = -1;
          else
            pe[0] = -1;
          continue;
        }
        dst[i]->len += (size_t)r;
        dst[i]->p[dst[i]->len] = 0;
      }
    }
  }
  int st;
  while (waitpid(pid, &st, 0) < 0) {
    if (errno != EINTR) {
      res->spawn_errno = errno;
      goto out;
    }
  }
  res->status = decode_status(st);
out:
  for (int i = 0; i < 2; i++) {
    if (po[i] >= 0)
      close(po[i]);
    if (pe[i] >= 0)
      close(pe[i]);
  }
  posix_spawn_file_actions_destroy(&fa);
  sv_free(&env);
  return res->status;
}

void drv_proc_result_free(drv_proc_result *res) {
  if (res->out.p)
    orion_sb_free(&res->out);
  if (res->err.p)
    orion_sb_free(&res->err);
}

int drv_exec(char *const argv[], char *const env_set[]) {
  strvec env;
  build_env(&env, env_set);
  fflush(stdout);
  fflush(stderr);
  execve(argv[0], argv, env.v);
  int e = errno;
  sv_free(&env);
  errno = e;
  return -1;
}

static volatile sig_atomic_t pending_signal;

static void on_signal(int sig) { pending_signal = sig; }

void drv_defer_signals(void) {
  static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
  for (size_t i = 0; i < sizeof sigs / sizeof *sigs; i++) {
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sigaction(sigs[i], &sa, NULL);
  }
}

int drv_pending_signal(void) { return pending_signal; }

void drv_reraise_pending_signal(void) {
  int sig = pending_signal;
  if (!sig)
    return;
  signal(sig, SIG_DFL);
  raise(sig);
}

void drv_format_command(orion_strbuf *b, char *const argv[], char *const env_set[]) {
  for (char *const *s = env_set; s && *s; s++) {
    const char *eq = strchr(*s, '=');
    if (!eq)
      continue;
    orion_sb_add(b, *s, (size_t)(eq - *s) + 1);
    drv_quote(b, eq + 1);
    orion_sb_addc(b, ' ');
  }
  for (char *const *a = argv; *a; a++) {
    if (a != argv)
      orion_sb_addc(b, ' ');
    drv_quote(b, *a);
  }
  orion_sb_addc(b, '\n');
}
