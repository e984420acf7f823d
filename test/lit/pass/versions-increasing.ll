; Versions for a register-heavy kernel (max-live 160 = 40 live <4 x float>).
; sm_90, 256 threads/block (assumed): register-cap levels are
; 8 warps (255), 16 (128), 24 (80), 32 (64), 40 (48), 48 (40), 64 (32).
; The original (160 regs) runs 8 warps/SM: direction increasing.  The
; conservative level is 16 warps (cap 128: 32 spilled slots x 4 B x 256
; threads = 32 KB/block still fits twice); steps sample 24, 40 and the top, 64.
; No fail-safe: the original already runs one block per SM.
; That is Fig. 8 as published (-orion-cap-floor=0).  By default no clone is
; capped below 40 % of max-live (64 here): the steps stop at 32 warps.
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=FLOOR
; RUN: env ORION_CAP_FLOOR=0 %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=NOFLOOR
; FLOOR: c"orion1;k=heavy;sm=90;dir=inc;ml=160;thr=32;blk=256;bk=0;w0=8;wmax=64;v=orig:o:0:8,r128:c:128:16,r80:s:80:24,r64:s:64:32;np=1;hp=0;
; NOFLOOR: v=orig:o:0:8,r128:c:128:16,r80:s:80:24,r48:s:48:40,r32:s:32:64;
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-split-clones -orion-cap-floor=0 -orion-report=%t.json -S %s -o %t.ll
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; RUN: FileCheck %s --check-prefix=JSON < %t.json
; Idempotent: a second run adds nothing.
; RUN: %opt -passes=orion -orion-split-clones -orion-cap-floor=0 -S %t.ll -o %t2.ll
; RUN: grep -v ModuleID %t.ll > %t.a && grep -v ModuleID %t2.ll > %t.b && diff %t.a %t.b

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

; IR: @__orion_records_{{[0-9a-f]+}} = addrspace(1) constant [{{[0-9]+}} x i8] c"orion1;k=heavy;sm=90;dir=inc;ml=160;thr=32;blk=256;bk=0;w0=8;wmax=64;v=orig:o:0:8,r128:c:128:16,r80:s:80:24,r48:s:48:40,r32:s:32:64;np=1;hp=6;dsm=r128:000000,r80:000000,r48:000000,r32:000000\0A\00", align 1
; IR: define ptx_kernel void @heavy(ptr addrspace(1) %p) #[[ORIG:[0-9]+]]
; IR: define ptx_kernel void @heavy__orion_r128(ptr addrspace(1) %p, [[HIDDEN:i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z]]) #[[R128:[0-9]+]]
; IR: define ptx_kernel void @heavy__orion_r80(ptr addrspace(1) %p, [[HIDDEN]]) #[[R80:[0-9]+]]
; IR: define ptx_kernel void @heavy__orion_r48(ptr addrspace(1) %p, [[HIDDEN]]) #[[R48:[0-9]+]]
; IR: define ptx_kernel void @heavy__orion_r32(ptr addrspace(1) %p, [[HIDDEN]]) #[[R32:[0-9]+]]
; IR-NOT: define {{.*}}__orion_p
; The split clone: uncapped, the original's attributes, the hidden parameters.
; IR: define ptx_kernel void @heavy__orion_split(ptr addrspace(1) %p, [[HIDDEN]]) #[[ORIG]]
; IR: attributes #[[ORIG]] = { "target-cpu"="sm_90" }
; IR: attributes #[[R128]] = { "nvvm.maxnreg"="128" "target-cpu"="sm_90" }
; IR: attributes #[[R80]] = { "nvvm.maxnreg"="80" "target-cpu"="sm_90" }
; IR: attributes #[[R48]] = { "nvvm.maxnreg"="48" "target-cpu"="sm_90" }
; IR: attributes #[[R32]] = { "nvvm.maxnreg"="32" "target-cpu"="sm_90" }

; JSON: "kernel":"heavy","sm":90,"max_live":160,"threshold":32,"block":256,"block_known":false,"direction":"increasing","original_warps":8,"max_warps":64,
; JSON-SAME: "versions":[{"tag":"orig","role":"original","max_regs":0,"target_warps":8,"pad":false},{"tag":"r128","role":"conservative","max_regs":128,"target_warps":16,"pad":false},{"tag":"r80","role":"step","max_regs":80,"target_warps":24,"pad":false},{"tag":"r48","role":"step","max_regs":48,"target_warps":40,"pad":false},{"tag":"r32","role":"step","max_regs":32,"target_warps":64,"pad":false}],"clones":4,
; JSON-SAME: "hidden_params":6,"split_note":null}

define ptx_kernel void @heavy(ptr addrspace(1) %p) #0 {
  %g0 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 0
  %v0 = load volatile <4 x float>, ptr addrspace(1) %g0
  %g1 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 1
  %v1 = load volatile <4 x float>, ptr addrspace(1) %g1
  %g2 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 2
  %v2 = load volatile <4 x float>, ptr addrspace(1) %g2
  %g3 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 3
  %v3 = load volatile <4 x float>, ptr addrspace(1) %g3
  %g4 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 4
  %v4 = load volatile <4 x float>, ptr addrspace(1) %g4
  %g5 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 5
  %v5 = load volatile <4 x float>, ptr addrspace(1) %g5
  %g6 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 6
  %v6 = load volatile <4 x float>, ptr addrspace(1) %g6
  %g7 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 7
  %v7 = load volatile <4 x float>, ptr addrspace(1) %g7
  %g8 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 8
  %v8 = load volatile <4 x float>, ptr addrspace(1) %g8
  %g9 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 9
  %v9 = load volatile <4 x float>, ptr addrspace(1) %g9
  %g10 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 10
  %v10 = load volatile <4 x float>, ptr addrspace(1) %g10
  %g11 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 11
  %v11 = load volatile <4 x float>, ptr addrspace(1) %g11
  %g12 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 12
  %v12 = load volatile <4 x float>, ptr addrspace(1) %g12
  %g13 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 13
  %v13 = load volatile <4 x float>, ptr addrspace(1) %g13
  %g14 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 14
  %v14 = load volatile <4 x float>, ptr addrspace(1) %g14
  %g15 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 15
  %v15 = load volatile <4 x float>, ptr addrspace(1) %g15
  %g16 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 16
  %v16 = load volatile <4 x float>, ptr addrspace(1) %g16
  %g17 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 17
  %v17 = load volatile <4 x float>, ptr addrspace(1) %g17
  %g18 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 18
  %v18 = load volatile <4 x float>, ptr addrspace(1) %g18
  %g19 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 19
  %v19 = load volatile <4 x float>, ptr addrspace(1) %g19
  %g20 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 20
  %v20 = load volatile <4 x float>, ptr addrspace(1) %g20
  %g21 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 21
  %v21 = load volatile <4 x float>, ptr addrspace(1) %g21
  %g22 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 22
  %v22 = load volatile <4 x float>, ptr addrspace(1) %g22
  %g23 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 23
  %v23 = load volatile <4 x float>, ptr addrspace(1) %g23
  %g24 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 24
  %v24 = load volatile <4 x float>, ptr addrspace(1) %g24
  %g25 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 25
  %v25 = load volatile <4 x float>, ptr addrspace(1) %g25
  %g26 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 26
  %v26 = load volatile <4 x float>, ptr addrspace(1) %g26
  %g27 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 27
  %v27 = load volatile <4 x float>, ptr addrspace(1) %g27
  %g28 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 28
  %v28 = load volatile <4 x float>, ptr addrspace(1) %g28
  %g29 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 29
  %v29 = load volatile <4 x float>, ptr addrspace(1) %g29
  %g30 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 30
  %v30 = load volatile <4 x float>, ptr addrspace(1) %g30
  %g31 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 31
  %v31 = load volatile <4 x float>, ptr addrspace(1) %g31
  %g32 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 32
  %v32 = load volatile <4 x float>, ptr addrspace(1) %g32
  %g33 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 33
  %v33 = load volatile <4 x float>, ptr addrspace(1) %g33
  %g34 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 34
  %v34 = load volatile <4 x float>, ptr addrspace(1) %g34
  %g35 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 35
  %v35 = load volatile <4 x float>, ptr addrspace(1) %g35
  %g36 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 36
  %v36 = load volatile <4 x float>, ptr addrspace(1) %g36
  %g37 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 37
  %v37 = load volatile <4 x float>, ptr addrspace(1) %g37
  %g38 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 38
  %v38 = load volatile <4 x float>, ptr addrspace(1) %g38
  %g39 = getelementptr <4 x float>, ptr addrspace(1) %p, i64 39
  %v39 = load volatile <4 x float>, ptr addrspace(1) %g39
  %s1 = fadd <4 x float> %v0, %v1
  %s2 = fadd <4 x float> %s1, %v2
  %s3 = fadd <4 x float> %s2, %v3
  %s4 = fadd <4 x float> %s3, %v4
  %s5 = fadd <4 x float> %s4, %v5
  %s6 = fadd <4 x float> %s5, %v6
  %s7 = fadd <4 x float> %s6, %v7
  %s8 = fadd <4 x float> %s7, %v8
  %s9 = fadd <4 x float> %s8, %v9
  %s10 = fadd <4 x float> %s9, %v10
  %s11 = fadd <4 x float> %s10, %v11
  %s12 = fadd <4 x float> %s11, %v12
  %s13 = fadd <4 x float> %s12, %v13
  %s14 = fadd <4 x float> %s13, %v14
  %s15 = fadd <4 x float> %s14, %v15
  %s16 = fadd <4 x float> %s15, %v16
  %s17 = fadd <4 x float> %s16, %v17
  %s18 = fadd <4 x float> %s17, %v18
  %s19 = fadd <4 x float> %s18, %v19
  %s20 = fadd <4 x float> %s19, %v20
  %s21 = fadd <4 x float> %s20, %v21
  %s22 = fadd <4 x float> %s21, %v22
  %s23 = fadd <4 x float> %s22, %v23
  %s24 = fadd <4 x float> %s23, %v24
  %s25 = fadd <4 x float> %s24, %v25
  %s26 = fadd <4 x float> %s25, %v26
  %s27 = fadd <4 x float> %s26, %v27
  %s28 = fadd <4 x float> %s27, %v28
  %s29 = fadd <4 x float> %s28, %v29
  %s30 = fadd <4 x float> %s29, %v30
  %s31 = fadd <4 x float> %s30, %v31
  %s32 = fadd <4 x float> %s31, %v32
  %s33 = fadd <4 x float> %s32, %v33
  %s34 = fadd <4 x float> %s33, %v34
  %s35 = fadd <4 x float> %s34, %v35
  %s36 = fadd <4 x float> %s35, %v36
  %s37 = fadd <4 x float> %s36, %v37
  %s38 = fadd <4 x float> %s37, %v38
  %s39 = fadd <4 x float> %s38, %v39
  store <4 x float> %s39, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="sm_90" }
