// Extra decoder corpus (test/unit/sassdec/corpus.sh): opcodes the other
// sources do not produce - warp votes and shuffles, fences, bit operations,
// dynamic shared memory, half precision, 64-bit integer and double math,
// local arrays, bf16/fp8 conversions, kernel parameters as operands.  Compiled only to PTX and cubins (sm_80,
// sm_86, sm_89, sm_90), never run.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <cuda_fp8.h>

__global__ void warps(int *out, const int *in) {
  int t = threadIdx.x, v = in[t];
  unsigned b = __ballot_sync(0xffffffffu, v > 0);
  int any = __any_sync(0xffffffffu, v < 0);
  __syncwarp();
  __threadfence();
  out[t] = v + __popc(b) + any + __clz(v) + __ffs(v) + __brev(v);
}

extern __shared__ float dyn[];
__global__ void dynamic_smem(float *out, const __half *h, int n) {
  int t = threadIdx.x;
  __half2 a = __halves2half2(h[t], h[t + 1]);
  __half2 c = __hfma2(a, a, a);
  dyn[t] = __low2float(c) + __high2float(c);
  __syncthreads();
  out[t] = dyn[(t + 1) % n];
}

__global__ void wide(long long *out, const long long *a, const double *d, int k) {
  int t = threadIdx.x;
  long long x = a[t] * a[t + 1] + (a[t] >> 3) / (k | 1);
  double y = sqrt(d[t]) + (double)x;
  float local[32];
  for (int i = 0; i < 32; i++) local[i] = d[(t + i) % 7];
  out[t] = x + (long long)y + (long long)local[k & 31];
}

// STS [R+UR], R (opcode 0x988: the data register in bits 32-39, the
// uniform register in 64-69): a masked index into static shared memory.
__global__ void sts_uniform(float *out, const float *in, int k) {
  __shared__ float buf[2048];
  int t = threadIdx.x;
  buf[(t * 3 + k) & 2047] = in[t];
  buf[(t * 5 + k) & 2047] = in[t + 1];
  __syncthreads();
  out[t] = buf[t];
}

// Packing conversions: F2FP.BF16 from sm_80 on; the FP8 forms
// (F2FP.SATFINITE.E4M3..., F2FP.F16.E5M2.UNPACK_B) from sm_89 on, emulated
// with shifts and selects before.
__global__ void conversions(unsigned short *o8, __nv_bfloat162 *ob, const float2 *in,
                            const __nv_fp8x2_storage_t *i8, float *of) {
  int t = threadIdx.x;
  float2 v = in[t];
  o8[t] = __nv_cvt_float2_to_fp8x2(v, __NV_SATFINITE, __NV_E4M3);
  ob[t] = __float22bfloat162_rn(v);
  __half2_raw h = __nv_cvt_fp8x2_to_halfraw2(i8[t], __NV_E5M2);
  of[t] = __half2float(__half(__half_raw{h.x}));
}

// Double-precision and select operands from kernel parameters: ptxas reads
// them through uniform registers on sm_90 (DMUL/DFMA/DADD/DSETP/MUFU/FSEL
// with a UR source, forms 6 and 7) and from the constant bank on sm_80-89
// (forms 3 and 5); DSETP against +INF is its immediate form.
__global__ void double_params(double *out, float *fo, const double *in, const float *fi, double s,
                              double a, float f, int n) {
  int t = threadIdx.x;
  double x = in[t], w = 0, v = 1;
  float h = 0;
  for (int i = 0; i < n; i++) {
    double y = in[t + i] * s;
    w = fma(w, x, a) + a;
    if (y > s)
      w = w / s;
    h += fi[t + i] > 0.f ? f : h;
  }
  for (int i = 0; i < n; i++) {
    w = fma(in[t + i], s, w);
    v = v * a;
  }
  if (isinf(x) || x >= a)
    w = -w;
  fo[t] = h;
  out[t] = w + v;
}

// Kernel parameters in integer, float and conversion operands (SEL, SHF,
// FFMA, I2F/I2FP, F2F with a uniform register on sm_90 or the constant bank
// on sm_80-89; UFLO), and double division's slow paths.
__global__ void uniform_math(double *out, float *fo, int *io, const double *in, const float *fi, double s,
                             float f, int k, unsigned u, int n, int m) {
  int t = threadIdx.x, iacc = 0;
  double acc = 0;
  float facc = 0;
  for (int i = 0; i < n; i++) {
    double x = in[t + i];
    acc += x / s + s / (x + 1.0) + in[t + i] / (s + i);
    facc = fmaf(fi[t + i], facc, f) + 1.0f / fi[t + i] + (float)s + (float)k + (fi[t] > 3.0f ? f : 2.0f);
    iacc += (t << (k & 31)) + ((unsigned)t >> (u & 31)) + abs(k - i) + __clz(u + i) + (k > 3 ? t : m);
  }
  out[t] = acc;
  fo[t] = facc;
  io[t] = iacc;
}

// SHFL in its four forms: lane and clamp each a register or an immediate.
__global__ void shuffles(int *out, const int *in, int lane, int width) {
  int t = threadIdx.x, v = in[t];
  v += __shfl_sync(0xffffffffu, v, lane);
  v += __shfl_sync(0xffffffffu, v, lane, width);
  v += __shfl_down_sync(0xffffffffu, v, 4);
  v += __shfl_up_sync(0xffffffffu, v, 1);
  v += __shfl_xor_sync(0xffffffffu, v, 16);
  out[t] = v;
}

// Atomics: ATOMS with a result ([R] and [R+UR]), ATOMS.POPC.INC on a
// uniform address, REDG/RED (AND, 64-bit ADD, F64 ADD, MAX.S32), ATOMG
// with and without a result, ATOMG.CAS (32 and 64 bits), ATOMS.CAST.SPIN.64
// (a 64-bit shared atomicAdd), YIELD in a spin loop; FRND.F64 (trunc,
// floor, rint), FCHK against an immediate; uniform USHF/ULOP3/USEL forms.
__global__ void atomics(int *out, unsigned *cnt, double *dsum, const int *in, int n) {
  __shared__ int hist[64];
  __shared__ unsigned total;
  int t = threadIdx.x;
  if (t < 64) hist[t] = 0;
  if (t == 0) total = 0;
  __syncthreads();
  int v = in[blockIdx.x * blockDim.x + t];
  int old = atomicAdd(&hist[v & 63], v);
  atomicAdd(&total, 1u);
  atomicAnd(&out[v & 7], v);
  atomicAdd(&dsum[v & 3], (double)v);
  int g = atomicAdd(&out[8 + (v & 7)], 1);
  int c = atomicCAS(&out[16], v, g);
  __syncthreads();
  if (t < 64) out[32 + t] = hist[t] + old + c;
  if (t == 0) cnt[blockIdx.x] = total;
}

__global__ void atomics64(unsigned long long *g, const unsigned long long *in, int *gi) {
  __shared__ unsigned long long s[32];
  int t = threadIdx.x;
  if (t < 32) s[t] = 0;
  __syncthreads();
  unsigned long long v = in[t];
  unsigned long long o = atomicAdd(&s[t & 31], v);
  atomicAdd(&g[t & 7], v);
  unsigned long long r = atomicAdd(&g[8 + (t & 7)], v);
  unsigned long long c = atomicCAS(&g[16], v, r);
  atomicMax(&gi[t & 3], (int)v);
  atomicExch(&gi[4 + (t & 3)], (int)v);
  __syncthreads();
  g[32 + t] = o + s[t & 31] + c;
}

__global__ void spin_lock(int *lock, int *out, float *f, float x) {
  if (threadIdx.x == 0) {
    while (atomicCAS(lock, 0, 1) != 0) {
    }
    out[0] += 1;
    __threadfence();
    atomicExch(lock, 0);
  }
  f[threadIdx.x] = f[threadIdx.x] / x;
}

__global__ void rounding(double *out, const double *a, float *fo, const float *fa, float d) {
  int t = threadIdx.x;
  out[t] = trunc(a[t]) + floor(a[t] * 0.5) + rint(a[t] * 3.0);
  fo[t] = fa[t] / d + fa[t] / 120.0f;
}

__global__ void uniform_shifts(unsigned long long *out, unsigned long long a, unsigned s, int k) {
  unsigned long long x = (a >> (s & 63)) ^ (a << ((s + 3) & 63));
  unsigned y = (k > 3 ? s : 1u) | (s & 0x33u);
  out[threadIdx.x] = x + y + (k ? ~x : 0ull);
}
