# Does a process that started a child VM run as one that never did, once
# the child is joined and the VM booted ahead has ended unused?  Counts the
# instructions of one iteration of a loop of dynamic Symbols and shapes
# (the process-wide tables that take locks while several VMs run) with
# valgrind's cachegrind, as the slope between two loop counts, in three
# processes: one that never starts a VM; one that starts and joins a child
# with RUBY_MVM_PREBOOT=0 and then runs the loop; one that does so with the
# default VM booted ahead and waits IDLE seconds (default 20: the VM booted
# ahead boots under valgrind, then waits RUBY_MVM_PREBOOT_IDLE, 10 s).
#
#   ruby benchmark/mvm/single_again.rb [RUBY=_install/bin/ruby] [--iters A,B] [--idle SEC]
#
# Prints a markdown table.
require "optparse"
require "tmpdir"
require_relative "../lib/cachegrind"

h = {iters: [20_000, 40_000], idle: 20, parallel: 2}
OptionParser.new do |o|
  o.on("--iters A,B", Array) { h[:iters] = _1.map { |s| Integer(s) } }
  o.on("--idle SEC", Float) { h[:idle] = _1 }
  o.on("--parallel N", Integer) { h[:parallel] = _1 }
end.parse!
ruby = File.expand_path(ARGV[0] || "_install/bin/ruby")

if ENV["SINGLE_AGAIN_WORKLOAD"]
  n = Integer(ENV["SINGLE_AGAIN_WORKLOAD"])
  if ENV["SINGLE_AGAIN_START"]
    RubyVM.new("v", "--disable-gems", "-e", "1").start.join == 0 or abort "the child failed"
    sleep Float(ENV["SINGLE_AGAIN_START"])
  end
  x = 0
  n.times do |i|
    o = Object.new
    o.instance_variable_set(:"@a#{i % 50}", i)    # the shape tree
    x += "s#{i % 1000}".to_sym.size               # dynamic Symbols
  end
  p x
  exit
end

cases = {
  "never starts a VM" => {},
  "a child joined, RUBY_MVM_PREBOOT=0" => {"SINGLE_AGAIN_START" => "0", "RUBY_MVM_PREBOOT" => "0"},
  "a child joined, the VM booted ahead ended (#{h[:idle]} s idle)" => {"SINGLE_AGAIN_START" => h[:idle].to_s},
}
Dir.mktmpdir("single-again") do |dir|
  jobs = cases.keys.product(h[:iters])
  ir = Cachegrind.run_all(jobs, h[:parallel]) do |name, n|
    env = cases[name].merge("SINGLE_AGAIN_WORKLOAD" => n.to_s)
    Cachegrind.ir(name, File.join(dir, "cg.#{cases.keys.index(name)}.#{n}"),
                  [ruby, "--disable-gems", __FILE__], env: env)
  end
  a, b = h[:iters]
  base = nil
  puts "| process | instructions an iteration | against one that never starts a VM |"
  puts "|---|---:|---:|"
  cases.each_key do |name|
    s = Cachegrind.slope(ir[[name, a]], ir[[name, b]], a, b)
    base ||= s
    printf "| %s | %.1f | %.4f |\n", name, s, s / base
  end
end
