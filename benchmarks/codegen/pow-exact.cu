// pow-exact.cu - does libdevice's pow give the exact value for powers of
// two?  For x = +-2^k (|k| <= 64) and integer y with 2^(k*y) in the normal
// range, pow and powf called with arguments the compiler cannot see, against
// the exact +-2^(k*y) that a compile-time fold (nvcc's, or orion-cc's opt-in
// fold-pow, passes/fold_pow.c) writes.  Prints every difference for bases
// +-0.5, +-1, +-2, the count per base for the others, and a summary line.
//
//   orion-cc --no-orion -O3 --cuda-gpu-arch=sm_90 pow-exact.cu -o pow-exact && ./pow-exact
//
// Exit 0 when no case differs, 1 otherwise (a finding, not an error), 77
// without a GPU.  Results: results/pow-exact-h100.txt.
#include <cmath>
#include <cstdio>
#include <vector>

__global__ void pows(const double *x, const double *y, double *r, const float *xf,
                     const float *yf, float *rf, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    r[i] = pow(x[i], y[i]);
    rf[i] = powf(xf[i], yf[i]);
  }
}

int main() {
  int dev = 0;
  if (cudaGetDeviceCount(&dev) != cudaSuccess || dev == 0) {
    printf("SKIP: no CUDA GPU\n");
    return 77;
  }
  std::vector<double> x, y, want;
  std::vector<float> xf, yf, wantf;
  std::vector<int> fvalid;
  for (int k = -64; k <= 64; k++)
    for (int s = -1; s <= 1; s += 2)
      for (int e = -80; e <= 80; e++) {
        long p = (long)k * e;
        if (k == 0 && e == 0)
          continue;
        bool d_ok = p >= -1022 && p <= 1023, f_ok = p >= -126 && p <= 127;
        if (!d_ok)
          continue;
        double v = std::ldexp(1.0, (int)p) * (s < 0 && (e & 1) ? -1 : 1);
        x.push_back(s * std::ldexp(1.0, k));
        y.push_back(e);
        want.push_back(v);
        xf.push_back(f_ok ? (float)(s * std::ldexp(1.0, k)) : 2.0f);
        yf.push_back(f_ok ? (float)e : 1.0f);
        wantf.push_back(f_ok ? (float)v : 2.0f);
        fvalid.push_back(f_ok);
      }
  int n = (int)x.size();
  double *dx, *dy, *dr;
  float *fx, *fy, *fr;
  cudaMalloc(&dx, n * sizeof(double));
  cudaMalloc(&dy, n * sizeof(double));
  cudaMalloc(&dr, n * sizeof(double));
  cudaMalloc(&fx, n * sizeof(float));
  cudaMalloc(&fy, n * sizeof(float));
  cudaMalloc(&fr, n * sizeof(float));
  cudaMemcpy(dx, x.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(dy, y.data(), n * sizeof(double), cudaMemcpyHostToDevice);
  cudaMemcpy(fx, xf.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  cudaMemcpy(fy, yf.data(), n * sizeof(float), cudaMemcpyHostToDevice);
  pows<<<(n + 255) / 256, 256>>>(dx, dy, dr, fx, fy, fr, n);
  std::vector<double> r(n);
  std::vector<float> rf(n);
  if (cudaMemcpy(r.data(), dr, n * sizeof(double), cudaMemcpyDeviceToHost) != cudaSuccess ||
      cudaMemcpy(rf.data(), fr, n * sizeof(float), cudaMemcpyDeviceToHost) != cudaSuccess) {
    printf("FAIL: %s\n", cudaGetErrorString(cudaGetLastError()));
    return 1;
  }
  int bad = 0, nf = 0, by_k[129][2] = {{0}}, n_k[129][2] = {{0}};
  for (int i = 0; i < n; i++) {
    int k = std::ilogb(x[i]) + 64;
    int folded = k >= 63 && k <= 65; /* |x| in {0.5, 1, 2}: listed one by one */
    n_k[k][0]++;
    if (r[i] != want[i]) {
      by_k[k][0]++;
      if (folded && ++bad)
        printf("differs: pow(%g, %g) = %a, exact %a\n", x[i], y[i], r[i], want[i]);
    }
    if (fvalid[i]) {
      nf++;
      n_k[k][1]++;
      if (rf[i] != wantf[i]) {
        by_k[k][1]++;
        if (folded && ++bad)
          printf("differs: powf(%g, %g) = %a, exact %a\n", xf[i], yf[i], rf[i], wantf[i]);
      }
    }
  }
  for (int k = 0; k <= 128; k++)
    if (by_k[k][0] || by_k[k][1])
      printf("base +-2^%d: double %d of %d differ, float %d of %d\n", k - 64, by_k[k][0],
             n_k[k][0], by_k[k][1], n_k[k][1]);
  printf("%s: %d double and %d float cases, %d differences for bases +-0.5, +-1, +-2\n",
         bad ? "FAIL" : "ok", n, nf, bad);
  return bad != 0;
}
