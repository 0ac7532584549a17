# Runs pingpong.rb for every object and transport, RUNS times alternating, and writes
# the medians (and min..max) as a markdown table.
#
#   ruby benchmark/channel/table3.rb --fork RUBY --vanilla RUBY [--runs 3] [--n 10000] [--out FILE]
require "optparse"
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
fmt = ->(a) { s = a.sort; "%.3f (%.3f..%.3f)" % [s[s.size / 2], s.first, s.last] }
lines = ["| #{opt[:n]} round trips, seconds: median (min..max) of #{opt[:runs]} | " + objs.map { |o| "`#{o}`" }.join(" | ") + " |",
         "|---|" + "---|" * objs.size]
cells.each { |name, *| lines << "| #{name} | " + objs.map { |o| fmt.(res[[name, o]]) }.join(" | ") + " |" }
text = lines.join("\n") + "\n"
puts text
File.write(opt[:out], text) if opt[:out]
