# Table 3 of seed 004: N round trips of one object between two VMs (Channel), two
# Ractors, or two processes over pipes with Marshal.  Prints the seconds taken.
#
#   ruby benchmark/channel/pingpong.rb MODE OBJ [N]
#   MODE: channel | ractor | pipe      OBJ: int | float | bignum | object | str1m
mode, kind, n = ARGV[0], ARGV[1], Integer(ARGV[2] || 10_000)
OBJS = {
  "int" => "1", "float" => "1.1", "bignum" => "2**100",
  "object" => "Object.new", "str1m" => "'x' * 1_000_000",
}
obj = eval(OBJS.fetch(kind))
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }

case mode
when "channel"
  ping, pong = RubyVM::Channel.new, RubyVM::Channel.new
  vm = RubyVM.new("echo", "--disable-gems", "-e", <<~'RUBY').start(ping, pong)
    ping, pong = RubyVM::ARGV
    ping.each { |o| pong << o }
  RUBY
  pong << nil; ping << pong.recv # warm up: the child runs
  t = clock.()
  n.times { ping << obj; pong.recv }
  t = clock.() - t
  ping.close
  vm.join
when "ractor"
  Warning[:experimental] = false
  r = Ractor.new { loop { Ractor.yield Ractor.receive } }
  r.send(nil); r.take
  t = clock.()
  n.times { r.send(obj); r.take }
  t = clock.() - t
when "pipe"
  a_r, a_w = IO.pipe
  b_r, b_w = IO.pipe
  pid = fork do
    a_w.close; b_r.close
    while (hdr = a_r.read(4))
      b_w.write(hdr, a_r.read(hdr.unpack1("N")))
    end
    exit!(0)
  end
  a_r.close; b_w.close
  send = ->(o) { d = Marshal.dump(o); a_w.write([d.bytesize].pack("N"), d) }
  recv = -> { Marshal.load(b_r.read(b_r.read(4).unpack1("N"))) }
  send.(nil); recv.()
  t = clock.()
  n.times { send.(obj); recv.() }
  t = clock.() - t
  a_w.close
  Process.wait(pid)
else
  abort "unknown mode #{mode}"
end
puts t
