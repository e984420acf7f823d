; Loads and stores by the address space inferred from the pointer's origin
; (passes/addrspace.c): through GEPs, bitcasts, addrspacecasts, selects and
; phis (a loop-carried pointer too) to a kernel parameter (global), a
; __shared__ or __constant__ global, an alloca (local) or a by-value
; parameter (const); a pointer loaded from memory, a device function's
; parameter and a select of two spaces stay generic.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-analyze-only -orion-report=%t.json -disable-output %s
; RUN: FileCheck %s < %t.json

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { [4 x float] }

@tile = internal addrspace(3) global [256 x float] undef, align 4
@coef = internal addrspace(4) global [16 x float] zeroinitializer, align 4

; Global: the parameter %out through a GEP, a loop-carried phi, a bitcast.
; Shared: @tile through an addrspacecast instruction and a constant
; expression, and a select of two shared pointers.  Const: @coef through a
; constant-expression cast, and the by-value %s.  Local: the alloca.
; Generic: the pointer loaded from %pp (that load itself reads global), the
; select of %out and @tile.
; CHECK: "kernel":"spaces"
; CHECK-SAME: "loads":10,"stores":5,
; CHECK-SAME: "global_loads":3,"global_stores":1,"shared_loads":2,"shared_stores":2,"local_loads":1,"local_stores":1,"const_loads":2,"const_stores":0,"generic_loads":2,"generic_stores":1,"atomics":0,
define ptx_kernel void @spaces(ptr %out, ptr %pp, ptr byval(%struct.S) align 4 %s, i32 %n) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %buf = alloca [8 x float], align 4
  %shg = addrspacecast ptr addrspace(3) @tile to ptr
  %sh = getelementptr float, ptr %shg, i32 %tid
  store float 1.0, ptr %sh
  %sh2 = getelementptr float, ptr addrspacecast (ptr addrspace(3) @tile to ptr), i32 7
  %c = icmp eq i32 %tid, 0
  %shsel = select i1 %c, ptr %sh, ptr %sh2
  %a = load float, ptr %shsel
  %cf = getelementptr float, ptr addrspacecast (ptr addrspace(4) @coef to ptr), i32 %tid
  %b = load float, ptr %cf
  %sv = load float, ptr %s
  %lp = getelementptr float, ptr %buf, i32 %tid
  store float %a, ptr %lp
  %lv = load float, ptr %lp
  %mixed = select i1 %c, ptr %out, ptr %shg
  %mv = load float, ptr %mixed
  %inner = load ptr, ptr %pp
  %iv = load float, ptr %inner
  store float %iv, ptr %inner
  %first = getelementptr float, ptr %out, i32 %tid
  br label %loop
loop:
  %p = phi ptr [ %first, %entry ], [ %next, %loop ]
  %i = phi i32 [ 0, %entry ], [ %i1, %loop ]
  %v = load float, ptr %p
  %w = fadd float %v, %b
  store float %w, ptr %p
  %next = getelementptr float, ptr %p, i32 32
  %i1 = add i32 %i, 1
  %more = icmp slt i32 %i1, %n
  br i1 %more, label %loop, label %done
done:
  %q = bitcast ptr %out to ptr
  %x = load float, ptr %q
  %y = load float, ptr %sh
  %z = fadd float %x, %y
  %t0 = fadd float %z, %sv
  %t1 = fadd float %t0, %lv
  %t2 = fadd float %t1, %mv
  store float %t2, ptr %sh2
  ret void
}

; A device function's parameter may point anywhere: generic, even when its
; only caller passes a kernel parameter (no interprocedural inference).
; CHECK: "kernel":"calls_helper"
; CHECK-SAME: "global_loads":0,"global_stores":0,"shared_loads":0,"shared_stores":0,"local_loads":0,"local_stores":0,"const_loads":0,"const_stores":0,"generic_loads":1,"generic_stores":1,
define ptx_kernel void @calls_helper(ptr %p) #0 {
  call void @helper(ptr %p)
  ret void
}

define internal void @helper(ptr %q) noinline {
  %v = load float, ptr %q
  %w = fmul float %v, 2.0
  store float %w, ptr %q
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()

attributes #0 = { "target-cpu"="sm_90" }
