; Max-live in 32-bit register units, hand-computed for each kernel.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-analyze-only -orion-report=%t.json -disable-output %s
; RUN: FileCheck %s < %t.json

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; After %v: {a:1, g:2, b:2, v:4} = 9 (%g lives to the last store); the i1
; %c counts 0; kernel args count 0.
; CHECK: "kernel":"straight","sm":90,"max_live":9,
define ptx_kernel void @straight(ptr addrspace(1) %p) #0 {
  %a = load i32, ptr addrspace(1) %p
  %g = getelementptr i8, ptr addrspace(1) %p, i64 8
  %b = load i64, ptr addrspace(1) %g
  %v = load <4 x float>, ptr addrspace(1) %p
  %t = trunc i64 %b to i32
  %c = icmp eq i32 %a, 0
  %x = add i32 %a, %t
  %y = select i1 %c, i32 %x, i32 7
  %f = extractelement <4 x float> %v, i32 0
  store i32 %y, ptr addrspace(1) %p
  store float %f, ptr addrspace(1) %g
  ret void
}

; Loop: at %ptr, {i:1, acc:2, ptr:2} = 5; phi operands live only on their edge.
; CHECK: "kernel":"loop","sm":90,"max_live":5,
; CHECK-SAME: "loops":1,
define ptx_kernel void @loop(ptr addrspace(1) %p) #0 {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %acc = phi double [ 0.0, %entry ], [ %acc1, %body ]
  %ptr = getelementptr double, ptr addrspace(1) %p, i32 %i
  %x = load double, ptr addrspace(1) %ptr
  %acc1 = fadd double %acc, %x
  %i1 = add i32 %i, 1
  %c = icmp ult i32 %i1, 100
  br i1 %c, label %body, label %exit
exit:
  store double %acc1, ptr addrspace(1) %p
  ret void
}

; sq has max-live 2 ({x, y}); across the call {a:1, b:2} are live: 3 + 2 = 5.
; CHECK: "kernel":"caller","sm":90,"max_live":5,
; CHECK-SAME: "calls":1,
define ptx_kernel void @caller(ptr addrspace(1) %p) #0 {
  %a = load i32, ptr addrspace(1) %p
  %b = load double, ptr addrspace(1) %p
  %fa = load float, ptr addrspace(1) %p
  %r = call float @sq(float %fa)
  %bi = fptosi double %b to i32
  %s = add i32 %a, %bi
  store i32 %s, ptr addrspace(1) %p
  store float %r, ptr addrspace(1) %p
  ret void
}

define internal float @sq(float %x) #1 {
  %y = fmul float %x, %x
  %z = fadd float %y, %x
  ret float %z
}

; Dead definitions still occupy a register at their definition: 2 + 2.
; CHECK: "kernel":"dead","sm":90,"max_live":4,
define ptx_kernel void @dead(ptr addrspace(1) %p) #0 {
  %a = load i64, ptr addrspace(1) %p
  %b = load volatile i64, ptr addrspace(1) %p
  store i64 %a, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { noinline "target-cpu"="sm_90" }
