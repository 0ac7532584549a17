# heap / preheap from benchmark/suite.rb's samples, grouped by how much the
# job's file collects on preheap (benchmark/heap/gc_share.sh's TSV): files
# with fewer than 5 GCs, and by GC's share of CPU time under 5%, 5-10% and
# 10% or more.  Per job the median over rounds of the per-round ratio (> 1:
# A is slower), then the geometric mean per group.
#
#   ruby benchmark/heap/suite_by_share.rb SHARE.tsv SAMPLES.tsv... [--a heap --b preheap]
a, b = "heap", "preheap"
args = ARGV.dup
if (i = args.index("--a")) then a = args.delete_at(i + 1); args.delete_at(i) end
if (i = args.index("--b")) then b = args.delete_at(i + 1); args.delete_at(i) end
share_tsv, *samples = args
abort "usage: suite_by_share.rb SHARE.tsv SAMPLES.tsv... [--a A --b B]" if samples.empty?
median = ->(x) { x = x.sort; n = x.size; n.odd? ? x[n / 2] : (x[n / 2 - 1] + x[n / 2]) / 2 }
geomean = ->(x) { Math.exp(x.sum { Math.log(_1) } / x.size) }
share = Hash.new { |h, k| h[k] = [0.0, 0.0, 0] }
File.foreach(share_tsv) do |l|
  f, gc, cpu, count = l.split("\t")
  share[f][0] += gc.to_f; share[f][1] += cpu.to_f; share[f][2] += count.to_i
end
ratios = Hash.new { |h, k| h[k] = [] }
samples.each do |tsv|
  rounds = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = {} } }
  larger_better = {}
  File.foreach(tsv) do |l|
    round, file, job, exe, _unit, value, lb = l.chomp.split("\t")
    next unless file =~ /\A(app|so|vm)_/
    rounds[[file, job]][round][exe] = Float(value)
    larger_better[[file, job]] = lb == "1"
  end
  rounds.each do |key, by_round|
    by_round.each_value do |v|
      next unless v[a] && v[b] && v[a] > 0 && v[b] > 0 && v[a].finite? && v[b].finite?
      ratios[key] << (larger_better[key] ? v[b] / v[a] : v[a] / v[b])
    end
  end
end
groups = Hash.new { |h, k| h[k] = [] }
ratios.each do |(file, _job), r|
  next if r.empty?
  gc, cpu, count = share.fetch(file) { next groups["not in #{share_tsv}"] << median.(r) }
  group = count < 5 ? "fewer than 5 GCs" : gc / cpu < 0.05 ? "GC share under 5%" :
    gc / cpu < 0.10 ? "GC share 5-10%" : "GC share 10% or more"
  groups[group] << median.(r)
end
puts "#{a} / #{b} (#{samples.join(', ')}):"
groups.sort.each { |g, v| printf "  %-22s %3d jobs  %.4f\n", g, v.size, geomean.(v) }
