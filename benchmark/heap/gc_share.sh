#!/bin/bash
# GC's share of each benchmark/ file's CPU time (app_, so_ and vm_ files),
# on one ruby: every file runs once through benchmark_driver (run duration
# 0.3 s) with a library that, at the exit of each process the driver
# starts, appends GC.stat(:time), the process's CPU time, GC.count, the live
# and available slots and (on the fork) GC.stat(:gc_share), free growth's
# estimate in thousandths, to a TSV.  Summing per file gives GC's share at
# that ruby's sizing.
#
#   benchmark/heap/gc_share.sh RUBY OUT.tsv
#   awk -F'\t' '{g[$1]+=$2; t[$1]+=$3; c[$1]+=$4} END {for (f in g) printf "%s %.3f %d\n", f, g[f]/t[f], c[f]}' OUT.tsv | sort -k2 -nr
ruby=$(realpath "${1:?usage: gc_share.sh RUBY OUT.tsv}")
out=$(realpath -m "${2:?usage: gc_share.sh RUBY OUT.tsv}")
root=$(cd "$(dirname "$0")/../.." && pwd)
work=$root/build/bench/share
gems=$root/build/bench-gems
driver=$(ls -d "$gems"/gems/benchmark_driver-*/exe/benchmark-driver | tail -1)
mkdir -p "$work" "$root/build/bench/cwd"
cat > "$work/gcshare.rb" <<'RUBY'
at_exit {
  t = Process.clock_gettime(Process::CLOCK_PROCESS_CPUTIME_ID)
  File.open(ENV["GCSHARE_OUT"], "a") { |f| f.puts [ENV["BENCH_FILE"], GC.stat(:time) / 1000.0, t, GC.count, GC.stat(:heap_live_slots), GC.stat(:heap_available_slots), GC.stat[:gc_share]].join("\t") }
}
RUBY
printf '#!/bin/sh\nexec env RUBYOPT=-r%s GCSHARE_OUT=%s %s "$@"\n' "$work/gcshare.rb" "$out" "$ruby" > "$work/ruby-share"
chmod +x "$work/ruby-share"
: > "$out"
cd "$root/build/bench/cwd"
for f in "$root"/build/src/benchmark/{app,so,vm}_*.{rb,yml}; do
  BENCH_FILE=$(basename "$f") GEM_HOME=$gems GEM_PATH=$gems RUBYOPT= timeout 300 "$ruby" \
    -I "$root/build/src/benchmark/lib" "$driver" "--executables=share::$work/ruby-share --disable-gems" \
    --run-duration=0.3 --timeout=120 "$f" > /dev/null 2>&1 || echo "failed: $f" >&2
done
