#!/usr/bin/env bash
# aobench under cachegrind's cache model (32 KiB 8-way I1 and D1, 64-byte
# lines), each ruby with the environment padded by each of PADS bytes: the
# padding moves the C stack, which decides where its lines fall in the cache
# sets (natively ASLR moves it from run to run, so one padding is one sample).
# Prints I1 and D1 misses per ruby and padding, then each ruby's means.  Two
# runs at a time; aobench 32x32 takes about 40 s under valgrind.
#
#   benchmark/heap/cachesim.sh NAME=RUBY... [-- PAD...]   (AO_SIZE, default 32)
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
size=${AO_SIZE:-32}
rubies=() pads=()
while [ $# -gt 0 ] && [ "$1" != "--" ]; do rubies+=("$1"); shift; done
[ $# -gt 0 ] && shift
pads=("$@")
[ ${#pads[@]} -gt 0 ] || pads=(0 411 1234 2077 2900 3555)
[ ${#rubies[@]} -gt 0 ] || { echo "usage: $0 NAME=RUBY... [-- PAD...]" >&2; exit 2; }
out=$(mktemp -d "${TMPDIR:-/tmp}/cachesim.XXXXXX")
trap 'rm -rf "$out"' EXIT
one() { # name ruby pad
    env PADENV="$(head -c "$3" /dev/zero | tr '\0' x)" AO_SIZE="$size" \
        valgrind --tool=cachegrind --cache-sim=yes --I1=32768,8,64 --D1=32768,8,64 \
        --LL=8388608,16,64 --cachegrind-out-file=/dev/null \
        "$2" "$here/aobench.rb" > "$out/$1.$3" 2>&1
}
jobs=()
for p in "${pads[@]}"; do for r in "${rubies[@]}"; do jobs+=("${r%%=*} ${r#*=} $p"); done; done
for ((i = 0; i < ${#jobs[@]}; i += 2)); do
    one ${jobs[$i]} &
    [ $((i + 1)) -lt ${#jobs[@]} ] && one ${jobs[$((i + 1))]} &
    wait
done
misses() { sed -n "s/.*$2 *misses: *\([0-9,]*\).*/\1/p" "$1" | tr -d ,; }
printf "%-10s %6s %12s %12s\n" ruby pad I1_misses D1_misses
for r in "${rubies[@]}"; do
    n=${r%%=*} i1=0 d1=0
    for p in "${pads[@]}"; do
        a=$(misses "$out/$n.$p" I1) b=$(misses "$out/$n.$p" D1)
        printf "%-10s %6s %12s %12s\n" "$n" "$p" "$a" "$b"
        i1=$((i1 + a)) d1=$((d1 + b))
    done
    printf "%-10s %6s %12s %12s\n" "$n" mean $((i1 / ${#pads[@]})) $((d1 / ${#pads[@]}))
done
