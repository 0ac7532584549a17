# Instructions executed per iteration of every job of the benchmark/ suite's
# app_, so_ and vm_ files, counted by valgrind's cachegrind (Ir): the side of
# seed 000's figs. 10-13 that this shared machine's noise cannot blur.  Times
# here move by 10-25% from run to run of one binary; an instruction count
# moves by a few thousand in hundreds of millions.  It does not see cache or
# memory effects, so it complements the timed suite (benchmark/suite.rb), it
# does not replace it.
#
#   ruby benchmark/vmstack/icount.rb --ruby NAME=PATH [--env NAME:VAR=VALUE]...
#        [--filter REGEXP] [--parallel N] [--target INSNS] [--max-native S]
#        [--out FILE] [--tsv FILE] [--resume] [--report-only] [--note TEXT]
#
# A YAML job runs as benchmark_driver runs it: the prelude, then the script in
# a `while` loop at the top level.  Each ruby runs it with 0 and with N
# iterations; (Ir(N) - Ir(0)) / N is its cost per iteration, start-up and
# prelude cancelled.  N is chosen once, from vanilla's native times, so that
# the loop executes about --target instructions (default 1e8).  A .rb file is one job: its whole
# run less that of an empty script; files that take longer than --max-native
# seconds (default 0.5) natively on vanilla are left out, as valgrind runs
# them 40-60 times slower (most .rb files take 1-60 s: the timed suite covers
# them).  Vanilla is VANILLA or _vanilla/bin/ruby.  Name a
# second copy of vanilla as a candidate to see the counts' own noise floor.
# --out defaults to results/vmstack-icount.md (in BENCH_RESULTS if set, as
# for the other runners: benchmark/lib/bench.rb), its plot beside it as .png;
# --tsv to build/bench/icount/icount.tsv.
require "optparse"
require "yaml"
require "fileutils"
require "rbconfig"
require "time"
require "set"
require_relative "../lib/stats"
require_relative "../lib/icount_samples"
require_relative "../lib/bench"

bench_dir = File.join(Bench::ROOT, "build/src/benchmark")
opts = {parallel: 2, target: 1e8, max_native: 0.5, filter: nil, report_only: false, out: nil, tsv: nil, note: nil}
rubies = {"vanilla" => Bench.rubies["vanilla"]}
cand_env = Hash.new { |h, k| h[k] = {} }
OptionParser.new do |o|
  o.on("--ruby NAME=PATH") do |v|
    name, path = v.split("=", 2)
    abort "--ruby #{v}: expected NAME=PATH" unless path && name =~ /\A[\w.-]+\z/ && name != "vanilla"
    rubies[name] = File.expand_path(path)
  end
  o.on("--env NAME:VAR=VALUE") do |v|
    name, rest = v.split(":", 2)
    var, val = rest&.split("=", 2)
    abort "--env #{v}: expected NAME:VAR=VALUE" unless val && var =~ /\A[A-Z_][A-Z0-9_]*\z/
    cand_env[name][var] = val
  end
  o.on("--filter REGEXP") { |v| opts[:filter] = Regexp.new(v) }
  o.on("--parallel N", Integer) { |v| opts[:parallel] = v }
  o.on("--target INSNS", Float) { |v| opts[:target] = v }
  o.on("--max-native S", Float) { |v| opts[:max_native] = v }
  o.on("--out FILE") { |v| opts[:out] = File.expand_path(v) }
  o.on("--tsv FILE") { |v| opts[:tsv] = File.expand_path(v) }
  o.on("--report-only") { opts[:report_only] = true }
  o.on("--resume") { opts[:resume] = true }
  o.on("--note TEXT") { |v| opts[:note] = v }
end.parse!(ARGV)
opts[:out] ||= Bench.result_path("vmstack-icount.md")
names = rubies.keys
cands = names - ["vanilla"]
abort "name at least one candidate with --ruby NAME=PATH" if cands.empty? && !opts[:report_only]
(cand_env.keys - rubies.keys).each { |n| abort "--env #{n}: no --ruby #{n}=PATH" }
abort "valgrind is not installed" unless opts[:report_only] || system("command -v valgrind >/dev/null")
work = File.join(Bench::ROOT, "build/bench/icount")
FileUtils.mkdir_p(work)
tsv = opts[:tsv] || File.join(work, "icount.tsv")
FileUtils.mkdir_p(File.dirname(tsv))

# The jobs: [file, job name, script text for n iterations (a lambda), kind]
def yaml_jobs(path)
  y = YAML.safe_load(File.read(path))
  prelude = y["prelude"].to_s
  list =
    case b = y["benchmark"]
    when String then [[File.basename(path, ".yml"), b, ""]]
    when Hash then b.map { |k, v| [k.to_s, v.to_s, ""] }
    when Array then b.map { |h| h.is_a?(String) ? [h, h, ""] : [h["name"] || h["script"], h["script"].to_s, h["prelude"].to_s] }
    else raise "#{path}: no benchmark"
    end
  list.map do |name, script, own|
    text = ->(n) { "#{prelude}\n#{own}\n__icount_n = #{n}\n__icount_i = 0\nwhile __icount_i < __icount_n\n  __icount_i += 1\n#{script}\nend\n" }
    [File.basename(path), name, text, own]
  end
end

files = Dir[File.join(bench_dir, "*.{yml,rb}")].map { |f| File.basename(f) }.sort
  .select { |f| f.match?(/\A(app|so|vm)_/) && (!opts[:filter] || f.match?(opts[:filter])) }
abort "no benchmark files in #{bench_dir}" if files.empty?

# Ir of one run, or nil (and why) if it failed.
def count(ruby, env, script_path, dir)
  out = IO.popen(env.merge("RUBYOPT" => nil, "RUBYLIB" => nil),
                 ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                  ruby, "--disable-gems", script_path], chdir: dir, err: [:child, :out], &:read)
  ok = $?.success?
  ir = out[/I\s+refs:\s+([\d,]+)/, 1]
  ok && ir ? [Integer(ir.delete(",")), nil] : [nil, out.lines.reject { |l| l.start_with?("==") }.last(1).join.strip[0, 200]]
end

started = Time.now
failures = Hash.new { |h, k| h[k] = [] }
skipped = {}
unless opts[:report_only]
  # --resume keeps the samples of an interrupted run and counts the rest
  done_before = opts[:resume] && File.exist?(tsv) ? File.foreach(tsv).map { |l| l.split("\t")[0, 3] }.to_set : Set.new
  File.write(tsv, "") unless opts[:resume]
  scratch = File.join(work, "cwd")
  FileUtils.mkdir_p(scratch)
  lock = Mutex.new
  record = ->(*row) { lock.synchronize { File.open(tsv, "a") { |f| f.puts row.join("\t") } } }
  empty = File.join(work, "empty.rb")
  File.write(empty, "")
  tasks = Queue.new
  baselines = {}
  # seconds of a native run of script on vanilla, or nil if it fails
  native = lambda do |script|
    start = Process.clock_gettime(Process::CLOCK_MONOTONIC)
    ok = system({"RUBYOPT" => nil}, rubies["vanilla"], "--disable-gems", script, chdir: scratch, out: File::NULL, err: File::NULL)
    ok ? Process.clock_gettime(Process::CLOCK_MONOTONIC) - start : nil
  end
  # One task per job: calibrate on vanilla, then count every ruby at 0 and N.
  files.each do |file|
    path = File.join(bench_dir, file)
    if file.end_with?(".yml")
      yaml_jobs(path).each { |j| tasks << [:yml, *j] }
    else
      tasks << [:rb, file, file.sub(/\.rb\z/, ""), path]
    end
  end
  total = tasks.size
  done = 0
  tasks.close
  workers = opts[:parallel].times.map do |w|
    Thread.new do
      while (t = tasks.pop)
        kind, file, job, *rest = t
        lock.synchronize { $stderr.print "\r#{done += 1}/#{total} #{file} #{job}".ljust(78)[0, 78] }
        next if names.all? { |n| done_before.include?([file, job, n]) }
        if kind == :rb
          secs = native[rest[0]]
          if !secs || secs > opts[:max_native]
            lock.synchronize { skipped["#{file}"] = secs ? format("%.1f s natively", secs) : "fails natively on vanilla" }
            next
          end
          names.each do |n|
            next if done_before.include?([file, job, n])
            base, why0 = count(rubies[n], cand_env[n], empty, scratch)
            ir, why = count(rubies[n], cand_env[n], rest[0], scratch)
            if base && ir
              record[file, job, n, 1, ir - base]
            else
              lock.synchronize { failures[file] << "#{n}: #{why || why0}" }
            end
          end
        else
          text = rest[0]
          slug = "#{file}-#{job}".gsub(/[^\w.-]/, "_")
          s0 = File.join(work, "#{slug}-0.rb")
          File.write(s0, text[0])
          s1 = File.join(work, "#{slug}-c.rb")
          # the baseline (no iteration) is the same for every job of a file
          # that has no prelude of its own
          base_of = lambda do |n|
            key = [file, rest[1], n]
            lock.synchronize { baselines[key] } || count(rubies[n], cand_env[n], s0, scratch).tap do |ir, _|
              lock.synchronize { baselines[key] = [ir, nil] } if ir
            end
          end
          # N from native times: the loop's share of a native run, scaled to
          # about --target instructions (at an assumed 2e9 a second)
          t0 = native[s0]
          unless t0
            lock.synchronize { failures["#{file} #{job}"] << "vanilla: fails natively" }
            next
          end
          calib = 1
          dt = nil
          loop do
            File.write(s1, text[calib])
            dt = native[s1]
            (lock.synchronize { failures["#{file} #{job}"] << "vanilla: fails natively" }; break) unless dt
            dt -= t0
            # well above the noise of a start-up on a busy machine
            break if dt >= 0.1 || calib >= 100_000_000
            calib *= 10
          end
          next if lock.synchronize { failures.key?("#{file} #{job}") }
          n_iter = [(calib * opts[:target] / 2e9 / dt).round, 1].max
          sn = File.join(work, "#{slug}-n.rb")
          File.write(sn, text[n_iter])
          names.each do |n|
            next if done_before.include?([file, job, n])
            base, why0 = base_of[n]
            ir, why = count(rubies[n], cand_env[n], sn, scratch) if base
            if base && ir
              record[file, job, n, n_iter, ir - base]
            else
              lock.synchronize { failures["#{file} #{job}"] << "#{n}: #{why || why0}" }
            end
          end
        end
      end
    end
  end
  workers.each(&:join)
  $stderr.puts
  File.write(tsv.sub(/\.tsv\z/, ".skipped"), skipped.map { |f, w| "#{f}\t#{w}\n" }.join + failures.map { |f, w| "#{f}\tfailed: #{w.join('; ')}\n" }.join)
end
elapsed = Time.now - started
if opts[:report_only]
  started = File.mtime(tsv)
  sk = tsv.sub(/\.tsv\z/, ".skipped")
  File.foreach(sk) do |l|
    f, w = l.chomp.split("\t", 2)
    w.start_with?("failed: ") ? failures[f] << w.sub("failed: ", "") : skipped[f] = w
  end if File.exist?(sk)
end

# per job: {ruby => instructions per iteration}
per = IcountSamples.per_job(tsv, filter: opts[:filter])
abort "no samples in #{tsv}" if per.empty?
# A GC-bound job whose loop is short against a GC's cost can count fewer
# instructions with N iterations than with 0: no ratio of it means anything.
unmeasurable = per.select { |_, by| by.values.any? { _1 <= 0 } }
per = per.reject { |k, _| unmeasurable.key?(k) }
cands = (per.values.flat_map(&:keys).uniq - ["vanilla"]).sort_by { |c| rubies.keys.index(c) || 99 } if opts[:report_only]
rows = cands.to_h do |c|
  [c, per.filter_map { |k, by| by[c] && by["vanilla"] && by["vanilla"] > 0 ? [k, by[c] / by["vanilla"]] : nil }.sort]
end
# a candidate whose every job was left out has nothing to summarize
rows = rows.reject { |_, list| list.empty? }
summary = rows.to_h do |c, list|
  r = list.map(&:last)
  [c, {jobs: list.size, geo: Stats.geomean(r), worst: list.max_by(&:last), best: list.min_by(&:last),
       within1: r.count { |x| (x - 1).abs <= 0.01 }, over5: r.count { |x| x > 1.05 }, over10: r.count { |x| x > 1.10 }}]
end

FileUtils.mkdir_p(File.dirname(opts[:out]))
png = opts[:out].sub(/\.md\z/, ".png")
plot = Bench.gnuplot? && !rows.empty?
File.open(opts[:out], "w") do |o|
  o.puts "# benchmark/ suite (app_, so_, vm_ files): instructions per iteration, #{cands.join(', ')} vs vanilla 3.3.8"
  o.puts
  o.puts "Ratio = candidate's instructions / vanilla's for the same job (> 1: the candidate executes more),"
  o.puts "counted by `valgrind --tool=cachegrind --cache-sim=no` (Ir). A YAML job's count is per iteration of"
  o.puts "its loop, start-up and prelude subtracted; a .rb file's is its whole run less an empty script's."
  o.puts "`benchmark/vmstack/icount.rb` says how. Counts do not see cache, TLB or page-fault costs."
  o.puts
  o.puts "- command: `ruby benchmark/vmstack/icount.rb#{cands.map { |c| " --ruby #{c}=#{Bench.rel(rubies[c] || '?')}" }.join}#{cand_env.flat_map { |n, e| e.map { |k, v| " --env #{n}:#{k}=#{v}" } }.join}#{opts[:filter] ? " --filter '#{opts[:filter].source}'" : ''}`#{opts[:report_only] ? ' (report from the samples)' : ''}"
  o.puts "- samples: `#{Bench.rel(tsv)}`"
  o.puts "- date: #{started.utc.iso8601}#{opts[:report_only] ? '' : ", #{(elapsed / 60).round(1)} minutes"}"
  unless opts[:report_only]
    rubies.each do |n, r|
      env = cand_env[n].map { |k, v| "#{k}=#{v} " }.join
      o.puts "- #{n}: #{env.empty? ? '' : "`#{env.strip}` "}`#{IO.popen([r, '-v'], &:read).strip}`"
    end
  end
  o.puts "- note: #{opts[:note]}" if opts[:note]
  o.puts
  o.puts "## Summary"
  o.puts
  o.puts "| candidate | jobs | geometric mean | worst | best | within ±1% | over 1.05 | over 1.10 |"
  o.puts "|---|---:|---:|---|---|---:|---:|---:|"
  summary.each do |c, m|
    o.puts format("| %s | %d | %.4f | %.3f (%s) | %.3f (%s) | %d | %d | %d |", c, m[:jobs], m[:geo], m[:worst][1], m[:worst][0],
                  m[:best][1], m[:best][0], m[:within1], m[:over5], m[:over10])
  end
  o.puts
  o.puts "![sorted ratios](#{File.basename(png)})" if plot
  o.puts
  unless skipped.empty?
    o.puts "Left out (too long for valgrind here, or failing natively): " + skipped.map { |f, w| "#{f} (#{w})" }.join(", ") + "."
    o.puts
  end
  unless failures.empty?
    o.puts "Failed under valgrind: " + failures.map { |f, w| "#{f} (#{w.join('; ')})" }.join(", ") + "."
    o.puts
  end
  unless unmeasurable.empty?
    o.puts "Left out (a count per iteration at or below 0, GC's noise against a short loop): " +
           unmeasurable.map { |k, by| "#{k} (#{by.map { |c, n| "#{c} #{n.round}" }.join(', ')})" }.join("; ") + "."
    o.puts
  end
  o.puts "## All jobs"
  o.puts
  o.puts "| job | " + cands.map { |c| "#{c} / vanilla" }.join(" | ") + " | vanilla instructions |"
  o.puts "|---|" + cands.map { "---:" }.join("|") + "|---:|"
  per.keys.sort.each do |k|
    v = per[k]["vanilla"] or next
    o.puts "| #{k} | " + cands.map { |c| per[k][c] ? format("%.3f", per[k][c] / v) : "-" }.join(" | ") + " | #{format('%.4g', v)} |"
  end
end

if plot
  colors = %w[#1f77b4 #ff7f0e #2ca02c #d62728 #9467bd #8c564b]
  series = rows.each_with_index.map do |(c, list), i|
    data = File.join(work, "#{File.basename(opts[:out], '.md')}-#{c}.dat")
    File.write(data, list.map(&:last).sort.each_with_index.map { |r, j| "#{j} #{r}\n" }.join)
    col = colors[i % colors.size]
    ["'#{data}' using 1:2 with points pt 7 ps 0.5 lc rgb '#{col}' title '#{c}'",
     "#{summary[c][:geo]} with lines lc rgb '#{col}' dt 2 title sprintf('#{c}: geometric mean %.4f', #{summary[c][:geo]})"]
  end.flatten
  Bench.plot(png, <<~GP, size: "1000,500", terminal: "pngcairo")
    set title 'benchmark/ suite (app_, so_, vm_): instructions / vanilla instructions, jobs sorted per candidate'
    set key left top opaque box
    set ylabel 'candidate / vanilla (Ir)'
    set xlabel 'job (sorted by ratio)'
    set grid ytics
    set yrange [0.8:1.3]
    set arrow from graph 0, first 1 to graph 1, first 1 nohead lc rgb 'black'
    set arrow from graph 0, first 1.1 to graph 1, first 1.1 nohead lc rgb 'red' dt 3
    plot #{series.join(", \\\n         ")}
  GP
end
puts File.read(opts[:out]).lines.first(22).join
puts "written: #{opts[:out]}"
