#!/bin/sh
# cuda-view.sh CUDA DIR - make DIR a view of the CUDA toolkit at CUDA for
# CMake projects that build CUDA with a Clang-based compiler (orion-cc) and
# CUDA_SEPARABLE_COMPILATION, as `-DCUDAToolkit_ROOT=DIR`.
#
# Why: CMake (3.25 up to 4.4.5 at least) device-links such targets with
# `<toolkit>/bin/fatbinary ... -im=profile=sm_XX,file=F`, an option CUDA
# 12.9 removed ("fatbinary fatal: Unknown option 'im'").  CMake takes the
# toolkit from `<CUDAToolkit_ROOT>/bin/nvcc -v`'s "#$ TOP=" line.  So DIR
# holds every entry of CUDA as a symbolic link, and in bin/ two scripts:
# nvcc (the real one, its TOP line naming DIR) and fatbinary (the real one,
# -im=profile=sm_XX,file=F given as --image3=kind=elf,sm=XX,file=F and
# -im=profile=compute_XX,file=F as kind=ptx).  Both find DIR from their own
# place, so the view moves with an install tree.  Replaces DIR whole.
set -eu
[ $# -eq 2 ] || { echo "usage: cuda-view.sh CUDA DIR" >&2; exit 2; }
cuda=$1 dir=$2
[ -x "$cuda/bin/fatbinary" ] && [ -x "$cuda/bin/nvcc" ] ||
  { echo "cuda-view.sh: $cuda: no CUDA toolkit (bin/nvcc, bin/fatbinary)" >&2; exit 1; }
tmp=$dir.tmp.$$
rm -rf "$tmp"
mkdir -p "$tmp/bin"
for e in "$cuda"/* "$cuda"/bin/*; do
  n=${e#"$cuda"/}
  case $n in bin|bin/nvcc|bin/fatbinary) continue ;; esac
  ln -s "$e" "$tmp/$n"
done
cat > "$tmp/bin/nvcc" <<NVCC
#!/bin/sh
# The toolkit's nvcc, its TOP line naming this view (cuda-view.sh).
view=\$(cd "\$(dirname "\$0")/.." && pwd)
err=\$(mktemp) || exit 1
"$cuda/bin/nvcc" "\$@" 2>"\$err"
rc=\$?
sed "s|^#\\\$ TOP=.*|#\\\$ TOP=\$view|" "\$err" >&2
rm -f "\$err"
exit \$rc
NVCC
cat > "$tmp/bin/fatbinary" <<FATBIN
#!/bin/sh
# The toolkit's fatbinary, taking CMake's -im=profile=... (cuda-view.sh).
for a do
  shift
  case \$a in
    -im=profile=sm_*,*) p=\${a#-im=profile=sm_}; set -- "\$@" "--image3=kind=elf,sm=\${p%%,*},\${p#*,}" ;;
    -im=profile=compute_*,*) p=\${a#-im=profile=compute_}; set -- "\$@" "--image3=kind=ptx,sm=\${p%%,*},\${p#*,}" ;;
    *) set -- "\$@" "\$a" ;;
  esac
done
exec "$cuda/bin/fatbinary" "\$@"
FATBIN
chmod +x "$tmp/bin/nvcc" "$tmp/bin/fatbinary"
rm -rf "$dir"
mv "$tmp" "$dir"
