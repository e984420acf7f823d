// End to end, register-heavy: 48 live float4 accumulators (max-live ~200).
// REQUIRES: ptxas, cuobjdump
// The original fits in registers (no spills); the capped clones spill.
// RUN: rm -f %t.json
// RUN: env ORION_CAP_FLOOR=0 ORION_CC_REPORT=%t.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O3 -fpass-plugin=%orion_plugin -S %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: cuobjdump -res-usage %t.cubin | FileCheck %s --check-prefix=RES
// RUN: cuobjdump -elf %t.cubin | FileCheck %s --check-prefix=ELF

// JSON: "kernel":"_Z5heavyP6float4PKS_i","sm":90,"max_live":{{[0-9]+}},"threshold":32,"block":256,"block_known":false,"direction":"increasing"
// JSON-SAME: "clones":4,

// ptxas realises each cap exactly and spills below the original's need.
// PTXAS: Function properties for _Z16heavy__orion_r32P6float4PKS_i
// PTXAS-NEXT: {{[1-9][0-9]*}} bytes stack frame, {{[1-9][0-9]*}} bytes spill stores
// PTXAS-NEXT: Used 32 registers
// PTXAS: Function properties for _Z16heavy__orion_r48P6float4PKS_i
// PTXAS-NEXT: {{[1-9][0-9]*}} bytes stack frame, {{[1-9][0-9]*}} bytes spill stores
// PTXAS-NEXT: Used 48 registers
// PTXAS: Function properties for _Z16heavy__orion_r80P6float4PKS_i
// PTXAS-NEXT: {{[1-9][0-9]*}} bytes stack frame, {{[1-9][0-9]*}} bytes spill stores
// PTXAS-NEXT: Used 80 registers
// PTXAS: Function properties for _Z17heavy__orion_r128P6float4PKS_i
// PTXAS-NEXT: {{[1-9][0-9]*}} bytes stack frame, {{[1-9][0-9]*}} bytes spill stores
// PTXAS-NEXT: Used 128 registers
// PTXAS: Function properties for _Z5heavyP6float4PKS_i{{$}}
// PTXAS-NEXT: 0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads
// PTXAS-NEXT: Used {{(1[6-9][0-9]|2[0-5][0-9])}} registers

// All five versions are in the cubin, with the caps as register counts.
// RES-DAG: Function _Z16heavy__orion_r32P6float4PKS_i:{{$}}
// RES-DAG: REG:32 STACK:{{[1-9]}}
// RES-DAG: Function _Z16heavy__orion_r48P6float4PKS_i:{{$}}
// RES-DAG: REG:48 STACK:{{[1-9]}}
// RES-DAG: Function _Z16heavy__orion_r80P6float4PKS_i:{{$}}
// RES-DAG: REG:80 STACK:{{[1-9]}}
// RES-DAG: Function _Z17heavy__orion_r128P6float4PKS_i:{{$}}
// RES-DAG: REG:128 STACK:{{[1-9]}}
// RES-DAG: Function _Z5heavyP6float4PKS_i:{{$}}
// RES-DAG: STACK:0 SHARED:0 LOCAL:0
// The record table reaches the cubin as a global symbol.
// ELF: __orion_records_{{[0-9a-f]+}}

__global__ void heavy(float4 *out, const float4 *in, int n) {
  float4 acc[48];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
#pragma unroll
  for (int k = 0; k < 48; k++)
    acc[k] = in[(i + k * 131) % n];
  for (int it = 0; it < 8; it++) {
#pragma unroll
    for (int k = 0; k < 48; k++) {
      float4 b = acc[(k + 1) % 48];
      acc[k].x = acc[k].x * b.y + b.z;
      acc[k].y = acc[k].y * b.z + b.w;
      acc[k].z = acc[k].z * b.w + b.x;
      acc[k].w = acc[k].w * b.x + b.y;
    }
  }
  float4 s = make_float4(0.f, 0.f, 0.f, 0.f);
#pragma unroll
  for (int k = 0; k < 48; k++) {
    s.x += acc[k].x; s.y += acc[k].y; s.z += acc[k].z; s.w += acc[k].w;
  }
  if (i < n)
    out[i] = s;
}
