// Loads and stores per inferred address space on clang's own CUDA output
// (-O3, the plugin at OptimizerLast, before NVPTX's code generation infers
// spaces): a tiled kernel reads global memory through its parameters, its
// __shared__ tile and its __constant__ weights; a kernel that only reads
// and writes through its parameters counts all of it as global; the
// pointer a kernel loads from a table of pointers stays generic.
// RUN: rm -f %t.json
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-device-only -O3 -fpass-plugin=%orion_plugin -mllvm -orion-report=%t.json \
// RUN:   -S %s -o /dev/null
// RUN: FileCheck %s < %t.json

__constant__ float weights[3];

// CHECK: "kernel":"_Z7stencilPKfPfi"
// CHECK-SAME: "barriers":1,
// CHECK-SAME: "global_loads":3,"global_stores":1,"shared_loads":3,"shared_stores":3,"local_loads":0,"local_stores":0,"const_loads":3,"const_stores":0,"generic_loads":0,"generic_stores":0,
__global__ void stencil(const float *in, float *out, int n) {
  __shared__ float tile[256 + 2];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int t = threadIdx.x + 1;
  tile[t] = i < n ? in[i] : 0.0f;
  if (threadIdx.x == 0)
    tile[0] = i > 0 ? in[i - 1] : 0.0f;
  if (threadIdx.x == blockDim.x - 1)
    tile[t + 1] = i + 1 < n ? in[i + 1] : 0.0f;
  __syncthreads();
  if (i < n)
    out[i] = weights[0] * tile[t - 1] + weights[1] * tile[t] + weights[2] * tile[t + 1];
}

// CHECK: "kernel":"_Z5saxpyfPKfPfi"
// CHECK-SAME: "barriers":0,
// CHECK-SAME: "global_loads":2,"global_stores":1,"shared_loads":0,"shared_stores":0,"local_loads":0,"local_stores":0,"const_loads":0,"const_stores":0,"generic_loads":0,"generic_stores":0,
__global__ void saxpy(float a, const float *x, float *y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] = a * x[i] + y[i];
}

// CHECK: "kernel":"_Z6gatherPPKfPfi"
// CHECK-SAME: "global_loads":1,"global_stores":1,"shared_loads":0,"shared_stores":0,"local_loads":0,"local_stores":0,"const_loads":0,"const_stores":0,"generic_loads":1,"generic_stores":0,
__global__ void gather(const float **rows, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = rows[i][i];
}
