# Run upstream's benchmark/ suite with benchmark_driver on the fork and on
# vanilla 3.3.8, alternating, and write the comparison to results/.
#
#   ruby benchmark/suite.rb full|quick [--rounds N] [--run-duration S]
#                                      [--filter REGEXP] [--out FILE]
#                                      [--report-only]
#
# Each round runs every benchmark file once on both rubies, one
# benchmark-driver process per file; the order of the two rubies flips
# from round to round, so neither always runs first (warm caches, turbo,
# a neighbour's load).  A job's ratio is fork time / vanilla time per round
# (> 1: the fork is slower); the table gives the median over rounds and
# the spread (min..max).  Summary: geometric mean of the medians and the
# worst case.  Environment: FORK_RUBY, VANILLA_RUBY, BENCH_DIR, BENCH_GEMS.
require "optparse"
require "fileutils"
require "rbconfig"
require "time"
require "etc"
require_relative "lib/stats"

ROOT = File.expand_path("..", __dir__)
QUICK = %w[
  app_fib.rb app_tak.rb so_nbody.rb so_binary_trees.rb so_mandelbrot.rb
  vm_send.yml vm_block.yml vm_ivar.yml string_concat.yml hash_aref_sym.rb
  array_sort_block.rb vm_fiber_switch.yml vm_thread_create_join.rb app_aobench.rb
]

mode = ARGV.shift
abort "usage: suite.rb full|quick [options]" unless %w[full quick].include?(mode)
opts = {
  rounds: 3,
  run_duration: mode == "full" ? 0.5 : 1.0,
  timeout: 300,
  filter: nil,
  out: File.join(ROOT, "results", mode == "full" ? "benchmark-suite.md" : "benchmark-suite-quick.md"),
  report_only: false,
}
OptionParser.new do |o|
  o.on("--rounds N", Integer) { |v| opts[:rounds] = v }
  o.on("--run-duration S", Float) { |v| opts[:run_duration] = v }
  o.on("--timeout S", Float) { |v| opts[:timeout] = v }
  o.on("--filter REGEXP") { |v| opts[:filter] = Regexp.new(v) }
  o.on("--out FILE") { |v| opts[:out] = File.expand_path(v) }
  # Rewrite the report from the last run's samples (build/bench/suite-MODE.tsv),
  # e.g. after stopping a long run between rounds.
  o.on("--report-only") { opts[:report_only] = true }
  o.on("--note TEXT", "a remark for the report's header") { |v| opts[:note] = v }
end.parse!(ARGV)

rubies = {
  "fork" => ENV.fetch("FORK_RUBY", File.join(ROOT, "_install/bin/ruby")),
  "vanilla" => ENV.fetch("VANILLA_RUBY", File.join(ROOT, "_vanilla/bin/ruby")),
}
rubies.each { |n, r| abort "#{n} ruby #{r} is not executable; run make / make vanilla" unless File.executable?(r) }
bench_dir = File.expand_path(ENV.fetch("BENCH_DIR", File.join(ROOT, "build/src/benchmark")))
gems = File.expand_path(ENV.fetch("BENCH_GEMS", File.join(ROOT, "build/bench-gems")))
driver = Dir[File.join(gems, "gems/benchmark_driver-*/exe/benchmark-driver")].max or
  abort "benchmark_driver is not installed in #{gems}; run benchmark/suite.sh"

files = Dir[File.join(bench_dir, "*.{yml,rb}")].map { |f| File.basename(f) }.sort
files &= QUICK if mode == "quick"
files = files.grep(opts[:filter]) if opts[:filter]
abort "no benchmark files in #{bench_dir}" if files.empty?

work = File.join(ROOT, "build/bench")
FileUtils.mkdir_p(work)
tsv = File.join(work, "suite-#{mode}.tsv")
failures = Hash.new { |h, k| h[k] = [] }
failures_file = File.join(work, "suite-#{mode}.failures")
started = Time.now

if opts[:report_only]
  abort "no samples in #{tsv}" unless File.size?(tsv)
  started = File.mtime(failures_file) rescue File.mtime(tsv)
  File.foreach(failures_file) { |l| f, why = l.chomp.split("\t", 2); failures[f] << why } if File.exist?(failures_file)
else
  File.write(tsv, "")
  File.write(failures_file, "")
  opts[:rounds].times do |round|
    order = round.even? ? %w[fork vanilla] : %w[vanilla fork]
    files.each_with_index do |file, i|
      $stderr.print "\rround #{round + 1}/#{opts[:rounds]} #{i + 1}/#{files.size} #{file}".ljust(70)
      execs = order.map { |n| "--executables=#{n}::#{rubies[n]} --disable-gems" }
      env = {"BENCH_TSV" => tsv, "BENCH_FILE" => file, "BENCH_ROUND" => (round + 1).to_s,
             "GEM_HOME" => gems, "GEM_PATH" => gems, "RUBYOPT" => nil, "RUBYLIB" => nil}
      cmd = [RbConfig.ruby, "-I", File.join(ROOT, "benchmark/lib"), "-I", File.join(bench_dir, "lib"),
             driver, *execs, "--output=tsv", "--run-duration=#{opts[:run_duration]}",
             "--timeout=#{opts[:timeout]}", File.join(bench_dir, file)]
      log = File.join(work, "last.log")
      # Run where upstream's `make benchmark` runs (a build directory), not in
      # the source tree: some benchmarks write files into the current directory.
      scratch = File.join(work, "cwd")
      FileUtils.mkdir_p(scratch)
      ok = system(env, *cmd, chdir: scratch, out: log, err: [:child, :out])
      unless ok
        why = "round #{round + 1}: #{File.readlines(log).last(1).join.strip[0, 200]}"
        failures[file] << why
        File.open(failures_file, "a") { |f| f.puts "#{file}\t#{why}" }
      end
    end
  end
  $stderr.puts
end
elapsed = Time.now - started

# round, file, job, executable, unit, value, larger_better
samples = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = {} } }
unit = {}
rounds_seen = []
File.foreach(tsv) do |line|
  round, file, job, exe, u, v, lb = line.chomp.split("\t")
  key = "#{file.sub(/\.(yml|rb)\z/, '')}/#{job}"
  key = file.sub(/\.(yml|rb)\z/, '') if file.end_with?(".rb") # a script is one job
  samples[key][exe][round] = Float(v)
  unit[key] = [u, lb == "1"]
  rounds_seen |= [round]
end

incomparable = []  # jobs without a positive finite value on both rubies
rows = samples.filter_map do |key, by|
  f, v = by["fork"], by["vanilla"]
  both = (f.keys & v.keys).select { |r| f[r].finite? && v[r].finite? && f[r] > 0 && v[r] > 0 }
  (incomparable << key; next) if both.empty?
  larger_better = unit[key][1]
  # Per round: the ratio of times, > 1 when the fork is slower.
  ratios = both.map { |r| larger_better ? v[r] / f[r] : f[r] / v[r] }
  {key: key, median: Stats.median(ratios), min: ratios.min, max: ratios.max, n: both.size,
   fork: Stats.median(both.map { |r| f[r] }), vanilla: Stats.median(both.map { |r| v[r] }), unit: unit[key][0]}
end.sort_by { |r| r[:key] }
abort "no results" if rows.empty?

geo = Stats.geomean(rows.map { |r| r[:median] })
worst = rows.max_by { |r| r[:median] }
best = rows.min_by { |r| r[:median] }
within = ->(pct) { rows.count { |r| (r[:median] - 1).abs <= pct / 100.0 } }
spreads = rows.map { |r| r[:max] - r[:min] }
describe = ->(ruby) { IO.popen([ruby, "-v"], &:read).strip }
cpu = File.read("/proc/cpuinfo")[/model name\s*:\s*(.*)/, 1] rescue "?"
mem = (File.read("/proc/meminfo")[/MemTotal:\s*(\d+)/, 1].to_i / 1024.0 / 1024).round(1) rescue "?"
opts[:rounds] = rounds_seen.size if opts[:report_only]
command = "make bench#{mode == 'quick' ? '-quick' : ''}  (ruby benchmark/suite.rb #{mode} --rounds #{opts[:rounds]} --run-duration #{opts[:run_duration]})"

FileUtils.mkdir_p(File.dirname(opts[:out]))
png = opts[:out].sub(/\.md\z/, ".png")
File.open(opts[:out], "w") do |o|
  o.puts "# benchmark/ suite: fork vs vanilla 3.3.8#{mode == 'quick' ? ' (quick subset)' : ''}"
  o.puts
  o.puts "Ratio = fork time / vanilla time for the same job (> 1: the fork is slower), per round;"
  o.puts "the median over the job's rounds (#{opts[:rounds]} requested; column `rounds`), and the spread (min..max over rounds)."
  o.puts "A round whose value is zero or not finite on either ruby (a glitch of the driver) is left out of that job."
  o.puts "Each round runs every file once on both rubies, the order flipping from round to round."
  o.puts
  o.puts "- command: `#{command}`"
  o.puts "- date: #{started.utc.iso8601}, #{(elapsed / 60).round(1)} minutes"
  o.puts "- machine: #{Etc.respond_to?(:nprocessors) ? Etc.nprocessors : '?'} CPUs (#{cpu}), #{mem} GiB, #{`uname -sr`.strip}"
  o.puts "- fork: `#{describe[rubies['fork']]}`"
  o.puts "- vanilla: `#{describe[rubies['vanilla']]}`"
  ns = rows.map { |r| r[:n] }
  o.puts "- rounds per job: #{ns.min == ns.max ? ns.min : "#{ns.min}..#{ns.max}"}"
  o.puts "- note: #{opts[:note]}" if opts[:note]
  o.puts "- benchmark_driver #{File.basename(File.dirname(File.dirname(driver))).sub('benchmark_driver-', '')}, ips runner, run duration #{opts[:run_duration]} s, rubies run with --disable-gems"
  o.puts
  o.puts "## Summary"
  o.puts
  o.puts "| jobs | geometric mean | worst | best | within ±2% | within ±5% | median spread |"
  o.puts "|---:|---:|---|---|---:|---:|---:|"
  o.puts format("| %d | %.3f | %.3f (%s) | %.3f (%s) | %d | %d | %.3f |", rows.size, geo, worst[:median], worst[:key],
                best[:median], best[:key], within[2], within[5], Stats.median(spreads))
  o.puts
  o.puts "![sorted ratios](#{File.basename(png)})" if system("command -v gnuplot >/dev/null")
  o.puts
  unless incomparable.empty?
    o.puts "Jobs measured on only one ruby, or with a zero or non-finite value, are left out: #{incomparable.sort.join(', ')}."
    o.puts
  end
  unless failures.empty?
    o.puts "## Files that did not run to the end"
    o.puts
    o.puts "These failed on at least one ruby in some round; jobs they finished are still in the table."
    o.puts
    failures.each { |f, why| o.puts "- #{f}: #{why.first}" }
    o.puts
  end
  o.puts "## All jobs"
  o.puts
  o.puts "| job | ratio (median) | spread | rounds | fork | vanilla | unit |"
  o.puts "|---|---:|---:|---:|---:|---:|---|"
  rows.each do |r|
    o.puts format("| %s | %.3f | %.3f..%.3f | %d | %.4g | %.4g | %s |", r[:key], r[:median], r[:min], r[:max],
                  r[:n], r[:fork], r[:vanilla], r[:unit])
  end
end

if system("command -v gnuplot >/dev/null")
  data = File.join(work, "suite-#{mode}.dat")
  File.write(data, rows.sort_by { |r| r[:median] }.each_with_index.map { |r, i|
    "#{i} #{r[:median]} #{r[:min]} #{r[:max]}\n" }.join)
  script = <<~GP
    set terminal pngcairo size 1000,500 noenhanced
    set output '#{png}'
    set title 'benchmark/ suite: fork time / vanilla time, #{rows.size} jobs sorted (median and min..max over rounds)'
    set key left top opaque box
    set ylabel 'fork / vanilla'
    set xlabel 'job (sorted by median ratio)'
    set grid ytics
    set yrange [0.7:1.3]
    set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
    plot '#{data}' using 1:2:3:4 with yerrorbars pt 7 ps 0.4 lc rgb '#1f77b4' title 'median (min..max)', \\
         #{geo} with lines lc rgb 'red' title sprintf('geometric mean %.3f', #{geo})
  GP
  IO.popen(["gnuplot"], "w") { |g| g.write(script) }
end
puts File.read(opts[:out]).lines.first(20).join
puts "written: #{opts[:out]}"
