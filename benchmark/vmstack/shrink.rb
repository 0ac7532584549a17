# Seed 000 leaves shrinking to future work; this shows it.  A thread
# recurses DEPTH calls deep (a burst), returns and idles, CYCLES times.
# After each burst it runs GC.start twice (the trigger: a stack is shrunk
# when it stayed at a quarter of its size or less between two GCs) and
# makes one call (the push that carries the shrink out).  Resident memory
# (VmRSS) is sampled at each step.
#
#   DEPTH=100000 CYCLES=3 ruby benchmark/vmstack/shrink.rb
#
# Prints "BENCH rss_<step>_kb=N" for the start, the first burst's bottom,
# and the end, and with SERIES=FILE writes every sample ("step rss_kb")
# to FILE.  Vanilla needs RUBY_THREAD_VM_STACK_SIZE large enough for
# DEPTH (64 MiB for 100,000); give the fork the same maximum.
depth = Integer(ENV["DEPTH"] || 100_000)
cycles = Integer(ENV["CYCLES"] || 3)

def rss_kb = File.read("/proc/self/status")[/^VmRSS:\s+(\d+)/, 1].to_i

def recurse(n, at_bottom)
  if n > 0
    recurse(n - 1, at_bottom)
  else
    at_bottom.call
  end
end

series = []
sample = ->(step) { series << [step, rss_kb] }
Thread.new do
  sample["start"]
  cycles.times do |c|
    recurse(depth, -> { sample["deep#{c + 1}"] })
    sample["returned#{c + 1}"]
    2.times do |g|
      GC.start
      recurse(10, -> {})
      sample["gc#{c + 1}.#{g + 1}"]
    end
    sleep 0.05
  end
end.join

File.write(ENV["SERIES"], series.map { |s, kb| "#{s} #{kb}\n" }.join) if ENV["SERIES"]
series.each { |s, kb| $stderr.puts format("%-12s %8d KB", s, kb) } if ENV["VERBOSE"]
h = series.to_h
puts "BENCH rss_start_kb=#{h["start"]}"
puts "BENCH rss_deep_kb=#{h["deep1"]}"
puts "BENCH rss_end_kb=#{series.last[1]}"
