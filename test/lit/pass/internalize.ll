; Device functions private to their module (internalize.c), asked for with
; ORION_INTERNALIZE=1 (orion-cc does without -fgpu-rdc): every defined
; non-kernel function gets internal linkage; kernels (ptx_kernel, or the
; nvvm.annotations flag, which LLVM reads as ptx_kernel), variables, declarations and available_externally
; copies keep theirs.  Off by default: the IR does not show -fgpu-rdc.
; RUN: env ORION_INTERNALIZE=1 %opt -passes=orion -S %s -o - | FileCheck %s
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF
; RUN: env ORION_INTERNALIZE=0 %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: @gvar = addrspace(1) externally_initialized global i32 0
; OFF: @gvar = addrspace(1) externally_initialized global i32 0
@gvar = addrspace(1) externally_initialized global i32 0

; CHECK-LABEL: define internal i32 @helper(
; OFF-LABEL: define i32 @helper(
define i32 @helper(i32 %x) {
  %y = mul i32 %x, 3
  ret i32 %y
}

; CHECK-LABEL: define internal i32 @tmpl(
; OFF-LABEL: define linkonce_odr i32 @tmpl(
define linkonce_odr i32 @tmpl(i32 %x) {
  %y = add i32 %x, 1
  ret i32 %y
}

; CHECK-LABEL: define internal i32 @weak_helper(
; OFF-LABEL: define weak i32 @weak_helper(
define weak i32 @weak_helper(i32 %x) {
  ret i32 %x
}

; CHECK-LABEL: define available_externally i32 @avail(
define available_externally i32 @avail(i32 %x) {
  ret i32 %x
}

; CHECK: declare i32 @extern_decl(i32)
declare i32 @extern_decl(i32)

; CHECK-LABEL: define ptx_kernel void @kern(
; OFF-LABEL: define ptx_kernel void @kern(
define ptx_kernel void @kern(ptr addrspace(1) %p, i32 %x) {
  %a = call i32 @helper(i32 %x)
  %b = call i32 @tmpl(i32 %a)
  %c = call i32 @weak_helper(i32 %b)
  %d = call i32 @avail(i32 %c)
  %e = call i32 @extern_decl(i32 %d)
  store i32 %e, ptr addrspace(1) %p
  ret void
}

; CHECK-LABEL: define ptx_kernel void @old_kern(
; OFF-LABEL: define ptx_kernel void @old_kern(
define void @old_kern(ptr addrspace(1) %p) {
  store i32 0, ptr addrspace(1) %p
  ret void
}

!nvvm.annotations = !{!0}
!0 = !{ptr @old_kern, !"kernel", i32 1}
