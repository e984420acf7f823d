// Kernels for the unroll version (test/lit/driver/unroll-versions.test).
// A small loop with a run-time trip count: clang's code unrolls it by 2 at
// most; the unroll version by 4.
__global__ void axpy(const float *x, float *y, float a, int n) {
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    y[i] = a * x[i] + y[i];
}
// A fixed 8-trip loop: unrolled fully before the clone would be made, so
// the kernel has no loop left and no unroll version.
__global__ void fixed8(unsigned *s) {
  unsigned x = s[threadIdx.x];
  for (int r = 0; r < 8; r++)
    x = x * 2654435761u + (unsigned)r;
  s[threadIdx.x] = x;
}
// The user's pragma stands: no unroll version.
__global__ void kept(const float *x, float *y, int n) {
#pragma unroll 1
  for (int i = threadIdx.x; i < n; i += blockDim.x)
    y[i] = x[i] * x[i];
}
// A barrier in the loop: the unroller will not unroll a convergent loop
// with an unknown trip count, the clone stays the original's size and is
// deleted.
__global__ void barrier(float *s, int n) {
  __shared__ float t[256];
  float acc = 0;
  for (int i = 0; i < n; i++) {
    t[threadIdx.x] = s[i * blockDim.x + threadIdx.x];
    __syncthreads();
    acc += t[(threadIdx.x + 1) % 256];
    __syncthreads();
  }
  s[threadIdx.x] = acc;
}
// A bare `#pragma unroll` on a loop of run-time trip count, more than 150
// instructions: clang cannot unroll it fully and warns (once, for the
// original); nvcc unrolls it 4x, and so does the unroll version.  The same
// loop without the pragma is too large for one.
#define BODY(i)                                                        \
  {                                                                    \
    float a = x[(i) * 32 + threadIdx.x];                               \
    acc = acc * a + (a * a - acc) / (a + 1.0f);                        \
    acc -= x[(i) * 64 + threadIdx.x] * acc;                            \
    acc = fmaxf(acc, a) + y[(i) + threadIdx.x];                        \
  }
__global__ void asked(const float *x, float *y, int n) {
  float acc = 0;
#pragma unroll
  for (int i = 0; i < n; i++) {
    BODY(i) BODY(i + 7) BODY(i + 14) BODY(i + 21) BODY(i + 28) BODY(i + 35)
  }
  y[threadIdx.x] = acc;
}
__global__ void plain(const float *x, float *y, int n) {
  float acc = 0;
  for (int i = 0; i < n; i++) {
    BODY(i) BODY(i + 7) BODY(i + 14) BODY(i + 21) BODY(i + 28) BODY(i + 35)
  }
  y[threadIdx.x] = acc;
}
// A loop of more than 40 instructions and at most 150: unrolled in the
// unroll version (mid).  Five such loops would grow the clone by more than
// 1000 instructions, so the clone is made again with the small-loop limit,
// which takes none of them: no unroll version (grown).
#define BODY3(i) { BODY(i) BODY((i) + 7) BODY((i) + 14) }
__global__ void mid(const float *x, float *y, int n) {
  float acc = 0;
  for (int i = 0; i < n; i++)
    BODY3(i)
  y[threadIdx.x] = acc;
}
__global__ void grown(const float *x, float *y, int n) {
  float acc = 0;
  for (int i = 0; i < n; i++)
    BODY3(i)
  for (int i = 1; i < n; i++)
    BODY3(i + 1)
  for (int i = 2; i < n; i++)
    BODY3(i + 2)
  for (int i = 3; i < n; i++)
    BODY3(i + 3)
  for (int i = 4; i < n; i++)
    BODY3(i + 4)
  y[threadIdx.x] = acc;
}
