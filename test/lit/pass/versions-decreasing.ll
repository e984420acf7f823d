; Low pressure: direction decreasing.  Launch bounds fix the block size.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-split-clones -orion-report=%t.json -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: FileCheck %s --check-prefix=JSON < %t.json
; The clones reach PTX as entries with .maxnreg; the record as a global.
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 %t.ll -o - | FileCheck %s --check-prefix=PTX

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; 128 threads = 4 warps/block: 16 blocks reach 64 warps with <= 32 registers.
; Fail-safe clone at 32 (without the user's minctasm, which would override
; the cap); pads near 3/4, 1/2, 1/4 of 16 blocks: 48, 32, 16 warps.
; JSON: "kernel":"light","sm":90,"max_live":20,"threshold":32,"block":128,"block_known":true,"direction":"decreasing","original_warps":64,"max_warps":64,
; JSON-SAME: "versions":[{"tag":"orig","role":"original","max_regs":0,"target_warps":64,"pad":false},{"tag":"r32","role":"failsafe","max_regs":32,"target_warps":64,"pad":false},{"tag":"p48","role":"step","max_regs":0,"target_warps":48,"pad":true},{"tag":"p32","role":"step","max_regs":0,"target_warps":32,"pad":true},{"tag":"p16","role":"step","max_regs":0,"target_warps":16,"pad":true}],"clones":1,
; IR: define ptx_kernel void @light(ptr addrspace(1) %p) #[[L:[0-9]+]]
; IR: define ptx_kernel void @light__orion_r32(ptr addrspace(1) %p, i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z) #[[C:[0-9]+]]
; IR: define ptx_kernel void @light__orion_split(ptr addrspace(1) %p, i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z) #[[L]]
; Padding versions only: the split clone is the one clone.
; IR: define ptx_kernel void @cube__orion_split(ptr addrspace(1) %p, i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z) #[[CUBE:[0-9]+]]
; IR-NOT: @cube__orion
; IR: attributes #[[L]] = { "nvvm.maxntid"="128" "nvvm.minctasm"="4" "target-cpu"="sm_90" }
; IR: attributes #[[CUBE]] = { "nvvm.maxntid"="64,2,2" "target-cpu"="sm_90" }
; IR: attributes #[[C]] = { "nvvm.maxnreg"="32" "nvvm.maxntid"="128" "target-cpu"="sm_90" }
define ptx_kernel void @light(ptr addrspace(1) %p) #0 {
  %g1 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 1
  %g2 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 2
  %g3 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 3
  %g4 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 4
  %v0 = load volatile <4 x float>, ptr addrspace(1) %p
  %v1 = load volatile <4 x float>, ptr addrspace(1) %g1
  %v2 = load volatile <4 x float>, ptr addrspace(1) %g2
  %v3 = load volatile <4 x float>, ptr addrspace(1) %g3
  %v4 = load volatile <4 x float>, ptr addrspace(1) %g4
  %s1 = fadd <4 x float> %v0, %v1
  %s2 = fadd <4 x float> %s1, %v2
  %s3 = fadd <4 x float> %s2, %v3
  %s4 = fadd <4 x float> %s3, %v4
  store <4 x float> %s4, ptr addrspace(1) %p
  ret void
}

; 3-D launch bounds: 64 x 2 x 2 = 256 threads.  Max-live 0 < 32/2: no
; fail-safe clone, only padding steps (8 blocks -> 6, 4, 2).
; JSON: "kernel":"cube","sm":90,{{.*}}"block":256,"block_known":true,
; JSON-SAME: "versions":[{"tag":"orig","role":"original","max_regs":0,"target_warps":64,"pad":false},{"tag":"p48","role":"step","max_regs":0,"target_warps":48,"pad":true},{"tag":"p32","role":"step","max_regs":0,"target_warps":32,"pad":true},{"tag":"p16","role":"step","max_regs":0,"target_warps":16,"pad":true}],"clones":0,
define ptx_kernel void @cube(ptr addrspace(1) %p) #1 {
  store float 1.0, ptr addrspace(1) %p
  ret void
}

; PTX: .visible .global .align 1 .b8 __orion_records_{{[0-9a-f]+}}[
; PTX: .visible .entry light(
; PTX: .visible .entry light__orion_r32(
; PTX-NEXT: .param .u64 {{.*}}
; PTX-COUNT-6: .param .u32 light__orion_r32_param_{{[1-6]}}
; PTX-NEXT: )
; PTX-NEXT: .maxntid 128
; PTX-NEXT: .maxnreg 32

attributes #0 = { "nvvm.maxntid"="128" "nvvm.minctasm"="4" "target-cpu"="sm_90" }
attributes #1 = { "nvvm.maxntid"="64,2,2" "target-cpu"="sm_90" }
