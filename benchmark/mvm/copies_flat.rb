# Private copies go away: one process starts and joins N child VMs one
# after another, each of which requires LIB (an extension that does not
# declare itself MVM-safe, so each child loads a private copy of its shared
# object), and reports the process's mappings (/proc/self/maps lines), the
# copies among them and its RSS after 1, 10, 100, ... VMs.
#
#   GEM_HOME=build/gems ruby benchmark/mvm/copies_flat.rb [N=1000] [LIB=msgpack] [CODE]
#
# Prints a markdown table.
n = Integer(ARGV[0] || 1000)
lib = ARGV[1] || "msgpack"
code = ARGV[2] || 'exit(MessagePack.unpack({"a" => [1, 2.5, "x"]}.to_msgpack) == {"a" => [1, 2.5, "x"]})'
child = "require #{lib.dump}; #{code}"
marks = [1, 10, 100, 1000, 10_000].select { _1 <= n } | [n]

maps = -> { File.readlines("/proc/self/maps") }
rss = -> { File.read("/proc/self/status")[/^VmRSS:\s+(\d+)/, 1].to_i }
puts "| VMs started and joined | mappings | of them private copies | RSS, kB |"
puts "|---|---|---|---|"
row = ->(i) do
  m = maps.()
  printf "| %d | %d | %d | %d |\n", i, m.size, m.grep(/ruby-mvm-/).size, rss.()
end
row.(0)
1.upto(n) do |i|
  st = RubyVM.new("c#{i}", "-e", child).start.join
  abort "VM #{i} exited #{st}" unless st == 0
  row.(i) if marks.include?(i)
end
