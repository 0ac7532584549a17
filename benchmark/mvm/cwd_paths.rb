# What a working directory per VM costs the first VM: relative-path
# operations (File.stat, File.open, Dir.glob, File.expand_path, require of a
# relative feature already loaded, load of a relative file) in the first VM
# of the fork against vanilla 3.3.8, in time (rounds alternating the two,
# median and range) and in instructions per operation (cachegrind, the slope
# between two loop counts).  A child VM's own figures are beside them
# (time only): the same loop in a child VM that chdir'd.
#
#   ruby benchmark/mvm/cwd_paths.rb [FORK=_install/bin/ruby] [VANILLA=_vanilla/bin/ruby]
#        [--runs N] [--iters A,B] [--n N]
#
# Prints a markdown table.
require "optparse"
require "tmpdir"
require "rbconfig"
require_relative "../lib/cachegrind"
require_relative "../lib/stats"

# name => [code, share of the --n iterations it runs]
OPS = {
  "File.stat" => ['File.stat("f5.txt")', 1],
  "File.open + close" => ['File.open("f5.txt").close', 4],
  "Dir.glob(\"*.txt\"), 20 files" => ['Dir.glob("*.txt")', 20],
  "File.expand_path" => ['File.expand_path("f5.txt")', 1],
  "require \"./lib/rel\" (loaded)" => ['require "./lib/rel"', 2],
  "load \"lib/rel.rb\"" => ['load "lib/rel.rb"', 10],
}

if (op = ENV["CWD_PATHS_OP"])
  # the workload: in a directory of 20 files and lib/rel.rb
  code = OPS.fetch(op)[0]
  n = Integer(ENV["CWD_PATHS_N"])
  Dir.chdir(ENV["CWD_PATHS_DIR"])
  loop = "begin; require './lib/rel'; t = Process.clock_gettime(Process::CLOCK_MONOTONIC); " \
         "#{n}.times { #{code} }; " \
         "Process.clock_gettime(Process::CLOCK_MONOTONIC) - t; end"
  if ENV["CWD_PATHS_CHILD"]
    r, w = IO.pipe
    vm = RubyVM.new("paths", "--disable-gems", "-e", "Dir.chdir(#{Dir.pwd.dump}); print(#{loop})", out: w)
    w.close
    vm.start
    out = r.read
    vm.join == 0 or abort "the child failed"
    puts "BENCH t=#{out}"
  else
    puts "BENCH t=#{eval(loop)}"
  end
  exit
end

h = {runs: 7, iters: [1_000, 2_000], n: 200_000, parallel: 2}
OptionParser.new do |o|
  o.on("--runs N", Integer) { h[:runs] = _1 }
  o.on("--iters A,B", Array) { h[:iters] = _1.map { |s| Integer(s) } }
  o.on("--n N", Integer) { h[:n] = _1 }
  o.on("--parallel N", Integer) { h[:parallel] = _1 }
end.parse!
fork = File.expand_path(ARGV[0] || "_install/bin/ruby")
vanilla = File.expand_path(ARGV[1] || "_vanilla/bin/ruby")

Dir.mktmpdir("cwd-paths") do |dir|
  20.times { |i| File.write(File.join(dir, "f#{i}.txt"), "x") }
  Dir.mkdir(File.join(dir, "lib"))
  File.write(File.join(dir, "lib", "rel.rb"), "X = 1 unless defined?(X)\n")
  env = ->(op, n, extra = {}) { {"CWD_PATHS_OP" => op, "CWD_PATHS_N" => n.to_s, "CWD_PATHS_DIR" => dir}.merge(extra) }
  run = lambda do |ruby, op, extra = {}|
    out = IO.popen(env.(op, h[:n] / OPS[op][1], extra), [ruby, "--disable-gems", __FILE__], &:read)
    Float(out[/^BENCH t=([\d.e+-]+)/, 1] || abort("#{op} failed: #{out}"))
  end

  times = Hash.new { |hh, k| hh[k] = [] }
  h[:runs].times do |round|
    OPS.each_key do |op|
      cands = [["fork", fork, {}], ["vanilla", vanilla, {}], ["child", fork, {"CWD_PATHS_CHILD" => "1"}]]
      cands.reverse! if round.odd?
      cands.each { |name, ruby, extra| times[[op, name]] << run.(ruby, op, extra) }
    end
    $stderr.print "."
  end
  $stderr.puts

  jobs = OPS.keys.product([["fork", fork], ["vanilla", vanilla]], h[:iters])
  ir = Cachegrind.run_all(jobs, h[:parallel]) do |op, (name, ruby), n|
    Cachegrind.ir("#{op} #{name} #{n}", File.join(dir, "cg.#{name}.#{OPS.keys.index(op)}.#{n}"),
                  [ruby, "--disable-gems", __FILE__], env: env.(op, n))
  end
  slope = ->(op, name) { Cachegrind.slope(*h[:iters].map { ir[[op, [name, name == "fork" ? fork : vanilla], _1]] }, *h[:iters]) }

  us = ->(op, name) { times[[op, name]].map { _1 / (h[:n] / OPS[op][1]) * 1e6 } }
  cell = ->(xs) { format("%.3f (%.3f..%.3f)", Stats.median(xs), xs.min, xs.max) }
  puts "| operation (relative path) | fork, us | vanilla, us | fork / vanilla (time) | instructions fork | vanilla | fork / vanilla (instructions) | child VM, us |"
  puts "|---|---|---|---|---|---|---|---|"
  tr, ir_r = [], []
  OPS.each_key do |op|
    f, v = us.(op, "fork"), us.(op, "vanilla")
    r = Stats.median(f) / Stats.median(v)
    sf, sv = slope.(op, "fork"), slope.(op, "vanilla")
    tr << r
    ir_r << sf / sv
    printf "| %s | %s | %s | %.3f | %.0f | %.0f | %.4f | %s |\n", op, cell.(f), cell.(v), r, sf, sv, sf / sv, cell.(us.(op, "child"))
  end
  printf "| geometric mean | | | %.3f | | | %.4f | |\n", Stats.geomean(tr), Stats.geomean(ir_r)
end
