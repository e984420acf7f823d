// Evaluate math functions and expressions on the GPU over 4M inputs and print
// one hash per item, so that builds by nvcc and orion-cc can be compared bit
// for bit.  Items marked "contraction" depend on which multiply-adds the
// compiler fuses (nvcc's NVVM and clang choose differently).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <cstdlib>
#define N (1 << 22)
#define NF 26
__global__ void eval(const float *x, const float *y, uint32_t *out) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= N) return;
  float a = x[i], b = y[i];
  float r[NF];
  r[0] = sqrtf(a);
  r[1] = 1.0f / sqrtf(a);
  r[2] = a / b;
  r[3] = 1.0f / a;
  r[4] = expf(b);
  r[5] = logf(a);
  r[6] = powf(a, b);
  r[7] = sinf(b);
  r[8] = cosf(b);
  r[9] = tanf(b);
  r[10] = erff(b);
  r[11] = a * b + a;                       // single-expression fma
  { float t = a * b; float u = t + a; r[12] = u - t * a; }  // reused product
  r[13] = (float)sqrt((double)a) + (float)((double)a / (double)b);
  r[14] = __expf(b) + __fdividef(a, b);
  r[15] = rsqrtf(a) + cbrtf(b) + hypotf(a, b);
  { double da = a, db = b; r[16] = (float)pow(da, db); r[17] = (float)(exp(db) + log(da) * sin(db)); }
  { float t = a * b; r[18] = t + a; }
  { float s = 0; for (int k = 0; k < 8; k++) s += x[(i + k) % N] * y[(i + 3 * k) % N]; r[19] = s; }
  { float p = 0.1f; for (int k = 0; k < 6; k++) p = p * b + (float)k * 0.37f; r[20] = p; }
  { float ar = a, ai = b, br = b * 0.5f, bi = a + 1.0f; r[21] = (ar * br - ai * bi) + 3.0f * (ar * bi + ai * br); }
  r[22] = norm3df(a, b, a - b) + normf(1, &a);
  { float sn, cs; sincosf(b, &sn, &cs); r[23] = sn * cs + sinpif(b) + exp10f(b * 0.1f); }
  { double t = (double)a * b; r[24] = (float)(t + a - t * b); }
  r[25] = fmaf(a, b, -a * b) + __fmul_rn(a, b) + __fadd_rz(a, b);
  for (int k = 0; k < NF; k++) { uint32_t u; memcpy(&u, &r[k], 4); out[(size_t)k * N + i] = u; }
}
int main() {
  float *x, *y; uint32_t *o;
  cudaMallocManaged(&x, N * 4); cudaMallocManaged(&y, N * 4); cudaMallocManaged(&o, (size_t)NF * N * 4);
  uint32_t s = 12345;
  for (int i = 0; i < N; i++) {
    s = s * 1664525u + 1013904223u; uint32_t bits = (s >> 9) | 0x3f800000u; float f; memcpy(&f, &bits, 4);
    int e = (int)((s >> 3) % 60) - 30;  // spread over magnitudes, incl. denormal-ish results
    x[i] = ldexpf(f, e);
    s = s * 1664525u + 1013904223u; bits = (s >> 9) | 0x3f800000u; memcpy(&f, &bits, 4);
    y[i] = (s & 1 ? -1.f : 1.f) * ldexpf(f, (int)((s >> 4) % 12) - 6);
  }
  eval<<<(N + 255) / 256, 256>>>(x, y, o);
  cudaError_t err = cudaDeviceSynchronize();
  if (err != cudaSuccess) { printf("error %s\n", cudaGetErrorString(err)); return 1; }
  static const char *const names[NF] = {
      "sqrtf", "1/sqrtf", "a/b", "1/a", "expf", "logf", "powf contraction", "sinf", "cosf",
      "tanf", "erff", "a*b+a", "reused-product contraction", "double sqrt,div",
      "__expf+__fdividef contraction", "rsqrtf+cbrtf+hypotf", "pow(double)",
      "exp+log*sin(double) contraction", "t=a*b;t+a contraction", "dot-loop contraction",
      "horner contraction", "complex-mul contraction", "norm3df+normf", "sincosf+sinpif+exp10f",
      "double-reuse contraction", "fmaf,__fmul_rn,__fadd_rz"};
  for (int k = 0; k < NF; k++) {
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < N; i++) { h ^= o[(size_t)k * N + i]; h *= 1099511628211ull; }
    printf("%016llx %s\n", (unsigned long long)h, names[k]);
  }
  return 0;
}
