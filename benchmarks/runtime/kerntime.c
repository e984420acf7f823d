/* kerntime.c - CUPTI injection library: the GPU start and end of every
 * kernel a program runs, for measuring each kernel's own GPU time over a
 * whole run (select.py: Orion-Select with its tuning launches against the
 * best fixed version).  CUPTI's concurrent-kernel activity records the
 * times on the GPU without serialising launches or synchronising streams,
 * and it sees launches made through the runtime API and through the driver
 * API alike (liborionrt launches clones with cuLaunchKernel).
 *
 *   cc -shared -fPIC -O2 -I/usr/local/cuda/include kerntime.c -o kerntime.so \
 *      -L/usr/local/cuda/lib64 -L/usr/local/cuda/lib64/stubs -lcupti -lcuda
 *   CUDA_INJECTION64_PATH=$PWD/kerntime.so KERNTIME_OUT=k.tsv ./program
 *
 * The CUDA driver loads the library at cuInit and calls InitializeInjection.
 * KERNTIME_OUT gets one line per kernel execution,
 *     <start ns> <tab> <end ns> <tab> <blocks> <tab> <name>
 * (mangled name, so clones keep their tag: orion/demangle.h), then a line
 * "# dropped <n>" with the records CUPTI lost (0 expected).  The file is
 * written at exit after a final flush; a missing KERNTIME_OUT or a CUPTI
 * error is reported on stderr and the program runs on untraced.
 *
 * Warm-up: with activity tracing on, the first kernel of a process took
 * 1.5-2 ms longer on an H200 (driver 580) and the next ones on the same
 * stream some 10 us longer, measured; that one-time cost fell inside
 * liborionrt's first timed launch and misled its tuning.  So when a context
 * is created, kerntime runs a kernel of its own (KERNTIME_WARM times, on
 * the legacy default stream, then synchronises) before the program can
 * launch anything.  Its executions are traced under the name
 * kerntime_warm, which tuning.py leaves out. */
#include <cuda.h>
#include <cupti.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define BUF_SIZE (4u << 20)

static FILE *out;
static CUpti_SubscriberHandle subscriber;

/* An empty kernel, as PTX the driver compiles for whatever GPU it runs on. */
static const char warm_ptx[] = ".version 7.0\n.target sm_52\n.address_size 64\n"
                               ".visible .entry kerntime_warm()\n{\n ret;\n}\n";

static void warm_up(CUcontext ctx) {
  const char *env = getenv("KERNTIME_WARM");
  int n = env ? atoi(env) : 8;
  CUmodule mod;
  CUfunction fn;
  if (n <= 0 || cuCtxPushCurrent(ctx) != CUDA_SUCCESS)
    return;
  if (cuModuleLoadData(&mod, warm_ptx) == CUDA_SUCCESS &&
      cuModuleGetFunction(&fn, mod, "kerntime_warm") == CUDA_SUCCESS) {
    for (int i = 0; i < n; i++)
      cuLaunchKernel(fn, 1, 1, 1, 32, 1, 1, 0, NULL, NULL, NULL);
    cuCtxSynchronize();
  } else {
    fprintf(stderr, "kerntime: warm-up kernel did not load\n");
  }
  CUcontext dummy;
  cuCtxPopCurrent(&dummy);
}

static void CUPTIAPI on_resource(void *user, CUpti_CallbackDomain domain, CUpti_CallbackId id,
                                 const void *data) {
  (void)user;
  if (domain == CUPTI_CB_DOMAIN_RESOURCE && id == CUPTI_CBID_RESOURCE_CONTEXT_CREATED)
    warm_up(((const CUpti_ResourceData *)data)->context);
}

static void CUPTIAPI buffer_requested(uint8_t **buffer, size_t *size, size_t *max_records) {
  *buffer = aligned_alloc(8, BUF_SIZE);
  *size = *buffer ? BUF_SIZE : 0;
  *max_records = 0;
}

static void CUPTIAPI buffer_completed(CUcontext ctx, uint32_t stream, uint8_t *buffer, size_t size,
                                      size_t valid) {
  (void)ctx, (void)stream, (void)size;
  CUpti_Activity *rec = NULL;
  while (out && cuptiActivityGetNextRecord(buffer, valid, &rec) == CUPTI_SUCCESS) {
    if (rec->kind != CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL && rec->kind != CUPTI_ACTIVITY_KIND_KERNEL)
      continue;
    const CUpti_ActivityKernel10 *k = (const CUpti_ActivityKernel10 *)rec;
    long long blocks = (long long)k->gridX * k->gridY * k->gridZ;
    fprintf(out, "%llu\t%llu\t%lld\t%s\n", (unsigned long long)k->start,
            (unsigned long long)k->end, blocks, k->name ? k->name : "?");
  }
  free(buffer);
}

static void at_exit(void) {
  cuptiActivityFlushAll(1);
  size_t dropped = 0;
  cuptiActivityGetNumDroppedRecords(NULL, 0, &dropped);
  if (out) {
    fprintf(out, "# dropped %zu\n", dropped);
    fclose(out);
    out = NULL;
  }
}

int InitializeInjection(void) {
  const char *path = getenv("KERNTIME_OUT");
  if (!path || !*path) {
    fprintf(stderr, "kerntime: KERNTIME_OUT is not set; not tracing\n");
    return 1;
  }
  out = fopen(path, "w");
  if (!out) {
    fprintf(stderr, "kerntime: cannot write %s; not tracing\n", path);
    return 1;
  }
  if (cuptiActivityRegisterCallbacks(buffer_requested, buffer_completed) != CUPTI_SUCCESS ||
      cuptiActivityEnable(CUPTI_ACTIVITY_KIND_CONCURRENT_KERNEL) != CUPTI_SUCCESS) {
    fprintf(stderr, "kerntime: CUPTI activity tracing unavailable; not tracing\n");
    fclose(out);
    out = NULL;
    return 1;
  }
  if (cuptiSubscribe(&subscriber, (CUpti_CallbackFunc)on_resource, NULL) != CUPTI_SUCCESS ||
      cuptiEnableCallback(1, subscriber, CUPTI_CB_DOMAIN_RESOURCE,
                          CUPTI_CBID_RESOURCE_CONTEXT_CREATED) != CUPTI_SUCCESS)
    fprintf(stderr, "kerntime: no context callback; the first kernel pays CUPTI's set-up\n");
  atexit(at_exit);
  return 1;
}
