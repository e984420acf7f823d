// At -O0 (clang's default, and CMake's default build type) the device IR is
// unoptimised: values sit in allocas, so max-live says nothing about the
// registers ptxas will use (here it would see a handful and predict the
// wrong direction).  Orion leaves such kernels alone and says so: no clone,
// no record (the runtime launches the kernel as the plain build does), a
// remark and a report line with the reason.  At -O1 and above the same
// kernel is versioned.
// RUN: rm -f %t.json %t1.json
// RUN: env ORION_CC_REPORT=%t.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O0 -fpass-plugin=%orion_plugin \
// RUN:   -Rpass=orion -S %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=JSON < %t.json
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// No -O at all is -O0 too.
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-device-only -fpass-plugin=%orion_plugin -Rpass=orion -S %s -o /dev/null 2>&1 \
// RUN:   | FileCheck %s --check-prefix=REMARK
// RUN: env ORION_CC_REPORT=%t1.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O1 -fpass-plugin=%orion_plugin -S %s -o %t1.ptx
// RUN: FileCheck %s --check-prefix=O1 < %t1.json

// REMARK: remark: kernel poly(float*, float const*, int): not versioned: the kernel is not optimised (-O0): its IR says nothing about the registers ptxas will use; Orion versions kernels at -O1 and above [-Rpass=orion]
// JSON: "kernel":"_Z4polyPfPKfi",{{.*}}"direction":"none",{{.*}}"versions":[],"clones":0,"record":null,"note":"kernel poly(float*, float const*, int): not versioned: the kernel is not optimised (-O0)
// PTX-NOT: __orion_
// PTX: .visible .entry _Z4polyPfPKfi(
// PTX-NOT: __orion_
// O1: "kernel":"_Z4polyPfPKfi",{{.*}}"clones":{{[1-9]}},

__global__ void poly(float *out, const float *in, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  float x = in[i], a[32];
#pragma unroll
  for (int k = 0; k < 32; k++)
    a[k] = in[(i + 37 * k) % n] * x;
  float r = 0.f;
#pragma unroll
  for (int k = 0; k < 32; k++)
    r = r * x + a[k] * a[31 - k];
  out[i] = r;
}
