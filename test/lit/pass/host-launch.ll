; Host side: every direct cudaLaunchKernel call becomes __orion_launch_kernel
; with the same operands plus an orion_site constant per source launch
; {ABI, flags, @__cuda_fatbin_wrapper, where} (include/orion/rt.h).
; flags: 1 IN_LOOP, 2 PER_THREAD, 4 LOOP_UNKNOWN.  A device stub S with
; direct callers gets a clone S.orion taking the site; each call of S passes
; its own.  (-passes=orion runs the early and the late phase of passes/host.c
; at once; host-unroll.ll shows them inside an optimisation pipeline.)
; RUN: %opt -passes=orion -pass-remarks=orion -S %s -o %t.ll 2>%t.rem
; RUN: FileCheck %s < %t.ll
; RUN: FileCheck %s --check-prefix=REMARK < %t.rem
; Idempotent: a second run changes nothing.
; RUN: %opt -passes=orion -S %t.ll -o %t2.ll
; RUN: grep -v ModuleID %t.ll > %t.a && grep -v ModuleID %t2.ll > %t.b && diff %t.a %t.b
; -orion-analyze-only: the remarks, no change.
; RUN: %opt -passes=orion -orion-analyze-only -pass-remarks=orion -S %s -o - 2>/dev/null | FileCheck %s --check-prefix=ANALYZE

target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

@kname = private constant [11 x i8] c"_Z4kernPfi\00"
@kname2 = private constant [12 x i8] c"_Z5otherPfi\00"
@kname3 = private constant [12 x i8] c"_Z5stub0Pfi\00"
@fatbin = private constant [4 x i8] c"FATB", section ".nv_fatbin", align 8
@__cuda_fatbin_wrapper = internal constant { i32, i32, ptr, ptr } { i32 1180844977, i32 1, ptr @fatbin, ptr null }, section ".nvFatBinSegment", align 8
@table = global ptr @_Z20__device_stub__otherPfi

; The sites, in the order they are made: the early phase's, function by
; function, then the late phase's for the stubs' own launches.
; CHECK: @__orion_where = private unnamed_addr constant [7 x i8] c"k.cu:7\00", align 1
; CHECK: @__orion_site = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 0, ptr @__cuda_fatbin_wrapper, ptr @__orion_where, ptr @__orion_table_name }, align 8
; CHECK: @__orion_where.1 = private unnamed_addr constant [12 x i8] c"_Z4loopPfii\00"
; CHECK: @__orion_site.2 = private constant { i32, i32, ptr, ptr, ptr } { i32 2, i32 1, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.1, ptr @__orion_table_name }, align 8
; CHECK: @__orion_where.3 = {{.*}} c"_Z9once_stubPf\00"
; CHECK: @__orion_site.4 = {{.*}} { i32 2, i32 0, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.3, ptr @__orion_table_name }
; CHECK: @__orion_where.5 = {{.*}} c"_Z9loop_stubPfii\00"
; CHECK: @__orion_site.6 = {{.*}} { i32 2, i32 1, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.5, ptr @__orion_table_name }
; CHECK: @__orion_where.7 = {{.*}} c"_Z10call_otherPf\00"
; CHECK: @__orion_site.8 = {{.*}} { i32 2, i32 0, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.7, ptr @__orion_table_name }
; CHECK: @__orion_where.9 = {{.*}} c"_Z6directv\00"
; CHECK: @__orion_site.10 = {{.*}} { i32 2, i32 0, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.9, ptr @__orion_table_name }
; CHECK: @__orion_where.11 = {{.*}} c"_Z6invokev\00"
; CHECK: @__orion_site.12 = {{.*}} { i32 2, i32 1, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.11, ptr @__orion_table_name }
; CHECK: @__orion_where.13 = {{.*}} c"_Z19__device_stub__kernPfi\00"
; CHECK: @__orion_site.14 = {{.*}} { i32 2, i32 4, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.13, ptr @__orion_table_name }
; CHECK: @__orion_where.15 = {{.*}} c"_Z20__device_stub__otherPfi\00"
; CHECK: @__orion_site.16 = {{.*}} { i32 2, i32 4, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.15, ptr @__orion_table_name }
; CHECK: @__orion_where.17 = {{.*}} c"_Z20__device_stub__stub0Pfi\00"
; CHECK: @__orion_site.18 = {{.*}} { i32 2, i32 4, ptr @__cuda_fatbin_wrapper, ptr @__orion_where.17, ptr @__orion_table_name }
; CHECK-NOT: @__orion_site

; -O3 shape: the stub inlined at the launch site, no loop.  The location is
; the user's line (7), not the stub's (1).
; CHECK-LABEL: define i32 @_Z4oncePfi(
; CHECK: %r = tail call noundef i32 @__orion_launch_kernel(ptr noundef nonnull @_Z19__device_stub__kernPfi, i64 %g, i32 1, i64 256, i32 1, ptr noundef nonnull %args, i64 noundef 0, ptr noundef null, ptr @__orion_site), !dbg [[LOC:![0-9]+]]
; CHECK-NEXT: ret i32 %r
; REMARK-DAG: remark: k.cu:7:3: launch of kern(float*, int) at k.cu:7: not in a loop{{$}}
define i32 @_Z4oncePfi(ptr %p, i64 %g) !dbg !10 {
  %args = alloca [2 x ptr], align 16
  %r = tail call noundef i32 @cudaLaunchKernel(ptr noundef nonnull @_Z19__device_stub__kernPfi, i64 %g, i32 1, i64 256, i32 1, ptr noundef nonnull %args, i64 noundef 0, ptr noundef null), !dbg !13
  ret i32 %r
}

; -O3 shape, in a loop (no debug info: where = the function's name).
; CHECK-LABEL: define void @_Z4loopPfii(
; CHECK: call i32 @__orion_launch_kernel(ptr @_Z19__device_stub__kernPfi, {{.*}}, ptr @__orion_site.2)
; REMARK-DAG: remark: <unknown>:0:0: launch of kern(float*, int) at _Z4loopPfii: in a loop{{$}}
define void @_Z4loopPfii(ptr %p, i32 %n) {
entry:
  %args = alloca [2 x ptr], align 16
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  %r = call i32 @cudaLaunchKernel(ptr @_Z19__device_stub__kernPfi, i64 1, i32 1, i64 256, i32 1, ptr %args, i64 0, ptr null)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

; -O0 shape: the launch sits in the stub, called once in a loop and once
; not.  Each call passes its own site to the stub's clone; the stub's own
; launch is now reached only through its address (registration, kernel
; handle): loop unknown.
; CHECK-LABEL: define void @_Z19__device_stub__kernPfi(
; CHECK: call i32 @__orion_launch_kernel(ptr @_Z19__device_stub__kernPfi, {{.*}}, ptr @__orion_site.14)
; CHECK-LABEL: define void @_Z9loop_stubPfii(
; CHECK: call void @_Z19__device_stub__kernPfi.orion(ptr %p, i32 %i, ptr @__orion_site.6)
; CHECK-LABEL: define void @_Z9once_stubPf(
; CHECK: call void @_Z19__device_stub__kernPfi.orion(ptr %p, i32 1, ptr @__orion_site.4)
; REMARK-DAG: remark: <unknown>:0:0: launch of kern(float*, int) at _Z9once_stubPf: not in a loop{{$}}
; REMARK-DAG: remark: <unknown>:0:0: launch of kern(float*, int) at _Z9loop_stubPfii: in a loop{{$}}
; REMARK-DAG: remark: <unknown>:0:0: launch of kern(float*, int) at _Z19__device_stub__kernPfi: in the device stub, reached only through its address: loop unknown, treated as in a loop{{$}}
define void @_Z19__device_stub__kernPfi(ptr %p, i32 %n) {
  %args = alloca [2 x ptr], align 16
  %r = call i32 @cudaLaunchKernel(ptr @_Z19__device_stub__kernPfi, i64 1, i32 1, i64 256, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define void @_Z9loop_stubPfii(ptr %p, i32 %n) {
entry:
  br label %body
body:
  %i = phi i32 [ 0, %entry ], [ %i1, %body ]
  call void @_Z19__device_stub__kernPfi(ptr %p, i32 %i)
  %i1 = add i32 %i, 1
  %c = icmp slt i32 %i1, %n
  br i1 %c, label %body, label %exit
exit:
  ret void
}

define void @_Z9once_stubPf(ptr %p) {
  call void @_Z19__device_stub__kernPfi(ptr %p, i32 1)
  ret void
}

; A stub whose address is stored in @table (it could be called from
; anywhere): its direct call has its own site; the launch reached through
; the address has loop unknown.
; CHECK-LABEL: define void @_Z20__device_stub__otherPfi(
; CHECK: call i32 @__orion_launch_kernel(ptr @_Z20__device_stub__otherPfi, {{.*}}, ptr @__orion_site.16)
; CHECK-LABEL: define void @_Z10call_otherPf(
; CHECK: call void @_Z20__device_stub__otherPfi.orion(ptr %p, i32 1, ptr @__orion_site.8)
; REMARK-DAG: remark: <unknown>:0:0: launch of other(float*, int) at _Z10call_otherPf: not in a loop{{$}}
; REMARK-DAG: remark: <unknown>:0:0: launch of other(float*, int) at _Z20__device_stub__otherPfi: in the device stub, whose address escapes: loop unknown, treated as in a loop{{$}}
define void @_Z20__device_stub__otherPfi(ptr %p, i32 %n) {
  %args = alloca [2 x ptr], align 16
  %r = call i32 @cudaLaunchKernel(ptr @_Z20__device_stub__otherPfi, i64 1, i32 1, i64 256, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define void @_Z10call_otherPf(ptr %p) {
  call void @_Z20__device_stub__otherPfi(ptr %p, i32 1)
  ret void
}

; A stub nobody calls (its launches were inlined elsewhere), whose address
; only reaches the CUDA API (cudaFuncGetAttributes does not call it):
; loop unknown.
; CHECK-LABEL: define void @_Z20__device_stub__stub0Pfi(
; CHECK: call i32 @__orion_launch_kernel(ptr @_Z20__device_stub__stub0Pfi, {{.*}}, ptr @__orion_site.18)
; REMARK-DAG: remark: <unknown>:0:0: launch of stub0(float*, int) at _Z20__device_stub__stub0Pfi: in the device stub, reached only through its address: loop unknown, treated as in a loop{{$}}
define void @_Z20__device_stub__stub0Pfi(ptr %p, i32 %n) {
  %args = alloca [2 x ptr], align 16
  %r = call i32 @cudaLaunchKernel(ptr @_Z20__device_stub__stub0Pfi, i64 1, i32 1, i64 256, i32 1, ptr %args, i64 0, ptr null)
  ret void
}

define i32 @_Z5attrsv(ptr %a) {
  %r = call i32 @cudaFuncGetAttributes(ptr %a, ptr @_Z20__device_stub__stub0Pfi)
  ret i32 %r
}

; A direct call of cudaLaunchKernel by the user (the kernel by pointer) is a
; launch like any other.  Cooperative and Ex launches are left alone.
; CHECK-LABEL: define i32 @_Z6directv(
; CHECK: call i32 @__orion_launch_kernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null, ptr @__orion_site.10)
; CHECK: call i32 @cudaLaunchCooperativeKernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
; CHECK: call i32 @cudaLaunchKernelExC(ptr null, ptr %f, ptr null)
; REMARK-DAG: remark: <unknown>:0:0: launch of a kernel through a pointer at _Z6directv: not in a loop{{$}}
define i32 @_Z6directv(ptr %f) {
  %a = call i32 @cudaLaunchKernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
  %b = call i32 @cudaLaunchCooperativeKernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
  %c = call i32 @cudaLaunchKernelExC(ptr null, ptr %f, ptr null)
  %s = add i32 %a, %b
  %t = add i32 %s, %c
  ret i32 %t
}

; An invoke (a launch inside a try block) stays an invoke, with its
; destinations; it is in a loop here.
; CHECK-LABEL: define i32 @_Z6invokev(
; CHECK: %r = invoke i32 @__orion_launch_kernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null, ptr @__orion_site.12)
; CHECK-NEXT: to label %next unwind label %lpad
; REMARK-DAG: remark: <unknown>:0:0: launch of a kernel through a pointer at _Z6invokev: in a loop{{$}}
define i32 @_Z6invokev(ptr %f) personality ptr @__gxx_personality_v0 {
entry:
  br label %loop
loop:
  %r = invoke i32 @cudaLaunchKernel(ptr %f, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
          to label %next unwind label %lpad
next:
  %c = icmp eq i32 %r, 0
  br i1 %c, label %loop, label %done
done:
  ret i32 %r
lpad:
  %lp = landingpad { ptr, i32 } cleanup
  resume { ptr, i32 } %lp
}

; A call through another function type is left alone, with one remark.
; CHECK-LABEL: define i32 @_Z4oddv(
; CHECK: call i32 @cudaLaunchKernel(ptr null, i32 1)
; REMARK-DAG: remark: <unknown>:0:0: launch of a kernel through a pointer at _Z4oddv: left alone: cudaLaunchKernel called with an unexpected type{{$}}
; REMARK-NOT: _Z4oddv
define i32 @_Z4oddv() {
  %r = call i32 @cudaLaunchKernel(ptr null, i32 1)
  ret i32 %r
}

; A call of a stub through another function type keeps calling the stub
; (whose own launch is hooked with loop facts unknown).
; CHECK-LABEL: define void @_Z8odd_stubv(
; CHECK: call void @_Z20__device_stub__otherPfi(ptr null)
define void @_Z8odd_stubv() {
  call void @_Z20__device_stub__otherPfi(ptr null)
  ret void
}

define internal void @__cuda_register_globals(ptr %h) {
  %1 = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z19__device_stub__kernPfi, ptr @kname, ptr @kname, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %2 = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z20__device_stub__otherPfi, ptr @kname2, ptr @kname2, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  %3 = call i32 @__cudaRegisterFunction(ptr %h, ptr @_Z20__device_stub__stub0Pfi, ptr @kname3, ptr @kname3, i32 -1, ptr null, ptr null, ptr null, ptr null, ptr null)
  ret void
}

; The declaration is still used by @_Z4oddv, so it stays.
; CHECK: declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
; CHECK: declare i32 @__orion_launch_kernel(ptr, i64, i32, i64, i32, ptr, i64, ptr, ptr)
; The clones: internal, the site as a last parameter, the registered stub
; still the kernel handle.
; CHECK: define internal void @_Z19__device_stub__kernPfi.orion(ptr %p, i32 %n, ptr %orion.site) {
; CHECK: call i32 @__orion_launch_kernel(ptr @_Z19__device_stub__kernPfi, i64 1, i32 1, i64 256, i32 1, ptr %args, i64 0, ptr null, ptr %orion.site)
; CHECK: define internal void @_Z20__device_stub__otherPfi.orion(ptr %p, i32 %n, ptr %orion.site) {
; CHECK: [[LOC]] = !DILocation(line: 1, column: 39, scope: !{{[0-9]+}}, inlinedAt: !{{[0-9]+}})

; ANALYZE-NOT: __orion_launch_kernel
; ANALYZE-NOT: __orion_site

declare i32 @cudaLaunchKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaLaunchCooperativeKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
declare i32 @cudaLaunchKernelExC(ptr, ptr, ptr)
declare i32 @cudaFuncGetAttributes(ptr, ptr)
declare i32 @__cudaRegisterFunction(ptr, ptr, ptr, ptr, i32, ptr, ptr, ptr, ptr, ptr)
declare i32 @__gxx_personality_v0(...)

!llvm.module.flags = !{!0}
!llvm.dbg.cu = !{!1}
!0 = !{i32 2, !"Debug Info Version", i32 3}
!1 = distinct !DICompileUnit(language: DW_LANG_C_plus_plus_14, file: !2, producer: "clang", isOptimized: true, runtimeVersion: 0, emissionKind: FullDebug)
!2 = !DIFile(filename: "k.cu", directory: "/src")
!3 = !DISubroutineType(types: !4)
!4 = !{null}
!5 = distinct !DISubprogram(name: "kern", linkageName: "_Z19__device_stub__kernPfi", scope: !2, file: !2, line: 1, type: !3, scopeLine: 1, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!10 = distinct !DISubprogram(name: "once", linkageName: "_Z4oncePfi", scope: !2, file: !2, line: 6, type: !3, scopeLine: 6, spFlags: DISPFlagDefinition | DISPFlagOptimized, unit: !1)
!12 = distinct !DILocation(line: 7, column: 3, scope: !10)
!13 = !DILocation(line: 1, column: 39, scope: !5, inlinedAt: !12)

