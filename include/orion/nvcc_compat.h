/* orion/nvcc_compat.h - what nvcc gives CUDA sources implicitly and clang's
 * CUDA mode does not, so that sources written for nvcc build unchanged
 * under orion-cc and compute the same results.
 *
 * orion-cc force-includes this header (-include) after clang's CUDA runtime
 * wrapper; `orion-cc --no-nvcc-compat` or -DORION_NO_NVCC_COMPAT turns it
 * off.  It is empty unless compiling CUDA C++ with clang.  Found by
 * comparing what nvcc 13.0 and clang 22 accept (see test/lit/driver):
 *
 *  - Headers nvcc's cuda_runtime.h pulls in on the host: <math.h> (global
 *    ::isnan, ::isinf, ::isfinite, ::signbit), <time.h> (clock, time),
 *    <new>, <stdlib.h>.  (Not <stdio.h>: nvcc rejects printf without it.)
 *  - Host overloads of min/max (all of nvcc's mixed-signedness and
 *    float/double pairs, with nvcc's result types and fmin/fmax NaN rules)
 *    and umin/umax/llmin/llmax/ullmin/ullmax, which clang only has on the
 *    device.
 *  - The cache-hinted load/store intrinsics clang 22 lacks: __ldca, __ldlu,
 *    __stwb, __stcg, __stcs (scalars and the common vector types).
 *  - nvcc's __nv_atomic_* builtins and the __NV_ATOMIC_* / __NV_THREAD_SCOPE_*
 *    constants (ORION_NO_NV_ATOMIC_COMPAT turns them off).
 *  - __maxnreg__(N): clang 22 drops the attribute (a warning); here it
 *    becomes annotate("orion.maxnreg", N), which OrionPass turns into the
 *    kernel's "nvvm.maxnreg" (.maxnreg N in PTX, as nvcc emits) and a
 *    ceiling for its versions.  Without the pass the annotation does
 *    nothing: orion-cc --no-orion defines ORION_NO_MAXNREG_COMPAT, which
 *    keeps clang's own attribute and warning.
 *
 *  - -use_fast_math's intrinsics for expf, exp10f, powf, tanf and log10f,
 *    which clang's -ffast-math leaves exact (ORION_NVCC_FAST_MATH).
 *
 * Numerics (nvcc's -prec-sqrt=true, -prec-div=true, -ftz=false,
 * -fmad=true) are set by orion-cc's flags, not here.
 */
#ifndef ORION_NVCC_COMPAT_H
#define ORION_NVCC_COMPAT_H

#if defined(__clang__) && defined(__CUDA__) && defined(__cplusplus) && \
    !defined(__NVCC__) && !defined(ORION_NO_NVCC_COMPAT)

#include <math.h>
#include <stdlib.h>
#include <time.h>
#include <new>

/* ---- host min/max (crt/math_functions.hpp semantics) ---- */

#define ORION_COMPAT_HOST static inline __host__

ORION_COMPAT_HOST int min(const int a, const int b) { return a < b ? a : b; }
ORION_COMPAT_HOST int max(const int a, const int b) { return a > b ? a : b; }
ORION_COMPAT_HOST unsigned int umin(const unsigned int a, const unsigned int b) { return a < b ? a : b; }
ORION_COMPAT_HOST unsigned int umax(const unsigned int a, const unsigned int b) { return a > b ? a : b; }
ORION_COMPAT_HOST long long int llmin(const long long int a, const long long int b) { return a < b ? a : b; }
ORION_COMPAT_HOST long long int llmax(const long long int a, const long long int b) { return a > b ? a : b; }
ORION_COMPAT_HOST unsigned long long int ullmin(const unsigned long long int a, const unsigned long long int b) { return a < b ? a : b; }
ORION_COMPAT_HOST unsigned long long int ullmax(const unsigned long long int a, const unsigned long long int b) { return a > b ? a : b; }

#define ORION_COMPAT_MINMAX(R, A, B)                                              \
  ORION_COMPAT_HOST R min(const A a, const B b) { return (R)a < (R)b ? (R)a : (R)b; } \
  ORION_COMPAT_HOST R max(const A a, const B b) { return (R)a > (R)b ? (R)a : (R)b; }

ORION_COMPAT_MINMAX(unsigned int, unsigned int, unsigned int)
ORION_COMPAT_MINMAX(unsigned int, int, unsigned int)
ORION_COMPAT_MINMAX(unsigned int, unsigned int, int)
ORION_COMPAT_MINMAX(long int, long int, long int)
ORION_COMPAT_MINMAX(unsigned long int, unsigned long int, unsigned long int)
ORION_COMPAT_MINMAX(unsigned long int, long int, unsigned long int)
ORION_COMPAT_MINMAX(unsigned long int, unsigned long int, long int)
ORION_COMPAT_MINMAX(long long int, long long int, long long int)
ORION_COMPAT_MINMAX(unsigned long long int, unsigned long long int, unsigned long long int)
ORION_COMPAT_MINMAX(unsigned long long int, long long int, unsigned long long int)
ORION_COMPAT_MINMAX(unsigned long long int, unsigned long long int, long long int)
#undef ORION_COMPAT_MINMAX

ORION_COMPAT_HOST float min(const float a, const float b) { return fminf(a, b); }
ORION_COMPAT_HOST float max(const float a, const float b) { return fmaxf(a, b); }
ORION_COMPAT_HOST double min(const double a, const double b) { return fmin(a, b); }
ORION_COMPAT_HOST double max(const double a, const double b) { return fmax(a, b); }
ORION_COMPAT_HOST double min(const float a, const double b) { return fmin((double)a, b); }
ORION_COMPAT_HOST double max(const float a, const double b) { return fmax((double)a, b); }
ORION_COMPAT_HOST double min(const double a, const float b) { return fmin(a, (double)b); }
ORION_COMPAT_HOST double max(const double a, const float b) { return fmax(a, (double)b); }

#undef ORION_COMPAT_HOST

/* ---- cache-hinted loads and stores missing from clang 22 ---- */
#if __clang_major__ <= 22 && !defined(ORION_NO_CACHE_HINT_COMPAT)

#define ORION_COMPAT_LD(F, OP, T, TMP, C)                                        \
  static __device__ __inline__ T F(const T *__p) {                               \
    TMP __r;                                                                     \
    asm(OP " %0, [%1];" : C(__r) : "l"(__p));                                    \
    return (T)__r;                                                               \
  }
#define ORION_COMPAT_LD2(F, OP, T, C)                                            \
  static __device__ __inline__ T F(const T *__p) {                               \
    T __r;                                                                       \
    asm(OP " {%0,%1}, [%2];" : C(__r.x), C(__r.y) : "l"(__p));                   \
    return __r;                                                                  \
  }
#define ORION_COMPAT_LD4(F, OP, T, C)                                            \
  static __device__ __inline__ T F(const T *__p) {                               \
    T __r;                                                                       \
    asm(OP " {%0,%1,%2,%3}, [%4];"                                               \
        : C(__r.x), C(__r.y), C(__r.z), C(__r.w) : "l"(__p));                    \
    return __r;                                                                  \
  }
#define ORION_COMPAT_ST(F, OP, T, TMP, C)                                        \
  static __device__ __inline__ void F(T *__p, T __v) {                           \
    TMP __t = (TMP)__v;                                                          \
    asm(OP " [%0], %1;" ::"l"(__p), C(__t) : "memory");                          \
  }
#define ORION_COMPAT_ST2(F, OP, T, C)                                            \
  static __device__ __inline__ void F(T *__p, T __v) {                           \
    asm(OP " [%0], {%1,%2};" ::"l"(__p), C(__v.x), C(__v.y) : "memory");         \
  }
#define ORION_COMPAT_ST4(F, OP, T, C)                                            \
  static __device__ __inline__ void F(T *__p, T __v) {                           \
    asm(OP " [%0], {%1,%2,%3,%4};" ::"l"(__p), C(__v.x), C(__v.y), C(__v.z),     \
        C(__v.w)                                                                 \
        : "memory");                                                             \
  }

#define ORION_COMPAT_LOADS(F, Q)                                                 \
  ORION_COMPAT_LD(F, Q ".s8", char, int, "=r")                                   \
  ORION_COMPAT_LD(F, Q ".s8", signed char, int, "=r")                            \
  ORION_COMPAT_LD(F, Q ".u8", unsigned char, unsigned int, "=r")                 \
  ORION_COMPAT_LD(F, Q ".s16", short, short, "=h")                               \
  ORION_COMPAT_LD(F, Q ".u16", unsigned short, unsigned short, "=h")             \
  ORION_COMPAT_LD(F, Q ".s32", int, int, "=r")                                   \
  ORION_COMPAT_LD(F, Q ".u32", unsigned int, unsigned int, "=r")                 \
  ORION_COMPAT_LD(F, Q ".s64", long, long long, "=l")                            \
  ORION_COMPAT_LD(F, Q ".u64", unsigned long, unsigned long long, "=l")          \
  ORION_COMPAT_LD(F, Q ".s64", long long, long long, "=l")                       \
  ORION_COMPAT_LD(F, Q ".u64", unsigned long long, unsigned long long, "=l")     \
  ORION_COMPAT_LD(F, Q ".f32", float, float, "=f")                               \
  ORION_COMPAT_LD(F, Q ".f64", double, double, "=d")                             \
  ORION_COMPAT_LD2(F, Q ".v2.s32", int2, "=r")                                   \
  ORION_COMPAT_LD4(F, Q ".v4.s32", int4, "=r")                                   \
  ORION_COMPAT_LD2(F, Q ".v2.u32", uint2, "=r")                                  \
  ORION_COMPAT_LD4(F, Q ".v4.u32", uint4, "=r")                                  \
  ORION_COMPAT_LD2(F, Q ".v2.s64", longlong2, "=l")                              \
  ORION_COMPAT_LD2(F, Q ".v2.u64", ulonglong2, "=l")                             \
  ORION_COMPAT_LD2(F, Q ".v2.f32", float2, "=f")                                 \
  ORION_COMPAT_LD4(F, Q ".v4.f32", float4, "=f")                                 \
  ORION_COMPAT_LD2(F, Q ".v2.f64", double2, "=d")

#define ORION_COMPAT_STORES(F, Q)                                                \
  ORION_COMPAT_ST(F, Q ".s8", char, int, "r")                                    \
  ORION_COMPAT_ST(F, Q ".s8", signed char, int, "r")                             \
  ORION_COMPAT_ST(F, Q ".u8", unsigned char, unsigned int, "r")                  \
  ORION_COMPAT_ST(F, Q ".s16", short, short, "h")                                \
  ORION_COMPAT_ST(F, Q ".u16", unsigned short, unsigned short, "h")              \
  ORION_COMPAT_ST(F, Q ".s32", int, int, "r")                                    \
  ORION_COMPAT_ST(F, Q ".u32", unsigned int, unsigned int, "r")                  \
  ORION_COMPAT_ST(F, Q ".s64", long, long long, "l")                             \
  ORION_COMPAT_ST(F, Q ".u64", unsigned long, unsigned long long, "l")           \
  ORION_COMPAT_ST(F, Q ".s64", long long, long long, "l")                        \
  ORION_COMPAT_ST(F, Q ".u64", unsigned long long, unsigned long long, "l")      \
  ORION_COMPAT_ST(F, Q ".f32", float, float, "f")                                \
  ORION_COMPAT_ST(F, Q ".f64", double, double, "d")                              \
  ORION_COMPAT_ST2(F, Q ".v2.s32", int2, "r")                                    \
  ORION_COMPAT_ST4(F, Q ".v4.s32", int4, "r")                                    \
  ORION_COMPAT_ST2(F, Q ".v2.u32", uint2, "r")                                   \
  ORION_COMPAT_ST4(F, Q ".v4.u32", uint4, "r")                                   \
  ORION_COMPAT_ST2(F, Q ".v2.s64", longlong2, "l")                               \
  ORION_COMPAT_ST2(F, Q ".v2.u64", ulonglong2, "l")                              \
  ORION_COMPAT_ST2(F, Q ".v2.f32", float2, "f")                                  \
  ORION_COMPAT_ST4(F, Q ".v4.f32", float4, "f")                                  \
  ORION_COMPAT_ST2(F, Q ".v2.f64", double2, "d")

ORION_COMPAT_LOADS(__ldca, "ld.global.ca")
ORION_COMPAT_LOADS(__ldlu, "ld.global.lu")
ORION_COMPAT_STORES(__stwb, "st.global.wb")
ORION_COMPAT_STORES(__stcg, "st.global.cg")
ORION_COMPAT_STORES(__stcs, "st.global.cs")

#undef ORION_COMPAT_LOADS
#undef ORION_COMPAT_STORES
#undef ORION_COMPAT_LD
#undef ORION_COMPAT_LD2
#undef ORION_COMPAT_LD4
#undef ORION_COMPAT_ST
#undef ORION_COMPAT_ST2
#undef ORION_COMPAT_ST4
#endif /* cache hints */

/* ---- nvcc's __nv_atomic_* builtins (CUDA 12.8+), on clang's scoped
 * atomics.  The orders equal the __ATOMIC_* values; a scope clang lacks
 * (cluster) becomes the wider device scope. ---- */
#ifndef ORION_NO_NV_ATOMIC_COMPAT
enum {
  __NV_ATOMIC_RELAXED, __NV_ATOMIC_CONSUME, __NV_ATOMIC_ACQUIRE,
  __NV_ATOMIC_RELEASE, __NV_ATOMIC_ACQ_REL, __NV_ATOMIC_SEQ_CST
};
enum {
  __NV_THREAD_SCOPE_THREAD, __NV_THREAD_SCOPE_BLOCK, __NV_THREAD_SCOPE_CLUSTER,
  __NV_THREAD_SCOPE_DEVICE, __NV_THREAD_SCOPE_SYSTEM
};

#define ORION_NV_SCOPED(call, scope)                                          \
  switch (scope) {                                                            \
  case __NV_THREAD_SCOPE_THREAD: call(__MEMORY_SCOPE_SINGLE);                 \
  case __NV_THREAD_SCOPE_BLOCK: call(__MEMORY_SCOPE_WRKGRP);                  \
  case __NV_THREAD_SCOPE_CLUSTER:                                             \
  case __NV_THREAD_SCOPE_DEVICE: call(__MEMORY_SCOPE_DEVICE);                 \
  default: call(__MEMORY_SCOPE_SYSTEM);                                       \
  }

template <typename T>
static __device__ __forceinline__ T __nv_atomic_load_n(T *p, int order,
                                                        int scope = __NV_THREAD_SCOPE_SYSTEM) {
#define ORION_NV_CALL(s) return __scoped_atomic_load_n(p, order, s)
  ORION_NV_SCOPED(ORION_NV_CALL, scope)
#undef ORION_NV_CALL
}
template <typename T>
static __device__ __forceinline__ void __nv_atomic_load(T *p, T *ret, int order,
                                                         int scope = __NV_THREAD_SCOPE_SYSTEM) {
  *ret = __nv_atomic_load_n(p, order, scope);
}
template <typename T>
static __device__ __forceinline__ void __nv_atomic_store_n(T *p, T v, int order,
                                                            int scope = __NV_THREAD_SCOPE_SYSTEM) {
#define ORION_NV_CALL(s) __scoped_atomic_store_n(p, v, order, s); return
  ORION_NV_SCOPED(ORION_NV_CALL, scope)
#undef ORION_NV_CALL
}
template <typename T>
static __device__ __forceinline__ void __nv_atomic_store(T *p, T *v, int order,
                                                          int scope = __NV_THREAD_SCOPE_SYSTEM) {
  __nv_atomic_store_n(p, *v, order, scope);
}
template <typename T>
static __device__ __forceinline__ bool
__nv_atomic_compare_exchange_n(T *p, T *expected, T desired, bool weak, int success,
                               int failure, int scope = __NV_THREAD_SCOPE_SYSTEM) {
#define ORION_NV_CALL(s) \
  return __scoped_atomic_compare_exchange_n(p, expected, desired, weak, success, failure, s)
  ORION_NV_SCOPED(ORION_NV_CALL, scope)
#undef ORION_NV_CALL
}
template <typename T>
static __device__ __forceinline__ bool
__nv_atomic_compare_exchange(T *p, T *expected, T *desired, bool weak, int success,
                             int failure, int scope = __NV_THREAD_SCOPE_SYSTEM) {
  return __nv_atomic_compare_exchange_n(p, expected, *desired, weak, success, failure, scope);
}
#define ORION_NV_RMW(name, builtin)                                                      \
  template <typename T>                                                                  \
  static __device__ __forceinline__ T name(T *p, T v, int order,                         \
                                           int scope = __NV_THREAD_SCOPE_SYSTEM) {       \
    ORION_NV_SCOPED(ORION_NV_RMW_CALL_##builtin, scope)                                  \
  }
#define ORION_NV_RMW_CALL_xchg(s) return __scoped_atomic_exchange_n(p, v, order, s)
#define ORION_NV_RMW_CALL_add(s) return __scoped_atomic_fetch_add(p, v, order, s)
#define ORION_NV_RMW_CALL_sub(s) return __scoped_atomic_fetch_sub(p, v, order, s)
#define ORION_NV_RMW_CALL_and(s) return __scoped_atomic_fetch_and(p, v, order, s)
#define ORION_NV_RMW_CALL_or(s) return __scoped_atomic_fetch_or(p, v, order, s)
#define ORION_NV_RMW_CALL_xor(s) return __scoped_atomic_fetch_xor(p, v, order, s)
#define ORION_NV_RMW_CALL_min(s) return __scoped_atomic_fetch_min(p, v, order, s)
#define ORION_NV_RMW_CALL_max(s) return __scoped_atomic_fetch_max(p, v, order, s)
ORION_NV_RMW(__nv_atomic_exchange_n, xchg)
ORION_NV_RMW(__nv_atomic_fetch_add, add)
ORION_NV_RMW(__nv_atomic_fetch_sub, sub)
ORION_NV_RMW(__nv_atomic_fetch_and, and)
ORION_NV_RMW(__nv_atomic_fetch_or, or)
ORION_NV_RMW(__nv_atomic_fetch_xor, xor)
ORION_NV_RMW(__nv_atomic_fetch_min, min)
ORION_NV_RMW(__nv_atomic_fetch_max, max)
static __device__ __forceinline__ void
__nv_atomic_thread_fence(int order, int scope = __NV_THREAD_SCOPE_SYSTEM) {
#define ORION_NV_CALL(s) __scoped_atomic_thread_fence(order, s); return
  ORION_NV_SCOPED(ORION_NV_CALL, scope)
#undef ORION_NV_CALL
}
#endif /* nv atomics */

/* ---- -use_fast_math: nvcc's intrinsic for every function it lists ----
 * nvcc's -use_fast_math calls the fast intrinsic for sinf, cosf, tanf,
 * sincosf, logf, log2f, log10f, expf, exp10f and powf.  Clang's -ffast-math
 * does it for the first five and log2f only (its __clang_cuda_math.h); here
 * the libdevice functions behind the other five are renamed to their fast
 * twins, on the device only.  orion-cc defines ORION_NVCC_FAST_MATH for
 * -use_fast_math. */
#if defined(ORION_NVCC_FAST_MATH) && defined(__CUDA_ARCH__)
#pragma redefine_extname __nv_tanf __nv_fast_tanf
#pragma redefine_extname __nv_log10f __nv_fast_log10f
#pragma redefine_extname __nv_expf __nv_fast_expf
#pragma redefine_extname __nv_exp10f __nv_fast_exp10f
#pragma redefine_extname __nv_powf __nv_fast_powf
#endif

/* ---- __maxnreg__ (read by OrionPass) ---- */

#if !defined(ORION_NO_MAXNREG_COMPAT)
#undef __maxnreg__
#define __maxnreg__(n) __attribute__((annotate("orion.maxnreg", n)))
#endif

#endif /* clang CUDA C++ */
#endif /* ORION_NVCC_COMPAT_H */
