; Host side, per-thread default stream (clang -fgpu-default-stream=per-thread
; calls cudaLaunchKernel_ptsz): flag ORION_SITE_PER_THREAD (2), with
; IN_LOOP (1) where the launch is in a loop.  No __cuda_fatbin_wrapper in
; this module (e.g. --cuda-host-only): the site's pointer is null.  The
; unused launch declaration is dropped.
; RUN: %opt -passes=orion -pass-remarks=orion -S %s -o - 2>%t.rem | FileCheck %s
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; A module without launches is left exactly as it was.
; RUN: %opt -passes=orion -S %S/Inputs/host-no-launch.ll -o %t.out.ll
; RUN: %opt -passes=verify -S %S/Inputs/host-no-launch.ll -o %t.ref.ll
; RUN: diff %t.ref.ll %t.out.ll
; Host modules for other targets than x86-64 are left alone (the
; __orion_launch_kernel ABI is x86-64's).
; RUN: sed -e 's/x86_64-pc-linux-gnu/aarch64-unknown-linux-gnu/' %s > %t.arm.ll
; RUN: %opt -passes=orion -S %t.arm.ll -o - | FileCheck %s --check-prefix=ARM

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

; CHECK: @__orion_site = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 2, ptr null, ptr @__orion_where, ptr @__orion_table_name }, align 8
; CHECK: @__orion_site.2 = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 3, ptr null, ptr @__orion_where.1, ptr @__orion_table_name }, align 8
; CHECK-NOT: cudaLaunchKernel
; CHECK: declare i32 @__orion_launch_kernel(ptr, i64, i32, i64, i32, ptr, i64, ptr, ptr)
; CHECK-NOT: cudaLaunchKernel
; REMARK: remark: <unknown>:0:0: launch of __device_stub__kern(float*, int) at _Z4oncePfi: not in a loop; per-thread default stream
; REMARK: remark: <unknown>:0:0: launch of __device_stub__kern(float*, int) at _Z4loopPfii: in a loop; per-thread default stream
; ARM-NOT: __orion

define void @_Z19__device_stub__kernPfi(ptr %p, i32 %n) {
  ret void
}

define i32 @_Z4oncePfi(ptr %p) {
  %r = call i32 @cudaLaunchKernel_ptsz(ptr @_Z19__device_stub__kernPfi, i64 1, i32 1, i64 256, i32 1, ptr null, i64 0, ptr null)
  ret i32 %r
}

define void @_Z4loopPfii(ptr %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %r = call i32 @cudaLaunchKernel_ptsz(ptr @_Z19__device_stub__kernPfi, i64 1, i32 1, i64 256, i32 1, ptr null, i64 0, ptr null)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

declare i32 @cudaLaunchKernel_ptsz(ptr, i64, i32, i64, i32, ptr, i64, ptr)
