# One candidate against another from benchmark/suite.rb's samples, directly
# (not through vanilla): per job the median over rounds of the per-round
# ratio of times (> 1: A is slower; i/s inverted), then the geometric mean
# over jobs, per round, and over the jobs a regexp picks and the rest.
# With --by-share, also by how much each job's file collects on the ruby
# that benchmark/heap/gc_share.sh measured: fewer than 5 GCs, and GC's share
# of CPU time under 5%, 5-10% and 10% or more.  Also the ratio of each job's
# best round on A to its best on B (another machine's noise only adds time).
#
#   ruby benchmark/heap/suite_ratio.rb SAMPLES.tsv [A B [GC_REGEXP]] [--by-share SHARE.tsv]
#
# Defaults: A = heap, B = preheap, GC_REGEXP the GC-heavy jobs of results/heap.md.
require_relative "../lib/stats"
args = ARGV.dup
share_tsv = (i = args.index("--by-share")) && args.slice!(i, 2)[1]
tsv, a, b, pick = args[0], args[1] || "heap", args[2] || "preheap",
  Regexp.new(args[3] || "gc|string|so_count_words|so_k_nucleotide|app_erb|vm_eval|lc_fizzbuzz")
abort "usage: suite_ratio.rb SAMPLES.tsv [A B [GC_REGEXP]] [--by-share SHARE.tsv]" unless tsv && File.file?(tsv)
samples = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = {} } }
larger_better = {}
File.foreach(tsv) do |line|
  round, file, job, exe, _unit, value, lb = line.chomp.split("\t")
  next unless file =~ /\A(app|so|vm)_/
  key = file.end_with?(".rb") ? file : "#{file}/#{job}"
  samples[key][round][exe] = Float(value)
  larger_better[key] = lb == "1"
end
median = Stats.method(:median)
geomean = Stats.method(:geomean)
per_job = {}
per_round = Hash.new { |h, k| h[k] = [] }
best = {}
samples.each do |key, rounds|
  ratios = rounds.filter_map do |round, v|
    va, vb = v[a], v[b]
    next unless va && vb && va.finite? && vb.finite? && va > 0 && vb > 0
    r = larger_better[key] ? vb / va : va / vb
    per_round[round] << r
    r
  end
  per_job[key] = median.(ratios) unless ratios.empty?
  vals = [a, b].map do |exe|
    v = rounds.values.filter_map { |x| x[exe] if x[exe]&.finite? && x[exe] > 0 }
    larger_better[key] ? v.max : v.min
  end
  best[key] = larger_better[key] ? vals[1] / vals[0] : vals[0] / vals[1] if vals.all?
end
abort "no job measured on both #{a} and #{b}" if per_job.empty?
picked, rest = per_job.partition { |k, _| k.match?(pick) }.map(&:to_h)
puts "#{a} / #{b}: #{per_job.size} jobs, geometric mean of the per-job medians #{geomean.(per_job.values).round(4)}"
per_round.sort.each { |r, x| puts "  round #{r}: #{x.size} jobs, #{geomean.(x).round(4)}" }
puts "  /#{pick.source}/: #{picked.size} jobs, #{geomean.(picked.values).round(4)}" unless picked.empty?
puts "  the rest: #{rest.size} jobs, #{geomean.(rest.values).round(4)}" unless rest.empty?
puts "  over 1.05: #{per_job.count { _2 > 1.05 }}, under 0.95: #{per_job.count { _2 < 0.95 }}"
puts "  best round against best round: #{best.size} jobs, #{geomean.(best.values).round(4)}"
if share_tsv
  share = Hash.new { |h, k| h[k] = [0.0, 0.0, 0] }
  File.foreach(share_tsv) do |l|
    file, gc, cpu, count = l.split("\t")
    share[file][0] += gc.to_f; share[file][1] += cpu.to_f; share[file][2] += count.to_i
  end
  groups = per_job.group_by do |key, _|
    file = key.split("/").first
    next "not in #{share_tsv}" unless share.key?(file)
    gc, cpu, count = share[file]
    count < 5 ? "fewer than 5 GCs" : gc / cpu < 0.05 ? "GC share under 5%" :
      gc / cpu < 0.10 ? "GC share 5-10%" : "GC share 10% or more"
  end
  groups.sort.each { |g, jobs| puts "  #{g}: #{jobs.size} jobs, #{geomean.(jobs.map(&:last)).round(4)}" }
end
