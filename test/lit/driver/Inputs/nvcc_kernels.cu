// Kernels for orion-cc's PTX-level path test (nvcc -arch=sm_90 -ptx nvcc_kernels.cu -o nvcc_kernels.ptx).
extern "C" __global__ void small(float *p) { p[threadIdx.x] *= 2.0f; }
extern "C" __global__ void __launch_bounds__(128, 2) bounded(float *p, int n) {
  float a = p[threadIdx.x];
  for (int i = 0; i < n; i++) a = a * 1.5f + p[i];
  p[threadIdx.x] = a;
}
extern "C" __global__ void wide(const float4 *__restrict__ in, float *out, int n) {
  float4 a = in[threadIdx.x], b = in[threadIdx.x + 64], c = in[threadIdx.x + 128], d = in[threadIdx.x + 192];
  float4 e = in[threadIdx.x + 256], f = in[threadIdx.x + 320], g = in[threadIdx.x + 384], h = in[threadIdx.x + 448];
  float s = 0;
  for (int i = 0; i < n; i++) {
    s += a.x * b.y + c.z * d.w + e.x * f.y + g.z * h.w;
    a.x += b.x; b.y += c.y; c.z += d.z; d.w += e.w; e.x += f.x; f.y += g.y; g.z += h.z; h.w += a.w;
    a.y *= b.w; b.z *= c.x; c.w *= d.y; d.x *= e.z; e.y *= f.w; f.z *= g.x; g.w *= h.y; h.x *= a.z;
  }
  out[threadIdx.x] = s + a.y + b.z + c.w + d.x + e.y + f.z + g.w + h.x + a.x + b.y + c.z + d.w + e.x + f.y + g.z + h.w;
}
