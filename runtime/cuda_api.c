/* cuda_api.c - fetch the driver entry points of cuda_api.h.  Requires: the
 * CUDA runtime (cudart) of the program; the version asked for is the 12.4
 * ABI, the oldest that has every entry point used here.
 *
 * One runtime call fetches the driver's own lookup, cuGetProcAddress; every
 * other entry point comes through it.  A runtime call that fails sets the
 * program's cudaGetLastError() state, and cudaGetDriverEntryPoint* fails
 * for any symbol the driver lacks (the optional ones below); a driver call
 * leaves that state alone.  Legacy-stream variants, as cudaEnableDefault
 * gives code compiled without per-thread default streams (the runtime
 * passes CU_STREAM_PER_THREAD itself where a launch site asks for it). */
#include "cuda_api.h"

#include <cuda_runtime_api.h>
#include <string.h>

#define ORION_ENTRY_VERSION 12040

typedef CUresult(CUDAAPI *get_proc_fn)(const char *, void **, int, cuuint64_t,
                                        CUdriverProcAddressQueryResult *);

const char *orion_driver_api_load(orion_driver_api *api) {
  memset(api, 0, sizeof *api);
  void *gp = NULL;
  enum cudaDriverEntryPointQueryResult gq = cudaDriverEntryPointSymbolNotFound;
  if (cudaGetDriverEntryPointByVersion("cuGetProcAddress", &gp, ORION_ENTRY_VERSION,
                                       cudaEnableLegacyStream, &gq) != cudaSuccess ||
      gq != cudaDriverEntryPointSuccess || !gp)
    return "cuGetProcAddress";
  get_proc_fn get_proc;
  memcpy(&get_proc, &gp, sizeof gp);
  const char *missing = NULL;
#define ORION_X(name, params, req)                                                       \
  {                                                                                      \
    void *p = NULL;                                                                      \
    CUdriverProcAddressQueryResult q = CU_GET_PROC_ADDRESS_SYMBOL_NOT_FOUND;             \
    if (get_proc(#name, &p, ORION_ENTRY_VERSION, CU_GET_PROC_ADDRESS_LEGACY_STREAM, &q) == \
            CUDA_SUCCESS &&                                                              \
        q == CU_GET_PROC_ADDRESS_SUCCESS && p)                                           \
      memcpy(&api->name, &p, sizeof p);                                                  \
    else if (req && !missing)                                                            \
      missing = #name;                                                                   \
  }
  ORION_DRIVER_API(ORION_X)
#undef ORION_X
  return missing;
}
