# YJIT on the fork against vanilla 3.3.8: ruby-bench's headline benchmarks,
# each run as a process of its own in four configurations (fork and vanilla,
# interpreted and --yjit), into results/yjit.md.
#
#   ruby benchmark/yjit/run.rb setup [BENCH...]   extract ruby-bench, install its gems
#   ruby benchmark/yjit/run.rb --list             the benchmarks set up, per ruby
#   ruby benchmark/yjit/run.rb [BENCH...] [--runs N] [--warmup N] [--iters N]
#                              [--fork PATH] [--vanilla PATH] [--out DIR]
#
# With no BENCH, every headline benchmark that works offline on 3.3 (HEADLINE
# less DROPPED below).  Each round runs every configuration once, alternating
# the rubies, the order reversed every other round:
#   fork interp, vanilla interp, fork --yjit, vanilla --yjit   (rounds 1, 3, 5)
#   vanilla --yjit, fork --yjit, vanilla interp, fork interp   (rounds 2, 4)
# A run is `ruby [--yjit] benchmarks/NAME/benchmark.rb` under /usr/bin/time -v,
# with WARMUP_ITRS=W MIN_BENCH_ITRS=I MIN_BENCH_TIME=0 (exactly W warmup and I
# timed iterations) and RESULT_JSON_PATH, the harness's JSON (the iteration
# times, and with --yjit RubyVM::YJIT.runtime_stats: 3.3 gives code_region_size,
# inline_code_size, outlined_code_size, yjit_alloc_size without --yjit-stats).
# A run's figure is the mean of its timed iterations.  results/yjit.md gives per
# benchmark the median over RUNS runs with (min..max), the ratios fork/vanilla
# and yjit/interp (of the medians) with their geometric means over the
# benchmarks, the peak RSS ("Maximum resident set size") of every
# configuration, and YJIT's code size.  The samples go to results/data/yjit.json
# after every round.
#
# Environment (options win): RUNS (5), WARMUP and ITERS (for every benchmark;
# else each benchmark's own in ITERATIONS below, ~4-15 s a run interpreted here),
# FORK and VANILLA (default _install/bin/ruby and _vanilla/bin/ruby),
# RUBY_BENCH (the working copy, default build/ruby-bench), BENCH_RESULTS.
#
# Setup, once per clone (about 10 minutes and 1.5 GB; it needs RubyGems):
#
#   ruby benchmark/yjit/run.rb setup
#
# 1. Extracts harness/, misc/ and benchmarks/NAME from a ruby-bench git
#    directory or checkout, RUBY_BENCH_SRC (default the mirror,
#    /work/.mirror/ruby+ruby-bench/repo; a clone of github.com/ruby/ruby-bench
#    does as well), at RUBY_BENCH_REF (HEAD), into RUBY_BENCH.  A benchmark
#    directory that is there already is left as it is (remove it to redo it).
# 2. Gems that a Gemfile takes from GitHub (liquid at v5.4.0 for the liquid-*
#    benchmarks, liquid-il at a commit) cannot be fetched here: the ref is
#    extracted from GITHUB_SRC (default /work/.mirror/%{owner}+%{repo}/repo, a
#    git directory holding the ref) into RUBY_BENCH/vendor/REPO-REF and the
#    Gemfile and Gemfile.lock name that path instead.  Every Gemfile.lock loses
#    its "BUNDLED WITH 4.x" (Ruby 3.3's bundler is 2.5 and would try to switch);
#    the locked versions are kept, and all install on 3.3.
# 3. Patches harness/harness-common.rb so that a benchmark's bundle lives in
#    RUBY_BENCH/gems/<Gem.extension_api_version>: one bundle per ruby, since
#    the fork's C extensions do not load in vanilla (its headers turn
#    rb_cObject and the other exported objects into rb_vmlocal_* thread-locals;
#    its extension API version is 3.3.0-static-mvm).  The precompiled gems the
#    lockfiles pick (nokogiri, sqlite3 2.x) are vanilla builds in both bundles.
# 4. `bundle install` in every benchmark with each ruby that exists (FORK,
#    VANILLA), one job at a time; sqlite3 1.x (sequel) is built against the
#    system's libsqlite3.  Run setup again once _vanilla exists (or after a
#    ruby is rebuilt with other headers): what is there is kept.
#
# After setup a benchmark also runs by itself, with either ruby:
#   cd build/ruby-bench && WARMUP_ITRS=1 MIN_BENCH_ITRS=1 MIN_BENCH_TIME=0 \
#     ../../_install/bin/ruby --yjit benchmarks/liquid-render/benchmark.rb
require "json"
require "open3"
require "tmpdir"
require "digest"
require "time"
require_relative "../lib/bench"

HEADLINE = %w[activerecord chunky-png erubi-rails hexapdf liquid-c liquid-compile liquid-il
              liquid-render lobsters mail psych-load railsbench rubocop ruby-lsp sequel shipit]
# Headline benchmarks that cannot run here; a name given explicitly is still tried.
DROPPED = {
  "lobsters" => "its data, benchmarks/lobsters/db/production.sqlite3 (the users, stories and " \
                "comments its routes log in with and visit), is a blob the ruby-bench snapshot " \
                "does not hold, and `rails fake_data` would make other data",
}
# [warmup, timed iterations] per benchmark: about 5-20 s a run with YJIT on this
# machine (one interpreted iteration on the fork: the comment).
ITERATIONS = {                  # interpreted iteration on this 2-core host
  "activerecord" => [5, 8],     # 0.45 s
  "chunky-png" => [2, 4],       # 1.0 s
  "erubi-rails" => [2, 3],      # 2.2 s
  "hexapdf" => [1, 2],          # 3.4 s
  "liquid-c" => [5, 20],        # 0.15 s
  "liquid-compile" => [5, 25],  # 0.12 s
  "liquid-il" => [3, 6],        # 0.68 s
  "liquid-render" => [5, 15],   # 0.29 s
  "mail" => [5, 20],            # 0.16 s
  "psych-load" => [1, 2],       # 2.6 s
  "railsbench" => [1, 2],       # 4.2 s
  "rubocop" => [5, 10],         # 0.44 s
  "ruby-lsp" => [5, 20],        # 0.22 s
  "sequel" => [5, 30],          # 0.10 s
  "shipit" => [1, 2],           # 3.7 s
}
ITERATIONS.default = [5, 10]

RB = File.expand_path(ENV["RUBY_BENCH"] || "build/ruby-bench", Bench::ROOT)
SRC = ENV["RUBY_BENCH_SRC"] || "/work/.mirror/ruby+ruby-bench/repo"
SRC_REF = ENV["RUBY_BENCH_REF"] || "HEAD"
GITHUB_SRC = ENV["GITHUB_SRC"] || "/work/.mirror/%{owner}+%{repo}/repo"
CONFIGS = [["fork", false], ["vanilla", false], ["fork", true], ["vanilla", true]]

def label(rname, yjit) = "#{rname} #{yjit ? "yjit" : "interp"}"

def sh!(*cmd, **kw)
  warn "+ #{cmd.join(" ")}"
  system(*cmd, **kw) or abort "failed (#{$?.exitstatus}): #{cmd.join(" ")}"
end

# Extension API version of a ruby (its bundle's folder under RB/gems)
def api_version(ruby)
  @api ||= {}
  @api[ruby] ||= IO.popen([ruby, "-e", "print Gem.extension_api_version"], &:read).tap do
    abort "#{ruby} does not run" unless $?.success? && !_1.empty?
  end
end

def gems_dir(ruby) = File.join(RB, "gems", api_version(ruby))

# The environment of anything run for a benchmark: this ruby first in PATH (the
# harness shells out to `bundle` and bin/rails), its bundle, nothing inherited
# that would change the run.
def bench_env(ruby)
  {"PATH" => "#{File.dirname(File.expand_path(ruby))}:#{ENV["PATH"]}", "BUNDLE_PATH" => gems_dir(ruby),
   "GEM_HOME" => nil, "GEM_PATH" => nil, "RUBYOPT" => nil, "RUBYLIB" => nil, "BUNDLE_GEMFILE" => nil,
   "BUNDLE_APP_CONFIG" => nil, "RUBY_YJIT_ENABLE" => nil}
end

def bench_dir(name) = File.join(RB, "benchmarks", name)

def stamp(name, ruby) = File.join(bench_dir(name), ".bundled-#{api_version(ruby)}")

def lock_digest(name) = Digest::SHA256.file(File.join(bench_dir(name), "Gemfile.lock")).hexdigest

# setup has installed this benchmark's bundle for this ruby (and the lock is unchanged since)
def installed?(name, ruby)
  File.exist?(stamp(name, ruby)) && File.read(stamp(name, ruby)).strip == lock_digest(name)
end

# ---- setup -------------------------------------------------------------------

# Extracts paths of the ruby-bench source into RB: a checkout is copied, a git
# directory archived (false when git cannot, e.g. a blob the snapshot lacks).
def extract(paths)
  if File.directory?(File.join(SRC, "harness"))
    paths.each do |p|
      return false unless File.exist?(File.join(SRC, p))
      FileUtils.mkdir_p(File.dirname(File.join(RB, p)))
      FileUtils.cp_r(File.join(SRC, p), File.join(RB, p))
    end
    true
  else
    tar = File.join(RB, ".extract.tar")
    ok = system("git", "-C", SRC, "archive", "-o", tar, SRC_REF, "--", *paths, err: File::NULL) &&
         system("tar", "-xf", tar, "-C", RB)
    FileUtils.rm_f(tar)
    ok
  end
end

def source_revision
  if File.directory?(File.join(SRC, "harness")) && !File.exist?(File.join(SRC, ".git"))
    "a copy of #{SRC}"
  else
    IO.popen(["git", "-C", SRC, "rev-parse", SRC_REF], err: File::NULL, &:read).strip
  end
end

HARNESS_PATCH = <<~'RUBY'

  # benchmark/yjit/run.rb setup: the gems live in one bundle per ruby ABI,
  # gems/<Gem.extension_api_version>, since C extensions built by one ruby may
  # not load in the other (the fork's use rb_vmlocal_* symbols that vanilla lacks).
  ENV["BUNDLE_PATH"] ||= File.expand_path("../gems/#{Gem.extension_api_version}", __dir__) if defined?(Gem)
RUBY

def setup_harness
  FileUtils.mkdir_p(RB)
  unless File.exist?(File.join(RB, "harness/harness.rb"))
    FileUtils.rm_rf(%w[harness misc].map { File.join(RB, _1) })
    extract(%w[harness misc benchmarks.yml]) or abort "could not extract harness/ from #{SRC} (RUBY_BENCH_SRC)"
    File.write(File.join(RB, "REVISION"), "#{source_revision}\n")
  end
  common = File.join(RB, "harness/harness-common.rb")
  text = File.read(common)
  return if text.include?("BUNDLE_PATH")
  text.sub!(/\Arequire 'rbconfig'\n/) { _1 + HARNESS_PATCH } or abort "#{common}: no `require 'rbconfig'` to patch after"
  File.write(common, text)
end

# A Gemfile's `github: "OWNER/REPO", ref: "REF"` gems become path gems in
# RB/vendor/REPO-REF, extracted from GITHUB_SRC; the lock follows, and loses
# its BUNDLED WITH.
def localize_gemfile(name)
  gemfile = File.join(bench_dir(name), "Gemfile")
  lockfile = gemfile + ".lock"
  gf = File.read(gemfile)
  lk = File.exist?(lockfile) ? File.read(lockfile) : nil
  gf = gf.gsub(/^(\s*gem\s+["']([\w.-]+)["']\s*),\s*github:\s*["']([\w.-]+)\/([\w.-]+)["']\s*,\s*ref:\s*["']([^"']+)["']/) do
    head, owner, repo, ref = $1, $3, $4, $5
    rel = "../../vendor/#{repo}-#{ref[0, 12]}"
    dir = File.join(RB, "vendor", "#{repo}-#{ref[0, 12]}")
    unless File.directory?(dir)
      git = format(GITHUB_SRC, owner: owner, repo: repo)
      FileUtils.mkdir_p(dir)
      unless system("sh", "-c", 'git -C "$1" archive "$2" | tar -x -C "$3"', "sh", git, ref, dir)
        FileUtils.rm_rf(dir)
        abort "#{name}: #{owner}/#{repo} at #{ref} is not in #{git} (GITHUB_SRC)"
      end
    end
    lk&.sub!(%r{^GIT\n  remote: https://github\.com/#{Regexp.escape(owner)}/#{Regexp.escape(repo)}(?:\.git)?\n(?:  (?:revision|ref|branch|tag|glob): .*\n)*}, "PATH\n  remote: #{rel}\n")
    "#{head}, path: #{rel.dump}"
  end
  File.write(gemfile, gf)
  File.write(lockfile, lk.sub(/^BUNDLED WITH\n.*\n?/, "")) if lk
  abort "#{name}: its Gemfile still takes a gem from git:\n#{gf[/^.*(github|git):.*$/]}" if gf =~ /^\s*gem\b.*\b(github|git):/
end

def setup(names, rubies)
  setup_harness
  names.each do |name|
    next if File.directory?(bench_dir(name))
    unless extract(["benchmarks/#{name}"])
      FileUtils.rm_rf(bench_dir(name))
      warn "#{name}: could not extract benchmarks/#{name} from #{SRC}" + (DROPPED[name] ? ": #{DROPPED[name]}" : "")
      next
    end
    localize_gemfile(name) if File.exist?(File.join(bench_dir(name), "Gemfile"))
  end
  rubies.each do |rname, ruby|
    unless File.executable?(ruby)
      warn "#{rname}: #{ruby} is not there; its bundles are not installed (run setup again once it is)"
      next
    end
    names.each do |name|
      next unless File.directory?(bench_dir(name)) && File.exist?(File.join(bench_dir(name), "Gemfile"))
      next if installed?(name, ruby)
      warn "==> #{name}: bundle install with #{rname} (#{Bench.rel(ruby)}) into #{Bench.rel(gems_dir(ruby))}"
      env = bench_env(ruby).merge("BUNDLE_JOBS" => "1", "BUNDLE_BUILD__SQLITE3" => "--enable-system-libraries")
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      bundle = File.join(File.dirname(ruby), "bundle")
      out, st = Open3.capture2e(env, bundle, "install", chdir: bench_dir(name))
      unless st.success?
        warn out.lines.last(30).join
        warn "#{name}: bundle install with #{rname} failed"
        next
      end
      File.write(stamp(name, ruby), lock_digest(name) + "\n")
      warn "    %.0f s" % (Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0)
    end
  end
end

# ---- --list ------------------------------------------------------------------

def list(rubies)
  unless File.exist?(File.join(RB, "harness/harness.rb"))
    puts "#{Bench.rel(RB)}: not set up (ruby benchmark/yjit/run.rb setup)"
    return
  end
  present = rubies.select { |_, r| File.executable?(r) }
  names = (HEADLINE + (Dir.children(File.join(RB, "benchmarks")) rescue [])).uniq
  names.each do |name|
    w, i = ITERATIONS[name]
    if !File.directory?(bench_dir(name))
      puts "%-15s %s" % [name, DROPPED[name] ? "dropped: #{DROPPED[name]}" : "not extracted"]
      next
    end
    state = present.map { |rname, r| "#{rname} #{installed?(name, r) ? "ready" : "not installed"}" }
    state += (rubies.keys - present.keys).map { "#{_1} missing" }
    puts "%-15s %-42s warmup %d, iters %d" % [name, state.join(", "), w, i]
  end
end

# ---- runs --------------------------------------------------------------------

# One run: the mean of its timed iterations (s), its peak RSS (kB) and YJIT's
# runtime_stats (nil interpreted).
def run_once(name, rname, ruby, yjit, warmup, iters, tmp)
  json = File.join(tmp, "#{name}.json")
  FileUtils.rm_f(json)
  env = bench_env(ruby).merge("WARMUP_ITRS" => warmup.to_s, "MIN_BENCH_ITRS" => iters.to_s,
                              "MIN_BENCH_TIME" => "0", "RESULT_JSON_PATH" => json)
  cmd = ["/usr/bin/time", "-v", ruby, *("--yjit" if yjit), "benchmarks/#{name}/benchmark.rb"]
  out, err, st = Open3.capture3(env, *cmd, chdir: RB)
  unless st.success? && File.exist?(json)
    abort "#{label(rname, yjit)} #{name} failed (#{cmd.join(" ")} in #{Bench.rel(RB)}):\n" \
          "#{out.lines.last(20).join}#{err.lines.last(40).join}"
  end
  res = JSON.parse(File.read(json))
  bench = res.fetch("bench")
  abort "#{name}: no timed iteration" if bench.empty?
  stats = res["yjit_stats"]
  abort "#{label(rname, yjit)} #{name}: YJIT is #{stats ? "on" : "off"}" if yjit != !stats.nil?
  rss = err[/Maximum resident set size \(kbytes\): (\d+)/, 1] or abort "no RSS from /usr/bin/time -v:\n#{err}"
  {"time" => bench.sum / bench.size, "rss_kb" => Integer(rss),
   "yjit" => stats&.slice("code_region_size", "inline_code_size", "outlined_code_size", "yjit_alloc_size")}
end

def median(xs) = Stats.median(xs)
def cell(xs, scale = 1) = xs.empty? ? "" : format("%.4g (%.4g..%.4g)", median(xs) * scale, xs.min * scale, xs.max * scale)
def r3(x) = x ? format("%.3f", x) : ""

def report(names, samples, iters, rubies, runs, command, started, host, finished: Time.now, series: Bench.series)
  rev = File.read(File.join(RB, "REVISION")).strip rescue "unknown"
  t = ->(n, rname, yjit) { samples.dig(n, label(rname, yjit))&.map { _1["time"] } || [] }
  ratio = ->(a, b) { a.empty? || b.empty? ? nil : median(a) / median(b) }
  ratio_min = ->(a, b) { a.empty? || b.empty? ? nil : a.min / b.min }
  cols = {
    "fork/vanilla yjit" => ->(n) { ratio.(t.(n, "fork", true), t.(n, "vanilla", true)) },
    "fork/vanilla interp" => ->(n) { ratio.(t.(n, "fork", false), t.(n, "vanilla", false)) },
    "fork yjit/interp" => ->(n) { ratio.(t.(n, "fork", true), t.(n, "fork", false)) },
    "vanilla yjit/interp" => ->(n) { ratio.(t.(n, "vanilla", true), t.(n, "vanilla", false)) },
  }
  lines = ["| benchmark | warmup+iters | " + CONFIGS.map { "#{label(*_1)}, ms" }.join(" | ") + " | " + cols.keys.join(" | ") + " |",
           "|---|---|" + "---:|" * (CONFIGS.size + cols.size)]
  names.each do |n|
    lines << "| #{n} | #{iters[n].join("+")} | " + CONFIGS.map { |rn, y| cell(t.(n, rn, y), 1000) }.join(" | ") +
             " | " + cols.values.map { r3(_1.(n)) }.join(" | ") + " |"
  end
  geo = cols.values.map do |f|
    xs = names.map { f.(_1) }.compact
    xs.empty? ? "" : "**#{r3(Stats.geomean(xs))}** (#{xs.size})"
  end
  lines << "| geometric mean | | " + " | " * (CONFIGS.size - 1) + " | " + geo.join(" | ") + " |"
  # Interference from other tenants only adds time: the ratios of the fastest runs
  cols_min = [->(n) { ratio_min.(t.(n, "fork", true), t.(n, "vanilla", true)) },
              ->(n) { ratio_min.(t.(n, "fork", false), t.(n, "vanilla", false)) },
              ->(n) { ratio_min.(t.(n, "fork", true), t.(n, "fork", false)) },
              ->(n) { ratio_min.(t.(n, "vanilla", true), t.(n, "vanilla", false)) }]
  geo_min = cols_min.map do |f|
    xs = names.map { f.(_1) }.compact
    xs.empty? ? "" : "**#{r3(Stats.geomean(xs))}** (#{xs.size})"
  end
  lines << "| geometric mean of the ratios of the minima | | " + " | " * (CONFIGS.size - 1) + " | " + geo_min.join(" | ") + " |"

  mem = ["| benchmark | " + CONFIGS.map { "#{label(*_1)}, MB" }.join(" | ") +
         " | fork code_region, KiB | vanilla code_region, KiB | fork inline+outlined, KiB | vanilla inline+outlined, KiB |",
         "|---|" + "---:|" * (CONFIGS.size + 4)]
  names.each do |n|
    ys = ->(rname, &f) { samples.dig(n, label(rname, true))&.map { f.(_1["yjit"]) } || [] }
    code = %w[fork vanilla].map { |rn| cell(ys.(rn) { _1["code_region_size"] }, 1 / 1024.0) }
    gen = %w[fork vanilla].map { |rn| cell(ys.(rn) { _1["inline_code_size"] + _1["outlined_code_size"] }, 1 / 1024.0) }
    mem << "| #{n} | " + CONFIGS.map { |rn, y| cell(samples.dig(n, label(rn, y))&.map { _1["rss_kb"] } || [], 1 / 1024.0) }.join(" | ") +
           " | " + (code + gen).join(" | ") + " |"
  end
  dropped = DROPPED.reject { |n, _| names.include?(n) }
  <<~MD + lines.join("\n") + "\n\n" + <<~MD2 + mem.join("\n") + "\n"
    # YJIT on the fork and on vanilla 3.3.8: ruby-bench's headline benchmarks

    Each run is one process, `ruby [--yjit] benchmarks/NAME/benchmark.rb` with ruby-bench's harness,
    WARMUP_ITRS warmup and MIN_BENCH_ITRS timed iterations (MIN_BENCH_TIME=0; column
    warmup+iters); a run's figure is the mean of its timed iterations. #{runs} round#{"s" if runs != 1}, each running
    the four configurations once, the rubies alternating and the order reversed every other round.
    Cells: median over the runs (min..max). Ratios are of the medians (> 1: the first is slower);
    the row below the benchmarks is their geometric mean over the benchmarks (how many in
    parentheses), and the last row the same of the ratios of the fastest runs (min / min): other
    tenants of the host only add time.

    - command: `#{command}`
    - date: #{started.utc.iso8601} to #{finished.utc.iso8601}; series: #{series}; #{`nproc`.strip} CPUs
    - fork: `#{Bench.version(rubies["fork"])}` (`#{Bench.rel(rubies["fork"])}`)
    - vanilla: `#{Bench.version(rubies["vanilla"])}` (`#{Bench.rel(rubies["vanilla"])}`)
    - #{host}
    - ruby-bench: #{rev} (`benchmark/yjit/run.rb setup`: locked gem versions, liquid and liquid-il
      from their git refs as path gems, one bundle per ruby under `#{Bench.rel(RB)}/gems/`)
    #{dropped.map { |n, why| "- not run: #{n}: #{why}" }.join("\n")}

  MD
    ## Peak RSS and YJIT's code

    Peak RSS of the whole process (`/usr/bin/time -v`, MB), and YJIT's code at the end of the
    run (`RubyVM::YJIT.runtime_stats`, without `--yjit-stats`): `code_region_size`, the executable
    memory YJIT has mapped, and `inline_code_size + outlined_code_size`, the code it has written.
    Median (min..max).

  MD2
end

# ---- main --------------------------------------------------------------------

argv0 = ARGV.dup
if ARGV.first == "setup"
  ARGV.shift
  rubies = Bench.rubies.transform_values { File.expand_path(_1) }
  names = ARGV.empty? ? HEADLINE - DROPPED.keys : ARGV
  setup(names, rubies)
  list(rubies)
  exit
end

mode = :run
warmup = ENV["WARMUP"] && Integer(ENV["WARMUP"])
iters = ENV["ITERS"] && Integer(ENV["ITERS"])
opts = Bench.options({runs: Integer(ENV["RUNS"] || 5)}) do |o, _|
  o.on("--list", "the benchmarks set up, per ruby") { mode = :list }
  o.on("--report-only", "the table again from results/data/yjit.json") { mode = :report }
  o.on("--warmup N", Integer, "warmup iterations of every benchmark (WARMUP)") { warmup = _1 }
  o.on("--iters N", Integer, "timed iterations of every benchmark (ITERS)") { iters = _1 }
end
rubies = opts[:rubies].transform_values { File.expand_path(_1) }
if mode == :list
  list(rubies)
  exit
end
if mode == :report
  d = JSON.parse(File.read(Bench.data_path("yjit.json", opts)))
  names = d["samples"].keys
  samples = d["samples"].transform_values { |c| c.transform_values { |rs| rs } }
  text = report(names, samples, d["iterations"], rubies, d["rounds"], d["command"], Time.parse(d["started"]),
                d["host"], finished: Time.parse(d["finished"]), series: d["series"])
  Bench.write_result("yjit.md", text, opts)
  puts text
  exit
end

abort "#{Bench.rel(RB)} is not set up: ruby benchmark/yjit/run.rb setup" unless File.exist?(File.join(RB, "harness/harness.rb"))
names = ARGV.empty? ? HEADLINE - DROPPED.keys : ARGV
abort "ITERS must be at least 1" if iters && iters < 1
its = names.to_h { |n| [n, [warmup || ITERATIONS[n][0], iters || ITERATIONS[n][1]]] }
rubies.each { |rn, r| abort "#{rn}: #{r} is not there" unless File.executable?(r) }
names.each do |n|
  abort "#{n}: not in #{Bench.rel(RB)}/benchmarks (ruby benchmark/yjit/run.rb setup #{n})" unless File.directory?(bench_dir(n))
  rubies.each_value.uniq.each do |r|
    next unless File.exist?(File.join(bench_dir(n), "Gemfile"))
    _, st = Open3.capture2e(bench_env(r), File.join(File.dirname(r), "bundle"), "check", chdir: bench_dir(n))
    abort "#{n}: its gems are not installed for #{r} (ruby benchmark/yjit/run.rb setup #{n})" unless st.success?
  end
end

env_words = {"RUNS" => ENV["RUNS"], "WARMUP" => ENV["WARMUP"], "ITERS" => ENV["ITERS"], "FORK" => ENV["FORK"],
             "VANILLA" => ENV["VANILLA"], "RUBY_BENCH" => ENV["RUBY_BENCH"]}.compact.map { |k, v| "#{k}=#{v} " }.join
command = "#{env_words}ruby benchmark/yjit/run.rb#{argv0.map { " #{_1}" }.join}"
started = Time.now
samples = Hash.new { |h, k| h[k] = Hash.new { |h2, k2| h2[k2] = [] } }
data = Bench.data_path("yjit.json", opts)
Dir.mktmpdir("yjit-bench") do |tmp|
  opts[:runs].times do |round|
    names.each do |n|
      (round.even? ? CONFIGS : CONFIGS.reverse).each do |rname, yjit|
        w, i = its[n]
        r = run_once(n, rname, rubies[rname], yjit, w, i, tmp)
        samples[n][label(rname, yjit)] << r
        warn format("round %d/%d %-15s %-14s %9.1f ms %7.1f MB%s", round + 1, opts[:runs], n, label(rname, yjit),
                    r["time"] * 1000, r["rss_kb"] / 1024.0, r["yjit"] ? format(" code %d KiB", r["yjit"]["code_region_size"] / 1024) : "")
      end
    end
    File.write(data, JSON.pretty_generate({"command" => command, "rounds" => round + 1, "iterations" => its, "samples" => samples}))
  end
end
host = Bench.host_line   # beside the figures, measured after them in the same run
File.write(data, JSON.pretty_generate({"command" => command, "rounds" => opts[:runs], "iterations" => its,
                                       "started" => started.utc.iso8601, "finished" => Time.now.utc.iso8601,
                                       "series" => Bench.series, "host" => host, "samples" => samples}))
text = report(names, samples, its, rubies, opts[:runs], command, started, host)
Bench.write_result("yjit.md", text, opts)
puts text
warn "wrote #{Bench.rel(Bench.result_path("yjit.md", opts))} and #{Bench.rel(data)}"
