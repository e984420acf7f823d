# need_gpu.sh - sourced by the GPU tests: `need_gpu <test name>` exits 77
# (CTest: skipped) with the reason when this machine has no CUDA GPU.
need_gpu() {
  if ! nvidia-smi -L >/dev/null 2>&1; then
    echo "SKIP: no CUDA GPU on this machine ($1 needs one)"
    exit 77
  fi
}
