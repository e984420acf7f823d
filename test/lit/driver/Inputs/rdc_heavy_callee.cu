// A kernel with enough register pressure for capped versions, calling a
// __noinline__ function that needs more registers than the lowest caps.
// Under -fgpu-rdc each function is compiled once at its own register count,
// and nvlink refuses an entry capped below a callee's count.
#define N 48

__device__ __noinline__ float heavy(const float *in, int i) {
  float m[N];
#pragma unroll
  for (int k = 0; k < N; k++)
    m[k] = in[(i + k) & 1023];
  float r = 0.f;
  for (int w = 0; w < 8; w++)
#pragma unroll
    for (int k = 0; k < N; k++)
      r += m[k] * m[(k * 7 + w) % N];
  return r;
}

__global__ void caller(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float m[N];
#pragma unroll
  for (int k = 0; k < N; k++)
    m[k] = in[(i * 3 + k) & 1023];
  float r = heavy(in, i);
#pragma unroll
  for (int k = 0; k < N; k++)
    r += m[k] * m[(k * 5 + 1) % N];
  out[i] = r;
}

int main() { return 0; }
