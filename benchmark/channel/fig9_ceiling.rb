# Fig. 9's speed-up with two workers against what this machine allows: in each run,
# alternating, one process renders every line (`fig9.rb seq`), two processes render half
# the lines each at once (no communication at all: the ceiling of any design), and the
# Channel cells with 1 and 2 worker VMs.  Writes medians (min..max) as markdown.
#
#   ruby benchmark/channel/fig9_ceiling.rb --fork _install/bin/ruby --runs 7 --divs 1 \
#     --out results/channel-fig9-ceiling.md
require "optparse"
require "tmpdir"
require "open3"
require "etc"
require_relative "common"

opt = { fork: "_install/bin/ruby", runs: 7, divs: 1, lines: 112_992, batch: 100 }
OptionParser.new do |o|
  o.on("--fork RUBY") { |v| opt[:fork] = v }
  o.on("--runs N", Integer) { |v| opt[:runs] = v }
  o.on("--divs N", Integer) { |v| opt[:divs] = v }
  o.on("--lines N", Integer) { |v| opt[:lines] = v }
  o.on("--out FILE") { |v| opt[:out] = v }
end.parse!(ARGV)

fig9 = File.expand_path("fig9.rb", __dir__)
ruby = opt[:fork]
dir = Dir.mktmpdir("fig9ceiling")
csv = File.join(dir, "ken_all.csv")
system(ruby, "--disable-gems", fig9, "gen", csv, opt[:lines].to_s, exception: true)
lines = File.readlines(csv)
half = lines.size / 2
halves = [lines[0, half], lines[half..]].each_with_index.map do |part, i|
  File.join(dir, "half#{i}.csv").tap { |f| File.write(f, part.join) }
end

def work(out)
  out[/BENCH work=([\d.]+)/, 1]&.to_f or abort "no BENCH line in: #{out}"
end

cell = ->(mode, file, n) do
  out, err, st = Open3.capture3(ruby, "--disable-gems", fig9, mode, file, n.to_s, opt[:divs].to_s, opt[:batch].to_s)
  abort ChannelBench.failure(st, err, out) unless st.success?
  work(out)
end

t = { whole: [], halves: [], ch1: [], ch2: [] }
opt[:runs].times do |r|
  t[:whole] << cell.("seq", csv, 1)
  # both halves at once; the pair is done when the slower one is
  t[:halves] << halves.map { |f| Thread.new { cell.("seq", f, 1) } }.map(&:value).max
  t[:ch1] << cell.("channel", csv, 1)
  t[:ch2] << cell.("channel", csv, 2)
  $stderr.puts "run #{r + 1}/#{opt[:runs]}: " + t.map { |k, v| "#{k} #{v.last.round(2)}" }.join(", ")
end

m = t.transform_values { ChannelBench.median(_1) }
fmt = ->(k) { "#{m[k].round(2)} (#{t[k].min.round(2)}..#{t[k].max.round(2)})" }
per_run = ->(a, b) { t[a].zip(t[b]).map { |x, y| x / y } }
ceiling, channel = per_run.(:whole, :halves), per_run.(:ch1, :ch2)
md = +"# Fig. 9 (#{opt[:divs]} div): two workers against the machine's ceiling\n\n"
md << "Command: `ruby benchmark/channel/fig9_ceiling.rb --fork #{ruby} --runs #{opt[:runs]} --divs #{opt[:divs]}" \
      "#{opt[:out] ? " --out #{opt[:out]}" : ""}`, #{Time.now.utc.strftime("%Y-%m-%d")}, #{Etc.nprocessors rescue 2} CPUs. " \
      "#{opt[:lines]} lines, #{opt[:batch]} a message; seconds of work (setup excluded), median (min..max) of #{opt[:runs]} runs, " \
      "the four cells alternating within each run.\n\n"
md << "| cell | seconds |\n|---|---:|\n"
md << "| one process, every line (`fig9.rb seq`) | #{fmt.(:whole)} |\n"
md << "| two processes at once, half the lines each (the slower of the two) | #{fmt.(:halves)} |\n"
md << "| Channel, 1 worker VM | #{fmt.(:ch1)} |\n"
md << "| Channel, 2 worker VMs | #{fmt.(:ch2)} |\n\n"
md << "| speed-up, per run | median | min..max |\n|---|---:|---:|\n"
md << "| ceiling: whole / halves at once | #{ChannelBench.median(ceiling).round(2)} | #{ceiling.min.round(2)}..#{ceiling.max.round(2)} |\n"
md << "| Channel: 1 worker / 2 workers | #{ChannelBench.median(channel).round(2)} | #{channel.min.round(2)}..#{channel.max.round(2)} |\n"
puts md
File.write(opt[:out], md) if opt[:out]
