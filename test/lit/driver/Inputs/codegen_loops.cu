// Loops whose code orion-cc's code-generation defaults change
// (test/lit/driver/codegen-loops.test).
// A 31-trip loop over a constant table (a block cipher's rounds): unrolled
// fully it is over clang's threshold (300) and under Orion's (600).
__constant__ unsigned table[32];
__global__ void rounds(unsigned *s) {
  unsigned x = s[threadIdx.x], y = x ^ 0x9e3779b9u;
  for (int r = 0; r < 31; r++) {
    x = (x << 3 | x >> 29) ^ table[r] ^ y;
    y = y * 2654435761u + (x >> 7) + (unsigned)r;
  }
  s[threadIdx.x] = x ^ y;
}
// A strided loop: its trip count, (n - tid) / step rounded up, needs a
// division, which clang's cost budget for run-time unrolling refuses.
__global__ void strided(const unsigned *in, unsigned *out, int n) {
  unsigned acc = 0;
  int step = blockDim.x;
  for (int i = threadIdx.x; i < n; i += step)
    acc += in[i] >> 4;
  out[threadIdx.x] = acc;
}
