# Instructions per iteration of ruby-bench's headline benchmarks, fork against
# vanilla, counted by valgrind's cachegrind (Ir): the side of results/yjit.md
# that this noisy host cannot blur.  It does not see cache or memory effects
# (YJIT's larger code, the heap's layout), so it complements the timed runs,
# it does not replace them.
#
#   ruby benchmark/yjit/icount.rb [BENCH...] [--warmup N] [--iters A,B]
#                                 [--interp] [--parallel N] [--out FILE]
#
# Each ruby runs `ruby --yjit benchmarks/NAME/benchmark.rb` under cachegrind
# twice, with N warmup iterations (default 3) and then A or B timed ones
# (default 1 and 4; ruby-bench's harness, MIN_BENCH_TIME=0): (Ir(B) - Ir(A)) /
# (B - A) is one iteration's cost, with start-up, loading and YJIT's
# compilation during the warmup cancelled.  --interp counts the interpreters
# too (each JIT is compared with the other, each interpreter with the other).
# Runs go --parallel at a time (default 2; counts do not depend on the load).
# Under valgrind a benchmark runs 40-60 times slower than natively: one of
# activerecord's iterations takes about 10 s.  With no BENCH, every headline
# benchmark set up by `benchmark/yjit/run.rb setup`.  The table goes to --out
# (default results/yjit-icount.md); the raw cachegrind files stay in
# build/bench/yjit-icount/.
require "fileutils"
require "time"
require_relative "../lib/bench"
require_relative "../lib/stats"
require_relative "../lib/cachegrind"

COMMAND = ["ruby", "benchmark/yjit/icount.rb", *ARGV].join(" ")
RB = ENV["RUBY_BENCH"] || File.join(Bench::ROOT, "build/ruby-bench")
WORK = File.join(Bench::ROOT, "build/bench/yjit-icount")
opts = Bench.options({warmup: 3, iters: [1, 4], interp: false, parallel: 2, file: nil},
                     banner: "usage: benchmark/yjit/icount.rb [BENCH...] [options]") do |o, h|
  o.on("--warmup N", Integer, "warmup iterations (default 3)") { h[:warmup] = _1 }
  Cachegrind.options(o, h, "results/yjit-icount.md")
end
a, b = opts[:iters]
abort "--iters A,B: B must be larger than A" unless a && b && b > a
names = ARGV.empty? ? Dir.children(File.join(RB, "benchmarks")).sort : ARGV
names.each { |n| abort "#{n}: not set up in #{RB} (benchmark/yjit/run.rb setup)" unless File.exist?(File.join(RB, "benchmarks", n, "benchmark.rb")) }
modes = opts[:interp] ? %w[yjit interp] : %w[yjit]
FileUtils.mkdir_p(WORK)

# Ir of one run
def count(ruby, name, mode, iters, warmup)
  out = File.join(WORK, "#{name}.#{File.basename(File.dirname(File.dirname(ruby)))}.#{mode}.#{iters}")
  env = {"WARMUP_ITRS" => warmup.to_s, "MIN_BENCH_ITRS" => iters.to_s, "MIN_BENCH_TIME" => "0"}
  Cachegrind.ir("#{name}: #{ruby} #{mode}", out, [ruby, *(mode == "yjit" ? ["--yjit"] : []), "benchmarks/#{name}/benchmark.rb"],
                env: env, chdir: RB)
end

started = Time.now
results = Cachegrind.run_all(names.product(modes, opts[:rubies].to_a, [a, b]), opts[:parallel]) do |name, mode, (_, ruby), iters|
  count(ruby, name, mode, iters, opts[:warmup])
end

per_iter = ->(name, mode, r) { Cachegrind.slope(results[[name, mode, r, a]], results[[name, mode, r, b]], a, b) }
rows = names.map do |name|
  modes.flat_map do |mode|
    f = per_iter.(name, mode, ["fork", opts[:rubies]["fork"]])
    v = per_iter.(name, mode, ["vanilla", opts[:rubies]["vanilla"]])
    [f, v, f / v]
  end.then { [name, *_1] }
end

cols = modes.flat_map { |m| ["fork #{m}", "vanilla #{m}", "fork/vanilla #{m}"] }
fmt = ->(x) { x.round.to_s.reverse.scan(/\d{1,3}/).join(",").reverse }
table = +"| benchmark | #{cols.join(" | ")} |\n|---|#{"---:|" * cols.size}\n"
rows.each do |name, *vals|
  table << "| #{name} | " + vals.each_slice(3).map { |f, v, r| [fmt.(f), fmt.(v), format("%.3f", r)] }.flatten.join(" | ") + " |\n"
end
table << "| geometric mean | " + modes.each_index.map { |i| ["", "", format("**%.3f** (%d)", Stats.geomean(rows.map { _1[3 + 3 * i] }), rows.size)] }.flatten.join(" | ") + " |\n"

text = <<~MD
  # Instructions per iteration of ruby-bench's headline benchmarks, fork and vanilla 3.3.8

  valgrind's cachegrind (`--cache-sim=no --smc-check=all`) counts the instructions of
  `ruby #{modes == %w[yjit] ? "--yjit " : "[--yjit] "}benchmarks/NAME/benchmark.rb` (ruby-bench's harness, #{opts[:warmup]} warmup
  iterations, MIN_BENCH_TIME=0) with #{a} and with #{b} timed iterations; a cell is
  (Ir(#{b}) - Ir(#{a})) / #{b - a}, one iteration without start-up, loading or the warmup's
  compilation. Each JIT is compared with the other#{opts[:interp] ? ", each interpreter with the other" : ""}. Counts do not see cache
  or memory effects (YJIT's code size, the heap's layout): the timed runs are in
  `results/yjit.md`.

  - command: `#{COMMAND}`
  - date: #{started.utc.iso8601} to #{Time.now.utc.iso8601}; series: #{Bench.series}
  - fork: `#{Bench.version(opts[:rubies]["fork"])}`
  - vanilla: `#{Bench.version(opts[:rubies]["vanilla"])}`

  #{table}
MD
file = opts[:file] || File.join(opts[:out], "yjit-icount.md")
File.write(file, text)
puts text
