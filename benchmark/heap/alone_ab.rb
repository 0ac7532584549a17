# aobench alone (no cgroup, no pressure), several rubies alternating round by
# round (the order reversed every other round).  Per ruby: the median of
# aobench's own wall time (benchmark/heap/aobench.rb's, start-up excluded)
# with min..max, the median user time and GC time, and the median over rounds
# of its time / the last ruby's in the same round.
#
#   ruby benchmark/heap/alone_ab.rb ROUNDS NAME=RUBY... (AO_SIZE, default 64)
abort "usage: #{$0} ROUNDS NAME=RUBY..." if ARGV.size < 2
rounds = Integer(ARGV.shift)
rubies = ARGV.map { _1.split("=", 2) }
aobench = File.join(__dir__, "aobench.rb")
res = Hash.new { |h, k| h[k] = [] }
rounds.times do |r|
  (r.even? ? rubies : rubies.reverse).each do |name, rb|
    o = IO.popen([{"AO_SIZE" => ENV.fetch("AO_SIZE", "64")}, "/usr/bin/time", "-f", "TIME %e %U",
                  rb, aobench, err: [:child, :out]], &:read)
    t = o[/time_s=([\d.]+)/, 1] or abort "#{rb}: #{o}"
    res[name] << [t.to_f, o[/TIME \S+ (\S+)/, 1].to_f, o[/gc_ms=([\d.]+)/, 1].to_f]
  end
end
med = ->(a) { s = a.sort; s[s.size / 2] }
base = res[rubies.last[0]]
rubies.each do |name, _|
  a = res[name]
  w = a.map { _1[0] }
  printf "%-10s wall %.3f [%.3f..%.3f] user %.3f gc %.0f ms  / %s per round %.3f\n", name, med[w], w.min, w.max,
         med[a.map { _1[1] }], med[a.map { _1[2] }], rubies.last[0], med[a.each_index.map { |i| w[i] / base[i][0] }]
end
