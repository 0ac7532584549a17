# Seed 003's fig. 3 microbenchmark: LIVE long-lived objects, then N heap
# allocated temporaries.  On 64-bit `0.5 + 0.7` is a flonum and allocates
# nothing, so the temporary is a Float out of the flonum range (TEMP=float,
# the default) or a short String (TEMP=string).  Prints BENCH lines: wall
# time, GC time (GC.stat(:time)), GC count.
#
#   LIVE=10000 N=50000000 TEMP=float ruby benchmark/heap/fig4.rb
live = Integer(ENV.fetch("LIVE", "10000"))
n = Integer(ENV.fetch("N", "50000000"))
temp = ENV.fetch("TEMP", "float")

ary = Array.new(live) { |i| i.to_s }
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
gc0 = GC.stat(:time)
count0 = GC.count
case temp
when "float"
  x = 1.0e300
  n.times { x * 1.5 }           # 1.5e300: not a flonum, a heap Float
when "string"
  s = "ab"
  n.times { s + "c" }           # a short String
else abort "TEMP=#{temp}: float or string"
end
t1 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
puts "BENCH time_s=#{t1 - t0}"
puts "BENCH gc_ms=#{GC.stat(:time) - gc0}"
puts "BENCH gc_count=#{GC.count - count0}"
puts "BENCH pressure_events=#{GC.stat[:pressure_events] || 0}"
ary.size
