/* driver/proc.h - run child processes without a shell.
 *
 * Contracts:
 *  - argv[0] is the path of the program (no PATH search); argv is
 *    NULL-terminated.  env_set (may be NULL) holds "NAME=value" strings that
 *    replace or extend the inherited environment for the child only;
 *    "NAME=" with nothing after '=' is set to the empty string.
 *  - drv_run waits for the child.  Its result: status = the child's exit
 *    code, 128+N if killed by signal N, or -1 if it could not be started
 *    (spawn_errno says why; nothing was printed).  With capture, the child's
 *    stdout and stderr are collected into out/err (both drained concurrently
 *    with poll, so a chatty child never blocks); otherwise they are inherited.
 *  - drv_exec replaces the current process (execve); it returns only on
 *    failure, with errno set.
 */
#ifndef ORION_DRIVER_PROC_H
#define ORION_DRIVER_PROC_H

#include "util.h"

typedef struct drv_proc_result {
  int status;
  int spawn_errno;
  orion_strbuf out, err; /* valid (possibly empty) after drv_run with capture */
} drv_proc_result;

int drv_run(char *const argv[], char *const env_set[], int capture,
            drv_proc_result *res);
void drv_proc_result_free(drv_proc_result *res);
int drv_exec(char *const argv[], char *const env_set[]);

/* Interrupts: after drv_defer_signals(), SIGINT, SIGTERM and SIGHUP only
 * set a flag (the child, in the same process group, gets them too and
 * exits), so the caller cleans up its temporary files on the normal error
 * path and then calls drv_reraise_pending_signal() to die of the signal. */
void drv_defer_signals(void);
int drv_pending_signal(void);
void drv_reraise_pending_signal(void);

/* Append the command line as drv_quote'd words on one line, preceded by the
 * env_set assignments (NAME="value"), with a trailing newline. */
void drv_format_command(orion_strbuf *b, char *const argv[], char *const env_set[]);

#endif /* ORION_DRIVER_PROC_H */
