; Static features (STATuner's list + loads and stores per inferred address
; space + calls): %gen, a kernel pointer parameter, is global; atomics count
; in no space.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-analyze-only -orion-report=%t.json -disable-output %s
; RUN: FileCheck %s < %t.json

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [256 x float] undef, align 4
@other = internal addrspace(3) global [64 x double] undef, align 8

; CHECK: "kernel":"k","sm":80,
; CHECK-SAME: "features":{"instructions":15,"branches":1,"loads":2,"stores":2,"int_ops":1,"float_ops":2,"loops":0,"barriers":1,"calls":1,"global_loads":1,"global_stores":1,"shared_loads":1,"shared_stores":1,"local_loads":0,"local_stores":0,"const_loads":0,"const_stores":0,"generic_loads":0,"generic_stores":0,"atomics":1,"smem_static":1024,
define ptx_kernel void @k(ptr addrspace(1) %p, ptr %gen) #0 {
entry:
  %tid = call i32 @llvm.nvvm.read.ptx.sreg.tid.x()
  %g = getelementptr float, ptr addrspace(3) @tile, i32 %tid
  %x = load float, ptr addrspace(1) %p
  store float %x, ptr addrspace(3) %g
  call void @llvm.nvvm.barrier0()
  %y = load float, ptr addrspace(3) %g
  %z = fmul float %x, %y
  %c = fcmp ogt float %z, 0.0
  br i1 %c, label %then, label %done
then:
  %i = add i32 %tid, 1
  %old = atomicrmw add ptr %gen, i32 %i monotonic
  store float %z, ptr addrspace(1) %p
  br label %done
done:
  call void @ext()
  ret void
}

declare i32 @llvm.nvvm.read.ptx.sreg.tid.x()
declare void @llvm.nvvm.barrier0()
declare void @ext()

attributes #0 = { "target-cpu"="sm_80" }
