// End to end, a __noinline__ device call: the callee's max-live adds to the
// values live across the call; the call survives into the cubin (CALL.REL).
// REQUIRES: ptxas, cuobjdump
// RUN: rm -f %t.json
// RUN: env ORION_CC_REPORT=%t.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O3 -fpass-plugin=%orion_plugin -S %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: cuobjdump -res-usage %t.cubin | FileCheck %s --check-prefix=RES
// RUN: cuobjdump -sass %t.cubin | FileCheck %s --check-prefix=SASS

// JSON: "kernel":"_Z6callerPfS_i","sm":90,"max_live":{{[0-9]+}},"threshold":32,{{.*}}"direction":"increasing",
// JSON-SAME: "calls":1,
// JSON-SAME: "clones":{{[1-4]}},
// PTXAS-DAG: Function properties for _Z{{[0-9]+}}caller__orion_r{{[0-9]+}}PfS_i
// PTXAS-DAG: Function properties for _Z6callerPfS_i{{$}}
// RES-DAG: Function _Z6callerPfS_i:
// RES-DAG: Function _Z{{[0-9]+}}caller__orion_r{{[0-9]+}}PfS_i:
// SASS: Function : _Z{{[0-9]+}}caller__orion_r{{[0-9]+}}PfS_i
// SASS: CALL.REL

// 24 values live inside the callee.  It writes memory, so the caller's
// loads cannot sink below the call: they stay live across it.
__device__ __noinline__ float mix(float *v, float s) {
  float t[24];
#pragma unroll
  for (int k = 0; k < 24; k++)
    t[k] = v[k * 37] * s + k;
  float r = 0.f;
#pragma unroll
  for (int k = 0; k < 24; k++)
    r += t[k] * t[23 - k];
  v[0] = r;
  return r;
}

// 20 values live across the call.
__global__ void caller(float *out, float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float keep[20];
#pragma unroll
  for (int k = 0; k < 20; k++)
    keep[k] = in[(i + k * 101) % n];
  float m = mix(in + (i % 64), keep[0]);
  float s = 0.f;
#pragma unroll
  for (int k = 0; k < 20; k++)
    s += keep[k] * m + keep[19 - k];
  if (i < n)
    out[i] = s;
}
