# Instructions per operation, fork against vanilla 3.3.8: one Ruby operation
# in a loop (a call, a C method, a block, an allocation, ...), counted by
# valgrind's cachegrind (Ir) as the slope between two loop counts, so that
# start-up, loading and compilation cancel.  Each JIT is compared with the
# other (--yjit --yjit-call-threshold=1) and, with --interp, each interpreter
# with the other.  It says which operations make the difference that
# benchmark/yjit/icount.rb sees on whole applications.
#
#   ruby benchmark/yjit/ops.rb [OP...] [--interp] [--iters A,B] [--parallel N] [--file FILE]
#
# With no OP, every operation in OPS.  A cell is (Ir(B) - Ir(A)) / (B - A)
# for A and B iterations of the loop (default 20000 and 40000); the loop's
# own `while` and `i += 1` are in every cell ("empty" gives them alone).
# The table goes to --file (default results/yjit-ops.md), the cachegrind
# files to build/bench/yjit-ops/.
#
# The workload runs when this file is given a count and an operation:
#   ruby benchmark/yjit/ops.rb --run N OP
OPS = {
  "empty"  => "nothing: the loop alone",
  "call0"  => "a Ruby method, no arguments",
  "call1"  => "a Ruby method, one argument",
  "kw"     => "a Ruby method, a keyword argument",
  "deep"   => "21 nested Ruby calls (recursion 20 deep), per iteration",
  "attr"   => "attr_reader",
  "cfunc0" => "two C methods without arguments (Array#size, Kernel#frozen?)",
  "cfunc1" => "a C method with one argument (Hash#key?)",
  "push"   => "Array#push (a C method taking argc, argv) and Array#pop",
  "send"   => "Kernel#send of a Ruby method",
  "ivar"   => "instance_variable_get",
  "haref"  => "Hash#[]",
  "yield"  => "a Ruby method that yields to a block",
  "each"   => "Array#each over one element with a block (a C method calling a block)",
  "new"    => "Class#new with initialize",
  "str"    => "String#<< and String#clear",
  "interp" => "string interpolation of an Integer",
}

if ARGV[0] == "--run"
  class P; attr_reader :x; def initialize(x) = @x = x; def m0 = 1; def m1(a) = a; def mk(a:, b: 2) = a; def blk = yield; end
  def d(k) = k == 0 ? 0 : d(k - 1)
  def run_empty(n, o, h, a, s) = (i = 0; while i < n; i += 1; end)
  def run_call0(n, o, h, a, s) = (i = 0; while i < n; o.m0; i += 1; end)
  def run_call1(n, o, h, a, s) = (i = 0; while i < n; o.m1(i); i += 1; end)
  def run_kw(n, o, h, a, s) = (i = 0; while i < n; o.mk(a: i); i += 1; end)
  def run_deep(n, o, h, a, s) = (i = 0; while i < n; d(20); i += 1; end)
  def run_attr(n, o, h, a, s) = (i = 0; while i < n; o.x; i += 1; end)
  def run_cfunc0(n, o, h, a, s) = (i = 0; while i < n; a.size; o.frozen?; i += 1; end)
  def run_cfunc1(n, o, h, a, s) = (i = 0; while i < n; h.key?(:a); i += 1; end)
  def run_push(n, o, h, a, s) = (i = 0; while i < n; a.push(i); a.pop; i += 1; end)
  def run_send(n, o, h, a, s) = (i = 0; while i < n; o.send(:m0); i += 1; end)
  def run_ivar(n, o, h, a, s) = (i = 0; while i < n; o.instance_variable_get(:@x); i += 1; end)
  def run_haref(n, o, h, a, s) = (i = 0; while i < n; h[:a]; i += 1; end)
  def run_yield(n, o, h, a, s) = (i = 0; while i < n; o.blk { i }; i += 1; end)
  def run_each(n, o, h, a, s) = (i = 0; while i < n; [1].each { |x| x }; i += 1; end)
  def run_new(n, o, h, a, s) = (i = 0; while i < n; P.new(i); i += 1; end)
  def run_str(n, o, h, a, s) = (i = 0; while i < n; s << "a"; s.clear; i += 1; end)
  def run_interp(n, o, h, a, s) = (i = 0; while i < n; "#{i}"; i += 1; end)
  abort "unknown operation #{ARGV[2]}" unless OPS.key?(ARGV[2])
  send("run_#{ARGV[2]}", Integer(ARGV[1]), P.new(1), {a: 1}, [], +"")
  exit
end

require "fileutils"
require "time"
require_relative "../lib/bench"
require_relative "../lib/cachegrind"

COMMAND = ["ruby", "benchmark/yjit/ops.rb", *ARGV].join(" ")
WORK = File.join(Bench::ROOT, "build/bench/yjit-ops")
opts = Bench.options({iters: [20000, 40000], interp: false, parallel: 2, file: nil},
                     banner: "usage: benchmark/yjit/ops.rb [OP...] [options]") do |o, h|
  Cachegrind.options(o, h, "results/yjit-ops.md")
end
a, b = opts[:iters]
abort "--iters A,B: B must be larger than A" unless a && b && b > a
names = ARGV.empty? ? OPS.keys : ARGV
names.each { |n| abort "#{n}: no such operation (#{OPS.keys.join(", ")})" unless OPS.key?(n) }
modes = opts[:interp] ? %w[yjit interp] : %w[yjit]
FileUtils.mkdir_p(WORK)

started = Time.now.utc
results = Cachegrind.run_all(names.product(modes, opts[:rubies].to_a, [a, b]), opts[:parallel]) do |op, mode, (label, ruby), iters|
  Cachegrind.ir("#{op}: #{ruby} #{mode}", File.join(WORK, "#{op}.#{label}.#{mode}.#{iters}"),
                [ruby, *(mode == "yjit" ? %w[--yjit --yjit-call-threshold=1] : []), __FILE__, "--run", iters.to_s, op])
end
per = ->(op, mode, label) do
  ruby = opts[:rubies][label]
  Cachegrind.slope(results[[op, mode, [label, ruby], a]], results[[op, mode, [label, ruby], b]], a, b)
end
cols = modes.flat_map { |m| ["fork #{m}", "vanilla #{m}", "fork - vanilla", "fork/vanilla #{m}"] }
rows = names.map do |op|
  cells = modes.flat_map do |m|
    f, v = per.(op, m, "fork"), per.(op, m, "vanilla")
    [format("%.1f", f), format("%.1f", v), format("%+.1f", f - v), format("%.3f", f / v)]
  end
  "| #{op} | #{OPS[op]} | #{cells.join(" | ")} |"
end
md = <<~MD
  # Instructions per operation, fork and vanilla 3.3.8, #{modes.map { _1 == "yjit" ? "YJIT" : "interpreter" }.join(" and ")}

  valgrind's cachegrind (`--cache-sim=no --smc-check=all`) counts the instructions of one
  operation in a `while` loop of a method: the slope between #{a} and #{b} iterations, start-up,
  loading and compilation cancelled (`benchmark/yjit/ops.rb`). YJIT runs with
  `--yjit-call-threshold=1`. Each JIT is compared with the other, each interpreter with the other.
  The "empty" row (the loop alone) shows what is noise: a few instructions. Rows that allocate
  (new, str, interp) carry their share of the GCs, which differ: in a program this small the
  fork's heap stays smaller than vanilla's and collects more often (1,000,000 iterations of
  "str" natively: 167 GCs against 141). Counts do not see cache or memory effects.

  - command: `#{COMMAND}`
  - date: #{started.iso8601} to #{Time.now.utc.iso8601}; series: #{Bench.series}
  - fork: `#{Bench.version(opts[:rubies]["fork"])}`
  - vanilla: `#{Bench.version(opts[:rubies]["vanilla"])}`

  | operation | what one iteration does | #{cols.join(" | ")} |
  |---|---|#{"---:|" * cols.size}
  #{rows.join("\n")}
MD
file = opts[:file] || Bench.result_path("yjit-ops.md", opts)
File.write(file, md)
puts md
$stderr.puts "wrote #{Bench.rel(file)}"
