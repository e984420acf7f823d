// One kernel per function that nvcc's -use_fast_math maps to an intrinsic.
__global__ void k_expf(float *a) { a[threadIdx.x] = expf(a[threadIdx.x]); }
__global__ void k_exp10f(float *a) { a[threadIdx.x] = exp10f(a[threadIdx.x]); }
__global__ void k_powf(float *a) { a[threadIdx.x] = powf(a[threadIdx.x], a[threadIdx.x + 1]); }
__global__ void k_tanf(float *a) { a[threadIdx.x] = tanf(a[threadIdx.x]); }
__global__ void k_log10f(float *a) { a[threadIdx.x] = log10f(a[threadIdx.x]); }
__global__ void k_logf(float *a) { a[threadIdx.x] = logf(a[threadIdx.x]); }
