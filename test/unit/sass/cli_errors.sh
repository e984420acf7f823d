#!/usr/bin/env bash
# cli_errors.sh - orion-sass on malformed inputs: each must exit 1 with one
# line "orion-sass: error: <file>: ..." on stderr, print nothing on stdout
# (for rewrite), create no output file and leave an existing one as it was.
# Unknown EIATTR attributes are not errors: such a cubin round-trips.
#
#   cli_errors.sh ORION_SASS KERNELS_CUBIN WORKDIR
set -u
sass=$1 cubin=$2 work=$3
[ -s "$cubin" ] || { echo "skipped: $cubin not built (no nvcc)"; exit 77; }
rm -rf "$work"; mkdir -p "$work"; cd "$work" || exit 1
fail=0

# patch FILE OFFSET HEXBYTES: overwrite bytes in place
patch() { printf "$(echo "$3" | sed 's/../\\x&/g')" | dd of="$1" bs=1 seek="$2" conv=notrunc status=none; }
u64() { printf '%016x' "$1" | sed 's/\(..\)/\1 /g' | awk '{for(i=8;i>0;i--) printf "%s",$i}'; }
shoff=$(od -An -t u8 -j 40 -N 8 "$cubin" | tr -d ' ')
size=$(stat -c %s "$cubin")
# the section header of .nv.info (found through orion-sass dump)
info_idx=$("$sass" dump "$cubin" | awk '$NF == ".nv.info" {print $1; exit}')
info_off=$((0x$("$sass" dump "$cubin" | awk '$NF == ".nv.info" {print $4; exit}')))

mk() { cp "$cubin" "$1"; }
head -c 1000 "$cubin" >truncated.cubin
head -c 40 "$cubin" >tiny.cubin
echo "hello, world" >text.cubin
printf '\x50\xed\x55\xba\x01\x00\x10\x00' >fatbin.cubin
cp "$sass" host.cubin
: >empty.cubin
mk machine.cubin; patch machine.cubin 18 3e00
mk shoff.cubin; patch shoff.cubin 40 "$(u64 $((size + 64)))"
mk shentsize.cubin; patch shentsize.cubin 58 2800
mk secoff.cubin; patch secoff.cubin $((shoff + info_idx * 64 + 24)) "$(u64 $((size - 8)))"
mk secsize.cubin; patch secsize.cubin $((shoff + info_idx * 64 + 32)) "$(u64 $((size * 2)))"
mk overlap.cubin; patch overlap.cubin $((shoff + info_idx * 64 + 24)) "$(u64 $((info_off - 16)))"
mk fmt.cubin; patch fmt.cubin "$info_off" 09
mk sval.cubin; patch sval.cubin $((info_off + 2)) ff7f
mk sm.cubin; patch sm.cubin 49 00

for f in truncated tiny text fatbin host empty machine shoff shentsize secoff secsize overlap fmt sval sm missing; do
  for cmd in info dump rewrite; do
    echo keep >existing.out
    if [ $cmd = rewrite ]; then
      args=("$f.cubin" -o "new.out"); args2=("$f.cubin" -o existing.out)
    else
      args=("$f.cubin"); args2=()
    fi
    "$sass" $cmd "${args[@]}" >stdout.txt 2>stderr.txt; rc=$?
    lines=$(wc -l <stderr.txt)
    if [ $rc -ne 1 ] || [ "$lines" -ne 1 ] || ! grep -q "^orion-sass: error: $f.cubin: " stderr.txt; then
      echo "FAIL: $cmd $f.cubin: exit $rc, stderr:"; cat stderr.txt; fail=1
    fi
    [ $cmd = rewrite ] && [ -s stdout.txt ] && { echo "FAIL: rewrite $f.cubin printed on stdout"; fail=1; }
    if [ $cmd = rewrite ]; then
      [ -e new.out ] && { echo "FAIL: rewrite $f.cubin created its output"; fail=1; rm -f new.out; }
      "$sass" rewrite "${args2[@]}" 2>/dev/null
      [ "$(cat existing.out)" = keep ] || { echo "FAIL: rewrite $f.cubin changed an existing output"; fail=1; }
      ls ./*.tmp.* >/dev/null 2>&1 && { echo "FAIL: temporary file left behind"; fail=1; rm -f ./*.tmp.*; }
    fi
  done
  [ $f = missing ] || printf '  %-10s %s\n' "$f" "$(cat stderr.txt)"
done

# an unknown attribute code is kept: the cubin round-trips byte for byte
mk unknown.cubin; patch unknown.cubin $((info_off + 1)) ee
"$sass" rewrite unknown.cubin -o unknown.out && cmp -s unknown.cubin unknown.out &&
  "$sass" dump unknown.cubin | grep -q 'EIATTR_0xee(unknown)' ||
  { echo "FAIL: unknown attribute not kept"; fail=1; }
# an unwritable output: error naming it, exit 1
"$sass" rewrite "$cubin" -o /nonexistent-dir/x.cubin 2>stderr.txt; rc=$?
[ $rc -eq 1 ] && grep -q "^orion-sass: error: /nonexistent-dir/x.cubin: " stderr.txt ||
  { echo "FAIL: unwritable output: exit $rc"; cat stderr.txt; fail=1; }
# usage errors: exit 2; --help: exit 0 on stdout
"$sass" bogus 2>/dev/null; [ $? -eq 2 ] || { echo "FAIL: unknown command"; fail=1; }
"$sass" rewrite "$cubin" 2>/dev/null; [ $? -eq 2 ] || { echo "FAIL: rewrite without -o"; fail=1; }
"$sass" --help | grep -q "rewrite <in> -o <out>" || { echo "FAIL: --help"; fail=1; }
[ $fail -eq 0 ] && echo "all malformed inputs rejected cleanly"
exit $fail
