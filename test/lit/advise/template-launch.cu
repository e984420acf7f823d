// Launches inside a function template whose kernel's template arguments are
// deduced (the callee is an unresolved overload set until instantiation)
// are launch sites too, with the block taken through a local dim3; a run
// report naming an instantiation that no launch spells out (its mangling
// is not among the kernel's names) still finds the kernel by the
// mangling's identifier.
// RUN: rm -rf %t && mkdir -p %t
// RUN: sed -n 's|^// RUNREPORT: ||p' %s > %t/run.json
// RUN: orion-advise %s --run-report=%t/run.json --sm=90 -- --cuda-gpu-arch=sm_90 | FileCheck %s

// RUNREPORT: {"orion_report":1,"configs":[
// RUNREPORT:  {"kernel":"_Z4stepIdEvPT_i","block":[128,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"r64","chosen_regs":64,"chosen_warps":64,"max_warps":64,"speedup":1.08,"speedup_ci95":0.01,"speedup_pairs":8,"rechecks":3,"versions":[]},
// RUNREPORT:  {"kernel":"_ZN2ns5innerEPf","block":[128,1,1],"shmem":0,"source":"tuned","original":"orig","chosen":"orig","versions":[]}
// RUNREPORT: ]}

// CHECK: template-launch.cu:[[#@LINE+3]]:36: note: kernel 'step' (template)
// CHECK-NEXT: template-launch.cu:[[#@LINE+9]]:3: note: launch of 'step' <<<n / 128, block>>>
// CHECK-NEXT: template-launch.cu:[[#@LINE+3]]:17: note: kernel 'inner' [_ZN2ns5innerEPf]
template <class T> __global__ void step(T *a, int n) { a[n] += 1; }
namespace ns {
__global__ void inner(float *a) { a[0] = 1; }
} // namespace ns

template <class T> void run(T *a, int n) {
  dim3 block(128);
  step<<<n / 128, block>>>(a, n);
}
template void run<double>(double *, int);

// CHECK: note: 'step' at 128x1x1 threads, 0 B dynamic shared memory: r64, 1.080 ±0.010 n=8, confirmed by 3 re-checks
// CHECK: note: orion-advise: 'step': Orion chose r64
// CHECK: note: 'inner' at 128x1x1 threads, 0 B dynamic shared memory: the original stays (tuned)
