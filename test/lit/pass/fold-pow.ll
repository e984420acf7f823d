; pow of constants folded where the result is exact (fold_pow.c): calls of
; clang's CUDA pow wrappers and of libdevice's __nv_pow/__nv_powf with two
; constant arguments become the constant when it is exact in the type
; (y = 0; x = +-2^k and y an integer, the result in the normal range): the
; value nvcc's fold gives.  Everything else stays a call: a base that is no
; power of two, a fraction as exponent, a result out of range, an argument
; that is not a constant.  Off by default (libdevice's pow does not always
; return the exact value); ORION_FOLD_POW=1 or -orion-fold-pow turns it on.
; RUN: env ORION_FOLD_POW=1 %opt -passes=orion -S %s -o - | FileCheck %s
; RUN: %opt -load-pass-plugin=%orion_plugin -orion-fold-pow -passes=orion -S %s -o - | FileCheck %s
; RUN: %opt -passes=orion -S %s -o - | FileCheck %s --check-prefix=OFF

target datalayout = "e-p6:32:32-i64:64-i128:128-i256:256-v16:16-v32:32-n16:32:64"
target triple = "nvptx64-nvidia-cuda"

declare double @_ZL3powdd(double, double)
declare double @__nv_pow(double, double)
declare float @_ZL4powfff(float, float)
declare float @__nv_powf(float, float)
declare double @pow(double, double)

; CHECK-LABEL: define void @folds(
; CHECK-NEXT: store volatile double 0x3E80000000000000, ptr %p
; CHECK-NEXT: store volatile double 0x4160000000000000, ptr %p
; CHECK-NEXT: store volatile double -1.250000e-01, ptr %p
; CHECK-NEXT: store volatile double 1.000000e+00, ptr %p
; CHECK-NEXT: store volatile double 0x7E70000000000000, ptr %p
; CHECK-NEXT: store volatile float 0x3E80000000000000, ptr %q
; CHECK-NEXT: store volatile float 1.600000e+01, ptr %q
; CHECK-NEXT: ret void
; OFF-LABEL: define void @folds(
; OFF-COUNT-7: call
define void @folds(ptr %p, ptr %q) {
  %a = call double @_ZL3powdd(double 5.000000e-01, double 2.300000e+01)
  store volatile double %a, ptr %p
  %b = call double @__nv_pow(double 2.000000e+00, double 2.300000e+01)
  store volatile double %b, ptr %p
  %c = call double @_ZL3powdd(double -5.000000e-01, double 3.000000e+00)
  store volatile double %c, ptr %p
  %d = call double @_ZL3powdd(double 3.000000e+00, double 0.000000e+00)
  store volatile double %d, ptr %p
  %e = call double @__nv_pow(double -2.000000e+00, double 1.000000e+03)
  store volatile double %e, ptr %p
  %f = call float @_ZL4powfff(float 5.000000e-01, float 2.300000e+01)
  store volatile float %f, ptr %q
  %g = call float @__nv_powf(float 2.000000e+00, float 4.000000e+00)
  store volatile float %g, ptr %q
  ret void
}

; CHECK-LABEL: define void @stays(
; CHECK-COUNT-6: call
; CHECK-NOT: call
define void @stays(ptr %p, ptr %q, double %x) {
  %a = call double @_ZL3powdd(double 3.000000e+00, double 2.000000e+00)
  store volatile double %a, ptr %p
  %b = call double @_ZL3powdd(double 2.000000e+00, double 5.000000e-01)
  store volatile double %b, ptr %p
  %c = call double @__nv_pow(double 2.000000e+00, double 2.000000e+03)
  store volatile double %c, ptr %p
  %d = call double @_ZL3powdd(double %x, double 2.000000e+00)
  store volatile double %d, ptr %p
  %e = call float @__nv_powf(float 2.000000e+00, float 2.000000e+02)
  store volatile float %e, ptr %q
  %f = call double @pow(double 2.000000e+00, double 3.000000e+00)
  store volatile double %f, ptr %p
  ret void
}
