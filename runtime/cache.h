/* cache.h - the runtime's decision cache: what tuning found, remembered
 * across runs so later runs start where earlier ones stopped.
 *
 * One text line per launch configuration; the key is (module, GPU, driver,
 * kernel, block shape, dynamic shared memory), where module is a hash of
 * the program's fatbinary, so a rebuilt program, another GPU or another
 * driver tunes afresh:
 *
 *   # orion decision cache 3
 *   <module hex> <gpu> <driver> <kernel> <bx>x<by>x<bz> <shmem> <tag> <speedup> <iterations>
 *   <state> <checks> <rc_sum> <rc_sumsq> <credit_ms> <loss_ms> <walk> <window>
 *
 * (one line).  state: `confirmed`, a decision (the original, or a choice
 * that passed its re-checks); `tentative`, a choice tuning settled on whose
 * re-checks are not all in (checks of them so far, their log-ratios'
 * sum and sum of squares, and the last ORION_CACHE_WINDOW of them, oldest
 * first, comma-separated in window, `-` for none: the re-check rule's
 * median needs the pairs, not their mean): evidence, which the next run
 * re-checks at once (a confirmed choice keeps the same fields: re-checked
 * later);
 * `open`, tuning had not settled (checks: in how many runs; walk: the
 * walk's evidence, which the next run goes on from, an opaque token of the
 * tuner's, `-` for none; after ORION_CACHE_OPEN_RUNS such runs the original
 * becomes the decision, so a kernel that never settles stops paying for
 * trials).
 * credit_ms and loss_ms: the GPU time the
 * configuration ran while tuned or re-checked, and what tuning lost
 * against the original, over all runs so far (the budget of tune.h, step
 * 5, carried from run to run).  Lines of format 1 (the first nine fields)
 * read as confirmed with no credit; of format 2 (no window), with no
 * window.
 *
 * GPU names have their spaces replaced by '_'.  Malformed lines are skipped
 * (and reported through *bad_line); saving rewrites the file without them.
 * Saving merges with what other processes wrote meanwhile, under an fcntl
 * lock on <path>.lock, and replaces the file atomically (write a temporary,
 * rename).  No CUDA; unit-tested in test/unit/rt/test_cache.c.
 */
#ifndef ORION_RT_CACHE_H
#define ORION_RT_CACHE_H

#include <stddef.h>

#define ORION_CACHE_NAME_MAX 512
#define ORION_CACHE_GPU_MAX 128
#define ORION_CACHE_TAG_MAX 16
#define ORION_CACHE_WALK_MAX 640 /* printable, no spaces */
#define ORION_CACHE_WINDOW 6     /* re-check pairs kept in order */

typedef struct orion_cache_entry {
  unsigned long long module;
  char gpu[ORION_CACHE_GPU_MAX];
  int driver;
  char kernel[ORION_CACHE_NAME_MAX];
  unsigned bx, by, bz;
  unsigned long long shmem;
  char tag[ORION_CACHE_TAG_MAX]; /* the chosen version */
  double speedup;                /* over the original, as measured */
  int iterations;                /* tuning launches it took */
  int state;                     /* ORION_CACHE_CONFIRMED, _TENTATIVE or _OPEN */
  int checks;                    /* re-check pairs the choice passed */
  double rc_sum, rc_sumsq;       /* their log-ratios' sum and sum of squares */
  int nwin;                      /* the last of them kept, <= checks */
  double win[ORION_CACHE_WINDOW]; /* their log-ratios, oldest first */
  double credit_ms, loss_ms;     /* the budget carried over (cache.h's header) */
  char walk[ORION_CACHE_WALK_MAX + 1]; /* an open walk's evidence, or "-" */
} orion_cache_entry;

enum { ORION_CACHE_CONFIRMED, ORION_CACHE_TENTATIVE, ORION_CACHE_OPEN };
#define ORION_CACHE_OPEN_RUNS 5

typedef struct orion_cache {
  orion_cache_entry *e;
  size_t n, cap;
} orion_cache;

/* Add the entries of text (len bytes) to c, replacing entries with the same
 * key.  Returns the number of malformed lines; *first_bad (may be NULL)
 * gets the first one's line number, or 0. */
int orion_cache_parse(orion_cache *c, const char *text, size_t len, int *first_bad);
/* The entry with key's key, or NULL. */
const orion_cache_entry *orion_cache_find(const orion_cache *c, const orion_cache_entry *key);
/* Insert or replace; 0, or -1 when out of memory. */
int orion_cache_put(orion_cache *c, const orion_cache_entry *e);
/* Format one entry as a line (with '\n'); returns its length or -1. */
int orion_cache_format(const orion_cache_entry *e, char *buf, size_t n);
/* Read path into c.  A missing file is an empty cache.  Returns 0, or -1
 * with a message in err ("<path>: <reason>"); malformed lines are counted
 * in *bad (may be NULL) and their first line number in *first_bad. */
int orion_cache_load(orion_cache *c, const char *path, int *bad, int *first_bad, char *err,
                     size_t errn);
/* Merge c into the file at path (creating its directory) atomically.
 * Returns 0, or -1 with a message in err; the file is then unchanged. */
int orion_cache_save(const orion_cache *c, const char *path, char *err, size_t errn);
/* 0 when a save to path can create its file: the nearest existing
 * directory above it is writable (the save makes the rest), else an errno
 * value.  No side effects. */
int orion_cache_writable(const char *path);
void orion_cache_free(orion_cache *c);

#endif /* ORION_RT_CACHE_H */
