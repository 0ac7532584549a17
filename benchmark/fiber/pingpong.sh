#!/usr/bin/env bash
# The backends' coroutine_transfer alone: benchmark/fiber/pingpong.c linked
# against each build directory's Context.o, DEPTH C frames between each
# side's loop and the switch, alternating the backends in every run.
# Prints a markdown table of medians (min-max), ns per round trip (two
# switches).  Needs make build fiber-sjlj fiber-ucontext.
set -eu
cd "$(dirname "$0")/../.."
RUNS=${RUNS:-5} COUNT=${COUNT:-2000000} DEPTHS=${DEPTHS:-0 6}
BACKENDS="amd64:build/obj sjlj:build/obj-sjlj ucontext:build/obj-ucontext"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for b in $BACKENDS; do
    name=${b%%:*} obj=${b#*:}
    cc -O2 -I "build/src/coroutine/$name" benchmark/fiber/pingpong.c \
        "$obj/coroutine/$name/Context.o" -o "$out/$name"
done
for run in $(seq "$RUNS"); do
    for b in $BACKENDS; do
        name=${b%%:*}
        for d in $DEPTHS; do
            n=$COUNT
            [ "$name" = ucontext ] && n=$((COUNT / 10))
            echo "$name $d $("$out/$name" "$n" "$d")"
        done
    done
done | ruby -e '
  h = Hash.new { |k, v| k[v] = [] }
  STDIN.each { |l| b, d, ns = l.split; h[[b, d]] << ns.to_f }
  depths = h.keys.map(&:last).uniq
  puts "| backend | " + depths.map { |d| "depth #{d}" }.join(" | ") + " |"
  puts "|---|" + depths.map { "---:|" }.join
  h.keys.map(&:first).uniq.each do |b|
    cells = depths.map do |d|
      a = h[[b, d]].sort
      "%.1f (%.1f-%.1f)" % [a[a.size / 2], a[0], a[-1]]
    end
    puts "| #{b} | " + cells.join(" | ") + " |"
  end'
