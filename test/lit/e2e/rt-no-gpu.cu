// Without a GPU (or driver), a program built with orion-cc launches its
// kernels unchanged: liborionrt prints one warning line, the launch returns
// the CUDA runtime's own error, nothing crashes.  A bad ORION_MODE is named
// in a warning and the default used.
// REQUIRES: orionrt, ptxas
// UNSUPPORTED: cuda-gpu
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-cc -O3 --cuda-gpu-arch=sm_90 %s -o %t/ng
// RUN: %t/ng > %t/out.txt 2> %t/err.txt
// RUN: FileCheck %s --check-prefix=OUT < %t/out.txt
// RUN: FileCheck %s --check-prefix=ERR < %t/err.txt
// RUN: env ORION_MODE=sometimes %t/ng 2>&1 | FileCheck %s --check-prefix=MODE
// RUN: env ORION_MODE=off %t/ng 2>&1 | FileCheck %s --check-prefix=OFF

// OUT: launch 0: cudaErrorInsufficientDriver
// OUT: launch 1: cudaErrorInsufficientDriver
// ERR: orion: warning: CUDA driver entry point {{.*}} unavailable (no GPU or driver?); kernels launch unchanged
// ERR-NOT: orion:
// MODE: orion: warning: ORION_MODE='sometimes' is not off, static, adaptive, exhaustive, fixed:<tag> or fixed:<kernel>=<tag>,...; using adaptive
// OFF-NOT: orion:
// OFF: launch 1: cudaErrorInsufficientDriver

#include <cstdio>
__global__ void k(int *p) {
  if (p)
    p[threadIdx.x] = 1;
}
int main() {
  for (int i = 0; i < 2; i++) {
    k<<<1, 32>>>(nullptr);
    printf("launch %d: %s\n", i, cudaGetErrorName(cudaGetLastError()));
  }
  return 0;
}
