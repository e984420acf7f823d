; Settings out of range are ignored with a warning that names them (before:
; in silence, and -orion-sm=13 turned versioning off), and a kernel whose
; target-cpu names an architecture the model does not know is left alone
; with that reason (before: "no target-cpu on the kernel").
; RUN: %opt -passes=orion -orion-sm=13 -orion-max-versions=-1 -orion-block=-1 -orion-maxrregcount=-4 -orion-report=%t.json -S %s -o %t.ll 2>&1 | FileCheck %s --check-prefix=WARN
; WARN-DAG: orion: warning: ignoring sm 13 (-orion-sm / ORION_SM): not an architecture the occupancy model knows (sm_75,
; WARN-DAG: orion: warning: ignoring -orion-max-versions=-1: not in 1..5
; WARN-DAG: orion: warning: ignoring -orion-block=-1: not in 1..1024
; WARN-DAG: orion: warning: ignoring -orion-maxrregcount=-4: not in 1..65535
; RUN: FileCheck %s --check-prefix=JSON < %t.json
; RUN: env ORION_BLOCK=4096 ORION_SM=999 %opt -passes=orion -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=ENV
; ENV-DAG: orion: warning: ignoring ORION_BLOCK=4096: not in 1..1024
; ENV-DAG: orion: warning: ignoring sm 999 (-orion-sm / ORION_SM)
; RUN: %opt -passes=orion -orion-max-versions=9 -S %s -o /dev/null 2>&1 | FileCheck %s --check-prefix=TOP
; TOP: orion: warning: -orion-max-versions=9: at most 5; using 5
;
; The kernels' own target-cpu holds: sm_90 is versioned, the others say why.
; JSON: "kernel":"ok","sm":90,{{.*}}"record":"orion1;k=ok;sm=90;
; JSON: "kernel":"old","sm":0,{{.*}}"note":"kernel old: not versioned: target-cpu 'sm_13' is not an architecture the occupancy model knows (sm_75,
; JSON: "kernel":"future","sm":0,{{.*}}"note":"kernel future: not versioned: target-cpu 'sm_999' is not an architecture
; JSON: "kernel":"junk","sm":0,{{.*}}"note":"kernel junk: not versioned: target-cpu 'garbage' is not an architecture
; JSON: "kernel":"none","sm":90,{{.*}}"note":"no target-cpu on the kernel: assumed sm_90"

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

define ptx_kernel void @ok(ptr addrspace(1) %p) #0 {
  store volatile i32 1, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @old(ptr addrspace(1) %p) #1 {
  store volatile i32 1, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @future(ptr addrspace(1) %p) #2 {
  store volatile i32 1, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @junk(ptr addrspace(1) %p) #3 {
  store volatile i32 1, ptr addrspace(1) %p
  ret void
}

define ptx_kernel void @none(ptr addrspace(1) %p) {
  store volatile i32 1, ptr addrspace(1) %p
  ret void
}

attributes #0 = { "target-cpu"="sm_90" }
attributes #1 = { "target-cpu"="sm_13" }
attributes #2 = { "target-cpu"="sm_999" }
attributes #3 = { "target-cpu"="garbage" }
