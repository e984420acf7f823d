// nvcc-style source relying on what nvcc provides implicitly: host-side
// min/max/umin/llmax/ullmin, ::isnan/::isinf/::signbit without <math.h>,
// clock()/time() without <time.h>, cuda/std headers (cccl), and the
// cache-hinted load/store intrinsics.  Builds with `nvcc -arch=sm_90 -c`.
#include <cstdio>
#include <cuda/std/array>
#include <cuda/std/limits>

__global__ void hinted(const float *in, float *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float a = __ldca(in + i) + __ldlu(in + i) + __ldcg(in + i);
  float4 v = __ldca(reinterpret_cast<const float4 *>(in));
  __stcs(out + i, a + v.x);
  __stcg(out + i, min(out[i], 1.0f));
  __stwb(out + i, max(out[i], cuda::std::numeric_limits<float>::lowest()));
}

__host__ __device__ int clampi(int x, int lo, int hi) { return min(max(x, lo), hi); }

int main() {
  cuda::std::array<int, 3> a{3, 1, 2};
  int m = min(a[0], a[1]) + max(a[1], a[2]);
  unsigned u = min(3u, 4u) + max(-1, 2u) + umin(1u, 2u) + umax(3u, 4u);
  long long ll = llmax(1, 2) + llmin(3, 4) + max(1LL, 2LL);
  unsigned long long ull = ullmin(5, 6) + ullmax(7, 8);
  double d = min(1.5f, 2.0) + max(2.0, 1.5f) + min(0.5, 0.25);
  long l = max(1L, 2L);
  bool flags = isnan(d) || isinf(1.0f) || signbit(-1.0) || !isfinite(2.0);
  clock_t c = clock();
  time_t t = time(nullptr);
  printf("%d %u %lld %llu %f %ld %d %d %ld %ld\n", m, u, ll, ull, d, l, flags, clampi(7, 0, 5),
         (long)(c >= 0), (long)(t > 0));
  return 0;
}
