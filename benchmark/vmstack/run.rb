# Seed 000's figures (the VM stack), fork against its copy and fixed layouts
# and vanilla 3.3.8, into results/vmstack-*.md and .png:
#
#   ruby benchmark/vmstack/run.rb [FIGURE...] [--copy PATH] [--fixed PATH] [--jobs N]
#
#   suite   figs. 10-13: benchmark/'s app_, so_ and vm_ files (make bench-vmstack)
#   table1  table 1: peak RSS of N sleeping threads
#   table2  table 2: 1024 threads at the depths of the linear and exponential models
#   fig8    fig. 8: RSS of 10,000 threads against the initial VM stack size (linked, copy)
#   shrink  a thread recursing 100,000 deep three times: RSS given back
#   icount  the suite's instructions per iteration, by valgrind (1-2 hours)
#
# With no FIGURE: table1 table2 fig8 shrink (make bench-vmstack-memory).  The copy
# and fixed layouts are make vmstack-copy and vmstack-fixed (build/_copy,
# build/_fixed, or COPY and FIXED).  --runs overrides each figure's own count;
# and the options of every runner (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require_relative "../lib/bench"

copy = ENV["COPY"] || File.join(Bench::ROOT, "build/_copy/bin/ruby")
fixed = ENV["FIXED"] || File.join(Bench::ROOT, "build/_fixed/bin/ruby")
opts = Bench.options({runs: nil, jobs: 2}) do |o, op|
  o.on("--copy PATH", "the copy layout's ruby") { copy = _1 }
  o.on("--fixed PATH", "the fixed layout's ruby") { fixed = _1 }
  o.on("--jobs N", Integer, "valgrind runs at once (icount)") { op[:jobs] = _1 }
end
figs = Bench.figures(ARGV, %w[suite table1 table2 fig8 shrink icount], default: %w[table1 table2 fig8 shrink])
fork, vanilla = opts[:rubies].values_at("fork", "vanilla")
runs = ->(n) { Bench.runs_option(opts, n) }
# vanilla last: benchmark/run.rb takes the last ruby as the base of the ratios
layouts = ["--ruby", "fork=#{fork}", "--ruby", "copy=#{copy}", "--ruby", "fixed=#{fixed}",
           "--only", "fork,copy,fixed", "--ruby", "vanilla=#{vanilla}"]
sizes = "128,256,512,1024,2048,4096,8192,16384,65536,131072,262144,1048576"

figs.each do |fig|
  case fig
  when "suite"
    Bench.run!("benchmark/suite.sh", "vm", "--rounds", opts[:runs] || 2, "--out", Bench.result_path("vmstack-suite.md", opts),
               "--ruby", "fork=#{fork}", "--ruby", "fork-initial-max=#{fork}",
               "--env", "fork-initial-max:RUBY_THREAD_VM_STACK_INITIAL_SIZE=1048576",
               "--env", "fork-initial-max:RUBY_FIBER_VM_STACK_INITIAL_SIZE=131072",
               "--ruby", "copy=#{copy}", "--ruby", "fixed=#{fixed}")
  when "table1"
    Bench.run_figure!(opts, "vmstack-table1", "benchmark/vmstack/sleeping_threads.rb", runs[3],
                      "--param", "THREADS=0,2000,4000,6000,8000,10000", layouts,
                      "--title", "Seed 000 table 1: peak RSS of N sleeping threads")
  when "table2"
    Bench.run_figure!(opts, "vmstack-table2", "benchmark/vmstack/depth_model.rb", runs[3],
                      "--param", "MODEL=linear,exponential", layouts,
                      "--title", "Seed 000 table 2: 1024 threads at the depths of the linear and exponential models")
  when "fig8"
    # --only names the rubies compared with vanilla: none, for the copy layout's
    [["fig8", "fork", "fork", fork, "linked"], ["fig8-copy", "none", "copy", copy, "copy"]].each do |name, only, label, r, layout|
      Bench.run_figure!(opts, "vmstack-#{name}", "benchmark/vmstack/initial_size.rb", runs[2],
                        "--param", "RUBY_THREAD_VM_STACK_INITIAL_SIZE=#{sizes}", "--only", only, "--ruby", "#{label}=#{r}",
                        "--logscale",
                        "--title", "Seed 000 fig. 8: peak RSS of 10,000 sleeping threads against the initial VM stack size (#{layout})")
    end
  when "shrink"
    # the same maximum for all: vanilla's thread VM stack must hold 100,000 calls
    env = %w[RUBY_THREAD_VM_STACK_SIZE=67108864 DEPTH=100000 CYCLES=3]
    Bench.run_figure!(opts, "vmstack-shrink", "benchmark/vmstack/shrink.rb", runs[3], layouts,
                      env.flat_map { ["--env", _1] },
                      "--title", "Shrink: a thread recursing 100,000 deep three times, RSS at start, at the first bottom, at the end")
    Bench.run!(RbConfig.ruby, "benchmark/vmstack/shrink_plot.rb", Bench.result_path("vmstack-shrink-series.png", opts),
               "fork=#{fork}", "copy=#{copy}", "fixed=#{fixed}", "vanilla=#{vanilla}", "--", env)
  when "icount"
    Bench.run!(RbConfig.ruby, "benchmark/vmstack/icount.rb", "--parallel", opts[:jobs],
               "--ruby", "fork=#{fork}", "--ruby", "copy=#{copy}", "--ruby", "fixed=#{fixed}",
               "--out", Bench.result_path("vmstack-icount.md", opts), "--tsv", Bench.data_path("vmstack-icount.tsv", opts),
               env: {"VANILLA" => vanilla})
  end
end
