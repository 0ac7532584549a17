# aobench for seed 003's fig. 7: upstream's benchmark/app_aobench.rb (from
# the patched tree, build/src, or AOBENCH), its image AO_SIZE pixels square
# (256 upstream).  Prints BENCH lines: wall time, GC time, GC count, and the
# pressure events the fork's monitor saw.
#
#   AO_SIZE=64 ruby benchmark/heap/aobench.rb
path = ENV.fetch("AOBENCH", File.expand_path("../../build/src/benchmark/app_aobench.rb", __dir__))
size = Integer(ENV.fetch("AO_SIZE", "64"))
src = File.read(path)
src.sub!(/^IMAGE_WIDTH = \d+$/, "IMAGE_WIDTH = #{size}") or abort "#{path}: no IMAGE_WIDTH"
src.sub!(/^IMAGE_HEIGHT = \d+$/, "IMAGE_HEIGHT = #{size}") or abort "#{path}: no IMAGE_HEIGHT"
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
gc0 = GC.stat(:time)
count0 = GC.count
eval(src, TOPLEVEL_BINDING, path)
puts "BENCH time_s=#{Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0}"
puts "BENCH gc_ms=#{GC.stat(:time) - gc0}"
puts "BENCH gc_count=#{GC.count - count0}"
puts "BENCH pressure_events=#{GC.stat[:pressure_events] || 0}"
