; The pre-LLVM-21 form: kernels and launch bounds in !nvvm.annotations.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-report=%t.json -S %s -o %t.ll
; RUN: FileCheck %s < %t.json
; RUN: FileCheck %s --check-prefix=IR < %t.ll

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK: "kernel":"oldk","sm":90,{{.*}}"block":96,"block_known":true,
; IR: @__orion_records_{{[0-9a-f]+}} = addrspace(1) constant {{.*}}c"orion1;k=oldk;
; IR: define {{.*}}void @oldk(
define void @oldk(ptr addrspace(1) %p) #0 {
  store float 1.0, ptr addrspace(1) %p
  ret void
}

; Not a kernel: no versions, no record.
; CHECK-NOT: "kernel":"helper"
; IR-NOT: @helper__orion
define void @helper(ptr addrspace(1) %p) #0 {
  ret void
}

attributes #0 = { "target-cpu"="sm_90" }

!nvvm.annotations = !{!0, !1}
!0 = !{ptr @oldk, !"kernel", i32 1}
!1 = !{ptr @oldk, !"maxntidx", i32 32, !"maxntidy", i32 3}
