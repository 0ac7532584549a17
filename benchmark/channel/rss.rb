# Nothing a Channel holds outlives it: the process's RSS (VmRSS) after every
# quarter of a million of each of these, all in one process:
#   channels  RubyVM::Channel.new, dropped
#   strings   a 4 KiB String (its body shared, not copied) sent to a child VM and
#             back, dropped
#   dropped   a Channel holding a 4 KiB String and an Array, dropped unreceived
#
#   ruby benchmark/channel/rss.rb [N] [--out FILE]
n = Integer(ARGV[0] || 1_000_000)
out = ARGV[ARGV.index("--out") + 1] if ARGV.include?("--out")
rss = -> { File.read("/proc/self/status")[/VmRSS:\s+(\d+)/, 1].to_i / 1024.0 }
step = n / 4
rows = []
record = ->(what, i) { GC.start; rows << [what, i, rss.()] }

record.("start", 0)
1.upto(n) { |i| RubyVM::Channel.new; record.("channels", i) if i % step == 0 }

ping, pong = RubyVM::Channel.new(64), RubyVM::Channel.new(64)
vm = RubyVM.new("echo", "--disable-gems", "-e", "a, b = RubyVM::ARGV; a.each { |s| b << s }").start(ping, pong)
s = "x" * 4096
1.upto(n) do |i|
  ping << s.dup
  pong.recv
  record.("strings", i) if i % step == 0
end
ping.close
vm.join

1.upto(n) do |i|
  ch = RubyVM::Channel.new
  ch << s.dup << [i, "y" * 10]
  record.("dropped", i) if i % step == 0
end

text = +"| #{n} of each, one after the other | after | RSS, MB |\n|---|---:|---:|\n"
rows.each { |what, i, mb| text << "| #{what} | #{i} | #{"%.1f" % mb} |\n" }
puts text
File.write(out, text) if out
