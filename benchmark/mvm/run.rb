# The MVM measurements of issue 15 (seed 004 tables 1-2, fig. 11), fork and
# vanilla 3.3.8 alternating in one run, medians of several runs with the
# spread, peak RSS from /usr/bin/time -v.  Writes results/mvm-FIG.md and its
# PNG plots.
#
#   ruby benchmark/mvm/run.rb table2 [--runs 5] [--n 500]
#   ruby benchmark/mvm/run.rb split  [--runs 5]
#   ruby benchmark/mvm/run.rb gc     [--runs 5]
#
# and the options of every runner (benchmark/lib/bench.rb: --fork, --vanilla, --out).
require_relative "../lib/alternating"
require_relative "../lib/bench"

fig = ARGV.shift or abort "usage: #{$0} table2|split|gc [--runs N] [--n N]"
opts = Bench.options({runs: 5, n: 500}) { |o, op| o.on("--n N", Integer) { op[:n] = _1 } }
here = __dir__

# [row label, ruby, script, env] for every configuration of the figure
configs =
  case fig
  when "table2"
    %w[thread ractor fork spawn spawn_nogems vm vm_nogems].flat_map do |m|
      rubies = m.start_with?("vm") ? %w[fork] : %w[fork vanilla]
      rubies.map { |r| ["#{m}", r, "#{here}/create.rb", {"METHOD" => m, "N" => opts[:n].to_s}] }
    end +
      # the same without VMs booted ahead
      %w[vm vm_nogems].map do |m|
        ["#{m} RUBY_MVM_PREBOOT=0", "fork", "#{here}/create.rb",
         {"METHOD" => m, "N" => opts[:n].to_s, "RUBY_MVM_PREBOOT" => "0"}]
      end
  when "split"
    [1, 2, 4].flat_map do |k|
      [["vm", %w[fork]], ["ractor", %w[fork vanilla]], ["process", %w[fork vanilla]]].flat_map do |kind, rs|
        rs.map { |r| ["#{kind} K=#{k}", r, "#{here}/split.rb", {"KIND" => kind, "K" => k.to_s}] }
      end
    end
  when "gc"
    [["vm", %w[fork]], ["ractor", %w[fork vanilla]], ["process", %w[fork vanilla]]].flat_map do |kind, rs|
      rs.map { |r| [kind, r, "#{here}/gc_beside.rb", {"KIND" => kind}] }
    end
  else abort "unknown figure #{fig}"
  end

samples = Alternating.run(configs, opts[:rubies], opts[:runs])

keys = samples.values.flat_map(&:keys).uniq
cell = Alternating.method(:cell)
cmd = "ruby benchmark/mvm/run.rb #{fig} --runs #{opts[:runs]}#{fig == "table2" ? " --n #{opts[:n]}" : ""}"
rows = samples.map do |(label, rname), by|
  "| #{label} | #{rname} | " + keys.map { |k| cell.(by[k]) }.join(" | ") + " |"
end
title = {"table2" => "Seed 004 table 2: create, run an empty program and wait, #{opts[:n]} times",
         "split" => "Seed 004 fig. 11: a CPU-bound program split over K workers (2 cores)",
         "gc" => "A CPU-bound worker alone and beside a GC-heavy one"}[fig]
md = <<~MD
  # #{title}

  #{Bench.header(runs: opts[:runs], command: cmd, rubies: opts[:rubies]).chomp}

  | configuration | ruby | #{keys.join(" | ")} |
  |---|---|#{"---|" * keys.size}
  #{rows.join("\n")}
MD
Bench.write_result("mvm-#{fig}.md", md, opts)

# one plot of the main figure: per_ms / time_s / beside_gc_s
metric = {"table2" => "per_ms", "split" => "time_s", "gc" => "beside_gc_s"}[fig]
dat = Bench.data_path("mvm-#{fig}.dat", opts)
File.write(dat, samples.map.with_index { |((label, rname), by), i|
  "#{i} \"#{label} (#{rname})\" #{Stats.median(by[metric])}\n" }.join)
Bench.plot(Bench.result_path("mvm-#{fig}.png", opts), <<~GP)
  set bmargin 9
  set title "#{title}"
  set style fill solid 0.6
  set boxwidth 0.7
  set ylabel "#{metric} (median)"
  set xtics rotate by -45
  #{fig == "table2" ? "set logscale y" : ""}
  plot "#{dat}" using 1:3:xtic(2) with boxes notitle
GP
puts md
