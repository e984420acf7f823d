/* cuda_api.c - fetch the driver entry points of cuda_api.h.  Requires: the
 * CUDA runtime (cudart) of the program; the version asked for is the 12.4
 * ABI, the oldest that has every entry point used here. */
#include "cuda_api.h"

#include <cuda_runtime_api.h>
#include <string.h>

#define ORION_ENTRY_VERSION 12040

const char *orion_driver_api_load(orion_driver_api *api) {
  memset(api, 0, sizeof *api);
  const char *missing = NULL;
#define ORION_X(name, params, req)                                                     \
  {                                                                                    \
    void *p = NULL;                                                                    \
    enum cudaDriverEntryPointQueryResult q = cudaDriverEntryPointSymbolNotFound;       \
    if (cudaGetDriverEntryPointByVersion(#name, &p, ORION_ENTRY_VERSION, cudaEnableDefault, \
                                         &q) == cudaSuccess &&                         \
        q == cudaDriverEntryPointSuccess && p)                                         \
      memcpy(&api->name, &p, sizeof p);                                                \
    else if (req && !missing)                                                          \
      missing = #name;                                                                 \
  }
  ORION_DRIVER_API(ORION_X)
#undef ORION_X
  return missing;
}
