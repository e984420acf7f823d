// rdc_dev.h - what rdc_dev.cu defines for rdc_main.cu (-fgpu-rdc).
#ifndef RT_ROBUST_RDC_DEV_H
#define RT_ROBUST_RDC_DEV_H

extern __device__ float rdc_scale;
// a * b + (k & 3) * 0.125 - a * 0.25, rounded after each operation; defined
// in rdc_dev.cu (an external call from rdc_main.cu's kernel).
__device__ float rdc_mix(float a, float b, int k);
// The same on the host (in rdc_dev.cu too).
float rdc_mix_host(float a, float b, int k);

#endif
