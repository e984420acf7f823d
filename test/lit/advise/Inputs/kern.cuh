// A kernel and a launch in a header (locations.cu).
#pragma once
__global__ void in_header(float *a) { a[threadIdx.x] = 0; }
static inline void launch_in_header(float *a) {
  in_header<<<1, 32>>>(a);
}
