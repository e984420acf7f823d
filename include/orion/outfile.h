/* orion/outfile.h - writing an output file so that no reader sees part of
 * it and a failure leaves the old one in place (support/outfile.c).
 *
 * Contracts, shared by every tool and the runtime:
 *  - The target of a path is the path with its symbolic links followed
 *    (relative links from the link's directory, at most 40), whether or not
 *    the last one exists: output is written through a link, as the compilers
 *    do, never over it.  Something other than a regular file is its own
 *    target (/dev/stdout stays /dev/stdout).
 *  - A target that exists and is not a regular file (a character device such
 *    as /dev/null, a FIFO, a socket) is opened and written in place, since it
 *    can be neither replaced nor written atomically.
 *  - Otherwise the bytes go to a temporary file in the target's directory
 *    (".<name>.orion-tmp.<pid>.<n><suffix>") that is renamed over the target
 *    once complete.  A file replaced keeps its permission bits; a new one gets
 *    0666 less the umask.  A failure leaves the target as it was and no
 *    temporary behind.
 *  - Every function returns 0, or -1 with errno set (EISDIR for a directory).
 */
#ifndef ORION_OUTFILE_H
#define ORION_OUTFILE_H

#include <stddef.h>

#ifdef __cplusplus
extern "C" {
#endif

enum { ORION_WRITE_SYNC = 1 }; /* fsync the data before the rename */

/* Write n bytes of data as the whole content of path's target. */
int orion_write_file_atomic(const char *path, const void *data, size_t n, unsigned flags);

/* A fresh temporary path beside path's target (in $TMPDIR or /tmp when the
 * target is not a regular file), not created (malloc'd; NULL with errno on
 * failure).  For a tool (ptxas) that writes a file by name. */
char *orion_temp_beside(const char *path, const char *suffix);

/* Make the complete file tmp (from orion_temp_beside(path)) path's content:
 * renamed over a regular or missing target with the old mode kept, copied
 * into a target that is not a regular file.  tmp is gone afterwards. */
int orion_replace_file(const char *tmp, const char *path);

/* What orion_output_keep found at an output's target: whether something was
 * there, and the hard link that keeps a regular file (NULL when there was
 * none, or it could not be made: a file system without hard links). */
typedef struct orion_output_kept {
  int existed;
  char *link;
} orion_output_kept;

/* Keep path's target while another program (a compiler, a linker) writes
 * it: a hard link beside it, since such programs create a new file (clang,
 * lld and GNU ld rename a temporary or unlink first) and the old one lives
 * on in the link.  -1 with errno when the path cannot be resolved. */
int orion_output_keep(const char *path, orion_output_kept *kept);
/* After the run: when ok the new output stays; else the kept file is put
 * back, a new regular file where there was nothing is removed, and
 * anything else is left alone, so that a failed run leaves the output as it
 * was.  Releases kept.  Returns 0, or -1 with errno. */
int orion_output_settle(const char *path, orion_output_kept *kept, int ok);

/* path with its symbolic links followed, as above (malloc'd; NULL with
 * errno: ELOOP, ENOMEM, or a readlink failure other than ENOENT/EINVAL). */
char *orion_resolve_target(const char *path);

#ifdef __cplusplus
}
#endif
#endif /* ORION_OUTFILE_H */
