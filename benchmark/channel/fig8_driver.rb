# Fig. 8 of seed 004: the time of one ROUND TRIP (there and back) of an Array or a String
# between two VMs, by length.  Each cell is one process running fig8.rb; the cells
# alternate within each run (the order reversed on odd runs), and the driver writes the
# medians (min..max) over the runs as markdown, plus a log-log plot (PNG, next to --out).
#
# Full run (from the repository's root; about 3 minutes on this 2-core machine; 72 cells a run):
#
#   ruby benchmark/channel/fig8_driver.rb --fork _install/bin/ruby \
#     --vanilla _vanilla/bin/ruby --runs 5 --out results/channel-fig8.md
#
# Smoke test (a few seconds):
#
#   ruby benchmark/channel/fig8_driver.rb --fork _install/bin/ruby \
#     --vanilla _vanilla/bin/ruby --runs 1 --arrays 1,100 --strings 1,10000 \
#     --target 0.02 --out /tmp/fig8-smoke.md
#
# Transports: Channel (this fork, two VMs), Ractor (vanilla: send/take, a deep copy each
# way), pipe + Marshal between two forked processes (vanilla; the echo process loads the
# object and dumps it again).  --pipe-fork and --ractor-fork add those on this fork.
#
# --fork and --vanilla default to _install/bin/ruby and _vanilla/bin/ruby, or FORK and
# VANILLA (benchmark/lib/bench.rb); --out FILE is the markdown (without it, stdout only).
require "open3"
require_relative "../lib/bench"
require_relative "common"

opt = Bench.options({runs: 5, target: 0.2,
                     arrays: [1, 10, 100, 1_000, 10_000, 100_000],
                     strings: [1, 100, 10_000, 1_000_000, 10_000_000, 100_000_000]}) do |o, op|
  o.on("--out FILE", "markdown; the PNG is FILE with .png") { |v| op[:md] = v }
  o.on("--target SEC", Float, "seconds of timed round trips per cell (0.2)") { |v| op[:target] = v }
  o.on("--arrays LIST", Array, "array lengths") { |v| op[:arrays] = v.map { Integer(_1) } }
  o.on("--strings LIST", Array, "string lengths in bytes") { |v| op[:strings] = v.map { Integer(_1) } }
  o.on("--pipe-fork", "also pipe + Marshal on this fork") { op[:pipe_fork] = true }
  o.on("--ractor-fork", "also Ractor on this fork") { op[:ractor_fork] = true }
end
rubies = opt[:rubies]
shown = rubies.transform_values { Bench.rel(_1) }
script = File.join(__dir__, "fig8.rb")

TRANSPORTS = [["Channel (this fork)", "fork", "channel"],
              ["Ractor (vanilla)", "vanilla", "ractor"],
              ["pipe + Marshal (vanilla)", "vanilla", "pipe"]]
TRANSPORTS << ["pipe + Marshal (this fork)", "fork", "pipe"] if opt[:pipe_fork]
TRANSPORTS << ["Ractor (this fork)", "fork", "ractor"] if opt[:ractor_fork]
KINDS = [["int", "Array of `1`", opt[:arrays]], ["float", "Array of `0.1`", opt[:arrays]],
         ["object", "Array of `Object.new`", opt[:arrays]], ["str", "String (`'x' * n`, bytes)", opt[:strings]]]
cells = KINDS.flat_map { |kind, _, lens| lens.flat_map { |len| TRANSPORTS.map { |t| [t, kind, len] } } }

res = Hash.new { |h, k| h[k] = [] }
iters = Hash.new { |h, k| h[k] = [] }
fails = {}
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
opt[:runs].times do |run|
  (run.even? ? cells : cells.reverse).each do |(name, ruby, mode), kind, len|
    key = [name, kind, len]
    next if fails[key]
    cmd = ["timeout", "-s", "KILL", "600", rubies[ruby], "--disable-gems", script, mode, kind, len.to_s, opt[:target].to_s]
    out, err, st = Open3.capture3(*cmd, rlimit_core: 0)
    if st.success? && out =~ /^BENCH us=([\d.e+-]+) iters=(\d+)/
      res[key] << Float($1)
      iters[key] << Integer($2)
    else
      fails[key] = ChannelBench.failure(st, err, out)
      warn "FAILED #{cmd.join(" ")}\n#{err}#{out}"
    end
    $stderr.print "."
  end
  $stderr.puts " run #{run + 1}/#{opt[:runs]}"
end
elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0

med = Stats.method(:median)
num = ->(x) { x >= 100 ? format("%.0f", x) : format("%.3g", x) }
cell = lambda do |key|
  next "failed" if fails[key]
  a = res[key]
  a.empty? ? "" : "#{num.(med.(a))} (#{num.(a.min)}..#{num.(a.max)})"
end

png = opt[:md] ? opt[:md].sub(/\.md\z/, "") + ".png" : nil
md = +"# Fig. 8: a round trip of an Array or a String between two VMs, by length\n\n"
md << "Microseconds per **round trip** (one send each way; a one-way message is about half), " \
      "median (min..max) of #{opt[:runs]} runs, each cell a fresh process running " \
      "`benchmark/channel/fig8.rb MODE KIND LENGTH #{opt[:target]}` (round trips calibrated to about " \
      "#{opt[:target]} s per cell, at least 3; the calibration is the warm-up). " \
      "Fork: `#{shown["fork"]}`, vanilla: `#{shown["vanilla"]}`. Cells alternate, order reversed " \
      "every other run; whole run #{elapsed.round} s, #{`nproc`.strip} CPUs, #{Time.now.strftime("%Y-%m-%d")}.\n\n" \
      "Command: `ruby benchmark/channel/fig8_driver.rb --fork #{shown["fork"]} --vanilla #{shown["vanilla"]} " \
      "--runs #{opt[:runs]} --target #{opt[:target]} --arrays #{opt[:arrays].join(",")} " \
      "--strings #{opt[:strings].join(",")}#{opt[:pipe_fork] ? " --pipe-fork" : ""}#{opt[:ractor_fork] ? " --ractor-fork" : ""}#{opt[:md] ? " --out #{opt[:md]}" : ""}`\n\n"
md << "#{Bench.host_line}.\n\n"
md << "Kinds: `int` is `Array.new(n, 1)`, `float` `Array.new(n, 0.1)` (flonums), `object` " \
      "`Array.new(n) { Object.new }`, `str` `'x' * n`. A Channel copies an Array of immediates " \
      "(`int`, `float`) as its VALUEs in one `memcpy`; an Array that holds anything Marshal must carry " \
      "(`object`) goes through one `Marshal.dump`/`Marshal.load` whole, as over the pipe " \
      "(channel.c `channel_pack`); a String of 1 KiB or more is shared, not copied. Ractor " \
      "deep-copies; pipe dumps the whole Array once each way.\n\n"
md << "![Fig. 8](#{File.basename(png)})\n\n" if png
KINDS.each do |kind, title, lens|
  md << "## #{title}\n\n"
  md << "| length | " + TRANSPORTS.map { |n, *| n }.join(" | ") + " | Ractor / Channel | pipe / Channel |\n"
  md << "|---:|" + "---:|" * (TRANSPORTS.size + 2) + "\n"
  lens.each do |len|
    meds = TRANSPORTS.map { |n, *| k = [n, kind, len]; fails[k] || res[k].empty? ? nil : med.(res[k]) }
    ratio = ->(i) { meds[0] && meds[i] ? format("%.2f", meds[i] / meds[0]) : "" }
    md << "| #{len} | " + TRANSPORTS.map { |n, *| cell.([n, kind, len]) }.join(" | ") +
          " | #{ratio.(1)} | #{ratio.(2)} |\n"
  end
  md << "\n"
end
md << "Round trips timed per cell (median over runs): " +
      KINDS.map { |kind, _, lens|
        "#{kind}: " + lens.map { |len| "#{len}=" + TRANSPORTS.map { |n, *| (a = iters[[n, kind, len]]).empty? ? "-" : med.(a).to_i.to_s }.join("/") }.join(", ")
      }.join("; ") + " (#{TRANSPORTS.map(&:first).join(" / ")}).\n\n"
unless fails.empty?
  md << "## Failures\n\n"
  fails.each { |(n, k, l), e| md << "- #{n}, #{k}, #{l}: `#{e.gsub("`", "'").gsub("\n", " ")}`\n" }
  md << "\n"
end
puts md
if opt[:md]
  File.write(opt[:md], md)
  dat = opt[:md].sub(/\.md\z/, "") + ".dat"
  # one gnuplot data block per (kind, transport): length median min max
  blocks = []
  File.open(dat, "w") do |f|
    KINDS.each do |kind, _, lens|
      TRANSPORTS.each do |n, *|
        f.puts "# #{kind} #{n}"
        lens.each { |len| a = res[[n, kind, len]]; f.puts "#{len} #{med.(a)} #{a.min} #{a.max}" unless a.empty? }
        f.puts "\n\n"
        blocks << [kind, n]
      end
    end
  end
  colors = {"Channel (this fork)" => "#1f77b4", "Ractor (vanilla)" => "#d62728",
            "pipe + Marshal (vanilla)" => "#2ca02c", "pipe + Marshal (this fork)" => "#9467bd",
            "Ractor (this fork)" => "#ff7f0e"}
  dash = {"int" => 1, "float" => 2, "object" => 3, "str" => 1}
  pt = {"int" => 7, "float" => 5, "object" => 9, "str" => 7}
  plot = lambda do |kinds|
    blocks.each_with_index.select { |(k, _), _| kinds.include?(k) }.map do |(k, n), i|
      "'#{dat}' index #{i} using 1:2:3:4 with yerrorlines lc rgb '#{colors[n]}' dt #{dash[k]} pt #{pt[k]} title '#{n}#{k == "str" ? "" : ", #{k}"}'"
    end.join(", \\\n  ")
  end
  plotted = Bench.plot(png, <<~GP, size: "1400,600", terminal: "pngcairo")
    set termoption font ",10"
    set multiplot layout 1,2 title "Fig. 8: one round trip between two VMs (median of #{opt[:runs]} runs, bars min..max)"
    set logscale xy
    set format x "10^%L"; set format y "%g"
    set grid
    set key top left
    set ylabel "microseconds per round trip"
    set xlabel "Array length (elements)"
    set title "Arrays of 1 (solid), 0.1 (dashed), Object.new (dotted)"
    plot #{plot.(%w[int float object])}
    set xlabel "String length (bytes)"
    set title "Strings"
    plot #{plot.(%w[str])}
    unset multiplot
  GP
  warn "wrote #{opt[:md]}, #{plotted ? "#{png}, " : ""}#{dat}"
end
