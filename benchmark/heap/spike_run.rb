# The spike then idle of issue 16: benchmark/heap/spike.rb for fork and
# vanilla 3.3.8 alternating, RSS before, at the spike and over the idle
# time; medians of several runs with the spread, the RSS over time of the
# first run plotted.  Writes results/heap-spike.md and results/heap-spike.png.
#
#   ruby benchmark/heap/spike_run.rb [--runs 3] [--mb 1024] [--idle 30] [--on fiber|thread]
#
# and the options of every runner (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require "open3"
require_relative "../lib/bench"

opts = Bench.options({runs: 3, mb: 1024, idle: 30, on: "fiber"}) do |o, op|
  o.on("--mb MB", Integer) { op[:mb] = _1 }
  o.on("--idle S", Integer) { op[:idle] = _1 }
  o.on("--on WHERE", %w[fiber thread]) { op[:on] = _1 }
end
rubies = opts[:rubies]
env = {"SPIKE_MB" => opts[:mb].to_s, "IDLE" => opts[:idle].to_s, "STEP" => "0.5", "SPIKE_ON" => opts[:on]}

figures = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } }
curves = {}
opts[:runs].times do |round|
  (round.even? ? rubies.keys : rubies.keys.reverse).each do |r|
    out, err, st = Open3.capture3(env, rubies[r], File.join(__dir__, "spike.rb"))
    abort "#{r} failed:\n#{out}\n#{err}" unless st.success?
    out.scan(/^BENCH (\w+)=([\d.e+-]+)$/) { figures[r][$1] << Float($2) }
    curves[r] ||= out.scan(/^RSS ([\d.]+) (\d+)$/).map { |t, kb| [Float(t), Integer(kb) / 1024.0] }
    $stderr.print "."
  end
end
$stderr.puts

dats = rubies.keys.to_h { |r| [r, Bench.data_path("heap-spike-#{r}.dat", opts)] }
curves.each { |r, c| File.write(dats[r], c.map { |t, mb| "#{t} #{mb}\n" }.join) }
before = rubies.keys.to_h { |r| [r, Stats.median(figures[r]["rss_before_kb"]) / 1024.0] }
title = "#{opts[:mb]} MiB of Strings made live on a #{opts[:on]} and dropped, then #{opts[:idle]} s of sleep"
Bench.plot(Bench.result_path("heap-spike.png", opts), <<~GP)
  set title "#{title}"
  set xlabel "seconds after the spike"
  set ylabel "RSS, MiB (log)"
  set logscale y
  set key top right
  plot "#{dats["fork"]}" using 1:2 with lines lc 1 title "fork", \\
       "#{dats["vanilla"]}" using 1:2 with lines lc 2 title "vanilla", \\
       #{before["fork"]} with lines lc 1 dashtype 2 title "fork before the spike", \\
       #{before["fork"] * 1.25} with lines lc 3 dashtype 3 title "1.25 x fork before"
GP
cell = ->(xs, div = 1.0) { format("%.4g (%.4g..%.4g)", Stats.median(xs) / div, xs.min / div, xs.max / div) }
cmd = "ruby benchmark/heap/spike_run.rb --runs #{opts[:runs]} --mb #{opts[:mb]} --idle #{opts[:idle]} --on #{opts[:on]}"
rows = rubies.keys.map do |r|
  f = figures[r]
  "| #{r} | #{cell.(f["rss_before_kb"], 1024)} | #{cell.(f["rss_peak_kb"], 1024)} | #{cell.(f["spike_s"])} | " \
    "#{cell.(f["rss_idle_end_kb"], 1024)} | #{cell.(f["idle_end_over_before"])} |"
end
md = <<~MD
  # The spike then idle: #{title}

  `benchmark/heap/spike.rb`: RSS (`/proc/self/statm`) after a `GC.start` at boot ("before"), at the
  end of the spike, and after #{opts[:idle]} s of sleep; medians of #{opts[:runs]} runs of each ruby, the order
  alternating, with (min..max). fork = `#{Bench.rel(rubies["fork"])}` (series at #{Bench.series}), vanilla = 3.3.8
  from the same tarball, same flags.

  Command: `#{cmd}`

  #{Bench.host_line}.

  | ruby | before MiB | at the spike MiB | spike s | after the idle MiB | after / before |
  |---|---|---|---|---|---|
  #{rows.join("\n")}

  ![RSS over time](heap-spike.png)
MD
Bench.write_result("heap-spike.md", md, opts)
puts md
