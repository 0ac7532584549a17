# How often the OOM killer strikes when N aobench processes start at once in
# a memory cgroup (48 MiB) with swap: each batch runs SECS of wall time (the
# kills come as the processes boot, in the first seconds), then the
# survivors get SIGTERM; a batch's kills are the cgroup's oom_kill count.
# Rubies alternate, in reverse order every other round.  batch_ab.rb runs
# whole batches and times them; this one counts kills, four batches a minute.
# Before each batch the ruby's files are put in the page cache from outside
# the cgroup (KILLRATE_CACHE=warm, the default), dropped from it (evict) or
# left (keep): see cgroup_swap.rb, the cache decides more than the ruby.
# RUBY=MODE sets one ruby's mode apart (the same ruby twice: RUBY=warm RUBY=evict).
#
#   [KILLRATE_CACHE=warm|evict|keep] ruby benchmark/heap/killrate.rb N ROUNDS SECS RUBY[=MODE]...
#   (as root, cgroup v1)
abort "usage: #{$0} N ROUNDS SECS RUBY[=MODE]..." if ARGV.size < 4
abort "needs root" unless Process.uid == 0
n = Integer(ARGV.shift); rounds = Integer(ARGV.shift); secs = Float(ARGV.shift); rubies = ARGV
require_relative "cgroup_swap"
cache = ENV.fetch("KILLRATE_CACHE", "warm")
# each argument: its ruby, its mode, its files
path, mode, files = {}, {}, {}
rubies.each do |arg|
  path[arg], m = arg.split("=", 2)
  mode[arg] = m || cache
  abort "#{arg}: page cache mode #{mode[arg]}: expected one of #{PAGE_CACHE_MODES.join(', ')}" unless PAGE_CACHE_MODES.include?(mode[arg])
  files[arg] = ruby_files(path[arg])
end
aobench = File.join(__dir__, "aobench.rb")
kills = Hash.new { |h, k| h[k] = [] }
with_cgroup_swap("ruby-heap-killrate") do |cg|
  oom_kills = -> { File.read("#{cg}/memory.oom_control")[/oom_kill (\d+)/, 1].to_i }
  rounds.times do |r|
    (r.even? ? rubies : rubies.reverse).each do |rb|
      page_cache_set(files[rb], mode[rb])
      before = oom_kills.()
      pids = n.times.map do
        Process.spawn({"AO_SIZE" => "64"}, "sh", "-c", "echo $$ > #{cg}/cgroup.procs && exec \"$0\" \"$@\"",
                      path[rb], aobench, out: File::NULL, err: File::NULL)
      end
      t0 = Process.clock_gettime(Process::CLOCK_MONOTONIC)
      live = pids.dup
      while !live.empty? && Process.clock_gettime(Process::CLOCK_MONOTONIC) - t0 < secs
        live.reject! { Process.wait(_1, Process::WNOHANG) }
        sleep 0.1
      end
      live.each { Process.kill(:TERM, _1) rescue nil }
      live.each { Process.wait(_1) }
      kills[rb] << oom_kills.() - before
      puts "#{r} #{rb} killed=#{kills[rb].last}"
      $stdout.flush
      sleep 1
    end
  end
  kills.each { |rb, k| puts "#{rb}: #{k.sum} killed in #{k.size} batches (#{k.count(&:positive?)} with kills), page cache #{mode[rb]}" }
end
