# Run upstream's benchmark/ suite with benchmark_driver on the fork (or
# several variants of it) and on vanilla 3.3.8, alternating, and write the
# comparison to results/.
#
#   ruby benchmark/suite.rb full|vm|quick [--rounds N] [--run-duration S]
#                                         [--ruby NAME=PATH [--env NAME:VAR=VALUE]]...
#                                         [--filter REGEXP] [--out FILE] [--tsv FILE]
#                                         [--report-only]
#
# full: every file; vm: the app_, so_ and vm_ files (the VM-bound part, the
# descendants of the suite seed 000 measured); quick: a handful, for
# iteration.  Each round runs every benchmark file once on every ruby, one
# benchmark-driver process per file; the order of the rubies rotates from
# round to round, so none always runs first (warm caches, turbo, a
# neighbour's load).  A job's ratio is candidate time / vanilla time per
# round (> 1: the candidate is slower); the table gives the median over
# rounds and the spread (min..max).  Summary: geometric mean of the medians
# and the worst case, per candidate.  Candidates are "fork" (FORK_RUBY)
# unless --ruby names others; --env runs a candidate with an environment
# variable set (e.g. a VM stack size), through a wrapper script.
# Environment: FORK_RUBY, VANILLA_RUBY (else FORK, VANILLA, as every runner:
# benchmark/lib/bench.rb), BENCH_DIR, BENCH_GEMS; BENCH_RESULTS is the folder
# of the default --out (results/).
require "rbconfig"
require "time"
require "etc"
require_relative "lib/bench"

ROOT = Bench::ROOT
QUICK = %w[
  app_fib.rb app_tak.rb so_nbody.rb so_binary_trees.rb so_mandelbrot.rb
  vm_send.yml vm_block.yml vm_ivar.yml string_concat.yml hash_aref_sym.rb
  array_sort_block.rb vm_fiber_switch.yml vm_thread_create_join.rb app_aobench.rb
]

mode = ARGV.shift
abort "usage: suite.rb full|vm|quick [options]" unless %w[full vm quick].include?(mode)
opts = {
  rounds: 3,
  run_duration: mode == "quick" ? 1.0 : 0.5,
  timeout: 300,
  filter: nil,
  out: nil,
  tsv: nil,
  report_only: false,
}
candidates = {}
cand_env = Hash.new { |h, k| h[k] = {} }
OptionParser.new do |o|
  o.on("--ruby NAME=PATH", "a candidate compared with vanilla (repeatable)") do |v|
    name, path = v.split("=", 2)
    abort "--ruby #{v}: expected NAME=PATH" unless path && name =~ /\A[\w.-]+\z/ && name != "vanilla"
    candidates[name] = File.expand_path(path)
  end
  o.on("--env NAME:VAR=VALUE", "run candidate NAME with VAR=VALUE") do |v|
    name, assign = v.split(":", 2)
    var, val = assign.to_s.split("=", 2)
    abort "--env #{v}: expected NAME:VAR=VALUE" unless val && var =~ /\A[A-Z_][A-Z0-9_]*\z/
    cand_env[name][var] = val
  end
  o.on("--tsv FILE", "samples file (default build/bench/suite-MODE.tsv)") { |v| opts[:tsv] = File.expand_path(v) }
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
opts[:out] ||= Bench.result_path(mode == "full" ? "benchmark-suite.md" : "benchmark-suite-#{mode}.md")

explicit = !candidates.empty?
defaults = Bench.rubies(fork: ENV["FORK_RUBY"], vanilla: ENV["VANILLA_RUBY"])
candidates["fork"] = defaults["fork"] if candidates.empty?
(cand_env.keys - candidates.keys).each { |n| abort "--env #{n}: no --ruby #{n}=PATH" }
rubies = candidates.merge("vanilla" => defaults["vanilla"])
rubies.each { |n, r| abort "#{n} ruby #{r} is not executable; run make / make vanilla" unless File.executable?(r) }
names = rubies.keys
bench_dir = File.expand_path(ENV.fetch("BENCH_DIR", File.join(ROOT, "build/src/benchmark")))
gems = File.expand_path(ENV.fetch("BENCH_GEMS", File.join(ROOT, "build/bench-gems")))
driver = Dir[File.join(gems, "gems/benchmark_driver-*/exe/benchmark-driver")].max or
  abort "benchmark_driver is not installed in #{gems}; run benchmark/suite.sh"

# the files a mode (and --filter) covers; also applied to the samples read back
selected = lambda do |file|
  (mode != "quick" || QUICK.include?(file)) && (mode != "vm" || file.match?(/\A(app|so|vm)_/)) &&
    (!opts[:filter] || file.match?(opts[:filter]))
end
files = Dir[File.join(bench_dir, "*.{yml,rb}")].map { |f| File.basename(f) }.sort.select(&selected)
abort "no benchmark files in #{bench_dir}" if files.empty?

work = File.join(ROOT, "build/bench")
FileUtils.mkdir_p(work)
tsv = opts[:tsv] || File.join(work, "suite-#{mode}.tsv")
failures = Hash.new { |h, k| h[k] = [] }
failures_file = tsv.sub(/(\.tsv)?\z/, ".failures")
started = Time.now

# A candidate with --env runs through a script that sets it.
execs_of = names.to_h do |n|
  path = rubies[n]
  unless cand_env[n].empty?
    path = File.join(work, "ruby-#{n}")
    File.write(path, "#!/bin/sh\nexec env #{cand_env[n].map { |k, v| "#{k}=#{v}" }.join(' ')} #{rubies[n]} \"$@\"\n")
    File.chmod(0755, path)
  end
  [n, "--executables=#{n}::#{path} --disable-gems"]
end

if opts[:report_only]
  abort "no samples in #{tsv}" unless File.size?(tsv)
  started = File.mtime(failures_file) rescue File.mtime(tsv)
  File.foreach(failures_file) { |l| f, why = l.chomp.split("\t", 2); failures[f] << why } if File.exist?(failures_file)
else
  File.write(tsv, "")
  File.write(failures_file, "")
  opts[:rounds].times do |round|
    order = names.rotate(round)
    files.each_with_index do |file, i|
      $stderr.print "\rround #{round + 1}/#{opts[:rounds]} #{i + 1}/#{files.size} #{file}".ljust(70)
      execs = order.map { |n| execs_of[n] }
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
seen = []
File.foreach(tsv) do |line|
  round, file, job, exe, u, v, lb = line.chomp.split("\t")
  next unless selected[file]
  key = "#{file.sub(/\.(yml|rb)\z/, '')}/#{job}"
  key = file.sub(/\.(yml|rb)\z/, '') if file.end_with?(".rb") # a script is one job
  samples[key][exe][round] = Float(v)
  unit[key] = [u, lb == "1"]
  rounds_seen |= [round]
  seen |= [exe]
end
abort "no samples in #{tsv}" if samples.empty?
# With --report-only, the candidates are whatever the samples hold.
cands = opts[:report_only] ? seen - ["vanilla"] : candidates.keys
cands.each { |c| abort "no samples of #{c} in #{tsv}" unless seen.include?(c) }

incomparable = Hash.new { |h, k| h[k] = [] } # candidate => jobs without a positive finite value on both rubies
# rows[candidate] = [{key:, median:, min:, max:, n:, cand:, vanilla:, unit:}]
rows = cands.to_h do |c|
  list = samples.filter_map do |key, by|
    f, v = by[c], by["vanilla"]
    both = (f.keys & v.keys).select { |r| f[r].finite? && v[r].finite? && f[r] > 0 && v[r] > 0 }
    (incomparable[c] << key; next) if both.empty?
    larger_better = unit[key][1]
    # Per round: the ratio of times, > 1 when the candidate is slower.
    ratios = both.map { |r| larger_better ? v[r] / f[r] : f[r] / v[r] }
    {key: key, median: Stats.median(ratios), min: ratios.min, max: ratios.max, n: both.size,
     cand: Stats.median(both.map { |r| f[r] }), vanilla: Stats.median(both.map { |r| v[r] }), unit: unit[key][0]}
  end.sort_by { |r| r[:key] }
  abort "no results for #{c}" if list.empty?
  [c, list]
end

summary = rows.to_h do |c, list|
  spreads = list.map { |r| r[:max] - r[:min] }
  within = ->(pct) { list.count { |r| (r[:median] - 1).abs <= pct / 100.0 } }
  [c, {jobs: list.size, geo: Stats.geomean(list.map { |r| r[:median] }), worst: list.max_by { |r| r[:median] },
       best: list.min_by { |r| r[:median] }, within2: within[2], within5: within[5], spread: Stats.median(spreads)}]
end
cpu = File.read("/proc/cpuinfo")[/model name\s*:\s*(.*)/, 1] rescue "?"
mem = (File.read("/proc/meminfo")[/MemTotal:\s*(\d+)/, 1].to_i / 1024.0 / 1024).round(1) rescue "?"
opts[:rounds] = rounds_seen.size if opts[:report_only]
args = !explicit || opts[:report_only] ? "" :
  candidates.map { |n, p| " --ruby #{n}=#{p.sub(ROOT + '/', '')}" }.join +
  cand_env.flat_map { |n, e| e.map { |k, v| " --env #{n}:#{k}=#{v}" } }.join
command = "ruby benchmark/suite.rb #{mode} --rounds #{opts[:rounds]} --run-duration #{opts[:run_duration]}#{args}"
command = "make bench#{mode == 'full' ? '' : "-#{mode}"}  (#{command})" if !explicit && mode != "vm"
command = "#{command} --report-only --tsv #{tsv.sub(ROOT + '/', '')}" if opts[:report_only]
what = {"full" => "", "vm" => " (its app_, so_ and vm_ files)", "quick" => " (quick subset)"}[mode]
title = cands == ["fork"] ? "fork vs vanilla 3.3.8" : "#{cands.join(', ')} vs vanilla 3.3.8"

FileUtils.mkdir_p(File.dirname(opts[:out]))
png = opts[:out].sub(/\.md\z/, ".png")
plot = Bench.gnuplot?
File.open(opts[:out], "w") do |o|
  o.puts "# benchmark/ suite#{what}: #{title}"
  o.puts
  o.puts "Ratio = candidate time / vanilla time for the same job (> 1: the candidate is slower), per round;"
  o.puts "the median over the job's rounds (#{opts[:rounds]} requested; column `rounds`), and the spread (min..max over rounds)."
  o.puts "A round whose value is zero or not finite on either ruby (a glitch of the driver) is left out of that job."
  o.puts "Each round runs every file once on every ruby, the order rotating from round to round."
  o.puts
  o.puts "- command: `#{command}`"
  o.puts "- samples: `#{tsv.sub(ROOT + '/', '')}`"
  o.puts "- date: #{started.utc.iso8601}, #{(elapsed / 60).round(1)} minutes"
  o.puts "- machine: #{Etc.respond_to?(:nprocessors) ? Etc.nprocessors : '?'} CPUs (#{cpu}), #{mem} GiB, #{`uname -sr`.strip}"
  unless opts[:report_only]
    rubies.each do |n, r|
      env = cand_env[n].map { |k, v| "#{k}=#{v} " }.join
      o.puts "- #{n}: #{env.empty? ? '' : "`#{env.strip}` "}`#{Bench.version(r)}`"
    end
  end
  ns = rows.values.flatten.map { |r| r[:n] }
  o.puts "- rounds per job: #{ns.min == ns.max ? ns.min : "#{ns.min}..#{ns.max}"}"
  o.puts "- note: #{opts[:note]}" if opts[:note]
  o.puts "- benchmark_driver #{File.basename(File.dirname(File.dirname(driver))).sub('benchmark_driver-', '')}, ips runner, run duration #{opts[:run_duration]} s, rubies run with --disable-gems"
  o.puts
  o.puts "## Summary"
  o.puts
  o.puts "| candidate | jobs | geometric mean | worst | best | within ±2% | within ±5% | median spread |"
  o.puts "|---|---:|---:|---|---|---:|---:|---:|"
  summary.each do |c, m|
    o.puts format("| %s | %d | %.3f | %.3f (%s) | %.3f (%s) | %d | %d | %.3f |", c, m[:jobs], m[:geo], m[:worst][:median],
                  m[:worst][:key], m[:best][:median], m[:best][:key], m[:within2], m[:within5], m[:spread])
  end
  o.puts
  o.puts "![sorted ratios](#{File.basename(png)})" if plot
  o.puts
  incomparable.each do |c, keys|
    next if keys.empty?
    o.puts "#{c}: jobs measured on only one ruby, or with a zero or non-finite value, are left out: #{keys.sort.join(', ')}."
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
  keys = rows.values.flatten.map { |r| r[:key] }.uniq.sort
  by = rows.transform_values { |list| list.to_h { |r| [r[:key], r] } }
  o.puts "| job | " + cands.map { |c| "#{c} ratio | spread" }.join(" | ") + " | rounds | vanilla | unit |"
  o.puts "|---|" + cands.map { "---:|---:" }.join("|") + "|---:|---:|---|"
  keys.each do |k|
    cells = cands.map do |c|
      r = by[c][k]
      r ? format("%.3f | %.3f..%.3f", r[:median], r[:min], r[:max]) : "- | -"
    end
    any = cands.map { |c| by[c][k] }.compact.first
    o.puts "| #{k} | #{cells.join(' | ')} | #{any[:n]} | #{format('%.4g', any[:vanilla])} | #{any[:unit]} |"
  end
end

if plot
  colors = %w[#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd]
  series = rows.each_with_index.map do |(c, list), i|
    data = File.join(work, "#{File.basename(opts[:out], '.md')}-#{c}.dat")
    File.write(data, list.sort_by { |r| r[:median] }.each_with_index.map { |r, j|
      "#{j} #{r[:median]} #{r[:min]} #{r[:max]}\n" }.join)
    col = colors[i % colors.size]
    ["'#{data}' using 1:2:3:4 with yerrorbars pt 7 ps 0.4 lc rgb '#{col}' title '#{c}: median (min..max)'",
     "#{summary[c][:geo]} with lines lc rgb '#{col}' dt 2 title sprintf('#{c}: geometric mean %.3f', #{summary[c][:geo]})"]
  end.flatten
  Bench.plot(png, <<~GP, size: "1000,500", terminal: "pngcairo")
    set title 'benchmark/ suite#{what}: time / vanilla time, jobs sorted per candidate (median and min..max over rounds)'
    set key left top opaque box
    set ylabel 'candidate / vanilla'
    set xlabel 'job (sorted by median ratio)'
    set grid ytics
    set yrange [0.7:1.3]
    set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
    plot #{series.join(", \\\n         ")}
  GP
end
puts File.read(opts[:out]).lines.first(24).join
puts "written: #{opts[:out]}"
