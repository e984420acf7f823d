// On the GPU, tuning launches on a stream with nothing queued (the host
// waits for each): the events around each also bracket the host's
// submission, which liborionrt leaves out of the sample (ORION_DEBUG says
// how much); the program prints what its ORION_MODE=off run prints, bit
// for bit.
// REQUIRES: cuda-gpu, orionrt, ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-cc -O3 %s -o %t/app
// RUN: env ORION_MODE=off %t/app > %t/off.txt
// RUN: env ORION_CACHE=off ORION_DEBUG=1 %t/app > %t/adaptive.txt 2> %t/debug.txt
// RUN: diff %t/off.txt %t/adaptive.txt
// RUN: FileCheck %s < %t/adaptive.txt
// RUN: FileCheck %s --check-prefix=DEBUG < %t/debug.txt
// CHECK: synced: sum {{[0-9a-f]+}} xor {{[0-9a-f]+}}
// DEBUG: tune _Z6syncedPjii: idle stream, {{[0-9.]+}} us of submission left out
#include <cstdio>

#include "Inputs/accumulate.cuh"

__global__ void synced(unsigned *out, int iters, int salt) {
  unsigned id = blockIdx.x * blockDim.x + threadIdx.x;
  fold(out, work(id * 2654435761u + salt, iters) + blockIdx.x);
}

int main() {
  unsigned *d, h[2];
  if (cudaMalloc(&d, 2 * sizeof(unsigned)) != cudaSuccess)
    return 1;
  cudaMemset(d, 0, 2 * sizeof(unsigned));
  // the host waits for each launch: every one starts on an idle stream
  for (int i = 0; i < 40; i++) {
    synced<<<2000, 256>>>(d, 8, i);
    cudaDeviceSynchronize();
  }
  cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
  printf("synced: sum %08x xor %08x\n", h[0], h[1]);
  cudaError_t e = cudaDeviceSynchronize();
  if (e != cudaSuccess) {
    printf("error: %s\n", cudaGetErrorString(e));
    return 1;
  }
  return 0;
}
