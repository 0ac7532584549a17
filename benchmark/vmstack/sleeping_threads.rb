# Seed 000, fig. 7: N threads that only sleep; peak RSS against N gives the
# VM stack cost per thread (table 1).  N comes from ENV["THREADS"] or ARGV[0].
n = Integer(ENV["THREADS"] || ARGV[0] || 1000)
started = Queue.new
threads = (0...n).map do
  Thread.new { started << true; sleep }
end
n.times { started.pop }   # every thread is running and asleep
sleep 0.2
puts "BENCH threads=#{threads.size}"
