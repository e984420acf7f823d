// nvcc's __nv_atomic_* builtins (orion/nvcc_compat.h provides them for clang).

__global__ void k(unsigned *p, unsigned *q) {
  q[0] = __nv_atomic_load_n(p, __NV_ATOMIC_RELAXED);
  q[1] = __nv_atomic_load_n(p, __NV_ATOMIC_ACQUIRE, __NV_THREAD_SCOPE_BLOCK);
  __nv_atomic_store_n(p, 3u, __NV_ATOMIC_RELEASE, __NV_THREAD_SCOPE_DEVICE);
  q[2] = __nv_atomic_fetch_add(p, 1u, __NV_ATOMIC_RELAXED, __NV_THREAD_SCOPE_DEVICE);
  unsigned e = 1; q[3] = __nv_atomic_compare_exchange_n(p, &e, 2u, false, __NV_ATOMIC_SEQ_CST, __NV_ATOMIC_RELAXED);
  q[4] = __nv_atomic_fetch_max(p, 5u, __NV_ATOMIC_RELAXED);
  q[5] = __nv_atomic_exchange_n(p, 9u, __NV_ATOMIC_ACQ_REL);
  __nv_atomic_thread_fence(__NV_ATOMIC_SEQ_CST, __NV_THREAD_SCOPE_DEVICE);
}
int main() { return 0; }
