// Block-size advice from occupancy and the build report's static features:
// a kernel with barriers (a shared-memory tile and __syncthreads) is advised
// the smallest block of at least 128 threads at the most warps per SM,
// beside the occupancy calculator's largest; a kernel without barriers gets
// the calculator's choice, also where its block size is not a constant.
// The text names the memory class from the loads and stores per inferred
// address space; the JSON summary carries both choices per launch.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-cc -O3 --cuda-gpu-arch=sm_90 -c %s -o %t/app.o --orion-report=%t/build.json
// RUN: orion-advise %s --build-report=%t/build.json --summary=%t/s.json \
// RUN:   -- --cuda-gpu-arch=sm_90 > %t/notes.txt
// RUN: FileCheck %s --check-prefix=NOTE < %t/notes.txt
// RUN: FileCheck %s --check-prefix=JSON < %t/s.json

// 1024 threads: 2 blocks of 32 warps reach 64 warps/SM, as do 16 blocks of
// 128 (4 KiB of tile each: 64 KiB).
// NOTE: note: launch of 'tile_sum': block-size advice (the block size is the program's choice; Orion never changes it): 1024 threads reach 64 warps/SM; advised: 128 threads, 64 warps/SM, the smallest block of at least 128 threads at the most warps: the kernel has barriers, and smaller blocks keep more blocks running while one waits; the occupancy calculator's choice is 1024 threads ({{[0-9]+}} registers, 4096 B static shared memory, sm_90; occupancy only, not measured; the kernel is shared-memory-heavy ({{[0-9]+}} loads/stores: 2 global, {{[0-9]+}} shared; 2 barriers))
// NOTE: note: launch of 'scale': block-size advice (the block size is the program's choice; Orion never changes it): the block size is not a constant; advised: 1024 threads, 64 warps/SM, the occupancy calculator's choice ({{[0-9]+}} registers, 0 B static shared memory, sm_90; occupancy only, not measured; the kernel is global-memory-heavy (2 loads/stores: 2 global; 0 barriers))
// JSON: "kernel":"tile_sum"
// JSON-SAME: "block_advice":{"threads":1024,"warps":64,"advised":128,"calculator":1024,"max_warps":64,
// JSON: "kernel":"scale"
// JSON-SAME: "block_advice":{"threads":0,"warps":0,"advised":1024,"calculator":1024,"max_warps":64,

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
