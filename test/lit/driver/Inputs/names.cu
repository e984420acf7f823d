// Kernels whose names need demangling (driver/names.test).
namespace img {
template <typename T, int R>
__global__ void blur(T *out, const T *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  T acc[2 * R + 1];
#pragma unroll
  for (int k = -R; k <= R; k++)
    acc[k + R] = in[(i + k * 17 + n) % n];
  T s = 0;
#pragma unroll
  for (int a = 0; a <= 2 * R; a++)
#pragma unroll
    for (int b = 0; b <= 2 * R; b++)
      s += acc[a] * acc[b] + (T)(a - b);
  if (i < n)
    out[i] = s;
}
template __global__ void blur<float, 8>(float *, const float *, int);
} // namespace img

__global__ void heavy(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  float a[24];
#pragma unroll
  for (int k = 0; k < 24; k++)
    a[k] = in[(i * 7 + k * 131) % n];
  float s = 0;
#pragma unroll
  for (int k = 0; k < 24; k++)
    s += a[k] * a[(k * 5) % 24];
  if (i < n)
    out[i] = s;
}
