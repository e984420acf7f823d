; Kernels the pass leaves alone say so: a remark and a report line with the
; reason, never silence.  A mangled name longer than a decision record holds
; (here 605 characters), and a kernel whose record name is another symbol's
; (the runtime would read that symbol as the record): no clone, no record,
; the symbol untouched (not renamed to __orion_rec_taken1).  The kernel
; beside them is versioned as usual.
; RUN: rm -f %t.json
; RUN: %opt -passes=orion -orion-report=%t.json -pass-remarks=orion -S %s -o %t.ll 2>%t.remarks
; RUN: FileCheck %s --check-prefix=JSON < %t.json
; RUN: FileCheck %s --check-prefix=REMARK < %t.remarks
; RUN: FileCheck %s --check-prefix=IR < %t.ll
; JSON: "kernel":"_Z600kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx",{{.*}}"note":"kernel kxxxxxxxxx{{x*}}: not versioned: its name has 605 characters, more than a decision record holds (499)"
; JSON: "kernel":"taken",{{.*}}"note":"kernel taken: not versioned: the symbol __orion_rec_taken, the name of its decision record, is taken"
; JSON: "kernel":"fine",{{.*}}"record":"orion1;k=fine;
; REMARK: remark: {{.*}}not versioned: its name has 605 characters
; REMARK: remark: {{.*}}kernel taken: not versioned: the symbol __orion_rec_taken
; IR-NOT: __orion_rec_taken1
; IR-NOT: _Z600kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx__orion_
; IR-NOT: taken__orion_
; IR: @__orion_rec_fine =
; IR: define void @__orion_rec_taken()

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @_Z600kxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx(ptr addrspace(1) %p) #0 {
  %v = load volatile <4 x float>, ptr addrspace(1) %p
  store volatile <4 x float> %v, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @taken(ptr addrspace(1) %p) #0 {
  %v = load volatile <4 x float>, ptr addrspace(1) %p
  store volatile <4 x float> %v, ptr addrspace(1) %p
  ret void
}

define void @__orion_rec_taken() {
  ret void
}

define ptx_kernel void @fine(ptr addrspace(1) %p) #0 {
  %v = load volatile <4 x float>, ptr addrspace(1) %p
  store volatile <4 x float> %v, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="sm_90" }
