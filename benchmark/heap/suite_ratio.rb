# One candidate against another from benchmark/suite.rb's samples, directly
# (not through vanilla): per job the median over rounds of the per-round
# ratio of times (> 1: A is slower; i/s inverted), then the geometric mean
# over jobs, per round, and over the jobs a regexp picks and the rest.
#
#   ruby benchmark/heap/suite_ratio.rb SAMPLES.tsv [A B [GC_REGEXP]]
#
# Defaults: A = heap, B = preheap, GC_REGEXP the GC-heavy jobs of results/heap.md.
tsv, a, b, pick = ARGV[0], ARGV[1] || "heap", ARGV[2] || "preheap",
  Regexp.new(ARGV[3] || "gc|string|so_count_words|so_k_nucleotide|app_erb|vm_eval|lc_fizzbuzz")
abort "usage: suite_ratio.rb SAMPLES.tsv [A B [GC_REGEXP]]" unless tsv && File.file?(tsv)
samples = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = {} } }
larger_better = {}
File.foreach(tsv) do |line|
  round, file, job, exe, _unit, value, lb = line.chomp.split("\t")
  next unless file =~ /\A(app|so|vm)_/
  key = file.end_with?(".rb") ? file : "#{file}/#{job}"
  samples[key][round][exe] = Float(value)
  larger_better[key] = lb == "1"
end
median = ->(x) { x = x.sort; n = x.size; n.odd? ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2 }
geomean = ->(x) { Math.exp(x.sum { Math.log(_1) } / x.size) }
per_job = {}
per_round = Hash.new { |h, k| h[k] = [] }
samples.each do |key, rounds|
  ratios = rounds.filter_map do |round, v|
    va, vb = v[a], v[b]
    next unless va && vb && va.finite? && vb.finite? && va > 0 && vb > 0
    r = larger_better[key] ? vb / va : va / vb
    per_round[round] << r
    r
  end
  per_job[key] = median.(ratios) unless ratios.empty?
end
abort "no job measured on both #{a} and #{b}" if per_job.empty?
picked, rest = per_job.partition { |k, _| k.match?(pick) }.map(&:to_h)
puts "#{a} / #{b}: #{per_job.size} jobs, geometric mean of the per-job medians #{geomean.(per_job.values).round(4)}"
per_round.sort.each { |r, x| puts "  round #{r}: #{x.size} jobs, #{geomean.(x).round(4)}" }
puts "  /#{pick.source}/: #{picked.size} jobs, #{geomean.(picked.values).round(4)}" unless picked.empty?
puts "  the rest: #{rest.size} jobs, #{geomean.(rest.values).round(4)}" unless rest.empty?
puts "  over 1.05: #{per_job.count { _2 > 1.05 }}, under 0.95: #{per_job.count { _2 < 0.95 }}"
