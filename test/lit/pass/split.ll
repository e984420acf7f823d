; Split parameters (include/orion/rt.h): every clone of a split-safe kernel
; gets 6 hidden i32 parameters after its own (off_x, off_y, off_z,
; nctaid_x, nctaid_y, nctaid_z); in the clone %ctaid.d reads become
; read + off_d and %nctaid.d reads the parameter nctaid_d.  One more clone,
; K__orion_split, has no cap.  The record says hp=6; unsafe kernels get
; hp=0, clones with the original signature, no split clone, and a note.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-split-clones -orion-report=%t.json -pass-remarks=orion -S %s -o %t.ll 2>%t.rem
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=JSON < %t.json
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; Idempotent.
; RUN: %opt -passes=orion -orion-split-clones -S %t.ll -o %t2.ll
; RUN: grep -v ModuleID %t.ll > %t.a && grep -v ModuleID %t2.ll > %t.b && diff %t.a %t.b
; The clones assemble (-c: @elsewhere is external), and the split entry
; reads its hidden parameters.
; RUN: llc -mtriple=nvptx64-nvidia-cuda -mcpu=sm_90 %t.ll -o %t.ptx
; RUN: FileCheck %s --check-prefix=PTX < %t.ptx
; RUN: %if ptxas %{ %cuda_path/bin/ptxas -c -arch sm_90 %t.ptx -o %t.cubin %}

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

%struct.S = type { [4 x i32] }

; ---- a split-safe kernel: byval/align/noalias parameters, 2-D grid --------
; One record table, sorted by kernel name.
; CHECK: @__orion_records_{{[0-9a-f]+}} = addrspace(1) constant [{{[0-9]+}} x i8] c"orion1;k=asm;{{.*}};np=1;hp=0{{(;dsm=[^;]*)?}}\0Aorion1;k=callee;{{.*}};np=1;hp=0{{(;dsm=[^;]*)?}}\0Aorion1;k=cluster;{{.*}};np=1;hp=0{{(;dsm=[^;]*)?}}\0Aorion1;k=clusterdim;{{.*}};np=1;hp=0{{(;dsm=[^;]*)?}}\0Aorion1;k=external;{{.*}};np=1;hp=0{{(;dsm=[^;]*)?}}\0Aorion1;k=grid;{{.*}};np=3;hp=6{{(;dsm=[^;]*)?}}\0Aorion1;k=indirect;{{.*}};np=2;hp=0{{(;dsm=[^;]*)?}}\0Aorion1;k=printer;{{.*}};np=1;hp=6{{(;dsm=[^;]*)?}}\0A\00"
; CHECK-NOT: @__orion_rec

; The original is unchanged.
; Its max-live of 22 (five live <4 x float> and two values) at 128 threads gives a
; fail-safe clone at 32 registers, plus padding versions.
; CHECK: define ptx_kernel void @grid(ptr addrspace(1) noalias align 16 %out, ptr byval(%struct.S) align 4 %s, i32 %n) #[[G:[0-9]+]] {
; CHECK-NEXT: %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK-NEXT: %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
; CHECK-NEXT: %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
define ptx_kernel void @grid(ptr addrspace(1) noalias align 16 %out, ptr byval(%struct.S) align 4 %s, i32 %n) #0 {
  %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
  %gx = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
  %gz = call i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
  %row = mul i32 %by, %gx
  %lin = add i32 %row, %bx
  %lz = mul i32 %lin, %gz
  %v = load i32, ptr %s, align 4
  %w = add i32 %lz, %v
  %w2 = add i32 %w, %n
  %idx = zext i32 %lin to i64
  %p = getelementptr i32, ptr addrspace(1) %out, i64 %idx
  store i32 %w2, ptr addrspace(1) %p, align 4
  %fp = getelementptr i8, ptr addrspace(1) %out, i64 4096
  %q1 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 1
  %q2 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 2
  %q3 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 3
  %q4 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 4
  %u0 = load volatile <4 x float>, ptr addrspace(1) %fp
  %u1 = load volatile <4 x float>, ptr addrspace(1) %q1
  %u2 = load volatile <4 x float>, ptr addrspace(1) %q2
  %u3 = load volatile <4 x float>, ptr addrspace(1) %q3
  %u4 = load volatile <4 x float>, ptr addrspace(1) %q4
  %t1 = fadd <4 x float> %u0, %u1
  %t2 = fadd <4 x float> %t1, %u2
  %t3 = fadd <4 x float> %t2, %u3
  %t4 = fadd <4 x float> %t3, %u4
  store <4 x float> %t4, ptr addrspace(1) %fp
  ret void
}

; A capped clone: the parameter attributes stay on the kernel's parameters.
; CHECK: define ptx_kernel void @grid__orion_r32(ptr addrspace(1) noalias align 16 %out, ptr byval(%struct.S) align 4 %s, i32 %n, i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z) #[[G32:[0-9]+]] {
; CHECK-NEXT: %bx = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
; CHECK-NEXT: [[BX:%[0-9]+]] = add i32 %bx, %__orion_off_x
; CHECK-NEXT: %by = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
; CHECK-NEXT: [[BY:%[0-9]+]] = add i32 %by, %__orion_off_y
; CHECK-NEXT: %row = mul i32 [[BY]], %__orion_nctaid_x
; CHECK-NEXT: %lin = add i32 %row, [[BX]]
; CHECK-NEXT: %lz = mul i32 %lin, %__orion_nctaid_z
; CHECK-NOT: nctaid
; CHECK: ret void

; The split clone: no cap, the original's attributes (launch bounds kept).
; CHECK: define ptx_kernel void @grid__orion_split(ptr addrspace(1) noalias align 16 %out, ptr byval(%struct.S) align 4 %s, i32 %n, i32 %__orion_off_x, i32 %__orion_off_y, i32 %__orion_off_z, i32 %__orion_nctaid_x, i32 %__orion_nctaid_y, i32 %__orion_nctaid_z) #[[G]] {
; CHECK: add i32 %bx, %__orion_off_x
; CHECK: add i32 %by, %__orion_off_y
; CHECK: mul i32 {{%[0-9]+}}, %__orion_nctaid_x
; CHECK: mul i32 %lin, %__orion_nctaid_z

; ---- not split-safe ------------------------------------------------------
; A non-inlined callee reads %ctaid: only the kernel's body is rewritten.
; Its clone keeps the kernel's signature.
; CHECK-LABEL: define ptx_kernel void @callee__orion_r32(ptr addrspace(1) %out) #
define internal i32 @block_of() noinline {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  ret i32 %b
}
define ptx_kernel void @callee(ptr addrspace(1) %out) #0 {
  %b = call i32 @block_of()
  store i32 %b, ptr addrspace(1) %out
  %fp = getelementptr i8, ptr addrspace(1) %out, i64 4096
  %q1 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 1
  %q2 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 2
  %q3 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 3
  %q4 = getelementptr <4 x float>, ptr addrspace(1) %fp, i64 4
  %u0 = load volatile <4 x float>, ptr addrspace(1) %fp
  %u1 = load volatile <4 x float>, ptr addrspace(1) %q1
  %u2 = load volatile <4 x float>, ptr addrspace(1) %q2
  %u3 = load volatile <4 x float>, ptr addrspace(1) %q3
  %u4 = load volatile <4 x float>, ptr addrspace(1) %q4
  %t1 = fadd <4 x float> %u0, %u1
  %t2 = fadd <4 x float> %t1, %u2
  %t3 = fadd <4 x float> %t2, %u3
  %t4 = fadd <4 x float> %t3, %u4
  store <4 x float> %t4, ptr addrspace(1) %fp
  ret void
}

; Inline asm reading %ctaid.
define ptx_kernel void @asm(ptr addrspace(1) %out) #0 {
  %b = call i32 asm "mov.u32 $0, %ctaid.x;", "=r"()
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; Cluster special registers.
define ptx_kernel void @cluster(ptr addrspace(1) %out) #0 {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; A cluster launch attribute.
define ptx_kernel void @clusterdim(ptr addrspace(1) %out) #1 {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; An indirect call.
define ptx_kernel void @indirect(ptr addrspace(1) %out, ptr %f) #0 {
  %b = call i32 %f()
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; A call to a function defined elsewhere (-fgpu-rdc): its reads are unknown.
declare i32 @elsewhere()
define ptx_kernel void @external(ptr addrspace(1) %out) #0 {
  %b = call i32 @elsewhere()
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; printf (vprintf) does not read the grid: split-safe.  (No capped clone:
; max-live 2.)
; CHECK-LABEL: define ptx_kernel void @printer__orion_split(ptr addrspace(1) %out, i32 %__orion_off_x,
declare i32 @vprintf(ptr, ptr)
define ptx_kernel void @printer(ptr addrspace(1) %out) #0 {
  %b = call i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
  %r = call i32 @vprintf(ptr null, ptr null)
  store i32 %b, ptr addrspace(1) %out
  ret void
}

; CHECK-NOT: define {{.*}}__orion_split
; CHECK: attributes #[[G]] = { "nvvm.maxntid"="128" "nvvm.minctasm"="4" "target-cpu"="sm_90" }
; CHECK: attributes #[[G32]] = { "nvvm.maxnreg"="32" "nvvm.maxntid"="128" "target-cpu"="sm_90" }

; JSON: "kernel":"grid",{{.*}}"max_live":22,{{.*}}"clones":1,{{.*}}"hidden_params":6,"split_note":null}
; JSON: "kernel":"callee",{{.*}}"hidden_params":0,"split_note":"reads %ctaid.x in called function block_of"}
; JSON: "kernel":"asm",{{.*}}"hidden_params":0,"split_note":"inline asm mentioning ctaid in asm"}
; JSON: "kernel":"cluster",{{.*}}"hidden_params":0,"split_note":"llvm.nvvm.read.ptx.sreg.clusterid.x in cluster"}
; JSON: "kernel":"clusterdim",{{.*}}"hidden_params":0,"split_note":"cluster launch attributes"}
; JSON: "kernel":"indirect",{{.*}}"hidden_params":0,"split_note":"indirect call in indirect"}
; JSON: "kernel":"external",{{.*}}"hidden_params":0,"split_note":"calls external function elsewhere"}
; JSON: "kernel":"printer",{{.*}}"hidden_params":6,"split_note":null}

; REMARK: remark: <unknown>:0:0: kernel grid: {{.*}}; split: 6 hidden parameters, entry grid__orion_split
; REMARK: remark: <unknown>:0:0: kernel callee: {{.*}}; no split: reads %ctaid.x in called function block_of

; PTX: .entry grid__orion_split(
; PTX: .param .u32 grid__orion_split_param_8
; PTX-NEXT: )
; PTX: ld.param.b32 {{.*}}[grid__orion_split_param_3];
; PTX: ld.param.b32 {{.*}}[grid__orion_split_param_6];
; PTX: ld.param.b32 {{.*}}[grid__orion_split_param_8];

declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.ctaid.y()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.x()
declare i32 @llvm.nvvm.read.ptx.sreg.nctaid.z()
declare i32 @llvm.nvvm.read.ptx.sreg.clusterid.x()

attributes #0 = { "nvvm.maxntid"="128" "nvvm.minctasm"="4" "target-cpu"="sm_90" }
attributes #1 = { "nvvm.cluster_dim"="2,1,1" "nvvm.maxntid"="128" "target-cpu"="sm_90" }

; Without -orion-split-clones (the default: the runtime splits launches only
; under ORION_SPLIT=1) the same module gets no split clone and no hidden
; parameters, and the records say hp=0.
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF
; OFF-NOT: __orion_split
; OFF-NOT: __orion_off_x
; OFF: hp=0
; OFF-NOT: __orion_split
