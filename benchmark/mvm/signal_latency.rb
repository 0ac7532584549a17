# How long a signal to the process takes to reach a sleeping child VM that
# traps it while the first VM is busy (a thread in a loop): N signals (100),
# one at a time; prints the median and the spread in ms.
#
#   ruby benchmark/mvm/signal_latency.rb [N]
n = Integer(ARGV[0] || 100)
r, w = IO.pipe
RubyVM.new("sleeper", "--disable-gems", "-e", <<~'CHILD').start(w.fileno)
  io = IO.for_fd(RubyVM::ARGV[0], autoclose: false); io.sync = true
  trap(:USR1) { io.puts Process.clock_gettime(Process::CLOCK_MONOTONIC).to_s }
  io.puts "ready"
  sleep
CHILD
r.gets
trap(:USR1) { }                           # the first VM traps it too
busy = Thread.new { x = 0; loop { x += 1 } }
lat = n.times.map do
  t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
  Process.kill(:USR1, $$)
  (r.gets.to_f - t0) * 1000
end
busy.kill
lat.sort!
q = ->(f) { lat[((lat.size - 1) * f).round] }
printf("%d USR1 to a sleeping child VM, first VM busy: median %.3f ms (min %.3f, p10 %.3f, p90 %.3f, max %.3f)\n",
       n, q.(0.5), lat.first, q.(0.1), q.(0.9), lat.last)
