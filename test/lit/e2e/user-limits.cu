// The user's register limits are ceilings for every version, checked on
// the registers the real ptxas gives each entry (cuobjdump -res-usage) and
// on orion-ptxas's build report (warps/SM from those registers).
// REQUIRES: ptxas, cuobjdump
//
// -maxrregcount=40 (ptxas --maxrregcount 40 through clang's -Xcuda-ptxas)
// and __launch_bounds__(256, 4) (64 registers) in one compilation.
// The pass does not see ptxas's --maxrregcount in the raw clang runs, so
// its cap floor would count from the unlimited estimate: off there.
// RUN: rm -f %t.json %t.pass.json
// RUN: env ORION_CAP_FLOOR=0 ORION_CC_REPORT=%t.pass.json %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 \
// RUN:   -Wno-unknown-cuda-version --cuda-device-only -O3 -c -fpass-plugin=%orion_plugin \
// RUN:   --ptxas-path=%orion_ptxas -Xcuda-ptxas --maxrregcount=40 \
// RUN:   -Xcuda-ptxas --orion-report=%t.json %s -o %t.cubin
// RUN: cuobjdump -res-usage %t.cubin | %python %S/Inputs/max_regs.py 40 64 | FileCheck %s --check-prefix=REGS
// RUN: FileCheck %s --check-prefix=BUILD < %t.json
// RUN: FileCheck %s --check-prefix=PASS < %t.pass.json
// The same through orion-cc's nvcc spelling (-maxrregcount=40), with a
// third kernel under __maxnreg__(40): orion-cc hands the -maxrregcount to
// the pass too (its report: reg_limit 40, so no clone above 40 is even
// emitted), and __maxnreg__, which clang 22 drops (warning: unknown
// attribute), reaches the pass through orion/nvcc_compat.h: the original is
// held to 40 registers (.maxnreg 40, as nvcc does) and so is every version.
// RUN: rm -f %t.cc.json
// RUN: env ORION_CC_REPORT=%t.cc.json orion-cc -O3 -c --cuda-gpu-arch=sm_90 -maxrregcount=40 \
// RUN:   -DWITH_MAXNREG %s -o %t.o 2>&1 | FileCheck %s --allow-empty --check-prefix=NOWARN
// RUN: cuobjdump -res-usage %t.o | %python %S/Inputs/max_regs.py 40 64 40 | FileCheck %s --check-prefix=CCREGS
// RUN: FileCheck %s --check-prefix=CCPASS < %t.cc.json
// The same limits on the PTX-level path: .maxnreg 40 (from __maxnreg__;
// the pass only analyses, as nvcc -ptx would emit it), .maxntid 256 with
// .minnctapersm 4, and ptxas --maxrregcount 40.
// RUN: orion-cc -O3 --cuda-gpu-arch=sm_90 --cuda-device-only -S -mllvm -orion-analyze-only \
// RUN:   -DWITH_MAXNREG %s -o %t.in.ptx
// RUN: FileCheck %s --check-prefix=INPTX < %t.in.ptx
// RUN: orion-cc --cuda-gpu-arch=sm_90 -Xptxas --maxrregcount=40 --orion-report=%t.ptx.json \
// RUN:   %t.in.ptx -o %t.ptx.cubin
// RUN: cuobjdump -res-usage %t.ptx.cubin | %python %S/Inputs/max_regs.py 40 64 40 | FileCheck %s --check-prefix=PTXREGS
//
// NOWARN-NOT: unknown attribute
// CCREGS: _Z2lbP6float4PKS_i 64
// CCREGS-NEXT: _Z13lb__orion_r32P6float4PKS_i 32
// CCREGS-NEXT: _Z13lb__orion_r40P6float4PKS_i 40
// CCREGS-NEXT: _Z13lb__orion_r48P6float4PKS_i 48
// CCREGS-NEXT: _Z2mrP6float4PKS_i 40
// CCREGS-NEXT: _Z13mr__orion_r32P6float4PKS_i 32
// CCREGS-NEXT: _Z5plainP6float4PKS_i 40
// CCREGS-NEXT: _Z16plain__orion_r32P6float4PKS_i 32
// CCREGS-NEXT: limits: ok
// CCPASS-DAG: "kernel":"_Z5plainP6float4PKS_i",{{.*}}"reg_limit":40,"limit_note":"register limit 40 from -maxrregcount=40 holds the original and every version; max-live taken as the limit"
// CCPASS-DAG: "kernel":"_Z2mrP6float4PKS_i",{{.*}}"reg_limit":40,"limit_note":"register limit 40 from __maxnreg__(40) holds
// CCPASS-DAG: "kernel":"_Z2lbP6float4PKS_i",{{.*}}"reg_limit":64,
// INPTX: .entry _Z2mrP6float4PKS_i(
// INPTX-NOT: .entry
// INPTX: .maxnreg 40
// PTXREGS: _Z2lbP6float4PKS_i 64
// PTXREGS-NOT: __orion_r{{(128|80)}}
// PTXREGS: _Z2mrP6float4PKS_i 40
// PTXREGS-NEXT: _Z13mr__orion_r32P6float4PKS_i 32
// PTXREGS-NEXT: _Z5plainP6float4PKS_i 40
// PTXREGS-NEXT: _Z16plain__orion_r32P6float4PKS_i 32
// PTXREGS-NEXT: limits: ok
//
// The true build report: an original held to 64 registers (32 warps/SM)
// whose clones were capped for the max-live alone (r128, r80: 16 and 24
// warps/SM from ptxas's registers) keeps only the clones that hold more
// warps than it.
// RUN: env ORION_CAP_FLOOR=0 %clang -x cuda --cuda-path=%cuda_path --cuda-gpu-arch=sm_90 -Wno-unknown-cuda-version \
// RUN:   --cuda-device-only -O3 -DONLY_PLAIN -fpass-plugin=%orion_plugin -S %s -o %t.p.ptx
// RUN: %python %S/Inputs/bound_original.py _Z5plainP6float4PKS_i < %t.p.ptx > %t.b.ptx
// RUN: orion-ptxas -arch=sm_90 %t.b.ptx -o %t.b.cubin --orion-report=%t.b.json
// RUN: FileCheck %s --check-prefix=WALK < %t.b.json
// RUN: cuobjdump -res-usage %t.b.cubin | %python %S/Inputs/max_regs.py 64 64 | FileCheck %s --check-prefix=WALKREGS
// WALK: "name":"_Z5plainP6float4PKS_i",{{.*}}"registers":64,{{.*}}"warps":32,
// WALK: "name":"_Z17plain__orion_r128P6float4PKS_i",{{.*}}"warps":16,"reason":"16 warps/SM at 256 threads ({{[0-9]+}} registers), no more than orig's 32",{{.*}}"status":"dropped"
// WALK: "name":"_Z16plain__orion_r80P6float4PKS_i",{{.*}}"warps":24,"reason":"24 warps/SM at 256 threads (80 registers), no more than orig's 32",{{.*}}"status":"dropped"
// WALK: "name":"_Z16plain__orion_r48P6float4PKS_i",{{.*}}"warps":40,"reason":null,{{.*}}"status":"kept"
// WALK: "name":"_Z16plain__orion_r32P6float4PKS_i",{{.*}}"warps":64,"reason":null,{{.*}}"status":"kept"
// WALKREGS: _Z5plainP6float4PKS_i 64
// WALKREGS-NEXT: _Z16plain__orion_r32P6float4PKS_i 32
// WALKREGS-NEXT: _Z16plain__orion_r48P6float4PKS_i 48

// Without a limit the original needs ~222 registers; -maxrregcount holds it
// to 40, so r128, r80 and r48 are not assembled and r32 stays.  Launch
// bounds hold lb's original to 64 (32 warps/SM): its versions are r40, r48
// and r32, each below 64.
// REGS: _Z2lbP6float4PKS_i 64
// REGS-NEXT: _Z13lb__orion_r32P6float4PKS_i 32
// REGS-NEXT: _Z13lb__orion_r40P6float4PKS_i 40
// REGS-NEXT: _Z13lb__orion_r48P6float4PKS_i 48
// REGS-NEXT: _Z5plainP6float4PKS_i 40
// REGS-NEXT: _Z16plain__orion_r32P6float4PKS_i 32
// REGS-NEXT: limits: ok
//
// BUILD: "name":"_Z5plainP6float4PKS_i",{{.*}}"registers":40,{{.*}}"block":256,"warps":48,"reason":null,
// BUILD: "name":"_Z2lbP6float4PKS_i",{{.*}}"threads":256,"registers":64,{{.*}}"block":256,"warps":32,"reason":null,
// BUILD: "name":"_Z17plain__orion_r128P6float4PKS_i",{{.*}}"registers":null,{{.*}}"reason":"cap 128 above --maxrregcount 40, which holds the original: not assembled",{{.*}}"status":"dropped"
// BUILD: "name":"_Z16plain__orion_r80P6float4PKS_i",{{.*}}"status":"dropped"
// BUILD: "name":"_Z16plain__orion_r48P6float4PKS_i",{{.*}}"status":"dropped"
// BUILD: "name":"_Z16plain__orion_r32P6float4PKS_i",{{.*}}"registers":32,{{.*}}"warps":64,{{.*}}"status":"kept"
//
// PASS: "kernel":"_Z5plainP6float4PKS_i",{{.*}}"reg_limit":null,
// PASS: "kernel":"_Z2lbP6float4PKS_i",{{.*}}"original_warps":32,{{.*}}"reg_limit":64,"limit_note":"register limit 64 from __launch_bounds__(256, 4) holds the original and every version; max-live taken as the limit"

#define BODY                                                                 \
  float4 acc[48];                                                            \
  int i = blockIdx.x * blockDim.x + threadIdx.x;                             \
  _Pragma("unroll") for (int k = 0; k < 48; k++) acc[k] = in[(i + k * 131) % n]; \
  for (int it = 0; it < 8; it++) {                                           \
    _Pragma("unroll") for (int k = 0; k < 48; k++) {                         \
      float4 b = acc[(k + 1) % 48];                                          \
      acc[k].x = acc[k].x * b.y + b.z;                                       \
      acc[k].y = acc[k].y * b.z + b.w;                                       \
      acc[k].z = acc[k].z * b.w + b.x;                                       \
      acc[k].w = acc[k].w * b.x + b.y;                                       \
    }                                                                        \
  }                                                                          \
  float4 s = make_float4(0.f, 0.f, 0.f, 0.f);                                \
  _Pragma("unroll") for (int k = 0; k < 48; k++) {                           \
    s.x += acc[k].x; s.y += acc[k].y; s.z += acc[k].z; s.w += acc[k].w;      \
  }                                                                          \
  if (i < n)                                                                 \
    out[i] = s;

__global__ void plain(float4 *out, const float4 *in, int n) { BODY }
#ifndef ONLY_PLAIN
__global__ void __launch_bounds__(256, 4) lb(float4 *out, const float4 *in, int n) { BODY }
#endif
#ifdef WITH_MAXNREG
__global__ void __maxnreg__(40) mr(float4 *out, const float4 *in, int n) { BODY }
#endif
