# Seed 002's figures and seed 001's tables with fibers, on the fork (its
# default backend, amd64), its sjlj and ucontext backends, the fork without
# the stack cache (RUBY_FIBER_STACK_CACHE=0, upstream's pool) and with the
# paper's 10 stacks, and vanilla 3.3.8, into results/fiber-*.md and .png:
#
#   ruby benchmark/fiber/run.rb [FIGURE...] [--sjlj PATH] [--ucontext PATH]
#
#   fig4      figs. 4/5: ns per resume+yield against the machine stack depth
#   fig6      figs. 6/7: us per fiber created and run to its end, in batches
#   fig8      figs. 8/9: live suspended fibers, and RSS per fiber
#   fig10     figs. 10/11: an echo server with a fiber per connection
#   queue     seed 001 tables 3/4: Thread::Queue and a value handed between fibers
#   pingpong  the backends' coroutine_transfer alone, in C (pingpong.sh)
#
# With no FIGURE, all of them (make bench-fiber, about 25 minutes).  The
# backends are make fiber-sjlj fiber-ucontext (build/_sjlj, build/_ucontext, or
# SJLJ and UCONTEXT).  --runs overrides each figure's own count; and the
# options of every runner (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require "time"
require_relative "../lib/bench"

sjlj = ENV["SJLJ"] || File.join(Bench::ROOT, "build/_sjlj/bin/ruby")
ucontext = ENV["UCONTEXT"] || File.join(Bench::ROOT, "build/_ucontext/bin/ruby")
opts = Bench.options({runs: nil}) do |o, op|
  o.on("--sjlj PATH", "the sjlj backend's ruby") { sjlj = _1 }
  o.on("--ucontext PATH", "upstream's ucontext backend's ruby") { ucontext = _1 }
end
figs = Bench.figures(ARGV, %w[fig4 fig6 fig8 fig10 queue pingpong])
fork, vanilla = opts[:rubies].values_at("fork", "vanilla")
runs = ->(n) { Bench.runs_option(opts, n) }
backends = ["--ruby", "fork=#{fork}", "--ruby", "sjlj=#{sjlj}", "--ruby", "ucontext=#{ucontext}",
            "--only", "fork,sjlj,ucontext", "--ruby", "vanilla=#{vanilla}"]
bench = ->(name, script, *args) { Bench.run_figure!(opts, name, script, *args) }

figs.each do |fig|
  case fig
  when "fig4"
    bench.("fiber-fig4", "benchmark/fiber/switch_depth.rb", runs[9], "--param", "DEPTH=0,10,25,50,100",
           "--env", "COUNT=500000", backends, "--plot", "ns_per_switch",
           "--title", "Seed 002 figs. 4/5: ns per resume+yield against the machine stack depth (nested 1.times)")
  when "fig6"
    cache10 = Bench.wrapper("ruby-cache10", fork, "RUBY_FIBER_STACK_CACHE" => 10)
    cache0 = Bench.wrapper("ruby-cache0", fork, "RUBY_FIBER_STACK_CACHE" => 0)
    bench.("fiber-fig6", "benchmark/fiber/create.rb", runs[5], "--param", "BATCH=1,3,10,30,100,300,1000",
           "--env", "TOTAL=200000", "--logscale",
           "--ruby", "fork=#{fork}", "--ruby", "fork-cache10=#{cache10}", "--ruby", "fork-cache0=#{cache0}",
           "--ruby", "sjlj=#{sjlj}", "--only", "fork,fork-cache10,fork-cache0,sjlj", "--ruby", "vanilla=#{vanilla}",
           "--plot", "first_us", "--plot", "cached_us",
           "--title", "Seed 002 figs. 6/7: us per fiber created and run to its end, in batches (first and cached, seed 001 table 2)")
  when "fig8"
    bench.("fiber-fig8", "benchmark/fiber/live.rb", runs[3], "--param", "COUNT=10000,100000,1000000", "--logscale",
           "--ruby", "fork=#{fork}", "--ruby", "sjlj=#{sjlj}", "--only", "fork,sjlj", "--ruby", "vanilla=#{vanilla}",
           "--plot", "fibers", "--plot", "kb_per_fiber",
           "--title", "Seed 002 figs. 8/9: live suspended fibers (GC disabled): how many, and RSS per fiber")
  when "fig10"
    bench.("fiber-fig10", "benchmark/fiber/echo.rb", runs[5], "--param", "RECURSIVE=0,100",
           "--env", "ECHOES=1000000", "--env", "CONNECTIONS=64", "--env", "TIME_LIMIT=60", backends,
           "--plot", "us_per_echo",
           "--title", "Seed 002 figs. 10/11: select-based echo server, a fiber per connection, 64 connections, 1,000,000 echoes")
  when "queue"
    bench.("fiber-queue", "benchmark/fiber/queue.rb", runs[9], "--env", "COUNT=200000", backends,
           "--title", "Seed 001 tables 3/4 with fibers: Thread::Queue push+pop, and a value handed between two fibers")
  when "pingpong"
    n = opts[:runs] || 7
    warn "+ RUNS=#{n} benchmark/fiber/pingpong.sh"
    table = IO.popen({"RUNS" => n.to_s}, [File.join(Bench::ROOT, "benchmark/fiber/pingpong.sh")], &:read)
    abort "benchmark/fiber/pingpong.sh failed" unless $?.success?
    Bench.write_result("fiber-pingpong.md", <<~MD + table, opts)
      # The backends' coroutine_transfer alone: a C ping-pong

      - command: `ruby benchmark/fiber/run.rb pingpong --runs #{n}` (`benchmark/fiber/pingpong.sh`); `benchmark/fiber/pingpong.c` linked against
        each build directory's Context.o; 2,000,000 round trips (200,000 for ucontext)
      - date: #{Time.now.utc.iso8601}; series: #{Bench.series}
      - #{Bench.host_line}
      - ns per round trip (two switches), median (min-max), with DEPTH C frames between each
        side's loop and the switch

    MD
  end
end
