#!/usr/bin/env bash
# The RSS of a program that embeds ruby and makes, runs and frees VMs one
# after another (test/embed/vm_embed.c on one thread, built by
# tool/embed.sh): after AT cycles and after CYCLES, which must be within
# LIMIT_KB of each other (a VM leaves nothing behind).
#
#   tool/mvm-embed-rss.sh PREFIX [CYCLES=10000] [AT=100] [LIMIT_KB=1024]
. "$(dirname "$0")/common.sh"

prefix=${1:?usage: tool/mvm-embed-rss.sh PREFIX [CYCLES] [AT] [LIMIT_KB]}
cycles=${2:-10000}
at=${3:-100}
limit=${4:-1024}
out=$(mktemp -d "${TMPDIR:-/tmp}/mvm-embed-rss.XXXXXX")
trap 'rm -rf "$out"' EXIT
"$TOOLDIR/embed.sh" "$prefix" "$out/vm_embed" || exit 1
echo "==> RSS of a program that embeds ruby: $cycles VMs made, run and freed on one thread"
report=$("$out/vm_embed" 1 "$cycles" "$at") || { echo "$report"; die "the program failed"; }
echo "$report"
a=$(sed -n "s/^rss after $at cycles: \([0-9]*\) kB$/\1/p" <<<"$report")
b=$(sed -n "s/^rss after $cycles cycles: \([0-9]*\) kB$/\1/p" <<<"$report")
[ -n "$a" ] && [ -n "$b" ] || die "no RSS in the program's output"
echo "RSS: $a kB after $at VMs, $b kB after $cycles: $((b - a)) kB more"
[ $((b - a)) -le "$limit" ] || die "RSS grew by more than $limit kB from $at to $cycles VMs"
echo "==> RSS within $limit kB"
