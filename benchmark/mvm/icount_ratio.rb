# Compare two candidates of a benchmark/vmstack/icount.rb run with each other,
# not with vanilla: the single-VM cost of MVM is mvm against the series before
# it (prev).  Reads the run's samples (--tsv) and prints the geometric mean of
# the per-job ratios, the worst jobs and how many exceed 1.02 and 1.05.
#
#   ruby benchmark/mvm/icount_ratio.rb results/data/mvm-icount.tsv [CAND=mvm] [BASE=prev] [N=10]
require_relative "../lib/stats"
require_relative "../lib/icount_samples"

tsv, cand, base, n = ARGV[0], ARGV[1] || "mvm", ARGV[2] || "prev", Integer(ARGV[3] || 10)
abort "usage: #{$0} TSV [CAND] [BASE] [N]" unless tsv && File.exist?(tsv)
per = IcountSamples.per_job(tsv)
# a job whose slope came out at or below 0 (one iteration against none,
# lost in the noise of its prelude) says nothing: left out, and named
bad = per.select { |k, by| by[cand] && by[base] && (by[cand] <= 0 || by[base] <= 0) }.keys
ratios = per.filter_map { |k, by| [k, by[cand] / by[base], by[base]] if by[cand] && by[base] && by[base] > 0 && by[cand] > 0 }
abort "no job has both #{cand} and #{base}" if ratios.empty?
r = ratios.map { _2 }
printf "%s / %s over %d jobs: geometric mean %.4f; over 1.02: %d, over 1.05: %d, under 0.98: %d\n",
       cand, base, r.size, Stats.geomean(r), r.count { _1 > 1.02 }, r.count { _1 > 1.05 }, r.count { _1 < 0.98 }
puts "left out (a slope at or below 0): #{bad.join(", ")}" unless bad.empty?
puts "highest:"
ratios.max_by(n) { _2 }.each { |k, x, b| printf "  %-60s %.4f  (%s: %.4g instructions)\n", k, x, base, b }
puts "lowest:"
ratios.min_by(n) { _2 }.each { |k, x, b| printf "  %-60s %.4f  (%s: %.4g instructions)\n", k, x, base, b }
