# What benchmark/'s runners share: the rubies they compare, the options every
# runner takes, the series a figure was measured on, where results go, the
# paragraph that opens a table, and the plots.
#
#   require_relative "../lib/bench"
#   opts = Bench.options({runs: 5, n: 500}) { |o, opts| o.on("--n N", Integer) { opts[:n] = _1 } }
#   Bench.write_result("mvm-table2.md", md, opts)
#   Bench.plot(Bench.result_path("mvm-table2.png", opts), <<~GP)
#     plot ...
#   GP
#
# Every runner takes --runs N, --fork PATH, --vanilla PATH (default
# _install/bin/ruby and _vanilla/bin/ruby, or FORK and VANILLA from the
# environment) and --out DIR (default results/, or BENCH_RESULTS from the
# environment: a trial run need not overwrite the current figures).
require "optparse"
require "fileutils"
require "rbconfig"
require_relative "stats"

module Bench
  ROOT = File.expand_path("../..", __dir__)

  module_function

  # {"fork" => path, "vanilla" => path}
  def rubies(fork: nil, vanilla: nil)
    {"fork" => fork || ENV["FORK"] || File.join(ROOT, "_install/bin/ruby"),
     "vanilla" => vanilla || ENV["VANILLA"] || File.join(ROOT, "_vanilla/bin/ruby")}
  end

  # Parses argv (ARGV by default) into a copy of defaults, with the options
  # every runner takes and those the block adds (given the OptionParser and
  # the Hash).  opts[:rubies] is rubies(), opts[:out] the results folder.
  def options(defaults = {}, argv = ARGV, banner: nil)
    opts = {runs: 5}.merge(defaults)
    opts[:out] ||= ENV["BENCH_RESULTS"] || File.join(ROOT, "results")
    fork = vanilla = nil
    parser = OptionParser.new do |o|
      o.banner = banner if banner
      o.on("--runs N", Integer, "runs of each configuration (default #{opts[:runs]})") { opts[:runs] = _1 }
      o.on("--fork PATH", "the fork's ruby (default _install/bin/ruby or FORK)") { fork = _1 }
      o.on("--vanilla PATH", "vanilla 3.3.8's ruby (default _vanilla/bin/ruby or VANILLA)") { vanilla = _1 }
      o.on("--out DIR", "where the tables and plots go (default results/ or BENCH_RESULTS)") { opts[:out] = _1 }
      yield o, opts if block_given?
    end
    begin
      parser.parse!(argv)
    rescue OptionParser::ParseError => e
      abort "#{e.message}\n#{parser}"
    end
    opts[:rubies] = rubies(fork: fork, vanilla: vanilla)
    opts
  end

  # The commit of this repository's patches/ that the fork was built from.
  def series
    `git -C #{ROOT} log -1 --format=%h -- patches`.strip
  end

  # The figures a feature's run.rb makes: those named in argv (after the
  # options), or default (all of them); an unknown name aborts, listing the
  # known.
  def figures(argv, all, default: all)
    picked = argv.empty? ? default : argv
    unknown = picked - all
    abort "unknown figure: #{unknown.join(", ")} (known: #{all.join(" ")})" unless unknown.empty?
    picked
  end

  # Runs a command (an Array), shown first as `set -x` shows one; aborts
  # when it fails.  env: extra environment.
  def run!(*cmd, env: {})
    cmd = cmd.flatten.map(&:to_s)
    warn "+ " + env.map { |k, v| "#{k}=#{v} " }.join + cmd.join(" ")
    system(env, *cmd, chdir: ROOT) or abort "failed (#{$?.exitstatus}): #{cmd.first(3).join(" ")} ..."
  end

  # ["--runs", N]: --runs if it was given, else a figure's own count.
  def runs_option(opts, default)
    ["--runs", opts[:runs] || default]
  end

  # benchmark/run.rb NAME SCRIPT args..., its tables and plots into opts[:out].
  def run_figure!(opts, name, script, *args)
    run!(RbConfig.ruby, "benchmark/run.rb", name, script, *args, "--out", opts[:out])
  end

  # A ruby with an environment of its own, as a wrapper script in
  # build/bench/NAME (benchmark/run.rb's --env is for every ruby).
  def wrapper(name, ruby, env)
    path = File.join(ROOT, "build/bench", name)
    FileUtils.mkdir_p(File.dirname(path))
    File.write(path, "#!/bin/sh\nexec env #{env.map { "#{_1}=#{_2}" }.join(" ")} #{File.expand_path(ruby)} \"$@\"\n")
    File.chmod(0755, path)
    path
  end

  # The host's two round trips between threads, measured now by
  # benchmark/lib/hostrt.c (built into build/bench/): spinning on a shared
  # word, and sleeping on a condition variable.  {spin_us:, cond_us:}, or
  # nil without a C compiler.
  def host
    src = File.join(ROOT, "benchmark/lib/hostrt.c")
    bin = File.join(ROOT, "build/bench/hostrt")
    unless File.exist?(bin) && File.mtime(bin) >= File.mtime(src)
      FileUtils.mkdir_p(File.dirname(bin))
      system("cc", "-O2", "-pthread", "-o", bin, src) or return warn("benchmark/lib/hostrt.c did not build")
    end
    out = IO.popen([bin], &:read)
    return nil unless $?.success? && out =~ /spin_us=([\d.]+) cond_us=([\d.]+)/
    {spin_us: $1.to_f, cond_us: $2.to_f}
  end

  # The line every table gives its host by.
  def host_line(h = host)
    return "host: not measured (no C compiler)" unless h
    "host: two threads' round trip #{h[:spin_us]} us spinning on a shared word, " \
      "#{h[:cond_us]} us sleeping on a condition variable (benchmark/lib/hostrt.c, in this run)"
  end

  # A ruby's `ruby -v`.
  def version(ruby)
    `#{ruby} -v`.strip
  end

  # The paragraph that opens a table of medians: how many runs, what the two
  # rubies are, and the command that made it.
  def header(runs:, command:, rubies: self.rubies)
    <<~MD
      Medians of #{runs} runs of each configuration, the order alternating between rounds,
      with (min..max); rss_kb is the peak RSS of the whole process (`/usr/bin/time -v`).
      fork = `#{rel(rubies["fork"])}` (series at #{series}), vanilla = 3.3.8 from the same tarball,
      same flags (`#{rel(rubies["vanilla"])}`).
      #{host_line}; #{Time.now.utc.strftime("%Y-%m-%d")}.

      Command: `#{command}`
    MD
  end

  # path relative to the repository, where it is inside it
  def rel(path)
    full = File.expand_path(path)
    full.start_with?(ROOT + "/") ? full.delete_prefix(ROOT + "/") : path
  end

  # out/name, and out/data/name for the data behind a plot; the folder made
  def result_path(name, opts = {})
    dir = opts[:out] || ENV["BENCH_RESULTS"] || File.join(ROOT, "results")
    FileUtils.mkdir_p(dir)
    File.join(dir, name)
  end

  def data_path(name, opts = {})
    result_path(File.join("data", name), opts).tap { FileUtils.mkdir_p(File.dirname(_1)) }
  end

  def write_result(name, text, opts = {})
    File.write(result_path(name, opts), text)
  end

  def gnuplot?
    system("command -v gnuplot >/dev/null")
  end

  # Runs gnuplot on script, after the lines that make it write png (a PNG of
  # size "W,H").  Without gnuplot, or if it fails, says so and returns false.
  def plot(png, script, size: "900,500", terminal: "png")
    unless gnuplot?
      warn "gnuplot is missing: #{png} not made"
      return false
    end
    IO.popen(["gnuplot"], "w") do |g|
      g.write("set terminal #{terminal} size #{size} noenhanced\nset output #{png.dump}\n")
      g.write(script)
    end
    return true if $?.success?
    warn "gnuplot failed: #{png}"
    false
  end
end
