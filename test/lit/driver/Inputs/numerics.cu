// Floating-point operations whose PTX must match nvcc's defaults
// (-prec-sqrt=true -prec-div=true -ftz=false -fmad=true).
__global__ void k_sqrt(float *p) { p[threadIdx.x] = sqrtf(p[threadIdx.x]); }
__global__ void k_rsqrt(float *p) { p[threadIdx.x] = 1.0f / sqrtf(p[threadIdx.x]); }
__global__ void k_div(float *p, float b) { p[threadIdx.x] = p[threadIdx.x] / b; }
__global__ void k_rcp(float *p) { p[threadIdx.x] = 1.0f / p[threadIdx.x]; }
__global__ void k_fma(float *p, float a, float b) { p[threadIdx.x] = p[threadIdx.x] * a + b; }
__global__ void k_add(float *p, float a) { p[threadIdx.x] = p[threadIdx.x] + a; }
__global__ void k_dsqrt(double *p) { p[threadIdx.x] = sqrt(p[threadIdx.x]) / p[threadIdx.x + 1]; }
