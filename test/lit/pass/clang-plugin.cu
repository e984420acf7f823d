// OrionPass through clang's -fpass-plugin: it runs at -O0 too (required
// pass; o0.cu: it leaves the kernels alone there), and explains itself
// under -Rpass=orion.  Host side (--cuda-host-only:
// no fatbin wrapper): the stub's launch calls the runtime; nothing calls the
// stub in this file, so the site's loop facts are unknown (flags 4).
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-device-only -O0 -fpass-plugin=%orion_plugin -emit-llvm -S %s -o - | FileCheck %s --check-prefix=O0
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-device-only -O3 -fpass-plugin=%orion_plugin -Rpass=orion -S %s -o %t.ptx 2>&1 | FileCheck %s --check-prefix=REMARK
// RUN: FileCheck %s --check-prefix=PTX < %t.ptx
// RUN: %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-host-only -O3 -fpass-plugin=%orion_plugin -emit-llvm -S %s -o - | FileCheck %s --check-prefix=HOST

// At -O0 the kernel is left alone: no record, no clone.
// O0-NOT: __orion_
// O0: define {{.*}}ptx_kernel void @_Z5stripPfPKfi(
// O0-NOT: __orion_
// REMARK: remark: kernel strip(float*, float const*, int): max-live {{[0-9]+}} registers, threshold 32 at 256 threads/block (assumed) on sm_90: direction {{increasing|decreasing}}; versions orig (original
// PTX: .visible .global .align 1 .b8 __orion_records_{{[0-9a-f]+}}[
// PTX: .visible .entry _Z5stripPfPKfi(
// PTX: .visible .entry _Z16strip__orion_r32PfPKfi(
// HOST: @__orion_site = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 4, ptr null, ptr @__orion_where, ptr @__orion_table_name }
// HOST-NOT: __orion_rec
// HOST: call noundef i32 @__orion_launch_kernel(ptr noundef nonnull @_Z20__device_stub__stripPfPKfi, {{.*}}, ptr @__orion_site)
// HOST-NOT: call {{.*}}@cudaLaunchKernel

__global__ void strip(float *out, const float *in, int n) {
  float acc[16];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  for (int k = 0; k < 16; k++)
    acc[k] = in[(i + k * 977) % n];
  float s = 0.f;
  for (int k = 0; k < 16; k++)
    s += acc[k] * acc[15 - k] + acc[(k * 7) % 16];
  if (i < n)
    out[i] = s;
}
