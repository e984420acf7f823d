; Device arrays get nvcc's alignment (align.c): the largest power of two, at
; most 16, that divides the size; the loads and stores then carry it
; (address-space, then alignment inference: the stack array's load is
; local), so a 4-byte load from a char array is one load.
; A declaration (extern __shared__) and a scalar keep theirs; -O0 code is
; left alone.  Off by default (orion-cc --orion-codegen=align-arrays turns it
; on): ORION_ALIGN_ARRAYS=1 or -orion-align-arrays.
; RUN: env ORION_ALIGN_ARRAYS=1 %opt -passes=orion -S %s -o - | FileCheck %s
; RUN: %opt -passes=orion -orion-align-arrays -S %s -o - | FileCheck %s
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF
; RUN: env ORION_ALIGN_ARRAYS=1 %opt -passes=orion -orion-align-arrays=false -S %s -o - | FileCheck %s --check-prefix=OFF

; CHECK: @tile = internal addrspace(3) global [64 x float] undef, align 16
; CHECK: @odd = internal addrspace(3) global [3 x i16] undef, align 2
; CHECK: @dyn = external addrspace(3) global [0 x i32], align 4
; OFF: @tile = internal addrspace(3) global [64 x float] undef, align 4
; OFF: @odd = internal addrspace(3) global [3 x i16] undef, align 2

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

@tile = internal addrspace(3) global [64 x float] undef, align 4
@odd = internal addrspace(3) global [3 x i16] undef, align 2
@dyn = external addrspace(3) global [0 x i32], align 4

; CHECK-LABEL: define ptx_kernel void @k(
; CHECK: %board = alloca [20 x i8], align 4
; CHECK: %dist = alloca [16 x i32], align 16
; CHECK: %one = alloca i32, align 4
; CHECK: load i32, ptr addrspace(5) %{{[0-9]+}}, align 4
; CHECK: load float, ptr addrspace(3) %t, align 16
; OFF-LABEL: define ptx_kernel void @k(
; OFF: %board = alloca [20 x i8], align 1
; OFF: %dist = alloca [16 x i32], align 4
; OFF: load i32, ptr %board, align 1
define ptx_kernel void @k(ptr addrspace(1) %out, i32 %i) #0 {
  %board = alloca [20 x i8], align 1
  %dist = alloca [16 x i32], align 4
  %one = alloca i32, align 4
  call void @fill(ptr %board, ptr %dist, ptr %one)
  %w = load i32, ptr %board, align 1
  %p = getelementptr [16 x i32], ptr %dist, i32 0, i32 %i
  %d = load i32, ptr %p, align 4
  %t = getelementptr [64 x float], ptr addrspace(3) @tile, i32 0, i32 4
  %f = load float, ptr addrspace(3) %t, align 4
  %fi = bitcast float %f to i32
  %s0 = add i32 %w, %d
  %s = add i32 %s0, %fi
  store i32 %s, ptr addrspace(1) %out
  ret void
}

; CHECK-LABEL: define void @unopt(
; CHECK: alloca [16 x i32], align 4
define void @unopt() #1 {
  %a = alloca [16 x i32], align 4
  call void @fill(ptr null, ptr %a, ptr null)
  ret void
}

declare void @fill(ptr, ptr, ptr)

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { noinline optnone "target-cpu"="sm_90" }
