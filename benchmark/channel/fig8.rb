# Fig. 8 of seed 004, one cell: round trips of one object between two VMs (Channel),
# two Ractors (send/take, copying) or two processes over pipes (length-prefixed
# Marshal.dump each way; the echo process Marshal.loads and dumps again, so both sides
# really hold the object, as with a Channel or a Ractor).  Prints
#
#   BENCH us=<microseconds per ROUND TRIP> iters=<round trips timed>
#
#   ruby --disable-gems benchmark/channel/fig8.rb MODE KIND LENGTH [TARGET_SECONDS]
#   MODE: channel (this fork) | ractor | pipe
#   KIND: int (Array.new(LENGTH, 1)) | float (Array.new(LENGTH, 0.1)) |
#         object (Array.new(LENGTH) { Object.new }) | str ('x' * LENGTH bytes)
#
# The number of round trips is calibrated: batches of 1, 4, 16, ... round trips until one
# batch takes 1/10 of TARGET_SECONDS (default 0.2), then enough round trips for about
# TARGET_SECONDS, at least 3 and at most 1,000,000.  The calibration round trips are
# also the warm-up; they are not counted.  The driver is fig8_driver.rb.
mode, kind, len = ARGV[0], ARGV[1], Integer(ARGV[2])
target = Float(ARGV[3] || 0.2)
obj = case kind
      when "int" then Array.new(len, 1)
      when "float" then Array.new(len, 0.1)
      when "object" then Array.new(len) { Object.new }
      when "str" then "x" * len
      else abort "unknown kind #{kind}"
      end
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }

case mode
when "channel"
  ping, pong = RubyVM::Channel.new, RubyVM::Channel.new
  vm = RubyVM.new("echo", "--disable-gems", "-e", <<~'RUBY').start(ping, pong)
    ping, pong = RubyVM::ARGV
    ping.each { |o| pong << o }
  RUBY
  rt = -> { ping << obj; pong.recv }
  fin = -> { ping.close; vm.join }
when "ractor"
  Warning[:experimental] = false
  r = Ractor.new { loop { Ractor.yield Ractor.receive } }
  rt = -> { r.send(obj); r.take }
  fin = -> {}
when "pipe"
  a_r, a_w = IO.pipe
  b_r, b_w = IO.pipe
  pid = fork do
    a_w.close; b_r.close
    while (hdr = a_r.read(4))
      o = Marshal.load(a_r.read(hdr.unpack1("N")))
      d = Marshal.dump(o)
      b_w.write([d.bytesize].pack("N"), d)
    end
    exit!(0)
  end
  a_r.close; b_w.close
  rt = lambda do
    d = Marshal.dump(obj)
    a_w.write([d.bytesize].pack("N"), d)
    Marshal.load(b_r.read(b_r.read(4).unpack1("N")))
  end
  fin = -> { a_w.close; Process.wait(pid) }
else
  abort "unknown mode #{mode}"
end

back = rt.()
ok = kind == "object" ? back.size == len : back == obj
abort "#{mode} #{kind} #{len}: the echo differs" unless ok
back = nil
n, t = 1, 0.0
loop do
  t = clock.()
  n.times { rt.() }
  t = clock.() - t
  break if t >= target / 10 || n >= 1_000_000
  n *= 4
end
iters = (target / (t / n)).ceil.clamp(3, 1_000_000)
GC.start
t = clock.()
iters.times { rt.() }
t = clock.() - t
fin.()
puts format("BENCH us=%.6g iters=%d", t / iters * 1e6, iters)
