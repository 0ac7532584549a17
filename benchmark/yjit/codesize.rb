# YJIT's code size for one workload of the standard library (json, set, erb,
# optparse, each called 200 times with --yjit-call-threshold=1): inline and
# outlined bytes from RubyVM::YJIT.runtime_stats, on the fork and on vanilla.
# Sizes are deterministic for one binary and workload, so one run of each
# ruby is the figure.
#
#   ruby benchmark/yjit/codesize.rb        (FORK, VANILLA: as every runner)
require_relative "../lib/bench"

WORKLOAD = <<~'RUBY'
  require "json"; require "set"; require "erb"; require "optparse"
  200.times do
    JSON.generate({a: [1, 2, {b: "c"}]}); JSON.parse('[1,2,{"a":3}]')
    Set.new([1, 2]).include?(1); ERB.new("<%= 1 %>").result
    OptionParser.new { |o| o.on("-x") {} }.parse(["-x"])
  end
  s = RubyVM::YJIT.runtime_stats
  puts [s[:inline_code_size], s[:outlined_code_size], s[:compiled_iseq_count]].join(" ")
RUBY

sizes = Bench.rubies.to_h do |name, ruby|
  out = IO.popen([ruby, "--yjit", "--yjit-call-threshold=1", "-e", WORKLOAD], &:read)
  abort "#{ruby} failed" unless $?.success?
  [name, out.split.map(&:to_i)]
end
puts "| ruby | inline bytes | outlined bytes | iseqs compiled |", "|---|---:|---:|---:|"
sizes.each { |name, (i, o, n)| puts "| #{name} | #{i} | #{o} | #{n} |" }
f, v = sizes.values_at("fork", "vanilla")
puts "| fork / vanilla | #{format('%.3f', f[0].fdiv(v[0]))} | #{format('%.3f', f[1].fdiv(v[1]))} | |"
