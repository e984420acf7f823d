; The unroll versions (unroll.c) through opt: `orion-unroll-versions` (the
; early phase, OptimizerEarly in clang) clones a kernel with a small
; innermost loop of run-time trip count as <kernel>__orion_u4 and
; <kernel>__orion_u8 with that loop unrolled 4x and 8x (four and eight
; loads in the body and a remainder loop), and `orion` records them as
; versions u4 and u8, role unroll, uncapped.  A loop with a barrier
; (convergent: the unroller will not unroll it with a remainder) gives no
; clone, nor does a loop under the user's `#pragma unroll 1`
; (llvm.loop.unroll.disable).  Without the early phase, or with
; ORION_UNROLL_VERSIONS=0, no kernel gets one.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion-unroll-versions,orion -orion-report=%t.json -S %s -o - | FileCheck %s
; RUN: FileCheck %s --check-prefix=REP --input-file %t.json
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF
; RUN: env ORION_UNROLL_VERSIONS=0 %opt -passes=orion-unroll-versions,orion -S %s -o - | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define ptx_kernel void @sum(
; CHECK-COUNT-1: load float
; CHECK-NOT: load float
; CHECK-LABEL: define ptx_kernel void @barrier(
; CHECK-LABEL: define ptx_kernel void @pragma1(
; CHECK-LABEL: define ptx_kernel void @sum__orion_u4(
; CHECK-COUNT-4: load float
; CHECK: ret void
; CHECK-LABEL: define ptx_kernel void @sum__orion_u8(
; CHECK-COUNT-8: load float
; CHECK: ret void
; CHECK-NOT: define ptx_kernel
; REP: "kernel":"sum"
; REP-SAME: "versions":[{"tag":"orig"{{.*}}{"tag":"u4","role":"unroll","max_regs":0,{{.*}}{"tag":"u8","role":"unroll","max_regs":0,
; REP-SAME: v=orig:o:0:64,{{.*}}u4:u:0:64,u8:u:0:64;
; REP: "kernel":"barrier"
; REP-NOT: "u{{[48]}}"
; REP: "kernel":"pragma1"
; REP-NOT: "u{{[48]}}"
; OFF-NOT: __orion_u
define ptx_kernel void @sum(ptr %x, ptr %y, i32 %n) #0 {
entry:
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
  store float %acc1, ptr %y
  br label %exit
exit:
  ret void
}

define ptx_kernel void @barrier(ptr %x, ptr %y, i32 %n) #0 {
entry:
  %c = icmp sgt i32 %n, 0
  br i1 %c, label %loop, label %exit
loop:
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %acc = phi float [ 0.0, %entry ], [ %acc1, %loop ]
  %p = getelementptr float, ptr %x, i32 %i
  %v = load float, ptr %p
  call void @llvm.nvvm.barrier.cta.sync.aligned.all(i32 0)
  %acc1 = fadd float %acc, %v
  %i1 = add nsw i32 %i, 1
  %d = icmp slt i32 %i1, %n
  br i1 %d, label %loop, label %done
done:
  store float %acc1, ptr %y
  br label %exit
exit:
  ret void
}

define ptx_kernel void @pragma1(ptr %x, ptr %y, i32 %n) #0 {
entry:
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
  br i1 %d, label %loop, label %done, !llvm.loop !0
done:
  store float %acc1, ptr %y
  br label %exit
exit:
  ret void
}

declare void @llvm.nvvm.barrier.cta.sync.aligned.all(i32) #1

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { convergent nounwind }
!0 = distinct !{!0, !1}
!1 = !{!"llvm.loop.unroll.disable"}
