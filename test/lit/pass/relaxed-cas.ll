; atomicCAS as CUDA defines it (atomics.c): the seq_cst cmpxchg in clang's
; atomicCAS wrappers (internal __iAtomicCAS, __uAtomicCAS, __ullAtomicCAS,
; __usAtomicCAS) becomes monotonic at device scope, what nvcc emits (PTX
; atom.relaxed.gpu.cas, no fence); a cmpxchg anywhere else is the program's
; own and keeps its ordering.  ORION_RELAXED_CAS=0 turns it off.
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s
; RUN: env ORION_RELAXED_CAS=0 %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF
; RUN: %opt -passes=orion -S %s -o - | %llc -mcpu=sm_90 -mattr=+ptx80 -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; CHECK-LABEL: define internal i32 @_ZL12__iAtomicCASPiii(
; CHECK: cmpxchg ptr %p, i32 %c, i32 %v syncscope("device") monotonic monotonic
; OFF-LABEL: define internal i32 @_ZL12__iAtomicCASPiii(
; OFF: cmpxchg ptr %p, i32 %c, i32 %v seq_cst seq_cst
define internal i32 @_ZL12__iAtomicCASPiii(ptr %p, i32 %c, i32 %v) #0 {
  %r = cmpxchg ptr %p, i32 %c, i32 %v seq_cst seq_cst
  %o = extractvalue { i32, i1 } %r, 0
  ret i32 %o
}

; CHECK-LABEL: define internal i64 @_ZL14__ullAtomicCASPyyy(
; CHECK: syncscope("device") monotonic monotonic
define internal i64 @_ZL14__ullAtomicCASPyyy(ptr %p, i64 %c, i64 %v) #0 {
  %r = cmpxchg ptr %p, i64 %c, i64 %v seq_cst seq_cst
  %o = extractvalue { i64, i1 } %r, 0
  ret i64 %o
}

; The program's own seq_cst CAS (e.g. __atomic_compare_exchange_n).
; CHECK-LABEL: define i32 @mine(
; CHECK: cmpxchg ptr %p, i32 %c, i32 %v seq_cst seq_cst
define i32 @mine(ptr %p, i32 %c, i32 %v) #0 {
  %r = cmpxchg ptr %p, i32 %c, i32 %v seq_cst seq_cst
  %o = extractvalue { i32, i1 } %r, 0
  ret i32 %o
}

; PTX-LABEL: .func {{.*}}_ZL12__iAtomicCASPiii(
; PTX-NOT: fence
; PTX: atom.relaxed.gpu.cas.b32
; PTX-LABEL: .func {{.*}}_ZL14__ullAtomicCASPyyy(
; PTX-NOT: fence
; PTX: atom.relaxed.gpu.cas.b64
; PTX-LABEL: .func {{.*}}mine(
; PTX: fence.sc.sys
; PTX: atom.acquire.sys.cas.b32
define ptx_kernel void @k(ptr addrspace(1) %a, ptr addrspace(1) %b) #1 {
  %g = addrspacecast ptr addrspace(1) %a to ptr
  %h = addrspacecast ptr addrspace(1) %b to ptr
  %x = call i32 @_ZL12__iAtomicCASPiii(ptr %g, i32 1, i32 2)
  %y = call i64 @_ZL14__ullAtomicCASPyyy(ptr %h, i64 1, i64 2)
  %z = call i32 @mine(ptr %g, i32 %x, i32 3)
  %t = trunc i64 %y to i32
  %s = add i32 %z, %t
  store i32 %s, ptr addrspace(1) %a
  ret void
}

attributes #0 = { noinline "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_90" }
