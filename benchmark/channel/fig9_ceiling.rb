# Fig. 9's speed-up with two workers against what this machine allows.  In each run,
# alternating: the Channel cells with 1 and 2 worker VMs; two processes at once, each the
# 1-worker Channel cell on half the lines (the same work as 2 worker VMs, each worker in a
# process of its own: what two CPUs give two such workers here); and one process that
# renders every line itself (`fig9.rb seq`) against two at once on half the lines each.
# Writes medians (min..max) as markdown.  --cells ch1,ch2 runs only the Channel cells
# (more runs in the same time, for the speed-up alone).
#
#   ruby benchmark/channel/fig9_ceiling.rb --fork _install/bin/ruby --runs 7 --divs 1 \
#     --out results/channel-fig9-ceiling.md
#
# --fork defaults to _install/bin/ruby, or FORK (benchmark/lib/bench.rb; every cell runs
# on the fork, --vanilla is accepted and unused); --out FILE is the markdown (without it,
# stdout only).
require "tmpdir"
require "open3"
require "etc"
require_relative "../lib/bench"
require_relative "common"

CELLS = %i[ch1 ch2 ch1_halves whole halves]
opt = Bench.options({ runs: 7, divs: 1, lines: 112_992, batch: 100, cells: CELLS }) do |o, op|
  o.on("--divs N", Integer) { |v| op[:divs] = v }
  o.on("--lines N", Integer) { |v| op[:lines] = v }
  o.on("--out FILE", "markdown") { |v| op[:md] = v }
  o.on("--cells LIST", Array, "of #{CELLS.join(",")}") { |v| op[:cells] = v.map(&:to_sym) & CELLS }
end

fig9 = File.expand_path("fig9.rb", __dir__)
ruby = opt[:rubies]["fork"]
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

t = opt[:cells].to_h { [_1, []] }
# both halves at once; the pair is done when the slower one is
pair = ->(mode) { halves.map { |f| Thread.new { cell.(mode, f, 1) } }.map(&:value).max }
opt[:runs].times do |r|
  t[:ch1] << cell.("channel", csv, 1) if t[:ch1]
  t[:ch2] << cell.("channel", csv, 2) if t[:ch2]
  t[:ch1_halves] << pair.("channel") if t[:ch1_halves]
  t[:whole] << cell.("seq", csv, 1) if t[:whole]
  t[:halves] << pair.("seq") if t[:halves]
  $stderr.puts "run #{r + 1}/#{opt[:runs]}: " + t.map { |k, v| "#{k} #{v.last.round(2)}" }.join(", ")
end

m = t.transform_values { Stats.median(_1) }
fmt = ->(k) { "#{m[k].round(2)} (#{t[k].min.round(2)}..#{t[k].max.round(2)})" }
names = { ch1: "Channel, 1 worker VM", ch2: "Channel, 2 worker VMs",
          ch1_halves: "two processes at once, each Channel with 1 worker VM on half the lines (the slower)",
          whole: "one process, every line (`fig9.rb seq`)",
          halves: "two processes at once, `seq` on half the lines each (the slower)" }
per_run = ->(a, b) { t[a].zip(t[b]).map { |x, y| x / y } }
pairs = { "Channel: 1 worker VM / 2 worker VMs in one process" => %i[ch1 ch2],
          "two processes: 1 worker VM / a 1-worker process on each half, at once" => %i[ch1 ch1_halves],
          "no Channel: one process / a process on each half, at once" => %i[whole halves] }
pairs.select! { |_, (a, b)| t[a] && t[b] }
md = +"# Fig. 9 (#{opt[:divs]} div): two workers against the machine's ceiling\n\n"
md << "Command: `ruby benchmark/channel/fig9_ceiling.rb --fork #{Bench.rel(ruby)} --runs #{opt[:runs]} --divs #{opt[:divs]}" \
      "#{opt[:cells] == CELLS ? "" : " --cells #{opt[:cells].join(",")}"}#{opt[:md] ? " --out #{opt[:md]}" : ""}`, #{Time.now.utc.strftime("%Y-%m-%d")}, #{Etc.nprocessors rescue 2} CPUs. " \
      "#{opt[:lines]} lines, #{opt[:batch]} a message; seconds of work (setup excluded), median (min..max) of #{opt[:runs]} runs, " \
      "the cells alternating within each run.\n\n"
md << "#{Bench.host_line}.\n\n"
md << "| cell | seconds |\n|---|---:|\n"
t.each_key { |k| md << "| #{names[k]} | #{fmt.(k)} |\n" }
md << "\n"
md << "| speed-up | ratio of the medians | per run: median (min..max) |\n|---|---:|---:|\n"
pairs.each do |name, (a, b)|
  r = per_run.(a, b)
  md << "| #{name} | #{(m[a] / m[b]).round(2)} | #{Stats.median(r).round(2)} (#{r.min.round(2)}..#{r.max.round(2)}) |\n"
end
puts md
File.write(opt[:md], md) if opt[:md]
