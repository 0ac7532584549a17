# Fig. 9 of seed 004: HTML generation from a KEN_ALL.CSV-shaped list of 112,992 lines by
# N = 1, 2, 4 workers: child VMs over Channels (this fork), forked processes over pipes
# (vanilla), Ractors (vanilla), and one VM alone (both rubies).  Each cell is one process
# running fig9.rb; the cells alternate within each run (order reversed on odd runs).
# Writes seconds, median (min..max) over the runs, and the speed-up against N = 1 as
# markdown, plus a PNG next to --out, and the probes of fig9.rb (what csv and ERB do in a
# child VM and in a Ractor).
#
# Full runs (from the repository's root; 2 CPUs; about 3.5 minutes each, more if the machine is busy):
#
#   ruby benchmark/channel/fig9_driver.rb --fork _install/bin/ruby \
#     --vanilla _vanilla/bin/ruby --divs 1 --runs 3 --out results/channel-fig9-1div.md
#   ruby benchmark/channel/fig9_driver.rb --fork _install/bin/ruby \
#     --vanilla _vanilla/bin/ruby --divs 100 --runs 2 --out results/channel-fig9-100div.md
#
# (--divs 100 --runs 3: about 5 minutes.)  Smoke test (about 20 s):
#
#   ruby benchmark/channel/fig9_driver.rb --fork _install/bin/ruby \
#     --vanilla _vanilla/bin/ruby --lines 2000 --divs 1,100 --runs 1 --out /tmp/fig9-smoke.md
#
# Defaults: lines sent in Arrays of 100 (--batch 1 sends one line a message; --batch 1,100
# measures both); every worker but the Ractors parses with CSV.parse_line; the Ractors use
# CSV's parser driven by a block (--ractor-parser parser_block) because CSV.parse_line
# creates a Fiber (Enumerator#next) and Fibers created in two Ractors at once crash vanilla
# 3.3.8 (the probes show it); --ractor-parser parse_line measures it anyway (a crash is
# recorded as such).  When the Ractors' parser differs, a one-VM vanilla cell with that
# parser is added as its baseline.
#
# --fork and --vanilla default to _install/bin/ruby and _vanilla/bin/ruby, or FORK and
# VANILLA (benchmark/lib/bench.rb); --out FILE is the markdown (without it, stdout only).
require "open3"
require "tmpdir"
require_relative "../lib/bench"
require_relative "common"

opt = Bench.options({runs: 3, lines: 112_992, divs: [1, 100], batch: [100], ns: [1, 2, 4],
                     parser: "parse_line", ractor_parser: "parser_block", timeout: 600}) do |o, op|
  o.on("--out FILE", "markdown; the PNG is FILE with .png") { |v| op[:md] = v }
  o.on("--lines N", Integer, "lines of the generated CSV (112992)") { |v| op[:lines] = v }
  o.on("--divs LIST", Array, "template sizes (1,100)") { |v| op[:divs] = v.map { Integer(_1) } }
  o.on("--batch LIST", Array, "lines a message (100)") { |v| op[:batch] = v.map { Integer(_1) } }
  o.on("--workers LIST", Array, "N (1,2,4)") { |v| op[:ns] = v.map { Integer(_1) } }
  o.on("--parser NAME", "parse_line | parser_block, all but the Ractors") { |v| op[:parser] = v }
  o.on("--ractor-parser NAME", "parse_line | parser_block") { |v| op[:ractor_parser] = v }
  o.on("--timeout SEC", Integer, "per cell (600)") { |v| op[:timeout] = v }
  o.on("--no-probe", "skip fig9.rb probe") { op[:no_probe] = true }
  o.on("--ractor-fork", "also N Ractors on this fork") { op[:ractor_fork] = true }
end
script = File.join(__dir__, "fig9.rb")
rubies = opt[:rubies].transform_keys(&:to_sym)
shown = rubies.transform_values { Bench.rel(_1) }

# [label, ruby, mode, parser]; seq runs at N = 1 only
TRANSPORTS = [["one VM (this fork)", :fork, "seq", opt[:parser]],
              ["one VM (vanilla)", :vanilla, "seq", opt[:parser]]]
TRANSPORTS << ["one VM (vanilla, #{opt[:ractor_parser]})", :vanilla, "seq", opt[:ractor_parser]] if opt[:ractor_parser] != opt[:parser]
TRANSPORTS.push(["Channel, N child VMs (this fork)", :fork, "channel", opt[:parser]],
                ["pipe + Marshal, N processes (vanilla)", :vanilla, "pipe", opt[:parser]],
                ["Ractor, N Ractors (vanilla#{opt[:ractor_parser] == "parse_line" ? "" : ", #{opt[:ractor_parser]}"})",
                 :vanilla, "ractor", opt[:ractor_parser]])
TRANSPORTS << ["Ractor, N Ractors (this fork#{opt[:ractor_parser] == "parse_line" ? "" : ", #{opt[:ractor_parser]}"})",
               :fork, "ractor", opt[:ractor_parser]] if opt[:ractor_fork]
variants = opt[:divs].product(opt[:batch])
cells = variants.flat_map do |divs, batch|
  TRANSPORTS.flat_map { |t| (t[2] == "seq" ? [1] : opt[:ns]).map { |n| [t, divs, batch, n] } }
end

dir = Dir.mktmpdir("fig9")
csv = File.join(dir, "ken_all.csv")
system(rubies[:vanilla], "--disable-gems", script, "gen", csv, opt[:lines].to_s, exception: true)
warn "#{csv}: #{File.size(csv)} bytes, #{opt[:lines]} lines"

probes = {}
unless opt[:no_probe]
  rubies.each do |k, ruby|
    out, err, = Open3.capture3(ruby, "--disable-gems", script, "probe")
    probes[k] = out.lines.grep(/^PROBE /).map { _1.sub(/^PROBE /, "").strip }
    probes[k] << "probe failed: #{err.lines.first(3).join.strip}" if probes[k].empty?
    $stderr.puts out
  end
end

res = Hash.new { |h, k| h[k] = [] }      # key => work seconds
setup = Hash.new { |h, k| h[k] = [] }
checks = Hash.new { |h, k| h[k] = [] }   # [divs] => [[count, bytes, key]]
fails = Hash.new { |h, k| h[k] = [] }    # key => error lines
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
opt[:runs].times do |run|
  (run.even? ? cells : cells.reverse).each do |(label, ruby, mode, parser), divs, batch, n|
    key = [label, divs, batch, n]
    cmd = ["timeout", "-s", "KILL", opt[:timeout].to_s, rubies[ruby], "--disable-gems", script,
           mode, csv, n.to_s, divs.to_s, batch.to_s, parser]
    out, err, st = Open3.capture3(*cmd, rlimit_core: 0)
    if st.success? && out =~ /^BENCH work=([\d.]+) setup=([\d.]+) count=(\d+) bytes=(\d+)/
      res[key] << Float($1)
      setup[key] << Float($2)
      checks[divs] << [Integer($3), Integer($4), key]
    else
      why = ChannelBench.failure(st, err, out)
      why += " (*** stack smashing detected ***)" if err.include?("stack smashing")
      fails[key] << why
      warn "FAILED #{cmd.join(" ")}\n#{err.lines.first(20).join}#{out}"
    end
    $stderr.print "."
  end
  $stderr.puts " run #{run + 1}/#{opt[:runs]}"
end
elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
File.delete(csv)
Dir.rmdir(dir)

med = Stats.method(:median)
cell = lambda do |key|
  a = res[key]
  fl = fails.fetch(key, [])
  f = fl.empty? ? "" : " **#{fl.size} of #{opt[:runs]} failed**"
  a.empty? ? (f.empty? ? "" : f.strip) : format("%.2f (%.2f..%.2f)", med.(a), a.min, a.max) + f
end

png = opt[:md] ? opt[:md].sub(/\.md\z/, "") + ".png" : nil
cmdline = "ruby benchmark/channel/fig9_driver.rb --fork #{shown[:fork]} --vanilla #{shown[:vanilla]} " \
          "--runs #{opt[:runs]} --lines #{opt[:lines]} --divs #{opt[:divs].join(",")} --batch #{opt[:batch].join(",")} " \
          "--workers #{opt[:ns].join(",")} --parser #{opt[:parser]} --ractor-parser #{opt[:ractor_parser]}" +
          (opt[:ractor_fork] ? " --ractor-fork" : "") +
          (opt[:md] ? " --out #{opt[:md]}" : "")
md = +"# Fig. 9: HTML generation from a postal-code list by N workers\n\n"
md << "#{opt[:lines]} lines shaped like KEN_ALL.CSV (generated by `fig9.rb gen`, UTF-8, " \
      "#{File.basename(csv)} of this run: deterministic). The master sends the lines to N workers, " \
      "each parses a line (`CSV.parse_line` unless said) and renders it with an ERB template of " \
      "1 or 100 divs (the same `<div class=\"entry\" id=\"z<zip>\">` with prefecture, city and `CGI.escapeHTML`'d town, repeated), " \
      "the master collects the HTML. Seconds from all workers ready to the last HTML collected " \
      "(`work`; starting the workers is below), median (min..max) of #{opt[:runs]} runs; " \
      "speed-up = median at N=1 / median at N, same transport. " \
      "Fork: `#{shown[:fork]}`, vanilla: `#{shown[:vanilla]}`; #{`nproc`.strip} CPUs; whole run " \
      "#{elapsed.round} s, #{Time.now.strftime("%Y-%m-%d")}.\n\n"
md << "Command: `#{cmdline}`\n\n"
md << "#{Bench.host_line}.\n\n"
md << "Transports: Channel: one input Channel shared by the N child VMs and one output Channel; " \
      "the master sends every message, closes the input, then receives. pipe: N forked processes, " \
      "a pipe each way, length-prefixed `Marshal.dump`, lines dealt round-robin, a writer and a reader " \
      "thread per worker in the master. Ractor: lines dealt round-robin with `Ractor#send`, results " \
      "back with `Ractor.main.send`; the template is compiled by the main Ractor (`ERB.new` raises " \
      "in a Ractor) and called by the workers through `ERB#def_method`, as every other worker does. " \
      "`parser_block` is CSV's own parser (`CSV#parser.parse { |row| ... }`, csv 3.2.8) without " \
      "`CSV#each`'s `Enumerator#next`, i.e. without a Fiber per line: **a fallback for the Ractors**, " \
      "not the paper's `CSV.parse_line`.\n\n"
md << "![Fig. 9](#{File.basename(png)})\n\n" if png
variants.each do |divs, batch|
  md << "## #{divs} div#{divs == 1 ? "" : "s"} a line, #{batch == 1 ? "one line a message" : "#{batch} lines a message (Arrays)"}\n\n"
  md << "| seconds | " + opt[:ns].map { "N=#{_1}" }.join(" | ") + " | " + opt[:ns].drop(1).map { "speed-up N=#{_1}" }.join(" | ") + " |\n"
  md << "|---|" + "---:|" * (2 * opt[:ns].size - 1) + "\n"
  TRANSPORTS.each do |label, _, mode, _|
    ns = mode == "seq" ? [1] : opt[:ns]
    base = res[[label, divs, batch, 1]]
    ups = opt[:ns].drop(1).map do |n|
      a = res[[label, divs, batch, n]]
      ns.include?(n) && !a.empty? && !base.empty? ? format("%.2f", med.(base) / med.(a)) : ""
    end
    md << "| #{label} | " + opt[:ns].map { |n| ns.include?(n) ? cell.([label, divs, batch, n]) : "" }.join(" | ") +
          " | " + ups.join(" | ") + " |\n"
  end
  md << "\nStarting the workers (seconds, median): " +
        TRANSPORTS.reject { _1[2] == "seq" }.map { |label, *|
          "#{label.sub(/,.*/, "")} " + opt[:ns].map { |n| (a = setup[[label, divs, batch, n]]).empty? ? "-" : format("%.3f", med.(a)) }.join("/")
        }.join("; ") + " (N=#{opt[:ns].join("/")}).\n\n"
end
md << "Check: "
md << opt[:divs].map { |divs|
  got = checks[divs].map { |c, b, _| [c, b] }.uniq
  got.size == 1 ? "#{divs} div(s): every cell #{got[0][0]} HTML strings, #{got[0][1]} bytes" :
    "#{divs} div(s): **cells disagree**: " + checks[divs].group_by { |c, b, _| [c, b] }.map { |(c, b), ks| "#{c}/#{b} from #{ks.map { _1[2][0] }.uniq.join(", ")}" }.join("; ")
}.join("; ") + ".\n\n"
unless fails.empty? # only failed keys: fails is read with fetch elsewhere
  md << "## Failures\n\n"
  fails.each { |(label, divs, batch, n), es| es.tally.each { |e, k| md << "- #{label}, #{divs} div(s), batch #{batch}, N=#{n}: #{k} of #{opt[:runs]}: `#{e.gsub("`", "'")}`\n" } }
  md << "\n"
end
unless probes.empty?
  md << "## Probes (`fig9.rb probe`: each a fresh process; the numbered ones tried #{ENV["FIG9_PROBE_TRIES"] || 3} times)\n\n"
  probes.each { |k, ls| ls.each { |l| md << "- #{k == :fork ? "this fork" : "vanilla"}: #{l.gsub("`", "'")}\n" } }
  md << "\n"
end
puts md
if opt[:md]
  File.write(opt[:md], md)
  dat = opt[:md].sub(/\.md\z/, "") + ".dat"
  idx = {}
  File.open(dat, "w") do |f|
    variants.each do |divs, batch|
      TRANSPORTS.each do |label, _, mode, _|
        base = res[[label, divs, batch, 1]]
        rows = (mode == "seq" ? [1, opt[:ns].max] : opt[:ns]).filter_map do |n|
          a = res[[label, divs, batch, mode == "seq" ? 1 : n]]
          "#{n} #{med.(a)} #{a.min} #{a.max} #{base.empty? ? "NaN" : med.(base) / med.(a)}" unless a.empty?
        end
        next if rows.empty? # gnuplot refuses an index without points
        f.puts "# #{divs} divs, batch #{batch}, #{label}: N median min max speed-up", rows, "\n\n"
        idx[[divs, batch, label]] = idx.size
      end
    end
  end
  colors = ["#7f7f7f", "#bcbd22", "#17becf", "#1f77b4", "#2ca02c", "#d62728", "#9467bd"]
  style = TRANSPORTS.each_with_index.to_h { |(label, _, mode, _), i| [label, "lc rgb '#{colors[i % colors.size]}' #{mode == "seq" ? "dt 2 pt -1" : "pt 7"}"] }
  gp = +"set termoption font \",10\"\n"
  gp << "set multiplot layout 2,#{variants.size} title 'Fig. 9: HTML generation, #{opt[:lines]} lines (median of #{opt[:runs]} runs, bars min..max; dashed: one VM)'\n"
  gp << "set grid\nset xtics (#{opt[:ns].map { "\"#{_1}\" #{_1}" }.join(", ")})\nset xrange [#{opt[:ns].min - 0.3}:#{opt[:ns].max + 0.3}]\nset key outside bottom center horizontal maxrows 3\n"
  [["seconds", "using 1:2:3:4 with yerrorlines", false], ["speed-up vs N=1", "using 1:5 with linespoints", true]].each do |ylabel, using, speedup|
    variants.each do |divs, batch|
      gp << "set title '#{divs} div#{divs == 1 ? "" : "s"} a line, #{batch} line#{batch == 1 ? "" : "s"} a message'\n"
      gp << "set xlabel 'N workers'\nset ylabel '#{ylabel}'\nset yrange [0:*]\nset offsets 0, 0, graph 0.08, 0\n"
      lines = TRANSPORTS.filter_map do |label, _, mode, _|
        next if speedup && mode == "seq"
        next unless idx[[divs, batch, label]]
        "'#{dat}' index #{idx[[divs, batch, label]]} #{using} #{style[label]} title '#{label}'"
      end
      lines << "x <= #{`nproc`.strip} ? x : #{`nproc`.strip} with lines lc rgb '#000000' dt 3 title 'ideal (#{`nproc`.strip} CPUs)'" if speedup
      gp << "plot #{lines.join(", \\\n  ")}\n"
    end
  end
  gp << "unset multiplot\n"
  plotted = Bench.plot(png, gp, size: "#{[700 * variants.size, 700].max},900", terminal: "pngcairo")
  warn "wrote #{opt[:md]}, #{plotted ? "#{png}, " : ""}#{dat}"
end
