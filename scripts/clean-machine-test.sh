#!/usr/bin/env bash
# scripts/clean-machine-test.sh - prove the README's two commands on a clean
# Debian 12 machine: build a minimal Debian 12 root with mmdebstrap (from the
# Debian packages this machine's apt sources name), bind-mount the CUDA
# toolkit read-only at /usr/local/cuda, clone this repository into it and run
#     scripts/setup.sh      (installs everything, builds, runs the demo)
#     scripts/test.sh       (every test through CTest)
# inside the root with chroot.  Nothing from this machine's installed
# packages reaches the root: only the toolkit, the apt sources, DNS and the
# TLS trust store (so apt and pip reach their registries as they do here).
#
#   scripts/clean-machine-test.sh [--keep] [WORKDIR]     (root; default WORKDIR
#                                                        /tmp/orion-clean-machine)
#
# The clone is of this checkout's HEAD (commit what you want tested).  Exit 0
# only when both commands exit 0; the log is WORKDIR/log.  --keep leaves the
# root in place for inspection (it is removed otherwise).  Needs root,
# mmdebstrap (installed from Debian when missing) and about 6 GB of disk.
set -euo pipefail
src=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
keep=0
[ "${1:-}" = "--keep" ] && { keep=1; shift; }
case "${1:-}" in -h|--help) sed -n '2,19p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;; esac
work=${1:-/tmp/orion-clean-machine}
cuda=${CUDA_PATH:-/usr/local/cuda}
root=$work/root

say() { printf 'clean-machine: %s\n' "$*"; }
die() { printf 'clean-machine: error: %s\n' "$*" >&2; exit 1; }

[ "$(id -u)" -eq 0 ] || die "must run as root (chroot, mounts)"
[ -x "$cuda/bin/ptxas" ] || die "no CUDA toolkit at $cuda (ptxas missing)"
. /etc/os-release
[ "${VERSION_CODENAME:-}" = bookworm ] || say "note: host is ${PRETTY_NAME:-unknown}; the root is Debian 12 anyway"
if ! command -v mmdebstrap >/dev/null; then
  say "installing mmdebstrap"
  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq mmdebstrap >/dev/null
fi

mounts=()
cleanup() {
  local i
  for ((i = ${#mounts[@]} - 1; i >= 0; i--)); do umount -l "${mounts[$i]}" 2>/dev/null || true; done
  if [ "$keep" = 0 ]; then rm -rf "$root"; else say "root kept at $root"; fi
}
trap cleanup EXIT
bind() { # bind SRC DST [ro]: mount SRC on DST inside the root
  mkdir -p "$2"
  mount --bind "$1" "$2"
  mounts+=("$2")
  [ "${3:-}" = ro ] && mount -o remount,bind,ro "$2"
  return 0
}

rm -rf "$root"
mkdir -p "$work"
# The host's own apt sources (a file argument is copied into the root as is).
sources=()
for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list /etc/apt/sources.list.d/*.sources; do
  [ -s "$f" ] && sources+=("$f")
done
[ ${#sources[@]} -gt 0 ] || die "no apt sources on this machine"
say "building a minimal Debian 12 root in $root"
mmdebstrap --mode=root --variant=minbase --include=ca-certificates,git \
  bookworm "$root" "${sources[@]}" >"$work/mmdebstrap.log" 2>&1 ||
  { tail -20 "$work/mmdebstrap.log" >&2; die "mmdebstrap failed (log: $work/mmdebstrap.log)"; }

cp /etc/resolv.conf "$root/etc/resolv.conf"
[ -f /etc/ssl/certs/ca-certificates.crt ] && cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/"
[ -f /etc/pip.conf ] && cp /etc/pip.conf "$root/etc/pip.conf"
for f in /etc/apt/apt.conf.d/*; do [ -f "$f" ] && cp "$f" "$root/etc/apt/apt.conf.d/"; done
bind /proc "$root/proc"
bind /dev "$root/dev"
bind "$cuda" "$root/usr/local/cuda" ro

say "cloning $(git -C "$src" rev-parse --short HEAD) into /src/orion"
git clone -q "$src" "$root/src/orion"

say "running the README's two commands in the root (log: $work/log)"
set +e
chroot "$root" /usr/bin/env -i HOME=/root PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
  LANG=C.UTF-8 CI="${CI:-}" /bin/bash -c 'cd /src/orion && scripts/setup.sh && scripts/test.sh' \
  >"$work/log" 2>&1
st=$?
set -e
tail -40 "$work/log"
[ "$st" -eq 0 ] || die "the README's commands failed in the clean root (exit $st; log: $work/log)"
say "passed: scripts/setup.sh and scripts/test.sh on a clean Debian 12 root"
