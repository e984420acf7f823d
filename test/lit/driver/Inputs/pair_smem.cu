// Adjacent 4-byte shared-memory accesses: paired into one 8-byte access
// (ld/st.shared.v2) only where the array's alignment proves it.
__global__ void pair_smem(const float *in, float *out) {
  __shared__ float s[512];
  unsigned t = threadIdx.x;
  s[2 * t] = in[2 * t];
  s[2 * t + 1] = in[2 * t + 1] * 2.0f;
  __syncthreads();
  unsigned u = 255 - t;
  out[t] = s[2 * u] + s[2 * u + 1];
}
