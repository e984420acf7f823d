// End to end through clang -fpass-plugin: the host side calls the runtime
// with one site per source launch (loop facts taken before unrolling, and
// after inlining), the device side emits split clones.
// REQUIRES: ptxas
// RUN: rm -rf %t && mkdir -p %t
// RUN: env ORION_SPLIT_CLONES=1 %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version -O3 \
// RUN:   -gline-tables-only -fpass-plugin=%orion_plugin -Rpass=orion -save-temps=obj -c %s -o %t/lh.o 2>%t/remarks.txt
// RUN: FileCheck %s --check-prefix=REMARK < %t/remarks.txt
// RUN: cat %t/launch-hook-host-*.s | FileCheck %s --check-prefix=HOST
// RUN: FileCheck %s --check-prefix=DEV < %t/launch-hook-cuda-nvptx64-nvidia-cuda-sm_90.s
// The sites name the device side's one record table (orion/record.h).
// RUN: grep -o '__orion_records_[0-9a-f]*' %t/launch-hook-cuda-nvptx64-nvidia-cuda-sm_90.s | sort -u > %t/dev-table
// RUN: cat %t/launch-hook-host-*.s | grep -o '"__orion_records_[0-9a-f]*"' | tr -d '"' | sort -u > %t/host-table
// RUN: count 1 < %t/dev-table
// RUN: diff %t/dev-table %t/host-table

// Device: a split clone per kernel, reading the hidden parameters; records
// say hp=6.
// DEV-DAG: .visible .global .align 1 .b8 __orion_records_{{[0-9a-f]+}}[
// DEV-DAG: .visible .entry _Z17fill__orion_splitPii(
// DEV-DAG: .visible .entry _Z17tile__orion_splitPii(
// DEV-DAG: ld.param.b32 {{.*}}[_Z17tile__orion_splitPii_param_5];
// DEV-DAG: ld.param.b32 {{.*}}[_Z17tile__orion_splitPii_param_2];

// Host: the launches call the runtime; the sites follow (next to each
// launch below), then the stubs' own launches (reached only through the
// kernel handle: loop unknown, flags 4).
// HOST: callq __orion_launch_kernel
// HOST-NOT: callq cudaLaunchKernel
// REMARK-DAG: remark: {{.*}}kernel tile(int*, int): {{.*}}; split: 6 hidden parameters, entry tile__orion_split [-Rpass=orion]

__global__ void fill(int *out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    out[i] = i;
}

__global__ void tile(int *out, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  if (x < w)
    out[blockIdx.y * w + x] = blockIdx.y * gridDim.x + blockIdx.x;
}

__global__ void step(int *out, int k) { out[blockIdx.x] += k; }

static void advance(int *out, int k);

void run(int *out, int n, int rounds) {
  // Once: flags 0.
  // HOST: .asciz "{{.*}}launch-hook.cu:[[#@LINE+8]]"
  // HOST: .L__orion_site{{[.0-9]*}}:
  // HOST-NEXT: .long 2
  // HOST-NEXT: .long 0
  // HOST-NEXT: .quad __cuda_fatbin_wrapper
  // HOST-NEXT: .quad .L__orion_where
  // HOST-NEXT: .quad .L__orion_table_name
  // REMARK-DAG: remark: {{.*}}launch-hook.cu:[[#@LINE+1]]:3: launch of fill(int*, int) at {{.*}}launch-hook.cu:[[#@LINE+1]]: not in a loop [-Rpass=orion]
  fill<<<(n + 255) / 256, 256>>>(out, n);
  // Three times in a loop that -O3 unrolls: one site, flags 1.
  // HOST: .asciz "{{.*}}launch-hook.cu:[[#@LINE+7]]"
  // HOST: .L__orion_site{{[.0-9]*}}:
  // HOST-NEXT: .long 2
  // HOST-NEXT: .long 1
  // REMARK-DAG: remark: {{.*}}launch of tile(int*, int) at {{.*}}launch-hook.cu:[[#@LINE+3]]: in a loop [-Rpass=orion]
  // REMARK-NOT: launch of tile(int*, int) at {{.*}}: not in a loop
  for (int r = 0; r < 3; r++)
    tile<<<dim3(2, 8), 32>>>(out, 64);
  // In a helper inlined into a loop: flags 1 after inlining.
  for (int r = 0; r < rounds; r++)
    advance(out, r);
}

// HOST: .asciz "{{.*}}launch-hook.cu:[[#@LINE+7]]"
// HOST: .L__orion_site{{[.0-9]*}}:
// HOST-NEXT: .long 2
// HOST-NEXT: .long 1
// HOST: .long 4
// REMARK-DAG: remark: {{.*}}launch of step(int*, int) at {{.*}}launch-hook.cu:[[#@LINE+2]]: not in a loop [-Rpass=orion]
// REMARK-DAG: remark: {{.*}}launch of step(int*, int) at {{.*}}launch-hook.cu:[[#@LINE+1]]: in a loop after inlining [-Rpass=orion]
static void advance(int *out, int k) { step<<<4, 1>>>(out, k); }
