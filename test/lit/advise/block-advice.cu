// Block-size advice from occupancy and the build report's static features:
// a launch whose block already reaches the most warps per SM keeps it (a
// kernel with barriers at 1024 threads); one whose block is not a constant
// is advised the block nearest 256 threads among those reaching the most
// warps, beside the occupancy calculator's largest.  The text names the
// memory class from the loads and stores per inferred address space; the
// JSON summary carries both choices per launch.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-cc -O3 --cuda-gpu-arch=sm_90 -c %s -o %t/app.o --orion-report=%t/build.json
// RUN: orion-advise %s --build-report=%t/build.json --summary=%t/s.json \
// RUN:   -- --cuda-gpu-arch=sm_90 > %t/notes.txt
// RUN: FileCheck %s --check-prefix=NOTE < %t/notes.txt
// RUN: FileCheck %s --check-prefix=JSON < %t/s.json
// A padding choice from a decision cache, which keeps only the tag: the
// bytes are the occupancy calculator's at the build report's registers.
// RUN: sed -n 's|^// CACHE: ||p' %s > %t/decisions
// RUN: orion-advise --no-list %s --build-report=%t/build.json --cache=%t/decisions \
// RUN:   -- --cuda-gpu-arch=sm_90 | FileCheck %s --check-prefix=PAD
// CACHE: # orion decision cache 2
// CACHE: 0123456789abcdef NVIDIA_H200 13000 _Z5scalePffi 256x1x1 0 p32 1.0700 30
// PAD: note: orion-advise: 'scale': Orion chose p32, 1.070, confirmed by an earlier run (decision cache): lower occupancy (32 warps/SM) through [[B:[0-9]+]] bytes of dynamic shared memory (the occupancy calculator's, at the build report's registers) (the launch gives 0): launch with [[B]] bytes (<<<grid, block, [[B]]>>>) after cudaFuncSetAttribute(scale, cudaFuncAttributeMaxDynamicSharedMemorySize, [[B]])

// 1024 threads: 2 blocks of 32 warps reach 64 warps/SM (4 KiB of tile each).
// NOTE: note: launch of 'tile_sum': block-size advice (the block size is the program's choice; Orion never changes it): 1024 threads already reach the calculator's most, 64 warps/SM ({{[0-9]+}} registers, 4096 B static shared memory, sm_90; occupancy only, not measured; the kernel is shared-memory-heavy ({{[0-9]+}} loads/stores: 2 global, {{[0-9]+}} shared; 2 barriers))
// NOTE: note: launch of 'scale': block-size advice (the block size is the program's choice; Orion never changes it): the block size is not a constant; advised: 256 threads, 64 warps/SM, the block nearest 256 threads at the most warps (the occupancy calculator's choice, the largest such block, is 1024) ({{[0-9]+}} registers, 0 B static shared memory, sm_90; occupancy only, not measured; the kernel is global-memory-heavy (2 loads/stores: 2 global; 0 barriers))
// JSON: "kernel":"tile_sum"
// JSON-SAME: "block_advice":{"threads":1024,"warps":64,"advised":1024,"calculator":1024,"max_warps":64,
// JSON: "kernel":"scale"
// JSON-SAME: "block_advice":{"threads":0,"warps":0,"advised":256,"calculator":1024,"max_warps":64,

// A local variable stands for its initialiser when nothing in the function
// writes it (a dim3, an int, a dim3 copied); written ones are not constants.
// NOTE: note: launch of 'scale': block-size advice {{.*}}: 128 threads already reach the calculator's most
// NOTE: note: launch of 'scale': block-size advice {{.*}}: 256 threads already reach the calculator's most
// NOTE: note: launch of 'scale': block-size advice {{.*}}: 64 threads already reach the calculator's most
// NOTE: note: launch of 'scale': block-size advice {{.*}}: the block size is not a constant
// NOTE: note: launch of 'scale': block-size advice {{.*}}: the block size is not a constant
// NOTE: note: launch of 'scale': block-size advice {{.*}}: the block size is not a constant

__global__ void tile_sum(const float *in, float *out) {
  __shared__ float tile[1024];
  unsigned t = threadIdx.x;
  tile[t] = in[blockIdx.x * blockDim.x + t];
  __syncthreads();
  for (unsigned s = blockDim.x / 2; s > 0; s /= 2) {
    if (t < s)
      tile[t] += tile[t + s];
    __syncthreads();
  }
  if (t == 0)
    out[blockIdx.x] = tile[0];
}

__global__ void scale(float *x, float a, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    x[i] *= a;
}

void run(const float *in, float *out, float *x, int n, int bs) {
  tile_sum<<<n / 1024, 1024>>>(in, out);
  scale<<<(n + bs - 1) / bs, bs>>>(x, 2.0f, n);
}

void locals(float *x, int n) {
  dim3 block(128);
  scale<<<n / 128, block>>>(x, 2.0f, n);
  int threads = 256;
  scale<<<n / 256, threads>>>(x, 2.0f, n);
  dim3 b2(32, 2), copy = b2;
  scale<<<n / 64, copy>>>(x, 2.0f, n);
  dim3 grown(32);
  grown.y = n / 32;
  scale<<<1, grown>>>(x, 2.0f, n);
  int inc = 96;
  inc++;
  scale<<<n / 96, inc>>>(x, 2.0f, n);
  dim3 reset(64);
  reset = dim3(n);
  scale<<<1, reset>>>(x, 2.0f, n);
}
