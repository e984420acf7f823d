/* measure.c - ground truth for orion's occupancy model.
 *
 * Usage: measure <module.cubin> <entries.list>  > occupancy.csv
 *
 * Loads the cubin built from gen_ptx's module, and for every entry named in
 * the list asks the driver (cuOccupancyMaxActiveBlocksPerMultiprocessor) how
 * many blocks fit on one SM over a grid of block sizes and dynamic shared
 * memory sizes, after opting the entry in to the largest dynamic shared
 * memory it can use.  A second, smaller grid repeats the question under
 * shared-memory carveout preferences (CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_
 * MEMORY_CARVEOUT).  Register counts and static shared memory are read back
 * from the driver, never assumed.
 *
 * Output: '#' comment lines (device, driver, device attributes, one line per
 * entry), then
 *   arch,regs,block,smem_static,smem_dynamic,blocks_per_sm,carveout
 * where carveout is -1 when no preference was set.  Combinations the driver
 * rejects are left out.  Driver API only; links -lcuda.
 */
#include <cuda.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CK(call)                                                          \
  do {                                                                    \
    CUresult e_ = (call);                                                 \
    if (e_ != CUDA_SUCCESS) {                                             \
      const char *s_ = NULL;                                              \
      cuGetErrorString(e_, &s_);                                          \
      fprintf(stderr, "measure: %s failed: %s (%d)\n", #call,             \
              s_ ? s_ : "?", (int)e_);                                    \
      exit(1);                                                            \
    }                                                                     \
  } while (0)

static const int blocks[] = {1,   32,  48,  64,  96,  128, 160, 192, 256,
                             288, 320, 384, 512, 640, 768, 992, 1024};
#define N_BLOCKS (int)(sizeof blocks / sizeof blocks[0])

/* -1 stands for the entry's maximum.  76800/115712 are the largest sizes
 * that still give 3/2 blocks on a 228 KB sm_90 SM (1 KB reserved); the
 * next byte tests the rounding. */
static const long smems[] = {0,     1,      1024,   4096,   8192,   16384,
                             32768, 49152,  65536,  76800,  76801,  100000,
                             115712, 115713, 131072, 200000, -1};
#define N_SMEMS (int)(sizeof smems / sizeof smems[0])

/* Carveout grid: a few entries, block sizes and sizes, each preference. */
static const int carve_pcts[] = {0, 10, 25, 50, 75, 100};
static const int carve_blocks[] = {128, 256, 1024};
static const long carve_smems[] = {0, 1024, 8192, 20000, 50000, 100000, -1};

typedef struct dev_attr {
  const char *name;
  CUdevice_attribute attr;
} dev_attr;

static const dev_attr dev_attrs[] = {
    {"multiprocessor_count", CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT},
    {"warp_size", CU_DEVICE_ATTRIBUTE_WARP_SIZE},
    {"max_threads_per_block", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK},
    {"max_threads_per_sm", CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_MULTIPROCESSOR},
    {"max_blocks_per_sm", CU_DEVICE_ATTRIBUTE_MAX_BLOCKS_PER_MULTIPROCESSOR},
    {"regs_per_sm", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_MULTIPROCESSOR},
    {"regs_per_block", CU_DEVICE_ATTRIBUTE_MAX_REGISTERS_PER_BLOCK},
    {"smem_per_sm", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_MULTIPROCESSOR},
    {"smem_per_block", CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK},
    {"smem_per_block_optin",
     CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN},
    {"reserved_smem_per_block",
     CU_DEVICE_ATTRIBUTE_RESERVED_SHARED_MEMORY_PER_BLOCK},
};
#define N_DEV_ATTRS (int)(sizeof dev_attrs / sizeof dev_attrs[0])

static int func_attr(CUfunction f, CUfunction_attribute a) {
  int v = 0;
  CK(cuFuncGetAttribute(&v, a, f));
  return v;
}

/* One query; prints a row unless the driver rejects it. */
static void row(int arch, CUfunction f, int regs, int smem_static, int block,
                long dyn, int carveout) {
  int n = 0;
  if (cuOccupancyMaxActiveBlocksPerMultiprocessor(&n, f, block, (size_t)dyn) !=
      CUDA_SUCCESS)
    return;
  printf("%d,%d,%d,%d,%ld,%d,%d\n", arch, regs, block, smem_static, dyn, n,
         carveout);
}

int main(int argc, char **argv) {
  if (argc != 3) {
    fprintf(stderr, "usage: %s <module.cubin> <entries.list>\n", argv[0]);
    return 2;
  }
  CK(cuInit(0));
  CUdevice dev;
  CK(cuDeviceGet(&dev, 0));
  char name[256] = {0};
  CK(cuDeviceGetName(name, (int)sizeof name - 1, dev));
  int driver = 0, major = 0, minor = 0;
  CK(cuDriverGetVersion(&driver));
  CK(cuDeviceGetAttribute(&major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR,
                          dev));
  CK(cuDeviceGetAttribute(&minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR,
                          dev));
  int arch = major * 10 + minor;
  printf("# device: %s\n# driver_version: %d\n# compute_capability: %d.%d\n",
         name, driver, major, minor);
  int optin = 0;
  for (int i = 0; i < N_DEV_ATTRS; i++) {
    int v = 0;
    CK(cuDeviceGetAttribute(&v, dev_attrs[i].attr, dev));
    if (dev_attrs[i].attr ==
        CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN)
      optin = v;
    printf("# device_attr %s=%d\n", dev_attrs[i].name, v);
  }

  CUcontext ctx;
  CK(cuDevicePrimaryCtxRetain(&ctx, dev));
  CK(cuCtxSetCurrent(ctx));
  CUmodule mod;
  CK(cuModuleLoad(&mod, argv[1]));

  FILE *list = fopen(argv[2], "r");
  if (!list) {
    perror(argv[2]);
    return 1;
  }
  printf("arch,regs,block,smem_static,smem_dynamic,blocks_per_sm,carveout\n");
  char fname[256];
  int n_entries = 0;
  while (fscanf(list, "%255s", fname) == 1) {
    CUfunction f;
    CK(cuModuleGetFunction(&f, mod, fname));
    int regs = func_attr(f, CU_FUNC_ATTRIBUTE_NUM_REGS);
    int st = func_attr(f, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES);
    int local = func_attr(f, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES);
    int maxthr = func_attr(f, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK);
    int maxdyn = optin - st;
    CK(cuFuncSetAttribute(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES,
                          maxdyn));
    printf("# entry %s regs=%d smem_static=%d local=%d max_threads=%d "
           "max_dynamic=%d\n",
           fname, regs, st, local, maxthr,
           func_attr(f, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES));
    for (int b = 0; b < N_BLOCKS; b++)
      for (int s = 0; s < N_SMEMS; s++) {
        long dyn = smems[s] < 0 ? maxdyn : smems[s];
        if (smems[s] >= 0 && dyn >= maxdyn) continue; /* "max" covers it */
        row(arch, f, regs, st, blocks[b], dyn, -1);
      }
    /* Carveout preferences, on entries with a static-smem or round count. */
    if (st > 0 || regs == 32 || regs == 64 || regs == 128) {
      for (size_t c = 0; c < sizeof carve_pcts / sizeof carve_pcts[0]; c++) {
        if (cuFuncSetAttribute(
                f, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                carve_pcts[c]) != CUDA_SUCCESS) {
          fprintf(stderr, "measure: carveout %d refused for %s\n",
                  carve_pcts[c], fname);
          continue;
        }
        for (size_t b = 0; b < sizeof carve_blocks / sizeof carve_blocks[0];
             b++)
          for (size_t s = 0; s < sizeof carve_smems / sizeof carve_smems[0];
               s++) {
            long dyn = carve_smems[s] < 0 ? maxdyn : carve_smems[s];
            if (carve_smems[s] >= 0 && dyn >= maxdyn) continue;
            row(arch, f, regs, st, carve_blocks[b], dyn, carve_pcts[c]);
          }
      }
      if (cuFuncSetAttribute(f,
                             CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT,
                             -1) != CUDA_SUCCESS)
        fprintf(stderr, "measure: carveout reset refused for %s\n", fname);
    }
    n_entries++;
  }
  fclose(list);
  CK(cuModuleUnload(mod));
  CK(cuDevicePrimaryCtxRelease(dev));
  fprintf(stderr, "measure: %d entries on %s (sm_%d)\n", n_entries, name,
          arch);
  return n_entries > 0 ? 0 : 1;
}
