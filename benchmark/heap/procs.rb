# Seed 003 figs. 5-7 (issue 16): 1..16 processes at once inside a memory
# cgroup whose limit forces pressure, with a swap file; fork and vanilla
# 3.3.8 alternating.  Total time (all done), time per process, processes
# killed, the cgroup's peak usage, and the cgroup's usage over time at the
# largest count (the monitor's reaction).  Needs root, a writable memory
# controller (cgroup v1 or v2) and swapon.
#
#   ruby benchmark/heap/procs.rb fig5 [--procs 1,2,4,8,16] [--limit 512] [--swap 2048] [--runs 3]
#   ruby benchmark/heap/procs.rb fig7 [...]
#
# fig5 (and fig6, per process, from the same run): benchmark/heap/fig4.rb
# with LIVE=1000000 N=3000000 in each process.  fig7: aobench (upstream's
# benchmark/app_aobench.rb, through benchmark/heap/aobench.rb) at 64x64.
# --limit and --swap in MiB.  And the options of every runner
# (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require "tmpdir"
require_relative "../lib/bench"

fig = ARGV.shift
abort "usage: #{$0} fig5|fig7 [--procs 1,2,4,8,16] [--limit MiB] [--swap MiB] [--runs N]" unless %w[fig5 fig7].include?(fig)
opts = Bench.options({procs: [1, 2, 4, 8, 16], limit: fig == "fig5" ? 512 : 96, swap: 2048, runs: 3}) do |o, op|
  o.on("--procs LIST") { op[:procs] = _1.split(",").map { |n| Integer(n) } }
  o.on("--limit MIB", Integer) { op[:limit] = _1 }
  o.on("--swap MIB", Integer) { op[:swap] = _1 }
end
RUBIES = opts[:rubies]
WORK = {
  "fig5" => [File.join(__dir__, "fig4.rb"), {"LIVE" => "1000000", "N" => "3000000", "TEMP" => "float"},
             "seed 003's fig. 4 microbenchmark, 1M live objects and 3M heap Float temporaries"],
  "fig7" => [File.join(__dir__, "aobench.rb"), {"AO_SIZE" => "64"},
             "aobench (upstream's benchmark/app_aobench.rb) at 64x64"],
}
script, env, what = WORK.fetch(fig)

abort "needs root" unless Process.uid == 0

# the cgroup: v1's memory controller, or v2 where it is delegated
def make_cgroup(limit)
  line = File.readlines("/proc/self/cgroup", chomp: true)
  if (v1 = line.find { _1.split(":", 3)[1] == "memory" })
    base = "/sys/fs/cgroup/memory#{v1.split(":", 3)[2]}".chomp("/")
    cg = "#{base}/ruby-heap-bench-#{$$}"
    Dir.mkdir(cg)
    File.write("#{cg}/memory.limit_in_bytes", (limit << 20).to_s)
    [cg, "#{cg}/memory.usage_in_bytes", "#{cg}/memory.max_usage_in_bytes", "#{cg}/memory.memsw.usage_in_bytes"]
  elsif (v2 = line.find { _1.start_with?("0::") })
    base = "/sys/fs/cgroup#{v2[3..]}".chomp("/")
    abort "no memory controller in #{base}" unless File.read("#{base}/cgroup.controllers").include?("memory")
    cg = "#{base}/ruby-heap-bench-#{$$}"
    Dir.mkdir(cg)
    File.write("#{cg}/memory.max", (limit << 20).to_s)
    [cg, "#{cg}/memory.current", "#{cg}/memory.peak", "#{cg}/memory.swap.current"]
  else
    abort "no memory cgroup"
  end
end

swap = File.join(Dir.tmpdir, "ruby-heap-bench-swap-#{$$}")
cg = nil
begin
  system("fallocate", "-l", "#{opts[:swap]}M", swap, exception: true)
  File.chmod(0600, swap)
  system("mkswap", swap, out: File::NULL, exception: true)
  system("swapon", swap, exception: true)
  cg, usage_file, peak_file, swap_file = make_cgroup(opts[:limit])
  # RAM and swap together: v1 counts both in memsw, v2 swap alone
  held = lambda do |ram|
    sw = File.read(swap_file).to_i rescue 0
    swap_file.end_with?("memsw.usage_in_bytes") ? sw : ram + sw
  end

  # one batch: n processes of ruby at once; returns the figures and the
  # cgroup's usage over time
  run_batch = lambda do |rname, n|
    File.write(peak_file, "0") rescue nil
    t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    series = []
    sampling = true
    sampler = Thread.new do
      while sampling
        ram = File.read(usage_file).to_i
        series << [Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0, ram >> 20, held.(ram) >> 20]
        sleep 0.05
      end
    end
    kids = n.times.map do |i|
      out = Dir.tmpdir + "/ruby-heap-bench-#{$$}-#{i}.out"
      err = Dir.tmpdir + "/ruby-heap-bench-#{$$}-#{i}.err"
      pid = Process.spawn(env, "sh", "-c", "echo $$ > #{cg}/cgroup.procs && exec /usr/bin/time -v \"$0\" \"$@\"",
                          RUBIES.fetch(rname), script, out: out, err: err)
      [pid, out, err]
    end
    per = []
    killed = 0
    events = 0
    kids.each do |pid, out, err|
      _, st = Process.wait2(pid)
      per << Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
      e = File.read(err)
      killed += 1 if !st.success? || e.include?("Command terminated by signal")
      events += File.read(out)[/^BENCH pressure_events=(\d+)/, 1].to_i
      File.unlink(out, err)
    end
    total = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
    sampling = false
    sampler.join
    {total: total, per: per.sum / per.size, killed: killed, peak_mb: (File.read(peak_file).to_i >> 20 rescue 0),
     events: events, series: series}
  end

  results = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } }
  series = {}
  opts[:runs].times do |round|
    (round.even? ? opts[:procs] : opts[:procs].reverse).each do |n|
      (round.even? ? RUBIES.keys : RUBIES.keys.reverse).each do |rname|
        r = run_batch.(rname, n)
        %i[total per killed peak_mb events].each { |k| results[[n, rname]][k] << r[k] }
        series[rname] = r[:series] if n == opts[:procs].max && round == 0
        $stderr.print "."
      end
    end
  end
  $stderr.puts

  cmd = "ruby benchmark/heap/procs.rb #{fig} --procs #{opts[:procs].join(",")} --limit #{opts[:limit]} --swap #{opts[:swap]} --runs #{opts[:runs]}"
  cell = ->(xs) { format("%.3g (%.3g..%.3g)", Stats.median(xs), xs.min, xs.max) }
  med = ->(n, r, k) { Stats.median(results[[n, r]][k]) }
  # rounds in which neither ruby lost a process: the OOM killer shortens a
  # batch, so a round with a kill on one side is no comparison of times
  clean = lambda do |n|
    f, v = results[[n, "fork"]], results[[n, "vanilla"]]
    idx = (0...opts[:runs]).select { |i| f[:killed][i] == 0 && v[:killed][i] == 0 }
    idx.empty? ? "- (0)" : format("%.3f (%d)", Stats.median(idx.map { |i| f[:total][i] / v[:total][i] }), idx.size)
  end
  name = fig == "fig5" ? "heap-fig5" : "heap-fig7"
  rounds = Bench.data_path("#{name}-rounds.tsv", opts)
  File.write(rounds,
             "round\tN\truby\ttotal_s\tper_process_s\tkilled\tpeak_mib\tpressure_events\n" +
             results.flat_map { |(n, r), h|
               h[:total].each_index.map { |i| [i + 1, n, r, h[:total][i].round(3), h[:per][i].round(3), h[:killed][i], h[:peak_mb][i], h[:events][i]].join("\t") + "\n" }
             }.sort_by { |l| a = l.split("\t"); [a[0].to_i, a[1].to_i, a[2]] }.join)
  rows = opts[:procs].map do |n|
    f, v = results[[n, "fork"]], results[[n, "vanilla"]]
    "| #{n} | #{cell.(f[:total])} | #{cell.(v[:total])} | #{format("%.3f", med.(n, "fork", :total) / med.(n, "vanilla", :total))} | " \
      "#{cell.(f[:per])} | #{cell.(v[:per])} | #{format("%.3f", med.(n, "fork", :per) / med.(n, "vanilla", :per))} | " \
      "#{clean.(n)} | #{f[:killed].sum} / #{v[:killed].sum} | #{Stats.median(f[:peak_mb]).round} / #{Stats.median(v[:peak_mb]).round} | #{Stats.median(f[:events]).round} |"
  end
  dat = Bench.data_path("#{name}.dat", opts)
  File.write(dat, opts[:procs].map { |n|
    "#{n} #{med.(n, "fork", :total)} #{med.(n, "vanilla", :total)} #{med.(n, "fork", :per)} #{med.(n, "vanilla", :per)}\n"
  }.join)
  sdat = series.to_h { |r, s| [r, Bench.data_path("#{name}-rss-#{r}.dat", opts)] }
  series.each { |r, s| File.write(sdat[r], s.map { |t, mb, all| "#{t} #{mb} #{all}\n" }.join) }
  title = "#{what}: 1..#{opts[:procs].max} processes in a #{opts[:limit]} MiB memory cgroup, #{opts[:swap]} MiB swap"
  Bench.plot(Bench.result_path("#{name}.png", opts), <<~GP)
    set title "#{title}"
    set logscale x 2
    set xlabel "processes at once"
    set ylabel "seconds (median)"
    set key top left
    plot "#{dat}" using 1:2 with linespoints title "fork: all done", \\
         "#{dat}" using 1:3 with linespoints title "vanilla: all done", \\
         "#{dat}" using 1:4 with linespoints title "fork: per process", \\
         "#{dat}" using 1:5 with linespoints title "vanilla: per process"
  GP
  Bench.plot(Bench.result_path("#{name}-rss.png", opts), <<~GP)
    set title "the cgroup's memory use, #{opts[:procs].max} processes at once (limit #{opts[:limit]} MiB)"
    set xlabel "seconds"
    set ylabel "MiB in the cgroup"
    set key top left
    plot "#{sdat["fork"]}" using 1:2 with lines lc 1 title "fork: RAM", \\
         "#{sdat["fork"]}" using 1:3 with lines lc 1 dashtype 3 title "fork: RAM and swap", \\
         "#{sdat["vanilla"]}" using 1:2 with lines lc 2 title "vanilla: RAM", \\
         "#{sdat["vanilla"]}" using 1:3 with lines lc 2 dashtype 3 title "vanilla: RAM and swap", \\
         #{opts[:limit]} with lines lc 3 dashtype 2 title "limit"
  GP
  md = <<~MD
    # Seed 003 #{fig == "fig5" ? "figs. 5-6" : "fig. 7"}: #{what}, 1..#{opts[:procs].max} at once under memory pressure

    Each batch starts N processes of one ruby at once inside a memory cgroup limited to
    #{opts[:limit]} MiB, with #{opts[:swap]} MiB of swap (a file), and waits for them all: "all done" is
    the batch's wall time, "per process" the mean of each process's own wall time (start of
    the batch to its exit). Medians of #{opts[:runs]} rounds with (min..max), the order of the counts and of
    the rubies alternating between rounds. killed: processes that did not exit 0, fork / vanilla,
    summed over the rounds. peak MiB: the cgroup's peak usage (RAM), medians. pressure events:
    the fork's processes' `GC.stat(:pressure_events)` summed, median over rounds. "no kill":
    the median of fork / vanilla "all done" over the rounds in which neither lost a process
    (how many in parentheses), since a batch the OOM killer thinned ends sooner. Each round's
    figures: `#{Bench.rel(rounds)}`. fork =
    `#{Bench.rel(RUBIES["fork"])}` (series at #{Bench.series}), vanilla = 3.3.8 from the same tarball, same flags.

    Command: `#{cmd}` (as root)

    #{Bench.host_line}.

    | N | fork all done s | vanilla all done s | fork / vanilla | fork per process s | vanilla per process s | fork / vanilla | fork / vanilla, no kill | killed | peak MiB | pressure events |
    |---:|---|---|---:|---|---|---:|---:|---|---|---:|
    #{rows.join("\n")}

    ![times](#{name}.png)

    The cgroup's usage over time in the first round at #{opts[:procs].max} processes (the monitor's reaction):

    ![usage](#{name}-rss.png)
  MD
  Bench.write_result("#{name}.md", md, opts)
  puts md
ensure
  Dir.rmdir(cg) if cg && File.directory?(cg) rescue nil
  system("swapoff", swap, err: File::NULL, exception: false) if File.exist?(swap)
  File.unlink(swap) if File.exist?(swap)
end
