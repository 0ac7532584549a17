# A spike then idle (issue 16): RSS before, SPIKE_MB of objects made live
# at once and then dropped, then IDLE seconds of sleep with RSS sampled
# every STEP seconds.  Prints BENCH lines (kB) and "RSS t kb" samples.
#
#   SPIKE_MB=1024 IDLE=30 STEP=0.5 [SPIKE_ON=fiber|thread] ruby benchmark/heap/spike.rb
spike_mb = Integer(ENV.fetch("SPIKE_MB", "1024"))
idle = Float(ENV.fetch("IDLE", "30"))
step = Float(ENV.fetch("STEP", "0.5"))

def rss_kb = File.read("/proc/self/statm").split[1].to_i * 4
def now = Process.clock_gettime(Process::CLOCK_MONOTONIC)

GC.start
before = rss_kb
t0 = now
# On a Fiber (SPIKE_ON=fiber, the default) or a Thread that ends, so that
# no stack (scanned conservatively) keeps the Array once it is dropped, as a
# request's objects on a server.  A Thread mallocs from its own glibc arena,
# whose top glibc never trims (malloc_trim trims the main arena's only).
spike = lambda do
  keep = []
  bytes = 0
  while bytes < spike_mb << 20
    keep << "x" * 200        # a 240-byte slot each (variable width)
    bytes += 240
  end
  rss_kb
end
peak = case ENV.fetch("SPIKE_ON", "fiber")
       when "fiber" then Fiber.new(&spike).resume
       when "thread" then Thread.new(&spike).value
       else abort "SPIKE_ON=fiber or thread"
       end
t1 = now
puts "BENCH rss_before_kb=#{before}"
puts "BENCH rss_peak_kb=#{peak}"
puts "BENCH spike_s=#{t1 - t0}"
samples = []
while (t = now - t1) < idle
  samples << [t, rss_kb]
  sleep step
end
samples << [now - t1, rss_kb]
samples.each { |t, kb| puts "RSS #{t.round(2)} #{kb}" }
puts "BENCH rss_idle_end_kb=#{samples.last[1]}"
puts "BENCH idle_end_over_before=#{samples.last[1].fdiv(before)}"
