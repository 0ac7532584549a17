# The heap measurements of issue 16 (seed 003), fork and vanilla 3.3.8
# alternating in one run, medians of several runs with the spread, peak RSS
# from /usr/bin/time -v.  Writes results/heap-FIG.md and its PNG plot.
#
#   ruby benchmark/heap/run.rb fig4 [--runs 5] [--n 50000000] [--temp float|string]
#
# N defaults to the paper's 50,000,000 iterations (its fig. 3).  With fewer the
# loop's first GCs, which age the objects the interpreter's start left young
# (the fork collects less often while it boots), weigh on the GC time.
#
# and the options of every runner (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require_relative "../lib/alternating"
require_relative "../lib/bench"

fig = ARGV.shift or abort "usage: #{$0} fig4 [--runs N] [--n N] [--temp float|string]"
opts = Bench.options({runs: 5, n: 50_000_000, temp: "float"}) do |o, op|
  o.on("--n N", Integer) { op[:n] = _1 }
  o.on("--temp KIND", %w[float string]) { op[:temp] = _1 }
end
abort "unknown figure #{fig}" unless fig == "fig4"

lives = [10_000, 100_000, 1_000_000]
configs = lives.flat_map do |live|
  %w[fork vanilla].map do |r|
    ["live=#{live}", r, "#{__dir__}/fig4.rb", {"LIVE" => live.to_s, "N" => opts[:n].to_s, "TEMP" => opts[:temp]}]
  end
end
samples = Alternating.run(configs, opts[:rubies], opts[:runs])

keys = samples.values.flat_map(&:keys).uniq
cmd = "ruby benchmark/heap/run.rb fig4 --runs #{opts[:runs]} --n #{opts[:n]} --temp #{opts[:temp]}"
rows = samples.map { |(label, r), by| "| #{label} | #{r} | " + keys.map { Alternating.cell(by[_1]) }.join(" | ") + " |" }
ratio_rows = lives.map do |live|
  f, v = samples[["live=#{live}", "fork"]], samples[["live=#{live}", "vanilla"]]
  "| #{live} | " + %w[time_s gc_ms gc_count rss_kb].map { |k|
    format("%.3f", Stats.median(f[k]) / [Stats.median(v[k]), 1e-9].max) }.join(" | ") + " |"
end
title = "Seed 003 fig. 4: #{opts[:n]} heap #{opts[:temp]} temporaries beside LIVE live objects"
md = <<~MD
  # #{title}

  #{Bench.header(runs: opts[:runs], command: cmd, rubies: opts[:rubies]).chomp}

  time_s is the loop's wall time, gc_ms its `GC.stat(:time)`, gc_count its GCs.

  | live | ruby | #{keys.join(" | ")} |
  |---|---|#{"---|" * keys.size}
  #{rows.join("\n")}

  fork / vanilla, medians:

  | live | time_s | gc_ms | gc_count | rss_kb |
  |---|---|---|---|---|
  #{ratio_rows.join("\n")}
MD
Bench.write_result("heap-fig4.md", md, opts)

dat = Bench.data_path("heap-fig4.dat", opts)
File.write(dat, lives.map { |live|
  "#{live} " + %w[fork vanilla].flat_map { |r| by = samples[["live=#{live}", r]]; [Stats.median(by["time_s"]), Stats.median(by["gc_ms"]) / 1000.0] }.join(" ") + "\n"
}.join)
Bench.plot(Bench.result_path("heap-fig4.png", opts), <<~GP)
  set title "#{title}"
  set logscale x
  set xlabel "live objects"
  set ylabel "seconds (median)"
  set key top left
  plot "#{dat}" using 1:2 with linespoints title "fork: wall", \\
       "#{dat}" using 1:3 with linespoints title "fork: GC", \\
       "#{dat}" using 1:4 with linespoints title "vanilla: wall", \\
       "#{dat}" using 1:5 with linespoints title "vanilla: GC"
GP
puts md
