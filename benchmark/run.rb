# The runner behind the papers' reproductions: run one script under the
# fork and under vanilla 3.3.8, alternating, several times for each value
# of an optional parameter, and record wall time and peak RSS
# (/usr/bin/time -v).  Writes results/NAME.md (a markdown table with
# medians, spreads and fork/vanilla ratios, and the command) and
# results/NAME-time.png / NAME-rss.png (gnuplot).
#
#   ruby benchmark/run.rb NAME SCRIPT [options] [-- script args]
#     --runs N               runs per ruby and parameter value (default 5)
#     --param NAME=V1,V2...  run once per value; the script sees ENV[NAME]
#                            and "%{NAME}" in script args is replaced
#     --ruby LABEL=PATH      add or replace a ruby (default fork, vanilla:
#                            FORK, VANILLA or _install/bin/ruby, _vanilla/bin/ruby)
#     --only LABELS          run only these rubies (comma-separated)
#     --env K=V              extra environment for every run
#     --title TEXT           heading of the table and plots
#     --logscale             log-scale x axis for the plots
#     --plot KEY             also plot the medians of BENCH KEY (NAME-KEY.png)
#     --out DIR              instead of results/ (default BENCH_RESULTS if set)
#
# A script may print lines "BENCH key=value" (numbers); their medians get
# columns of their own, e.g. a count of overflows or a per-thread slope.
require "time"
require_relative "lib/bench"

ROOT = Bench::ROOT
TIME = "/usr/bin/time"

name = ARGV.shift
script = ARGV.shift
abort "usage: run.rb NAME SCRIPT [options] [-- args]" unless name && script
script = File.expand_path(script)
abort "#{script} does not exist" unless File.exist?(script)
abort "#{TIME} is missing (Debian package time); run make deps" unless File.executable?(TIME)

opts = {runs: 5, param: nil, values: [nil], env: {}, title: name, logscale: false, plot: []}
rubies = Bench.rubies
parser = OptionParser.new do |o|
  o.on("--runs N", Integer) { |v| opts[:runs] = v }
  o.on("--param SPEC") do |v|
    pname, list = v.split("=", 2)
    opts[:param] = pname
    opts[:values] = list.split(",")
  end
  o.on("--ruby SPEC") do |v|
    label, path = v.split("=", 2)
    rubies[label] = File.expand_path(path)
  end
  o.on("--only LABELS") { |v| rubies.select! { |k, _| v.split(",").include?(k) } }
  o.on("--env KV") { |v| k, val = v.split("=", 2); opts[:env][k] = val }
  o.on("--title TEXT") { |v| opts[:title] = v }
  o.on("--logscale") { opts[:logscale] = true }
  o.on("--plot KEY") { |v| opts[:plot] << v }
  o.on("--out DIR") { |v| opts[:out] = File.expand_path(v) }
end
rest = ARGV.index("--") ? ARGV.slice!(ARGV.index("--")..)[1..] : []
parser.parse!(ARGV)
args = rest
rubies.each { |l, r| abort "#{l}: #{r} is not executable" unless File.executable?(r) }

# One run: returns {time:, rss_kb:, status:, extra: {key => value}}.
def run_once(ruby, script, args, env)
  out = IO.popen([env, TIME, "-v", ruby, script, *args, err: [:child, :out]], &:read)
  status = $?
  rss = out[/Maximum resident set size \(kbytes\): (\d+)/, 1].to_i
  wall = out[/Elapsed \(wall clock\) time \(h:mm:ss or m:ss\): ([\d:.]+)/, 1]
  secs = wall.split(":").map(&:to_f).reverse.each_with_index.sum { |x, i| x * 60**i }
  extra = out.scan(/^BENCH (\w+)=([-\d.eE+]+)$/).to_h { |k, v| [k, v.to_f] }
  {time: secs, rss_kb: rss, ok: status.success?, extra: extra, out: out}
end

results = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } } # value -> ruby -> runs
started = Time.now
labels = rubies.keys
opts[:values].each do |value|
  env = {"RUBYOPT" => nil, "RUBYLIB" => nil}.merge(opts[:env])
  env[opts[:param]] = value if opts[:param]
  a = args.map { |x| opts[:param] ? x.gsub("%{#{opts[:param]}}", value) : x }
  opts[:runs].times do |i|
    # Alternate which ruby goes first.
    (i.even? ? labels : labels.reverse).each do |label|
      $stderr.print "\r#{name}: #{opts[:param]}=#{value} run #{i + 1}/#{opts[:runs]} #{label}".ljust(70)
      r = run_once(rubies[label], script, a, env)
      warn "\n#{label} failed (#{opts[:param]}=#{value}):\n#{r[:out].lines.last(5).join}" unless r[:ok]
      results[value][label] << r
    end
  end
end
$stderr.puts

host_line = Bench.host_line
md = Bench.result_path("#{name}.md", opts)
plot = Bench.gnuplot?
extras = results.values.flat_map { |by| by.values.flatten.flat_map { |r| r[:extra].keys } }.uniq
pcol = opts[:param] || "-"
cmdline = "ruby benchmark/run.rb #{name} #{script.sub(ROOT + '/', '')} --runs #{opts[:runs]}" +
          (opts[:param] ? " --param #{opts[:param]}=#{opts[:values].join(',')}" : "") +
          opts[:env].map { |k, v| " --env #{k}=#{v}" }.join +
          (rubies.keys == %w[fork vanilla] ? "" : " --only #{rubies.keys.join(',')}" +
           rubies.map { |l, r| " --ruby #{l}=#{r.sub(ROOT + '/', '')}" }.join) +
          opts[:plot].map { |k| " --plot #{k}" }.join +
          (args.empty? ? "" : " -- #{args.join(' ')}")
num = ->(x) { x == x.round && x.abs < 1e9 ? x.round.to_s : format("%.3g", x) }
fmt = ->(xs) { xs.empty? ? "-" : "#{num[Stats.median(xs)]} (#{num[xs.min]}..#{num[xs.max]})" }
File.open(md, "w") do |o|
  o.puts "# #{opts[:title]}"
  o.puts
  o.puts "- command: `#{cmdline}`"
  o.puts "- date: #{started.utc.iso8601}; #{opts[:runs]} runs per ruby and value, alternating which runs first; series: #{Bench.series}"
  o.puts "- #{host_line}"
  rubies.each { |l, r| o.puts "- #{l}: `#{Bench.version(r)}`" }
  o.puts "- time: wall clock; RSS: peak resident set (`/usr/bin/time -v`); medians with (min..max)"
  o.puts
  head = ["| #{pcol} | ruby | time s | peak RSS MB"] + extras.map { |e| " | #{e}" }
  head << " | time / #{labels.last} | RSS / #{labels.last} |" if labels.size > 1
  o.puts head.join
  o.puts "|---|---|---:|---:" + "|---:" * extras.size + (labels.size > 1 ? "|---:|---:|" : "|")
  opts[:values].each do |value|
    base = results[value][labels.last]
    labels.each do |label|
      rs = results[value][label]
      t = rs.map { |r| r[:time] }
      m = rs.map { |r| r[:rss_kb] / 1024.0 }
      row = "| #{value || '-'} | #{label}#{rs.all? { |r| r[:ok] } ? '' : ' (failures)'} | #{fmt[t]} | #{fmt[m]}"
      extras.each { |e| row << " | #{fmt[rs.filter_map { |r| r[:extra][e] }]}" }
      if labels.size > 1
        row << format(" | %.3f | %.3f |", Stats.median(t) / Stats.median(base.map { |r| r[:time] }),
                      Stats.median(m) / Stats.median(base.map { |r| r[:rss_kb] / 1024.0 }))
      else
        row << " |"
      end
      o.puts row
    end
  end
  if plot
    o.puts
    o.puts "![time](#{name}-time.png) ![peak RSS](#{name}-rss.png)" +
           opts[:plot].map { |k| " ![#{k}](#{name}-#{k}.png)" }.join
  end
end

if plot
  work = File.join(ROOT, "build/bench")
  FileUtils.mkdir_p(work)
  # parameter values that are not numbers (MODEL=linear,...) become labels
  numeric = opts[:param] && opts[:values].all? { |v| v.match?(/\A-?\d+(\.\d+)?\z/) }
  kinds = {"time" => ["time (s)", ->(r) { r[:time] }], "rss" => ["peak RSS (MB)", ->(r) { r[:rss_kb] / 1024.0 }]}
  opts[:plot].each { |k| kinds[k] = [k, ->(r) { r[:extra][k] || Float::NAN }] }
  kinds.each do |kind, (ylabel, get)|
    plots = labels.each_with_index.map do |label, li|
      dat = File.join(work, "#{name}-#{kind}-#{label}.dat")
      File.write(dat, opts[:values].each_with_index.map { |v, vi|
        xs = results[v][label].map(&get)
        "#{numeric ? v : vi} #{Stats.median(xs)} #{xs.min} #{xs.max} #{v || vi}\n" }.join)
      "'#{dat}' using 1:2:3:4#{numeric ? '' : ':xticlabels(5)'} with yerrorlines title '#{label}'"
    end
    Bench.plot(Bench.result_path("#{name}-#{kind}.png", opts), <<~GP, size: "800,500", terminal: "pngcairo")
      set title '#{opts[:title].gsub("'", "")}'
      set xlabel '#{opts[:param] || 'run'}'
      set ylabel '#{ylabel}'
      set grid
      set key left top
      #{opts[:logscale] ? 'set logscale x' : ''}
      #{numeric ? '' : "set xrange [-0.5:#{opts[:values].size - 0.5}]"}
      plot #{plots.join(', ')}
    GP
  end
end
puts File.read(md)
