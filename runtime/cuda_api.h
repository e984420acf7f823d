/* cuda_api.h - the CUDA driver API as liborionrt sees it: a table of entry
 * points fetched once through the driver's cuGetProcAddress (cuda_api.c), so
 * the runtime never links against libcuda (the program's CUDA runtime already loads it).
 *
 * X(name, result, parameters, required): required = 0 marks entry points
 * the runtime can do without (it then skips what they serve).
 */
#ifndef ORION_RT_CUDA_API_H
#define ORION_RT_CUDA_API_H

#include <cuda.h>

#define ORION_DRIVER_API(X)                                                          \
  X(cuCtxGetDevice, (CUdevice *), 1)                                                 \
  X(cuDeviceGetName, (char *, int, CUdevice), 1)                                     \
  X(cuDeviceGetAttribute, (int *, CUdevice_attribute, CUdevice), 1)                  \
  X(cuDriverGetVersion, (int *), 1)                                                  \
  X(cuFuncGetName, (const char **, CUfunction), 1)                                   \
  X(cuFuncGetModule, (CUmodule *, CUfunction), 1)                                    \
  X(cuFuncGetAttribute, (int *, CUfunction_attribute, CUfunction), 1)                \
  X(cuFuncSetAttribute, (CUfunction, CUfunction_attribute, int), 1)                  \
  X(cuFuncGetParamInfo, (CUfunction, size_t, size_t *, size_t *), 0)                 \
  X(cuFuncLoad, (CUfunction), 0)                                                     \
  X(cuModuleGetGlobal, (CUdeviceptr *, size_t *, CUmodule, const char *), 1)         \
  X(cuModuleGetFunctionCount, (unsigned int *, CUmodule), 1)                         \
  X(cuModuleEnumerateFunctions, (CUfunction *, unsigned int, CUmodule), 1)           \
  X(cuLaunchKernel, (CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned,   \
                     unsigned, unsigned, CUstream, void **, void **), 1)             \
  X(cuOccupancyMaxActiveBlocksPerMultiprocessor, (int *, CUfunction, int, size_t), 1) \
  X(cuOccupancyAvailableDynamicSMemPerBlock, (size_t *, CUfunction, int, int), 1)    \
  X(cuEventCreate, (CUevent *, unsigned), 1)                                         \
  X(cuEventRecord, (CUevent, CUstream), 1)                                           \
  X(cuEventQuery, (CUevent), 1)                                                      \
  X(cuEventSynchronize, (CUevent), 1)                                                \
  X(cuEventElapsedTime, (float *, CUevent, CUevent), 1)                              \
  X(cuStreamIsCapturing, (CUstream, CUstreamCaptureStatus *), 1)                     \
  X(cuStreamCreate, (CUstream *, unsigned), 1)                                       \
  X(cuStreamSynchronize, (CUstream), 1)                                              \
  X(cuStreamQuery, (CUstream), 0)                                                    \
  X(cuMemcpyDtoHAsync, (void *, CUdeviceptr, size_t, CUstream), 1)                   \
  X(cuThreadExchangeStreamCaptureMode, (CUstreamCaptureMode *), 1)

typedef struct orion_driver_api {
#define ORION_X(name, params, req) CUresult(CUDAAPI *name) params;
  ORION_DRIVER_API(ORION_X)
#undef ORION_X
} orion_driver_api;

/* Fill *api.  Returns NULL on success, else the name of the first required
 * entry point that could not be fetched (optional ones are left NULL). */
const char *orion_driver_api_load(orion_driver_api *api);

#endif /* ORION_RT_CUDA_API_H */
