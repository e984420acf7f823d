; Host side inside the optimisation pipeline (clang -O3 -fpass-plugin runs
; the early phase at PipelineStart and the late one at OptimizerLast; so
; does opt's default<O3> with the plugin loaded).  Loop facts are taken
; before the 3-trip loop is unrolled: its three launches share one site, in
; a loop.  A launch in a helper that is inlined into a loop is found in a
; loop by the late phase, which sets IN_LOOP in its site.
; RUN: %opt -passes='default<O3>' -pass-remarks=orion -S %s -o %t.ll 2>%t.rem
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @__orion_site = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 1, ptr null, ptr @__orion_where, ptr @__orion_table_name }
; CHECK: @__orion_site.2 = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 1, ptr null, ptr @__orion_where.1, ptr @__orion_table_name }
; CHECK: @__orion_site.4 = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 4, ptr null, ptr @__orion_where.3, ptr @__orion_table_name }

; CHECK-LABEL: define void @_Z8unrolledPf(
; CHECK-COUNT-3: call i32 @__orion_launch_kernel(ptr nonnull @_Z19__device_stub__kernPfi, {{.*}}, ptr nonnull @__orion_site)
; CHECK-NOT: br
; CHECK: ret void
; REMARK: remark: <unknown>:0:0: launch of __device_stub__kern(float*, int) at _Z8unrolledPf: in a loop{{$}}
define void @_Z8unrolledPf(ptr %p) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  call void @_Z19__device_stub__kernPfi(ptr %p, i32 %i)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, 3
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; CHECK-LABEL: define void @_Z5stepsPfi(
; CHECK: call i32 @__orion_launch_kernel(ptr nonnull @_Z19__device_stub__kernPfi, {{.*}}, ptr nonnull @__orion_site.2)
; REMARK: remark: <unknown>:0:0: launch of __device_stub__kern(float*, int) at _Z4stepPf: not in a loop{{$}}
; REMARK: remark: <unknown>:0:0: launch of __device_stub__kern(float*, int) at _Z19__device_stub__kernPfi: in the device stub, reached only through its address: loop unknown, treated as in a loop{{$}}
; REMARK: remark: <unknown>:0:0: launch of __device_stub__kern(float*, int) at _Z4stepPf: in a loop after inlining{{$}}
define internal void @_Z4stepPf(ptr %p) {
  call void @_Z19__device_stub__kernPfi(ptr %p, i32 7)
  ret void
}

define void @_Z5stepsPfi(ptr %p, i32 %n) {
entry:
  %z = icmp sgt i32 %n, 0
  br i1 %z, label %body, label %exit
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  call void @_Z4stepPf(ptr %p)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; The stub (kept: its address is the kernel's handle) launches with loop
; facts unknown.
; CHECK-LABEL: define void @_Z19__device_stub__kernPfi(
; CHECK: call i32 @__orion_launch_kernel(ptr nonnull @_Z19__device_stub__kernPfi, {{.*}}, ptr @__orion_site.4)
; CHECK-NOT: .orion(
define void @_Z19__device_stub__kernPfi(ptr %p, i32 %n) {
  %args = alloca [2 x ptr], align 16
  store ptr %p, ptr %args
  %r = call i32 @cudaLaunchKernel(ptr @_Z19__device_stub__kernPfi, i64 1, i32 1, i64 256, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
