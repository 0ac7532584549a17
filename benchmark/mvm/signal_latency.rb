# How long a signal to the process takes to reach a sleeping child VM that
# traps it while the first VM is busy: the first VM's main thread spins in
# Ruby code, and another of its threads sends N signals (100) one at a time,
# each when the previous one has arrived.  The child notes when its trap
# runs, on the same clock; prints the median and the spread in ms.
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
lat = []
sender = Thread.new do
  n.times do
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    Process.kill(:USR1, $$)
    lat << (r.gets.to_f - t0) * 1000
  end
end
x = 0
x += 1 while sender.alive?                # the main thread busy in Ruby code
sender.join
lat.sort!
q = ->(f) { lat[((lat.size - 1) * f).round] }
printf("%d USR1 to a sleeping child VM, first VM's main thread busy: median %.3f ms (min %.3f, p10 %.3f, p90 %.3f, max %.3f)\n",
       n, q.(0.5), lat.first, q.(0.1), q.(0.9), lat.last)
