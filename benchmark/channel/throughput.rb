# One-way throughput of small messages (the Integer 1): a sender and a receiver,
# MODE channel (a child VM sends, the first VM receives) or ractor (a Ractor sends to
# the main Ractor with #send, which receives).  Prints messages a second.
#
#   ruby benchmark/channel/throughput.rb MODE [N]
mode, n = ARGV[0], Integer(ARGV[1] || 1_000_000)
clock = -> { Process.clock_gettime(Process::CLOCK_MONOTONIC) }
case mode
when "channel"
  ch = RubyVM::Channel.new
  go = RubyVM::Channel.new
  vm = RubyVM.new("sender", "--disable-gems", "-e", <<~'RUBY').start(ch, go, n)
    ch, go, n = RubyVM::ARGV
    go.recv
    i = 0
    while i < n
      ch << 1
      i += 1
    end
  RUBY
  t = clock.()
  go << :go
  n.times { ch.recv }
  t = clock.() - t
  vm.join
when "ractor"
  Warning[:experimental] = false
  main = Ractor.current
  r = Ractor.new(main, n) do |main, n|
    Ractor.receive
    i = 0
    while i < n
      main.send(1)
      i += 1
    end
  end
  t = clock.()
  r.send(:go)
  n.times { Ractor.receive }
  t = clock.() - t
  r.take
else
  abort "unknown mode #{mode}"
end
puts (n / t).round
