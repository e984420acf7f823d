/* state.h - liborionrt's shared state and the helpers every part of it
 * uses.  The runtime's files, each one concern:
 *   rt.c         the per-launch hot path: choosing, timing, splitting
 *   launch.c     the launch primitives rt.c calls: plain, exact, a candidate
 *   env.c        the environment (ORION_*) and start-up
 *   discover.c   finding a kernel's record and versions (step 1 of rt.c)
 *   modules.c    per module, read once: sorted functions, record tables
 *   candidates.c a configuration's candidates and its cache key (step 2)
 *   exit.c       the work at exit: the report and the decision cache
 *   state.c      the one global below, warnings, CUDA error and capture state
 *
 * Locking: orion_rt.mu guards the tables, the configuration list and the
 * cache; each configuration's mu guards its tuner (taken after
 * orion_rt.mu, never before); warnings have a leaf lock of their own.
 * Settled configurations are read without locks (final is atomic; nothing
 * is ever freed before exit).
 */
#ifndef ORION_RT_STATE_H
#define ORION_RT_STATE_H

#include <cuda.h>
#include <cuda_runtime_api.h>
#include <pthread.h>
#include <stdatomic.h>

#include "cache.h"
#include "cuda_api.h"
#include "orion/record.h"
#include "orion/rt.h"
#include "tune.h"

#define MAX_BIN (ORION_MAX_RECORD_VERSIONS) /* binaries: the original and its clones */
#define MAX_CANDS ORION_TUNE_MAX_CANDS
#define RT_PENDING 2 /* timed launches in flight per configuration */
/* When a busy stream's first event was seen passed (rt.c: timed): never;
 * before the launch; while it was submitted; only after the second record. */
enum rt_gap { RT_GAP_NONE, RT_GAP_BEFORE, RT_GAP_DURING, RT_GAP_AFTER };
#define MAX_ARGS 256
#define MAX_DEVICES 64
#define KHASH 256

typedef enum rt_mode { MODE_OFF, MODE_STATIC, MODE_ADAPTIVE, MODE_EXHAUSTIVE, MODE_FIXED } rt_mode;

typedef struct rt_bin {
  char tag[ORION_TAG_MAX];
  orion_role role;
  CUfunction fn;
  int hidden; /* takes the split parameters */
  int regs;
  int local; /* local memory bytes per thread (spills) */
  unsigned warp_smem; /* its frame's dynamic shared memory per warp (record's dsm), 0: none */
  atomic_int ran;     /* a clone: it has run outside a capture (launch.c: first_launch) */
} rt_bin;

typedef enum { K_NEW, K_DEFERRED, K_PLAIN, K_READY } k_state;

typedef struct rt_kernel {
  const void *stub;
  int dev;
  k_state state;
  char name[ORION_RECORD_KERNEL_MAX];
  orion_record rec;
  rt_bin bin[MAX_BIN]; /* bin[0] is the original */
  int nbin;
  CUfunction split_fn; /* <name>__orion_split, or NULL */
  atomic_int split_ran; /* it has run outside a capture (launch.c: first_launch) */
  unsigned long long module_key;
  int warned_fixed;
  /* The original's dynamic shared memory limit as the program set it, and
   * the one the runtime raised it to for padding versions (0: never). */
  int user_smem_limit, our_smem_limit;
  struct rt_kernel *next;
} rt_kernel;

typedef struct rt_cand {
  char tag[ORION_TAG_MAX];
  int bin;
  size_t pad; /* dynamic shared memory to launch with (0 = the launch's own) */
  int warps;
} rt_cand;

typedef struct rt_config {
  rt_kernel *k;
  unsigned bx, by, bz;
  size_t shmem;
  rt_cand c[MAX_CANDS];
  int n, orig, blocks_per_sm0;
  const char *source;
  atomic_int final; /* settled choice, or -1 */
  atomic_long launches;
  long split_launches;
  int once; /* its first launch came from a site outside any loop */
  double probe_ms; /* the original's time per block on a split launch's probe (0: none) */
  long settled_at; /* the launch (1-based) during which tuning settled */
  int iterations;
  double cached_speedup;
  double prev_credit_ms, prev_loss_ms; /* the budget earlier runs carried (cache.h) */
  int prev_open_runs;                  /* earlier runs that left tuning open (cache.h) */
  int valid;   /* block shape and dynamic smem within the plain launch's limits */
  int checked; /* adaptive: a choice other than the original is re-checked */
  int rechecks_seen; /* re-check verdicts ORION_DEBUG has printed */
  long samples, gap_samples; /* times read, and those rt.c: timed marks `gap` */
  pthread_mutex_t mu;
  orion_tuner tuner;
  int idle_checked;             /* idle padding versions looked for (next_cand) */
  atomic_int failed[MAX_CANDS]; /* launches of each version that failed (then dropped) */
  /* Timed launches whose times the tuner has not had yet, oldest first
   * from pend_head (rt.c: at most one while the next is chosen, tune.h
   * step 10). */
  struct rt_timing {
    CUevent ev[2];
    int cand;               /* the candidate timed */
    unsigned long long key; /* its comparability key (tune.h, step 2) */
    double work;            /* blocks it ran */
    double host_us;         /* ORION_DEBUG: host time from the first event to the second */
    double sub_ms;          /* the host's submission the events bracket (rt.c: timed) */
    int ahead;              /* ORION_DEBUG: chosen before the time before it was known */
    int gap; /* rt_gap: the stream was busy at the first event, which had passed by the
                second: the GPU may have idled inside the sample (rt.c: sample_key) */
    int probe;              /* a split launch's probe: its time goes to probe_ms, not the tuner */
    long launch;            /* ORION_DEBUG: the configuration's launch it timed (1-based) */
  } pend[RT_PENDING];
  int pend_head, pend_n;
  /* The budget of tune.h, step 5, read lock-free by every configuration:
   * this one's timed launches and their time, and tuning's loss. */
  atomic_llong timed_ns, loss_ns;
  atomic_llong wait_ns; /* the stake this one's trial waits with (0: none) */
  atomic_int timed_n;
  atomic_long next_check; /* the launch that starts the next re-check */
  struct rt_config *next;
  struct rt_config *_Atomic list_next; /* appended under orion_rt.mu, read without */
} rt_config;

typedef struct rt_device {
  int known;
  int sms, max_warps;
  unsigned max_grid[3], max_block[3]; /* the launch limits of the device */
  unsigned max_threads;               /* threads per block */
  char name[ORION_CACHE_GPU_MAX];
  CUstream copy_stream;
} rt_device;

/* A record table read from a module (modules.c); text NULL: the module has
 * no global of that name. */
typedef struct rt_table {
  char name[ORION_RECORD_TABLE_NAME_MAX];
  char *text;
  size_t size;
  struct rt_table *next;
} rt_table;

/* What discovery reads once per module (modules.c). */
typedef struct rt_module {
  CUmodule mod;
  int indexed;             /* fns built */
  unsigned nf;
  struct rt_fn_name *fns;  /* the module's functions, sorted by name */
  rt_table *tables;
  struct rt_module *next;
} rt_module;

typedef struct rt_globals {
  pthread_once_t once;
  int usable;
  int debug; /* ORION_DEBUG=1: explain candidates on stderr */
  rt_mode mode;
  char fixed[4096]; /* fixed:<tag> or fixed:<kernel>=<tag>,... */
  int report;       /* 0 none, 1 table on stderr, 2 JSON on stderr, 3 JSON to report_path */
  char report_path[4096];
  char cache_path[4096];
  int split;    /* ORION_SPLIT: 1 tune single launches on chunks, 2 (always) at any cost */
  long recheck; /* ORION_RECHECK: launches between re-checks (0 = none) */
  double budget; /* ORION_BUDGET: the trials' share of the GPU time (tune.h, step 5) */
  int driver_version;
  orion_driver_api api;
  pthread_mutex_t mu;
  rt_kernel *kernels[KHASH];
  rt_module *modules;
  rt_config *_Atomic configs;
  rt_config *configs_tail;
  rt_device dev[MAX_DEVICES];
  orion_cache cache;
  int cache_loaded;
  unsigned warned;
} rt_globals;

/* The runtime's one global (internal: hidden from the shared library). */
extern rt_globals orion_rt;
extern const char *const orion_rt_mode_names[];

/* ---- state.c ------------------------------------------------------------ */
enum {
  W_MODE = 1,
  W_REPORT = 2,
  W_CACHE_READ = 4,
  W_CACHE_BAD = 8,
  W_DRIVER = 16,
  W_SITE = 32,
  W_RECORD = 64,
  W_LAUNCH = 128,
  W_CACHE_WRITE = 256,
  W_PARAMS = 512,
  W_SPLIT = 1024,
  W_RECHECK = 2048,
  W_BUDGET = 4096
};
/* Launches of a configuration between re-checks of a choice other than
 * the original, by default (ORION_RECHECK). */
#define ORION_RT_RECHECK 64
/* The fraction of the GPU time run so far that trials may lose, by
 * default (ORION_BUDGET; tune.h, step 5). */
#define ORION_RT_BUDGET 0.005
/* One line "orion: warning: ..." on stderr, once per process per bit
 * (bit 0: every time). */
void orion_rt_warn(unsigned bit, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* The program's CUDA error state (what cudaGetLastError returns next) is
 * never read or reset here: every call the runtime makes for itself is a
 * driver call, which leaves that state alone, but two runtime calls, the
 * lookup of cuGetProcAddress at init (cuda_api.c) and cudaGetFuncBySymbol
 * at a kernel's discovery, which fail only where the program's own launch
 * that follows fails too and sets the state itself.  (Reading it would
 * show: compute-sanitizer reports a cudaPeekAtLastError that returns the
 * program's pending error as a failed API call.) */
/* This thread's stream-capture mode set to relaxed (returns the old one)
 * around the runtime's own waits, which are no part of any graph. */
CUstreamCaptureMode orion_rt_relax_capture(void);
void orion_rt_restore_capture(CUstreamCaptureMode m);
/* Microseconds on the monotonic clock, for ORION_DEBUG's cost lines. */
double orion_rt_now_us(void);

/* ---- env.c: requires nothing; run once (pthread_once) ------------------- */
void orion_rt_init(void);
/* The tag ORION_MODE=fixed:... names for kernel into tag[n]. */
void orion_rt_fixed_tag(const char *kernel, char *tag, size_t n);

/* ---- discover.c: requires orion_rt.usable --------------------------------- */
/* The device's figures, read once; NULL when dev is out of range or
 * unreadable.  Called with orion_rt.mu held. */
rt_device *orion_rt_device(int dev);
/* modules.c, with orion_rt.mu held.  requires mod a loaded module: its
 * entry (made on first use), NULL when out of memory. */
rt_module *orion_rt_module(CUmodule mod);
/* The module's function called name, or NULL; O(log n) after the first
 * call lists the module's functions. */
CUfunction orion_rt_module_function(rt_module *m, const char *name);
/* Kernel's record line (*line, *len bytes, no NUL) in the table called name
 * (read on first use; NULL: none named), else in the module's other tables
 * read so far: 1 found, 0 none, -1 the named table could not be read. */
int orion_rt_module_record(rt_module *m, int dev, const char *name, const char *kernel,
                           const char **line, size_t *len);
/* The kernel behind host stub `stub` on device dev, discovered on first
 * use (deferred while stream s captures); NULL when it launches plain. */
rt_kernel *orion_rt_kernel(const void *stub, int dev, const orion_site *site, CUstream s);

/* ---- candidates.c -------------------------------------------------------- */
/* Blocks of `block` threads per SM for f with smem bytes of dynamic shared
 * memory; 0 when f cannot run such a block. */
int orion_rt_occupancy(CUfunction f, int block, size_t smem);
/* The configuration (k, block shape, dynamic smem), built on first use;
 * NULL when out of memory. */
rt_config *orion_rt_config(rt_kernel *k, orion_dim3 b, size_t shmem, int once);
/* A hash of the kernel's module (its fatbinary, else its record and
 * registers) for the cache key.  Called with orion_rt.mu held. */
unsigned long long orion_rt_module_key(const orion_site *site, const rt_kernel *k);
/* The original's dynamic shared memory limit as the program set it
 * (the runtime may have raised the attribute).  Called with orion_rt.mu
 * held. */
int orion_rt_user_smem_limit(rt_kernel *k);
/* The decision cache's key of c into *e (the tag and figures left zero). */
void orion_rt_cache_key(const rt_config *c, orion_cache_entry *e);

/* ---- launch.c: requires orion_rt.usable -------------------------------- */
/* One launch as the program made it (the arguments of cudaLaunchKernel). */
typedef struct launch {
  const void *func;
  orion_dim3 grid, block;
  void **args;
  size_t shmem;
  void *stream;
  const orion_site *site;
} launch;
/* The driver's stream for the program's stream (the per-thread default
 * stream where the site was compiled for it). */
CUstream orion_rt_cu_stream(void *stream, const orion_site *site);
/* The program's own launch: cudaLaunchKernel unchanged; its result. */
int orion_rt_plain(const void *func, orion_dim3 grid, orion_dim3 block, void **args,
                   size_t shmem, void *stream, const orion_site *site);
/* 1 when grid g is within device d's limits (the plain launch's check). */
int orion_rt_grid_ok(const rt_device *d, orion_dim3 g);
/* The plain launch of a configuration tuning never touches, with the
 * program's own dynamic shared memory limit (the plain build's error). */
int orion_rt_plain_exact(rt_config *c, const void *func, orion_dim3 grid, orion_dim3 block,
                         void **args, size_t shmem, void *stream, const orion_site *site);
/* Launch candidate i of c for blocks [off, off + count) of dimension dim
 * (count 0: the whole grid); `timing`: bracketed by events.  A version
 * other than the original that fails: the original runs the same blocks,
 * *failed = 1 (the caller drops it).  Returns a CUDA status. */
int orion_rt_launch_cand(rt_config *c, int i, const launch *L, int dim, unsigned off,
                         unsigned count, int timing, int *failed);

/* ---- exit.c: requires orion_rt.usable ------------------------------------ */
void orion_rt_at_exit(void);

#endif /* ORION_RT_STATE_H */
