; The unroll versions of a split build (-orion-split-clones): like the
; register-capped clones, <kernel>__orion_u4 and __orion_u8 get the 6
; hidden split parameters after their own, and their %ctaid reads become
; read + offset, so the runtime can launch them on chunks of a grid; the
; record keeps u4 and u8 and says hp=6.  An unroll clone whose own
; inlining leaves a %ctaid read in a called function (here written by
; hand, as the early phase would leave it: @h__orion_u4 calls @row, which
; @h has inlined) is not split-safe: it is dropped and the kernel keeps
; its other versions and the split parameters.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion-unroll-versions,orion -orion-split-clones -orion-report=%t.json -S %s -o %t.ll
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REP < %t.json
; Idempotent.
; RUN: %opt -passes=orion -orion-split-clones -S %t.ll -o %t2.ll
; RUN: grep -v ModuleID %t.ll > %t.a && grep -v ModuleID %t2.ll > %t.b && diff %t.a %t.b
; The clones assemble.
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 %t.ll -o %t.ptx
; RUN: %if ptxas %{ %cuda_path/bin/ptxas -c -arch sm_90 %t.ptx -o %t.cubin %}
; Without split clones the unroll versions keep the kernel's signature.
; RUN: %opt -passes=orion-unroll-versions,orion -S %s -o - | FileCheck %s --check-prefix=NOSPLIT

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @gsum(ptr %x, ptr %y, i32 %n)
; CHECK-LABEL: define ptx_kernel void @h(
; CHECK-LABEL: define ptx_kernel void @gsum__orion_u4(ptr %x, ptr %y, i32 %n, i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z)
; CHECK: %[[B4:[0-9a-z]+]] = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: add i32 %[[B4]], %__orion_off_x
; CHECK-COUNT-4: load float
; CHECK-LABEL: define ptx_kernel void @gsum__orion_u8(ptr %x, ptr %y, i32 %n, i32 %__orion_off_x,
; CHECK: add i32 %{{[0-9a-z]+}}, %__orion_off_x
; CHECK-COUNT-8: load float
; CHECK-LABEL: define ptx_kernel void @gsum__orion_split(ptr %x, ptr %y, i32 %n, i32 %__orion_off_x,
; CHECK-NOT: @h__orion_u4(
; REP: "kernel":"gsum"
; REP-SAME: v=orig:o:0:64,{{.*}}u4:u:0:64,u8:u:0:64;np=3;hp=6
; REP: "kernel":"h"
; REP-NOT: u4:u
; REP-SAME: ;np=2;hp=6
; NOSPLIT: define ptx_kernel void @gsum__orion_u4(ptr %x, ptr %y, i32 %n) #0 {

define ptx_kernel void @gsum(ptr %x, ptr %y, i32 %n) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %p = getelementptr float, ptr %x, i32 %i
  %v = load float, ptr %p
  %acc1 = fadd float %acc, %v
  %i1 = add nsw i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %loop, label %done
done:
  %q = getelementptr float, ptr %y, i32 %b
  store float %acc1, ptr %q
  br label %exit
exit:
  ret void
}

; @h: the row read inlined.
define ptx_kernel void @h(ptr %y, i32 %n) #0 {
entry:
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %q = getelementptr float, ptr %y, i32 %b
  store float 1.0, ptr %q
  ret void
}

; Its unroll clone as the early phase would leave it, not adopted yet.
define ptx_kernel void @h__orion_u4(ptr %y, i32 %n) #1 {
entry:
  %b = call i32 @row()
  %b2 = add i32 %b, 0
  %q = getelementptr float, ptr %y, i32 %b2
  store float 1.0, ptr %q
  ret void
}

define internal i32 @row() #2 {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  ret i32 %b
}

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_90" "orion-unroll-version"="1" }
attributes #2 = { noinline "target-cpu"="sm_90" }
