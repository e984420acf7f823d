; The user's register limits are ceilings for every version: a kernel held
; to N registers by __maxnreg__ or __launch_bounds__ gets no clone capped
; above N, the model sees at most N registers for the original, and the
; report and the remark say so.  sm_90, max-live 160 (Inputs/heavy160.ll).
;
; __launch_bounds__(256, 4): 4 blocks of 8 warps need <= 64 registers.
; The original runs 32 warps/SM, not the 8 its max-live alone would give.
; RUN: sed 's/ATTRS/"nvvm.maxntid"="256" "nvvm.minctasm"="4"/' %S/Inputs/heavy160.ll > %t.lb.ll
; RUN: rm -f %t.lb.json
; RUN: %opt -passes=orion -orion-report=%t.lb.json -pass-remarks=orion -S %t.lb.ll -o %t.lb.out.ll 2>%t.lb.remarks
; RUN: FileCheck %s --check-prefix=LB < %t.lb.json
; RUN: FileCheck %s --check-prefix=LB-REMARK < %t.lb.remarks
; RUN: FileCheck %s --check-prefix=CAP64 < %t.lb.out.ll
; LB: "kernel":"heavy","sm":90,"max_live":160,"threshold":32,"block":256,"block_known":true,"direction":"increasing","original_warps":32,
; LB-SAME: "versions":[{"tag":"orig","role":"original","max_regs":0,"target_warps":32,"pad":false},{"tag":"r40",
; LB-SAME: "reg_limit":64,"limit_note":"register limit 64 from __launch_bounds__(256, 4) holds the original and every version; max-live taken as the limit"
; LB-REMARK: remark: {{.*}}kernel heavy: {{.*}}; register limit 64 from __launch_bounds__(256, 4) holds the original and every version
; No clone above 64 registers; the split clone keeps the original's bounds.
; CAP64-NOT: "nvvm.maxnreg"="{{(6[5-9]|[7-9][0-9]|[1-2][0-9][0-9])}}"
; CAP64: define ptx_kernel void @heavy__orion_r40(
; CAP64-NOT: "nvvm.maxnreg"="{{(6[5-9]|[7-9][0-9]|[1-2][0-9][0-9])}}"
; CAP64: attributes #{{[0-9]+}} = { "nvvm.maxntid"="256" "nvvm.minctasm"="4" "target-cpu"="sm_90" }
; CAP64-NOT: "nvvm.maxnreg"="{{(6[5-9]|[7-9][0-9]|[1-2][0-9][0-9])}}"
;
; __maxnreg__(40) (clang 22 ignores the attribute in CUDA source; other
; front ends and hand-written IR carry it).
; RUN: sed 's/ATTRS/"nvvm.maxnreg"="40"/' %S/Inputs/heavy160.ll > %t.mr.ll
; RUN: rm -f %t.mr.json
; RUN: %opt -passes=orion -orion-report=%t.mr.json -S %t.mr.ll -o %t.mr.out.ll
; RUN: FileCheck %s --check-prefix=MR < %t.mr.json
; RUN: FileCheck %s --check-prefix=CAP40 < %t.mr.out.ll
; MR: "kernel":"heavy","sm":90,"max_live":160,"threshold":32,"block":256,"block_known":false,"direction":"increasing","original_warps":48,
; MR-SAME: "versions":[{"tag":"orig","role":"original","max_regs":0,"target_warps":48,"pad":false},{"tag":"r32",
; MR-SAME: "reg_limit":40,"limit_note":"register limit 40 from __maxnreg__(40) holds the original and every version; max-live taken as the limit"
; CAP40-NOT: "nvvm.maxnreg"="{{(4[1-9]|[5-9][0-9]|[1-2][0-9][0-9])}}"
; CAP40: "nvvm.maxnreg"="32"
; CAP40-NOT: "nvvm.maxnreg"="{{(4[1-9]|[5-9][0-9]|[1-2][0-9][0-9])}}"
;
; __launch_bounds__(1024): one block of 32 warps needs <= 64 registers.
; RUN: sed 's/ATTRS/"nvvm.maxntid"="1024"/' %S/Inputs/heavy160.ll > %t.lt.ll
; RUN: rm -f %t.lt.json
; RUN: %opt -passes=orion -orion-report=%t.lt.json -disable-output %t.lt.ll
; RUN: FileCheck %s --check-prefix=LT < %t.lt.json
; LT: "block":1024,"block_known":true,{{.*}}"reg_limit":64,"limit_note":"register limit 64 from __launch_bounds__(1024) holds
;
; __maxnreg__(24) holds the original at the top level (64 warps/SM): the
; direction turns to decreasing (padding versions, no binary) and no
; capped clone is left.
; RUN: sed 's/ATTRS/"nvvm.maxnreg"="24"/' %S/Inputs/heavy160.ll > %t.m24.ll
; RUN: rm -f %t.m24.json
; RUN: %opt -passes=orion -orion-report=%t.m24.json -S %t.m24.ll -o - | FileCheck %s --check-prefix=CAP24
; RUN: FileCheck %s --check-prefix=M24 < %t.m24.json
; CAP24-NOT: define {{.*}}__orion_r{{[0-9]}}
; M24: "direction":"decreasing","original_warps":64,{{.*}}"reg_limit":24,"limit_note":"register limit 24 from __maxnreg__(24) holds the original and every version; not emitted (above the limit): r32;
;
; __launch_bounds__(256) alone allows 255 registers: no ceiling.
; RUN: sed 's/ATTRS/"nvvm.maxntid"="256"/' %S/Inputs/heavy160.ll > %t.none.ll
; RUN: rm -f %t.none.json
; RUN: %opt -passes=orion -orion-report=%t.none.json -disable-output %t.none.ll
; RUN: FileCheck %s --check-prefix=NONE < %t.none.json
; NONE: "original_warps":8,{{.*}}{"tag":"r128","role":"conservative","max_regs":128,{{.*}}"reg_limit":null,"limit_note":null,
;
; -maxrregcount=40 given to ptxas (the pass learns it from
; -orion-maxrregcount or ORION_MAXRREGCOUNT) holds a kernel without launch
; bounds or __maxnreg__ to 40; ptxas ignores it for a kernel with launch
; bounds, and so does the pass.
; RUN: sed 's/ATTRS//' %S/Inputs/heavy160.ll > %t.rr.ll
; RUN: rm -f %t.rr.json %t.rr2.json %t.rrlb.json
; RUN: %opt -passes=orion -orion-maxrregcount=40 -orion-report=%t.rr.json -disable-output %t.rr.ll
; RUN: env ORION_MAXRREGCOUNT=40 %opt -passes=orion -orion-report=%t.rr2.json -disable-output %t.rr.ll
; RUN: %opt -passes=orion -orion-maxrregcount=40 -orion-report=%t.rrlb.json -disable-output %t.lb.ll
; RUN: cat %t.rr.json %t.rr2.json %t.rrlb.json | FileCheck %s --check-prefix=RR
; RR: "original_warps":48,{{.*}}"reg_limit":40,"limit_note":"register limit 40 from -maxrregcount=40 holds
; RR: "original_warps":48,{{.*}}"reg_limit":40,"limit_note":"register limit 40 from -maxrregcount=40 holds
; RR: "original_warps":32,{{.*}}"reg_limit":64,"limit_note":"register limit 64 from __launch_bounds__(256, 4) holds
