// A large helper with one caller: nvcc's whole-program compile inlines it
// (its table then stays out of local memory); with external linkage LLVM's
// inliner keeps the call.
__device__ void mix(const unsigned *in, unsigned *out, int n) {
  unsigned t[64];
  for (int i = 0; i < 64; i++)
    t[i] = in[(i * 7 + n) & 1023];
#pragma unroll
  for (int r = 0; r < 24; r++) {
    unsigned a = t[(r * 5) & 63], b = t[(r * 11 + 3) & 63];
    t[(r * 13 + 1) & 63] = (a << 7 | a >> 25) ^ (b * 2654435761u) ^ (unsigned)r;
    t[(r * 3 + 2) & 63] += a * b + (a ^ (b >> 3));
  }
  unsigned s = 0;
  for (int i = 0; i < 64; i++)
    s = s * 31 + t[(i * n) & 63];
  out[n] = s;
}

__global__ void kernel_mix(const unsigned *in, unsigned *out) {
  mix(in, out, blockIdx.x * blockDim.x + threadIdx.x);
}
