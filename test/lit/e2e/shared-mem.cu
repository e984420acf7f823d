// End to end, user shared memory: the report's static shared memory equals
// what ptxas allocates, and the occupancy model accounts for it.
// REQUIRES: ptxas, cuobjdump
// RUN: rm -f %t.json
// RUN: env ORION_CC_REPORT=%t.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O3 -fpass-plugin=%orion_plugin -S %s -o %t.ptx
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: ptxas -arch=sm_90 -v %t.ptx -o %t.cubin 2>&1 | FileCheck %s --check-prefix=PTXAS
// RUN: cuobjdump -res-usage %t.cubin | FileCheck %s --check-prefix=RES

// 18 x 18 floats (1296 B) + 16 x 16 floats (1024 B) = 2320 B; 256 threads.
// JSON: "kernel":"_Z7blurredPfPKfii","sm":90,{{.*}}"block":256,"block_known":true,
// JSON-SAME: "barriers":1,
// JSON-SAME: "smem_static":2320,
// PTXAS: Function properties for _Z7blurredPfPKfii
// PTXAS: Used {{[0-9]+}} registers, used 1 barriers, 2320 bytes smem
// cuobjdump counts the 1 KB the driver reserves per block on sm_90 as well.
// RES: Function _Z7blurredPfPKfii:
// RES-NEXT: REG:{{[0-9]+}} STACK:0 SHARED:3344

#define T 16
__global__ void __launch_bounds__(256) blurred(float *out, const float *in, int w, int h) {
  __shared__ float tile[T + 2][T + 2];
  __shared__ float weights[T][T];
  int x = blockIdx.x * T + threadIdx.x, y = blockIdx.y * T + threadIdx.y;
  int cx = min(max(x - 1, 0), w - 1), cy = min(max(y - 1, 0), h - 1);
  tile[threadIdx.y][threadIdx.x] = in[cy * w + cx];
  if (threadIdx.x < 2)
    tile[threadIdx.y][threadIdx.x + T] = in[cy * w + min(cx + T, w - 1)];
  if (threadIdx.y < 2)
    tile[threadIdx.y + T][threadIdx.x] = in[min(cy + T, h - 1) * w + cx];
  if (threadIdx.x < 2 && threadIdx.y < 2)
    tile[threadIdx.y + T][threadIdx.x + T] = in[min(cy + T, h - 1) * w + min(cx + T, w - 1)];
  weights[threadIdx.y][threadIdx.x] = 1.f / 9.f;
  __syncthreads();
  float s = 0.f;
  for (int dy = 0; dy < 3; dy++)
    for (int dx = 0; dx < 3; dx++)
      s += tile[threadIdx.y + dy][threadIdx.x + dx] * weights[threadIdx.y][threadIdx.x];
  if (x < w && y < h)
    out[y * w + x] = s;
}
