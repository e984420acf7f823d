// accumulate.cuh - the GPU lit tests' register-heavy work: work() keeps
// NACC values live across a loop (enough registers for Orion to make capped
// versions), fold() sums and xors every thread's value into out[0] and
// out[1].
#ifndef ORION_LIT_ACCUMULATE_CUH
#define ORION_LIT_ACCUMULATE_CUH

#define NACC 64

__device__ static unsigned work(unsigned seed, int iters) {
  unsigned acc[NACC];
#pragma unroll
  for (int k = 0; k < NACC; k++)
    acc[k] = seed * (2 * k + 1) + k;
  for (int it = 0; it < iters; it++) {
#pragma unroll
    for (int k = 0; k < NACC; k++)
      acc[k] = acc[k] * 2654435761u + (acc[(k + 1) % NACC] >> 3) + it;
  }
  unsigned s = 0;
#pragma unroll
  for (int k = 0; k < NACC; k++)
    s ^= acc[k] + k;
  return s;
}

// out[0] += and out[1] ^= every thread's value: both commutative, so the
// result does not depend on the order in which blocks or chunks run.
__device__ static void fold(unsigned *out, unsigned v) {
  unsigned a = v, x = v;
  for (int d = 16; d > 0; d /= 2) {
    a += __shfl_xor_sync(0xffffffffu, a, d);
    x ^= __shfl_xor_sync(0xffffffffu, x, d);
  }
  if ((threadIdx.x & 31) == 0) {
    atomicAdd(&out[0], a);
    atomicXor(&out[1], x);
  }
}

#endif
