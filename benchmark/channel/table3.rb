# Runs pingpong.rb for every object and transport, RUNS times alternating, and writes
# the medians (and min..max) as a markdown table.
#
#   ruby benchmark/channel/table3.rb --fork RUBY --vanilla RUBY [--runs 3] [--n 10000] [--out FILE]
require "optparse"
require_relative "../lib/bench"
opt = {runs: 3, n: 10_000}
OptionParser.new do |o|
  o.on("--fork RUBY") { |v| opt[:fork] = v }
  o.on("--vanilla RUBY") { |v| opt[:vanilla] = v }
  o.on("--runs N", Integer) { |v| opt[:runs] = v }
  o.on("--n N", Integer) { |v| opt[:n] = v }
  o.on("--out FILE") { |v| opt[:out] = v }
end.parse!
script = File.join(__dir__, "pingpong.rb")
objs = %w[int float bignum object str1m]
cells = [["pipe + Marshal between processes (vanilla)", opt[:vanilla], "pipe"],
         ["Ractor (vanilla)", opt[:vanilla], "ractor"],
         ["pipe + Marshal between processes (this fork)", opt[:fork], "pipe"],
         ["Channel (this fork)", opt[:fork], "channel"]]
res = Hash.new { |h, k| h[k] = [] }
opt[:runs].times do
  objs.each do |obj|
    cells.each do |name, ruby, mode|
      out = IO.popen([ruby, "--disable-gems", script, mode, obj, opt[:n].to_s], &:read)
      raise "#{name} #{obj} failed" unless $?.success?
      res[[name, obj]] << out.to_f
    end
  end
end
host = Bench.host_line   # beside the figures, measured after them in the same run
fmt = ->(a) { s = a.sort; "%.3f (%.3f..%.3f)" % [s[s.size / 2], s.first, s.last] }
lines = ["| #{opt[:n]} round trips, seconds: median (min..max) of #{opt[:runs]} | " + objs.map { |o| "`#{o}`" }.join(" | ") + " |",
         "|---|" + "---|" * objs.size]
cells.each { |name, *| lines << "| #{name} | " + objs.map { |o| fmt.(res[[name, o]]) }.join(" | ") + " |" }
cmd = "ruby benchmark/channel/table3.rb --fork #{Bench.rel(opt[:fork])} --vanilla #{Bench.rel(opt[:vanilla])} " \
      "--runs #{opt[:runs]} --n #{opt[:n]}#{opt[:out] ? " --out #{Bench.rel(opt[:out])}" : ""}"
text = <<~MD + lines.join("\n") + "\n"
  # Table 3: a round trip of one object between two VMs, two processes or two Ractors

  Each cell is a fresh process (`benchmark/channel/pingpong.rb MODE OBJ N`, `--disable-gems`) that
  makes its two ends and times #{opt[:n]} round trips of the object; the cells alternate, objects
  and transports in turn, #{opt[:runs]} runs. `int` is 1, `float` 1.1, `bignum` 2**100, `object`
  `Object.new`, `str1m` a 1 MB String.

  - command: `#{cmd}`
  - date: #{Time.now.utc.strftime("%Y-%m-%d")}; series: #{Bench.series}; #{`nproc`.strip} CPUs
  - #{host}

MD
puts text
File.write(opt[:out], text) if opt[:out]
