; A host module with CUDA calls but no kernel launch (host-launch-ptsz.ll).
target datalayout = "e-m:e-p270:32:32-p271:32:32-p272:64:64-i64:64-i128:128-f80:128-n8:16:32:64-S128"
target triple = "x86_64-pc-linux-gnu"

define i32 @_Z4copyPvS_m(ptr %d, ptr %s, i64 %n) {
  %r = call i32 @cudaMemcpy(ptr %d, ptr %s, i64 %n, i32 1)
  %c = call i32 @cudaLaunchCooperativeKernel(ptr null, i64 1, i32 1, i64 32, i32 1, ptr null, i64 0, ptr null)
  %s2 = add i32 %r, %c
  ret i32 %s2
}

declare i32 @cudaMemcpy(ptr, ptr, i64, i32)
declare i32 @cudaLaunchCooperativeKernel(ptr, i64, i32, i64, i32, ptr, i64, ptr)
