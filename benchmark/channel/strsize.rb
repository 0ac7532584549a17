# Cost of a String through a Channel by size, within one VM (pack and unpack): ns a
# String, Arrays of 100 Strings of N bytes each way.  The copy against the shared body:
# run it on two builds that differ in channel.c's CHANNEL_SHARED_STRING_MIN.
#
#   ruby --disable-gems benchmark/channel/strsize.rb N
ch = RubyVM::Channel.new
n = Integer(ARGV[0])
t = Process.clock_gettime(Process::CLOCK_MONOTONIC)
2000.times do
  a = Array.new(100) { "x" * n }
  ch << a
  ch.recv
end
GC.start
p [n, ((Process.clock_gettime(Process::CLOCK_MONOTONIC) - t) / 200_000 * 1e9).round]
