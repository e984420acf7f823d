// On the GPU, the bounds of ORION_SPLIT=1: a kernel launched once over a grid
// of more than 128 rounds is split (its first chunk a probe, timed apart),
// one launched over a few rounds is not; in both the program prints what its
// ORION_MODE=off run prints, bit for bit.
// REQUIRES: cuda-gpu, orionrt, ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-cc -O3 --orion-split %s -o %t/app
// RUN: env ORION_MODE=off %t/app > %t/off.txt
// RUN: env ORION_SPLIT=1 ORION_CACHE=off ORION_DEBUG=1 ORION_REPORT=%t/report.json %t/app > %t/split.txt 2> %t/debug.txt
// RUN: diff %t/off.txt %t/split.txt
// RUN: FileCheck %s < %t/split.txt
// RUN: FileCheck %s --check-prefix=REPORT < %t/report.json
// RUN: FileCheck %s --check-prefix=DEBUG < %t/debug.txt
// CHECK: long: sum {{[0-9a-f]+}} xor {{[0-9a-f]+}}
// CHECK: short: sum {{[0-9a-f]+}} xor {{[0-9a-f]+}}
// REPORT-DAG: "kernel":"_Z8long_runPjii"{{.*}}"split_launches":1,
// REPORT-DAG: "kernel":"_Z9short_runPjii"{{.*}}"split_launches":0,
// DEBUG: tune _Z8long_runPjii launch 1: orig {{.*}}split probe
// DEBUG-NOT: tune _Z9short_runPjii launch 1: {{.*}}split probe
#include <cstdio>

#include "Inputs/accumulate.cuh"

__global__ void long_run(unsigned *out, int iters, int salt) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  fold(out, work(id * 2654435761u + salt, iters) + gridDim.x * 7u + blockIdx.x);
}

__global__ void short_run(unsigned *out, int iters, int salt) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  fold(out, work(id * 2246822519u + salt, iters) + gridDim.x * 5u + blockIdx.x);
}

int main() {
  unsigned *d, h[2];
  if (cudaMalloc(&d, 4 * sizeof(unsigned)) != cudaSuccess)
    return 1;
  cudaMemset(d, 0, 4 * sizeof(unsigned));
  // 200000 blocks of 256 threads: at most 8 blocks per SM, so over 128
  // rounds on up to 189 SMs
  long_run<<<200000, 256>>>(d, 24, 1);
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("long: sum %08x xor %08x\n", h[0], h[1]);
  short_run<<<1000, 256>>>(d + 2, 24, 2);
  cudaMemcpy(h, d + 2, sizeof h, cudaMemcpyDeviceToHost);
  printf("short: sum %08x xor %08x\n", h[0], h[1]);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
