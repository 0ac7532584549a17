# test-all in child VMs (MVM): one long-lived process runs each test file
# in a VM of its own (RubyVM.new), JOBS of them at a time, each with MRI's
# test runner, and adds up their counts as test-all reports them.  Tests
# that cannot run in a child VM by design are listed, each with its reason,
# in tool/mvm-test-all/exclusions.txt: a file there is not run, a test
# (Class#method) is excluded with the runner's --name=!/.../.  The files
# that the list marks "serial:" (they change what is the process's) run in
# a child VM while no other runs.
#
#   ruby tool/mvm-test-all/run.rb [-j JOBS] [--timeout SECS] [--ruby=CMD]
#        [--exclusions FILE] [--list] SRC FILE_OR_DIR...
#
# It runs under runruby (make check-mvm-test-all), so that the child VMs
# find the build's libraries; --ruby is the command the tests spawn.
require "optparse"
require "tmpdir"

jobs = 2
timeout = 900
ruby_cmd = nil
exclusions = File.join(__dir__, "exclusions.txt")
# the tests that fail on vanilla 3.3.8 on this machine too (make check's)
known = File.expand_path("../../test/exclusions.txt", __dir__)
list_only = false
OptionParser.new do |o|
  o.on("-j N", Integer) { |n| jobs = n }
  o.on("--timeout SECS", Float) { |t| timeout = t }
  o.on("--ruby CMD") { |c| ruby_cmd = c }
  o.on("--exclusions FILE") { |f| exclusions = f }
  o.on("--known FILE") { |f| known = f }
  o.on("--list") { list_only = true }
end.parse!(ARGV)
src = File.expand_path(ARGV.shift || abort("usage: run.rb [options] SRC FILE_OR_DIR..."))
paths = ARGV.empty? ? [File.join(src, "test")] : ARGV

# FILE -- REASON, or Class#method -- REASON
excluded_files = {}
excluded_tests = {}
serial_paths = {}
File.foreach(exclusions) do |line|
  next if line.start_with?("#") || line.strip.empty?
  what, why = line.split(/\s+--\s+/, 2)
  abort "#{exclusions}: no reason for #{what.strip}" unless why && !why.strip.empty?
  what = what.strip
  if what.start_with?("serial:")
    serial_paths[File.expand_path(what.delete_prefix("serial:").strip, src)] = why.strip
  elsif what.include?("#")
    excluded_tests[what] = why.strip
  else
    excluded_files[File.expand_path(what, src)] = why.strip
  end
end

if File.exist?(known)
  File.foreach(known) do |line|
    next unless line.start_with?("test-all ")
    name, why = line.delete_prefix("test-all ").split(/\s+--\s+/, 2)
    excluded_tests[name.strip] = "fails on vanilla too: #{why.to_s.strip}"
  end
end

files = paths.flat_map do |path|
  path = File.expand_path(path)
  File.directory?(path) ? Dir.glob("**/test_*.rb", base: path).sort.map { |f| File.join(path, f) } : [path]
end
skipped, files = files.partition { |f| excluded_files.key?(f) }
serial, files = files.partition do |f|
  serial_paths.any? { |path, _| f == path || f.start_with?(path + "/") }
end
if list_only
  puts files.map { |f| "parallel #{f}" }, serial.map { |f| "serial #{f}" }
  exit
end

names = excluded_tests.keys.map { |t| "--name=!/\\A#{Regexp.quote(t)}\\z/" }
runner_args = ["--disable-gems", File.join(src, "test/runner.rb")]
runner_args << "--ruby=#{ruby_cmd}" if ruby_cmd
runner_args += ["--excludes-dir=#{File.join(src, "test/.excludes")}", "--name=!/memory_leak/",
                *names, "--tty=no"]

# signals the tests send their own process reach this VM too (and the
# process ignores none a VM traps): this VM traps them, as a test process
# that expects them would
%w[INT TERM HUP USR1 USR2 QUIT ALRM].each { |sig| trap(sig) {} }

SUMMARY = /^(\d+) tests, (\d+) assertions, (\d+) failures, (\d+) errors, (\d+) skips/
counts_of = {}  # a file's counts in its last run (nil: it printed none)
bad = []
lock = Mutex.new
t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
$stdout.sync = true

# Each file in a VM of its own, n VMs at a time.
run_batch = lambda do |batch, n, tmp|
  queue = Queue.new
  batch.each { |f| queue << f }
  queue.close
  Array.new(n) do |w|
    Thread.new do
      while (file = queue.pop)
        log = File.join(tmp, "#{w}.log")
        rel = file.delete_prefix("#{src}/")
        started = Process.clock_gettime(Process::CLOCK_MONOTONIC)
        # each VM's stdout and stderr of its own, so that reports do not mix
        status = File.open(log, "w") do |out|
          vm = RubyVM.new("test-all:#{rel}", *runner_args, file, out: out, err: out).start
          waiter = Thread.new { vm.join }
          if waiter.join(timeout)
            waiter.value
          else
            vm.kill
            out.puts "mvm-test-all: #{rel} did not end in #{timeout} s: killed"
            waiter.join(60) ? waiter.value : :timeout
          end
        end
        output = File.binread(log)
        counts = output.scan(SUMMARY).last&.map(&:to_i)
        elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - started
        lock.synchronize do
          counts_of[rel] = counts
          if status == 0 && counts && counts[2] == 0 && counts[3] == 0
            print "."
          else
            bad << rel
            puts "\n== #{rel}: exit #{status.inspect}, #{counts ? counts.join('/') : 'no summary'} (#{elapsed.round(1)} s)"
            lines = output.lines
            puts lines.size > 400 ? ["...\n", *lines.last(400)].join : output
          end
        end
      end
    end
  end.each(&:join)
end

retried = []
Dir.mktmpdir("mvm-test-all") do |tmp|
  run_batch.(files, jobs, tmp)
  run_batch.(serial, 1, tmp)
  # a file that failed runs once more, alone, as MRI's runner retries what
  # failed in parallel; its counts are the retry's
  retried, bad = bad, []
  run_batch.(retried.map { |rel| File.join(src, rel) }, 1, tmp)
end
totals = Hash.new(0)
counts_of.each_value do |counts|
  %i[tests assertions failures errors skips].zip(counts || []) { |k, v| totals[k] += v.to_i }
end

elapsed = Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0
puts
puts "mvm-test-all: #{files.size} files in child VMs #{jobs} at a time and #{serial.size} alone " \
     "(they change what is the process's), #{elapsed.round} s; " \
     "#{skipped.size} files and #{excluded_tests.size} tests excluded (#{File.basename(exclusions)})"
puts "retried alone: #{retried.join(' ')} (#{(retried - bad).size} passed then)" unless retried.empty?
puts "#{totals[:tests]} tests, #{totals[:assertions]} assertions, #{totals[:failures]} failures, " \
     "#{totals[:errors]} errors, #{totals[:skips]} skips"
unless bad.empty?
  puts "failed: #{bad.join(' ')}"
  exit 1
end
