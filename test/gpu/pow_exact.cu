// pow_exact.cu - the GPU's own pow where OrionPass folds pow of constants
// (passes/fold_pow.c): for x = +-2^k and integer y with 2^(k*y) in the
// normal range, libdevice's pow, called with arguments it cannot see at
// compile time, must give exactly +-2^(k*y), the constant the fold writes.
// Prints the cases and mismatches; exit 0 when there are none, 77 without a
// GPU.
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
  int bad = 0, nf = 0;
  for (int i = 0; i < n; i++) {
    if (r[i] != want[i] && bad++ < 10)
      printf("mismatch: pow(%a, %g) = %a, exact %a\n", x[i], y[i], r[i], want[i]);
    if (fvalid[i]) {
      nf++;
      if (rf[i] != wantf[i] && bad++ < 10)
        printf("mismatch: powf(%a, %g) = %a, exact %a\n", xf[i], yf[i], rf[i], wantf[i]);
    }
  }
  printf("%s: %d double and %d float cases, %d mismatches\n", bad ? "FAIL" : "ok", n, nf, bad);
  return bad != 0;
}
