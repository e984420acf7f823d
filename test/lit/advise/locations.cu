// orion-advise finds every kernel and launch site at its exact
// file:line:col: several kernels per file, a kernel template and its
// instantiations, kernels and a launch in a header, a kernel named through
// a macro, launches in loops, in a macro and through cudaLaunchKernel.
// RUN: rm -rf %t && mkdir -p %t
// RUN: orion-advise %s -- --cuda-gpu-arch=sm_90 > %t/notes.txt
// RUN: FileCheck %s --input-file=%t/notes.txt --match-full-lines --strict-whitespace
// RUN: orion-advise %s --summary=%t/s.json -- --cuda-gpu-arch=sm_90
// RUN: FileCheck %s --check-prefix=JSON --input-file=%t/s.json
// The same through a compile database whose paths are relative to its directory:
// RUN: sed -e 's|@DIR@|%S|g' -e 's|@OUT@|%t|g' %S/Inputs/compile_commands.json.in > %t/compile_commands.json
// RUN: cd %t && orion-advise -p %t/compile_commands.json %s > %t/db.txt
// RUN: diff %t/notes.txt %t/db.txt


// CHECK:{{.*}}Inputs/kern.cuh:3:17: note: kernel 'in_header' [_Z9in_headerPf]
// CHECK-NEXT:{{.*}}Inputs/kern.cuh:5:3: note: launch of 'in_header' <<<1, 32>>>
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+35]]:3: note: launch of 'in_header' <<<4, 64>>>
#include "Inputs/kern.cuh"
#include <cuda_runtime.h>

// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+1]]:17: note: kernel 'first' [_Z5firstPfi]
__global__ void first(float *a, int n) { if (threadIdx.x < n) a[threadIdx.x] += 1; }
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+33]]:7: note: launch of 'first' <<<dim3(n / 256), dim3(256), 0, 0>>>
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+2]]:17: note: kernel 'second' [_Z6secondPf]
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+35]]:5: note: launch of 'second' through cudaLaunchKernel((void *)second, dim3(1), dim3(64), args, 0, 0)
__global__ void second(float *a) { a[threadIdx.x] *= 2; }

// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+2]]:17: note: kernel 'tmpl' (template) [_Z4tmplIfLi128EEvPT_, _Z4tmplIdLi64EEvPT_]
template <typename T, int B>
__global__ void tmpl(T *a) { a[threadIdx.x] = B; }
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+30]]:3: note: launch of 'tmpl<float, 128>' <<<2, 128>>>
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+30]]:3: note: launch of 'tmpl<double, 64>' <<<2, 64>>>

#define KERNEL __global__ void
#define LAUNCH(k, g) k<<<(g), 32>>>
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+1]]:8: note: kernel 'via_macro' [_Z9via_macroPi]
KERNEL via_macro(int *p) { p[threadIdx.x] = 0; }
// CHECK-NEXT:{{.*}}locations.cu:[[#@LINE+25]]:3: note: launch of 'via_macro' LAUNCH(via_macro, 2)(p)

// A device function and a host function are not kernels.
__device__ float helper(float x) { return x * x; }
void host_only(float *a) { a[0] = 1.0f; }

// JSON: "kernel":"first"
// JSON: "launches":[{"file":"{{.*}}locations.cu","line":57,"col":7,"callee":"first","config":"<<<dim3(n / 256), dim3(256), 0, 0>>>","api":false,"block_advice":null}]
// JSON: "kernel":"tmpl",{{.*}}"template":true,"names":["tmpl","_Z4tmplIfLi128EEvPT_","_Z4tmplIdLi64EEvPT_"]

int main() {
  float *a = 0;
  int *p = 0, n = 1024;
  void *args[] = {&a};
  in_header<<<4, 64>>>(a);
  launch_in_header(a);
  for (int i = 0; i < 3; i++) {
    for (int j = 0; j < 2; j++)
      first<<<dim3(n / 256), dim3(256),
              0, 0>>>(a, n);
  }
  while (n-- > 1000)
    cudaLaunchKernel((void *)second, dim3(1), dim3(64), args, 0, 0);
  tmpl<float, 128><<<2, 128>>>(a);
  tmpl<double, 64><<<2, 64>>>((double *)a);
  LAUNCH(via_macro, 2)(p);
  return 0;
}
