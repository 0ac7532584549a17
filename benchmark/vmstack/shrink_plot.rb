# Plot what benchmark/vmstack/shrink.rb samples: resident memory at each
# step of the bursts, one line per ruby, one run each (the table with
# medians comes from benchmark/run.rb).
#
#   ruby benchmark/vmstack/shrink_plot.rb OUT.png LABEL=RUBY... [-- VAR=VALUE...]
#
# The VAR=VALUE pairs go into every run's environment (DEPTH, CYCLES,
# RUBY_THREAD_VM_STACK_SIZE).
require_relative "../lib/bench"

out = ARGV.shift or abort "usage: shrink_plot.rb OUT.png LABEL=RUBY... [-- VAR=VALUE...]"
env_args = ARGV.index("--") ? ARGV.slice!(ARGV.index("--")..)[1..] : []
env = env_args.to_h { |kv| kv.split("=", 2) }
rubies = ARGV.to_h { |spec| spec.split("=", 2) }
abort "no rubies" if rubies.empty?
script = File.expand_path("shrink.rb", __dir__)
work = File.join(Bench::ROOT, "build/bench")
FileUtils.mkdir_p(work)

steps = nil
plots = rubies.map do |label, ruby|
  series = File.join(work, "shrink-#{label}.dat")
  system(env.merge("SERIES" => series), ruby, script, out: File::NULL) or abort "#{label}: #{ruby} failed"
  rows = File.readlines(series).map(&:split)
  steps ||= rows.map(&:first)
  File.write(series, rows.each_with_index.map { |(step, kb), i| "#{i} #{kb.to_i / 1024.0} #{step}\n" }.join)
  "'#{series}' using 1:2:xticlabels(3) with linespoints title '#{label}'"
end

gp = <<~GP
  set title 'A thread recursing #{env["DEPTH"] || 100_000} deep, #{env["CYCLES"] || 3} times: resident memory after each step'
  set ylabel 'VmRSS (MB)'
  set xlabel 'step (deepN: at the bottom of burst N; gcN.M: after GC.start and one call)'
  set xtics rotate by -45
  set grid
  set key right center opaque box
  set yrange [0:*]
  plot #{plots.join(', ')}
GP
puts "written: #{out}" if Bench.plot(File.expand_path(out), gp, size: "900,500", terminal: "pngcairo")
