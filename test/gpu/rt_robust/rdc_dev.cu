// rdc_dev.cu - device code rdc_main.cu links against (-fgpu-rdc).
#include "rdc_dev.h"

__device__ float rdc_scale = 0.75f;

// __fmul_rn/__fadd_rn: no contraction into FMA, so the host's plain float
// arithmetic gives the same bits.
__device__ float rdc_mix(float a, float b, int k) {
  float p = __fmul_rn(a, b);
  float q = __fadd_rn(p, (float)(k & 3) * 0.125f);
  return __fadd_rn(q, -__fmul_rn(a, 0.25f));
}

float rdc_mix_host(float a, float b, int k) {
  volatile float p = a * b;
  volatile float q = p + (float)(k & 3) * 0.125f;
  volatile float r = a * 0.25f;
  return q - r;
}
